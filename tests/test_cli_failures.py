"""The command line under each failure class of issue 13: bad input exits 2 with one line
naming the problem, a closed pipe ends quietly, an internal error says so in one line; never
a traceback, never a hang."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import main
from ragscore.io.course import COURSE_PATH

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60


def _run(*args, **options):
    return subprocess.run([sys.executable, "-m", "ragscore", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT, **options)


def _one_error_line(result, *fragments):
    """Exit 2, and standard error is exactly one line naming the problem."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("ragscore: error: "), lines[0]
    assert "Traceback" not in result.stderr
    assert lines[0].isprintable()
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def folder(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(COURSE_PATH, target)
    return target


@pytest.mark.parametrize("command", ["report", "demo", "sweep"])
def test_a_fifo_for_a_dataset_file_is_refused_not_waited_on(folder, command):
    (folder / "runs.jsonl").unlink()
    os.mkfifo(folder / "runs.jsonl")
    extra = ("--max-k", "2") if command == "sweep" else ()
    _one_error_line(_run(command, folder, *extra), "runs.jsonl: is not a regular file")


def test_a_fifo_for_the_index_is_refused(folder):
    (folder / "dataset.json").unlink()
    os.mkfifo(folder / "dataset.json")
    _one_error_line(_run("report", folder), "dataset.json: is not a regular file")


def test_a_symlink_to_dev_zero_is_refused(folder):
    (folder / "corpus.jsonl").unlink()
    (folder / "corpus.jsonl").symlink_to("/dev/zero")
    _one_error_line(_run("report", folder), "corpus.jsonl: is not a regular file")


def test_a_directory_where_a_file_belongs(folder):
    (folder / "cases.jsonl").unlink()
    (folder / "cases.jsonl").mkdir()
    _one_error_line(_run("report", folder), "cases.jsonl: is not a regular file")


def test_a_file_where_the_dataset_folder_belongs(tmp_path):
    (tmp_path / "file").write_text("{}\n")
    _one_error_line(_run("report", tmp_path / "file"), "file: no dataset folder there")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a mode-000 file")
def test_an_unreadable_file(folder):
    (folder / "runs.jsonl").chmod(0)
    _one_error_line(_run("report", folder), "runs.jsonl: cannot be read (Permission denied)")


@pytest.mark.parametrize("command", ["sweep", "report", "compare", "demo"])
def test_an_empty_runs_file(folder, command):
    (folder / "runs.jsonl").write_text("\n")
    extra = {"sweep": ("--max-k", "2"), "report": (), "demo": (),
             "compare": ("--baseline", "A", "--candidate", "B")}[command]
    _one_error_line(_run(command, folder, *extra),
                    f"{folder}: its runs file holds no runs; nothing to score")


def _big(tmp_path):
    """The course with 300 systems: a report far larger than a pipe's buffer."""
    course = ragscore.load_course()
    runs = {case: {f"{system}{n}": run for n in range(150) for system, run in per_case.items()}
            for case, per_case in course.runs.items()}
    return ragscore.save_dataset(course._replace(runs=runs), tmp_path / "big")


def test_report_into_head_ends_quietly(tmp_path):
    big = _big(tmp_path)
    result = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m ragscore report "{big}" | head -1; '
                       'echo "${PIPESTATUS[0]}" >&2'],
        capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT)
    assert result.stdout.split()[:3] == ["case", "system", "P@2"]
    assert result.stdout.count("\n") == 1
    assert result.stderr.strip() in ("0", "141"), result.stderr[-2000:]


@pytest.mark.parametrize("args", [("demo",), ("report", "BIG"), ("sweep", "BIG", "--max-k", "100"),
                                  ("report", "BIG", "--format", "json")])
