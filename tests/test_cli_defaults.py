"""Honest defaults of the command line: --unit document needs sources, --name is the --out
folder's, a passing gate rule is one line, the progress line only on a terminal."""
import io
from pathlib import Path

from ragscore.cli import capture
from ragscore.render.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "fixtures" / "import" / "trec"
COURSE = str(ROOT / "ragscore" / "data" / "course")


def _import(folder, *extra):
    return capture(["import", "trec", "--qrels", str(TREC / "qrels.txt"), "--run",
                    str(TREC / "bm25.run"), "--out", str(folder), *extra])


def test_unit_document_without_sources_is_an_error_naming_the_fix(tmp_path):
    assert _import(tmp_path / "bm25")[0] == 0
    code, out, err = capture(["report", str(tmp_path / "bm25"), "--unit", "document"])
    assert (code, out) == (2, "")
    assert "no entry names one; add \"source\": DOCUMENT_ID to the chunks of corpus.jsonl" in err
    assert "--unit chunk, the default" in err


def test_name_defaults_to_the_out_folder_and_takes_the_option(tmp_path):
    import ragscore

    assert _import(tmp_path / "saltmarsh-bm25")[0] == 0
    assert ragscore.load_dataset(tmp_path / "saltmarsh-bm25").name == "saltmarsh-bm25"
    assert _import(tmp_path / "other", "--name", "mine")[0] == 0
    assert ragscore.load_dataset(tmp_path / "other").name == "mine"
    assert _import(tmp_path / "has space")[0] == 0  # not a valid name: the input's
    assert ragscore.load_dataset(tmp_path / "has space").name == "qrels"


def test_a_passing_rule_is_one_line_and_a_failing_one_lists_its_questions():
    code, out, _ = capture(["gate", COURSE, "--policy", str(ROOT / "fixtures" / "policies" /
                                                           "course.toml"),
                            "--candidate", "B", "--baseline", "A"])
    lines = out.splitlines()
    assert code == 1
    # B has 1 unsupported claim (question launch): within "at most 1", so PASS, one line
    passing = next(i for i, line in enumerate(lines) if "PASS  at most one unsupported" in line)
    assert lines[passing + 1].startswith("verdict: FAIL")
    failing = next(i for i, line in enumerate(lines) if "FAIL  no support regression" in line)
    assert lines[failing + 1].strip() == "launch: 0.5000 (baseline 1.0000)"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_on_a_terminal_after_the_delay_and_wipes_itself():
    import time

    stream = _Terminal()
    with Progress("scoring", stream=stream, delay=0.0) as progress:
        progress(3, 4)
        time.sleep(0.3)
    text = stream.getvalue()
    assert "\rragscore: scoring [##################------]  75% 3/4" in text
    assert text.endswith("\r")  # wiped: the next output starts on a clean line


def test_progress_is_silent_off_a_terminal_and_before_the_delay():
    stream, terminal = io.StringIO(), _Terminal()
    with Progress("scoring", stream=stream, delay=0.0) as progress:
        progress(1, 2)
    with Progress("scoring", stream=terminal, delay=60.0) as progress:
        progress(1, 2)
    assert stream.getvalue() == "" and terminal.getvalue() == ""
