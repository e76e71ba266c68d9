"""Nothing a person did is lost (issue 40): a review queue is written over an existing file
only with --overwrite, and over one holding decisions (a reviewer's work not imported yet)
only with --overwrite-decisions; no other command writes over a filled-in queue."""
import json
import shutil
from pathlib import Path

import pytest

from ragscore.cli import capture

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def answers(tmp_path):
    folder = tmp_path / "answers"
    shutil.copytree(FIXTURES / "answers", folder)
    return folder


def _filled(path, decided):
    """The queue at ``path`` with its first ``decided`` rows decided (a relevance grade, a
    claim supported)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows[:decided]:
        row.update(decision=1 if row["kind"] == "relevance" else "supported", reviewer="ana",
                   date="2026-01-02")
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path.read_bytes()


def _export(answers, out, *flags):
    return capture(["review", "export", str(answers), "--out", str(out), *flags])


def test_review_export_replaces_a_queue_only_with_overwrite(answers, tmp_path):
    queue = tmp_path / "queue.jsonl"
    assert _export(answers, queue)[0] == 0
    first = queue.read_bytes()
    queue.write_text("an earlier file\n")
    code, _, err = _export(answers, queue)
    assert code == 2 and err == (f"ragscore: error: --out {queue} already exists; pass "
                                 "--overwrite to replace it\n")
    assert queue.read_text() == "an earlier file\n"
    assert _export(answers, queue, "--overwrite")[0] == 0 and queue.read_bytes() == first


@pytest.mark.parametrize("decided", [1, 3])
def test_a_filled_in_queue_is_replaced_only_with_overwrite_decisions(answers, tmp_path,
                                                                     decided):
    queue = tmp_path / "queue.jsonl"
    _export(answers, queue)
    filled = _filled(queue, decided)
    noun = "decision" if decided == 1 else "decisions"
    for flags in ((), ("--overwrite",)):
        code, _, err = _export(answers, queue, *flags)
        assert code == 2 and f"--out {queue} holds {decided} {noun} (a filled-in review " \
                             "queue): import them first" in err and \
            "--overwrite-decisions" in err, err
        assert queue.read_bytes() == filled
    code, out, _ = _export(answers, queue, "--overwrite-decisions")
    assert code == 0 and out.startswith(f"wrote {queue}") and queue.read_bytes() != filled


def test_a_filled_in_csv_queue_counts_its_decisions(answers, tmp_path):
    from ragscore.io.outputs import decisions_in

    queue = tmp_path / "queue.csv"
    _export(answers, queue)
    text = queue.read_text()
    assert decisions_in(text) == 0
    header, first, *rest = text.splitlines()
    cells = first.split(",")
    cells[header.split(",").index("decision")] = "1"  # the first row: a pooled passage
    queue.write_text("\n".join([header, ",".join(cells), *rest]) + "\n")
    assert decisions_in(queue.read_text()) == 1
    code, _, err = _export(answers, queue, "--overwrite")
    assert code == 2 and "holds 1 decision" in err


def test_import_review_out_keeps_a_filled_in_queue(tmp_path):
    log = FIXTURES / "import" / "log" / "answers.jsonl"
    queue = tmp_path / "queue.jsonl"
    argv = ["import", "log", str(log), "--out", str(tmp_path / "a"), "--review-out", str(queue)]
    assert capture(argv)[0] == 0
    filled = _filled(queue, 1)
    argv[4] = str(tmp_path / "b")
    code, _, err = capture(argv)
    assert code == 2 and "--review-out" in err and "holds 1 decision" in err
    code, _, err = capture(argv + ["--overwrite"])
    assert code == 2 and "holds 1 decision" in err and queue.read_bytes() == filled
    assert not (tmp_path / "b").exists()  # refused before any work
    assert capture(argv + ["--overwrite-decisions"])[0] == 0 and queue.read_bytes() != filled


def test_no_other_command_writes_over_a_filled_in_queue(answers, tmp_path):
    queue = tmp_path / "queue.jsonl"
    _export(answers, queue)
    filled = _filled(queue, 2)
    for argv in (["html", str(answers), "--baseline", "draft", "--candidate", "careful",
                  "--out", str(queue)],
                 ["baseline", "save", str(answers), "--system", "draft", "--out", str(queue)],
                 ["export", "alce", str(answers), "--system", "draft", "--out", str(queue)]):
        code, _, err = capture(argv)
        assert code == 2 and "holds 2 decisions (a filled-in review queue)" in err, (argv, err)
        assert "--overwrite-decisions" not in err  # only a command writing a queue offers it
        assert queue.read_bytes() == filled