def test_a_closed_pipe_ends_quietly_with_141(tmp_path, args):
    big = str(_big(tmp_path))
    process = subprocess.Popen(
        [sys.executable, "-m", "ragscore", *(big if arg == "BIG" else arg for arg in args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.close()  # the reader goes away before the first byte
    _, err = process.communicate(timeout=TIMEOUT)
    assert err == b""
    assert process.returncode == 141


def test_demo_into_true_is_quiet():
    result = subprocess.run(["bash", "-c", f'"{sys.executable}" -m ragscore demo | true'],
                            capture_output=True, cwd=ROOT, timeout=TIMEOUT)
    assert result.stderr == b""


def _write_line(folder, kind, number, record):
    path = folder / f"{kind}.jsonl"
    lines = path.read_text().splitlines()
    lines[number - 1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def test_escape_sequences_in_a_key_are_escaped(folder):
    _write_line(folder, "corpus", 2, {"id": "\x1b[2J\x1b[1;1Hragscore: ok", "text": "x"})
    line = _one_error_line(_run("report", folder), "corpus.jsonl, line 2")
    assert "\\x1b[2J" in line and "\x1b" not in line


def test_escape_sequences_in_a_json_key_name_are_escaped(folder):
    _write_line(folder, "runs", 3, {"case": "launch", "system": "A", "retrieved": [],
                                    "claims": [], "\x1b]0;pwned\x07": 1})
    line = _one_error_line(_run("report", folder), "runs.jsonl, line 3: unknown key")
    assert "\\x1b]0;pwned\\x07" in line


def test_a_2_mb_key_gives_a_bounded_message_with_its_length(folder):
    _write_line(folder, "cases", 1, {"id": "q" * 2_000_000, "relevant": [], "support": {}})
    line = _one_error_line(_run("report", folder), "cases.jsonl, line 1",
                           "2,000,000 characters")
    assert len(line) < 1000


def test_corpus_errors_name_the_line(folder):
    _write_line(folder, "corpus", 4, {"id": "owners", "text": "   "})
    _one_error_line(_run("report", folder), "corpus.jsonl, line 4", "non-blank text")


def test_an_internal_error_is_one_line_asking_for_a_report(monkeypatch, capsys):
    import ragscore.engine

    def broken(*args, **kwargs):
        raise KeyError("\x1b[2J")

    monkeypatch.setattr(ragscore.engine, "count_folder", broken)
    assert main(["report", str(COURSE_PATH)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ragscore: internal error (KeyError): ")
    assert "please report it" in err and "--debug" in err and "\x1b" not in err
    with pytest.raises(KeyError):
        main(["--debug", "report", str(COURSE_PATH)])


@pytest.mark.parametrize("args, fragment", [
    ((), "ragscore: error: the following arguments are required: COMMAND"),
    (("report",), "ragscore report: error: the following arguments are required: dataset"),
    (("demo", "--k", "two"), "argument --k: k must be a whole number from 1 to 100; got 'two'"),
    (("report", COURSE_PATH, "--format", "\x1b[2J"), "invalid choice: '\\x1b[2J'"),
    (("\x1b]0;owned\x07",), "invalid choice: '\\x1b]0;owned\\x07'"),
])
def test_usage_errors_are_one_line(args, fragment):
    result = _run(*args)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and fragment in lines[0] and lines[0].isprintable(), result.stderr
    assert lines[0].endswith("--help')")


@pytest.mark.parametrize("args", [("demo", "--k", "9" * 100_000),
                                  ("report", COURSE_PATH, "--metrics", "x" * 100_000),
                                  ("report", COURSE_PATH, "--unit", "\x1b" * 100_000),
                                  ("report", COURSE_PATH, "--k", "9" * 100_000)])
def test_a_huge_argument_gives_a_bounded_message(args):
    result = _run(*args)
    assert result.returncode == 2
    assert len(result.stderr) < 1000 and result.stderr.count("\n") == 1, result.stderr[:300]
    assert "\x1b" not in result.stderr


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    import ragscore.engine

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ragscore.engine, "count_folder", interrupted)
    assert main(["report", str(COURSE_PATH)]) == 130
    assert capsys.readouterr().err == "ragscore: interrupted\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "ragscore", "demo"], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=TIMEOUT)
    assert result.returncode == 2
    assert result.stderr == "ragscore: error: No space left on device\n"


def test_notes_from_a_dataset_file_are_escaped_and_cut(tmp_path):
    notes = ("fine", "evil \x1b[2J\x1b[1;1Hforged", "x" * 5000)
    folder = ragscore.save_dataset(ragscore.load_course()._replace(notes=notes),
                                   tmp_path / "noted")
    text = _run("report", folder)
    assert text.returncode == 0
    assert "Note: evil \\x1b[2J\\x1b[1;1Hforged\n" in text.stdout and "\x1b" not in text.stdout
    assert "... (cut; the note has 5,000 characters)" in text.stdout
    csv = _run("report", folder, "--format", "csv")
    assert "ragscore: note: evil \\x1b[2J" in csv.stderr and "\x1b" not in csv.stderr


def test_ids_that_reorder_text_are_escaped_in_text_reports(tmp_path):
    """Open IDs exclude control characters but not format characters such as U+202E
    (right-to-left override), which would reorder the rest of the line on a terminal."""
    course = ragscore.load_course()
    runs = {case: {"\u202eB": per_case["B"]} for case, per_case in course.runs.items()}
    folder = ragscore.save_dataset(course._replace(ids="open", runs=runs), tmp_path / "rtl")
    for command in (("report", folder), ("sweep", folder, "--max-k", "1")):
        result = _run(*command)
        assert result.returncode == 0, result.stderr
        assert "\u202e" not in result.stdout and "\\u202eB" in result.stdout


@pytest.mark.parametrize("char", [chr(code) for code in (*range(0, 10), *range(11, 32), 127)])
def test_every_ascii_control_character_but_the_line_break_is_escaped(char):
    from ragscore.cli import terminal_safe

    text = f"ok\ncase{char}x\n"
    assert terminal_safe(text) == "ok\ncase" + repr(char)[1:-1] + "x\n"
    assert terminal_safe("plain ASCII ~ text\n" * 3) == "plain ASCII ~ text\n" * 3
    assert terminal_safe(f"caf\u00e9{char}") == "caf\u00e9" + repr(char)[1:-1]
