"""Inputs read with limits, and messages in the command line's words (issue 35): a FIFO or a
device is refused without blocking, text that cannot be saved is refused naming where it is
(no temporary file left), an answer too long to split is refused on import, and errors name
the file, the flag and the fix."""
import json
import os
import shutil
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import capture

ROOT = Path(__file__).resolve().parent.parent


def _one_line(argv, *fragments):
    code, _, err = capture(argv)
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("ragscore: error: "), \
        (code, err)
    for fragment in fragments:
        assert fragment in err, err
    return err


def _specials(folder, device):
    fifo = Path(folder) / "fifo"
    os.mkfifo(fifo)
    zero = device("zero")
    return [fifo] + ([zero] if zero else [])


@pytest.fixture
def answers(tmp_path):
    folder = tmp_path / "answers"
    shutil.copytree(ROOT / "fixtures" / "answers", folder)
    return folder


def test_review_import_refuses_a_fifo_or_a_device_without_blocking(answers, tmp_path,
                                                                   device):
    for special in _specials(tmp_path, device):
        _one_line(["review", "import", str(answers), str(special)], "not a regular file")


def test_record_config_refuses_a_fifo_or_a_device_without_blocking(tmp_path, device):
    for special in _specials(tmp_path, device):
        _one_line(["record", str(ROOT / "fixtures" / "course"), "--config", str(special),
                   "--endpoint", "http://127.0.0.1:9/ask", "--system", "x"],
                  "not a regular file")


def _temporary_files(folder):
    return [path.name for path in Path(folder).rglob("*") if "tmp" in path.name]


def test_a_lone_surrogate_in_an_item_text_is_refused_naming_the_line(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"id": "q1", "question": "Who?", "system": "s", "retrieved": '
                   '[{"id": "a", "text": "T \\udc00"}], "answer": "A [a]."}\n')
    _one_line(["import", "log", str(log), "--out", str(tmp_path / "d")],
              "log.jsonl, line 1", "retrieved[0].text", "lone surrogate")
    assert not (tmp_path / "d").exists() and _temporary_files(tmp_path) == []


#: A valid decision for each kind of queue row.
DECISIONS = {"relevance": 1, "support": "supported", "answerability": "answerable"}


def test_a_lone_surrogate_in_a_review_note_stops_the_save_and_leaves_no_file(answers,
                                                                             tmp_path):
    queue = tmp_path / "queue.jsonl"
    assert capture(["review", "export", str(answers), "--out", str(queue)])[0] == 0
    rows = [json.loads(line) for line in queue.read_text().splitlines()]
    for row in rows:  # a decision of each row's kind (a grade for a pooled passage)
        row.update(decision=DECISIONS[row["kind"]], reviewer="ana", date="2026-01-01",
                   note="")
    rows[0]["note"] = "odd \ud800 note"
    queue.write_text("".join(json.dumps(row) + "\n" for row in rows))
    before = set(os.listdir(answers)) | {".ragscore.lock"}
    _one_line(["review", "import", str(answers), str(queue)], "lone surrogate")
    assert set(os.listdir(answers)) | {".ragscore.lock"} == before
    assert _temporary_files(answers) == []


def test_an_answer_too_long_to_split_is_refused_at_import_not_after(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"id": "q1", "question": "Who?", "system": "s",
                               "retrieved": ["a"], "answer": "x" * 100_001}) + "\n")
    _one_line(["import", "log", str(log), "--out", str(tmp_path / "d")],
              "100,001 characters", "at most 100,000")
    assert not (tmp_path / "d").exists()
    log.write_text(json.dumps({"id": "q1", "question": "Who?", "system": "s",
                               "retrieved": ["a"], "answer": "x" * 100_000}) + "\n")
    assert capture(["import", "log", str(log), "--out", str(tmp_path / "d")])[0] == 0
    assert capture(["report", str(tmp_path / "d")])[0] == 0  # and every command reads it


def test_a_log_with_only_empty_rankings_names_its_file(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps({"id": f"q{n}", "question": f"Q{n}?", "system": "s",
                                       "retrieved": []}) + "\n" for n in (1, 2)))
    err = _one_line(["import", "log", str(log), "--out", str(tmp_path / "d")],
                    str(log), "no document is named")
    assert "non-empty dict" not in err


def test_a_jsonl_opening_with_a_byte_order_mark_is_read(tmp_path):
    source = (ROOT / "fixtures" / "import" / "log" / "answers.jsonl").read_text()
    log = tmp_path / "bom.jsonl"
    log.write_text(source, encoding="utf-8-sig")
    code, out, err = capture(["import", "log", str(log), "--out", str(tmp_path / "d")])
    assert code == 0, err
    assert ragscore.load_dataset(tmp_path / "d").cases.keys() == {"q1", "q2", "q3"}


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_exit_130(monkeypatch, capsys):
    import importlib

    import ragscore.__main__ as entry
    import ragscore.cli as package

    cli = importlib.import_module("ragscore.cli.main")  # the module (the package's main is
    # its function)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)  # inside main, before parsing
    assert cli.main(["report", "x"]) == 130
    monkeypatch.setattr(package, "main", interrupted)  # before main: while modules load
    assert entry.run() == 130
    err = capsys.readouterr().err
    assert err == "ragscore: interrupted\nragscore: interrupted\n"


def test_version_is_printed_and_a_missing_command_still_named():
    code, out, _ = capture(["--version"])
    assert code == 0 and out.startswith("ragscore ") and out.count(".") >= 2
    code, _, err = capture([])
    assert code == 2 and "the following arguments are required: COMMAND" in err
