"""Every kind of test set ragscore reads, each built once into a folder: the registry the
command matrix (tests/test_matrix.py) walks. A new kind is one builder and one row of
:data:`KINDS`; the matrix takes it without any other edit.

A builder takes a fresh folder to work in and returns the dataset folder it made (or, for a
run log, the folder of Parquet files a command is handed as it would be by mistake).
"""
import copy
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SPANS = FIXTURES / "spans"


def _copy(name):
    def build(tmp):
        return Path(shutil.copytree(FIXTURES / name, tmp / name))
    return build


def _import(kind, *argv):
    def build(tmp):
        from ragscore.cli import capture

        out = tmp / kind
        code, _, err = capture(["import", kind, *map(str, argv), "--out", str(out)])
        assert code == 0, err
        return out
    return build


def _spans(chunks, runs):
    return _import("spans", "--documents", SPANS / "documents.jsonl", "--questions",
                   SPANS / "questions.jsonl", "--chunks", SPANS / chunks, "--runs",
                   SPANS / runs, "--reviewer", "ana", "--date", "2026-12-04")


def _rechunked(tmp):
    from ragscore.cli import capture

    notes = _spans("chunks-notes.jsonl", "runs-notes.jsonl")(tmp)
    out = tmp / "rechunked"
    code, _, err = capture(["rechunk", str(notes), "--chunks", str(SPANS / "chunks-sentences.jsonl"),
                            "--out", str(out), "--report", str(tmp / "rechunk.json")])
    assert code == 0, err
    return out


def _log_with_reviews(tmp):
    """An answers log imported with its review queue, half of the queue decided."""
    import csv

    from ragscore.cli import capture

    out, queue = tmp / "log", tmp / "queue.csv"
    code, _, err = capture(["import", "log", str(FIXTURES / "import" / "log" / "answers.jsonl"),
                            "--out", str(out), "--review-out", str(queue)])
    assert code == 0, err
    rows = list(csv.DictReader(queue.open(encoding="utf-8")))
    for number, row in enumerate(rows):  # a decision on every other item, by its scale
        if number % 2 == 0:
            row["decision"] = {"relevance": "1", "answerability": "answerable"}.get(
                row["kind"], "supported")
    with queue.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, _, err = capture(["review", "import", str(out), str(queue), "--reviewer", "ana",
                            "--date", "2026-12-05"])
    assert code == 0, err
    return out


def _recorded(tmp):
    """The course with a system recorded from a pipeline (``ragscore.record``)."""
    from ragscore import load_course
    from ragscore.recording import record

    pipelines = {"launch": ["launch", "archive"], "rollback": ["rollback", "checklist"],
                 "owner": ["owners"], "region": []}
    questions = {case["question"]: name for name, case in load_course().cases.items()}
    out = tmp / "recorded"
    record(load_course(), lambda question: {"retrieved": pipelines[questions[question]],
                                            "answer": "It starts on Monday [1]."},
           system="live", out=out, concurrency=1, code_revision="matrix")
    return out


def _version(number):
    def build(tmp):
        from ragscore import load_dataset
        from ragscore.io.write import save_dataset

        # version 2 holds no manifests: the course; 3 and 4: the course with its manifests
        dataset = load_dataset(FIXTURES / ("course" if number < 3 else "course-runs"))
        return save_dataset(dataset, tmp / f"v{number}", version=number)
    return build


def _run_log(tmp):
    """A run log written as Parquet partitions (what score_dask reads), not a folder."""
    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    import pandas as pd

    from ragscore import load_dataset
    from run_logs import records_of

    out = tmp / "run-log"
    out.mkdir()
    records = records_of(load_dataset(FIXTURES / "course"))
    for part in range(2):
        frame = pd.DataFrame([copy.deepcopy(row) for number, row in enumerate(records)
                              if number % 2 == part])
        frame.to_parquet(out / f"part.{part}.parquet")
    return out


#: The kinds that are not a dataset folder (a command is handed them by mistake).
NOT_FOLDERS = {"run-log"}

#: Every kind of test set, by name: how to build it.
KINDS = {
    "course": _copy("course"),
    "practice": _copy("practice"),
    "answers": _copy("answers"),
    "course-runs": _copy("course-runs"),
    "trec": _import("trec", "--qrels", FIXTURES / "import" / "trec" / "qrels.txt", "--run",
                    FIXTURES / "import" / "trec" / "bm25.run", "--run",
                    FIXTURES / "import" / "trec" / "dense.run"),
    "beir": _import("beir", "--folder", FIXTURES / "import" / "beir", "--run",
                    FIXTURES / "import" / "beir" / "bm25.run"),
    "log-reviewed": _log_with_reviews,
    "spans-notes": _spans("chunks-notes.jsonl", "runs-notes.jsonl"),
    "spans-sentences": _spans("chunks-sentences.jsonl", "runs-sentences.jsonl"),
    "spans-rechunked": _rechunked,
    "nuggets": _import("nuggets", "--nuggets", FIXTURES / "import" / "nuggets" / "nuggets.jsonl",
                       "--assignments", FIXTURES / "import" / "nuggets" / "assignments.jsonl",
                       "--answers", FIXTURES / "import" / "nuggets" / "answers.jsonl",
                       "--qrels", FIXTURES / "import" / "nuggets" / "qrels.txt",
                       "--reviewer", "ana", "--date", "2026-12-04"),
    "recorded": _recorded,
    "version-2": _version(2),
    "version-3": _version(3),
    "version-4": _version(4),
    "run-log": _run_log,
}
