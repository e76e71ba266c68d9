"""``ragscore eval QRELS RUN...``: TREC files scored as they are, with the numbers and the
conventions of ``import trec`` + ``report --measures`` (held equal here, in every format), the
means alone unless -q, trec_eval's -c, -l and -M as flags, and no folder written."""
import csv
import io
import json
import os
from pathlib import Path

import pytest

from ragscore.cli import capture

TREC = Path(__file__).resolve().parent.parent / "fixtures" / "import" / "trec"
QRELS, RUNS = str(TREC / "qrels.txt"), [str(TREC / "bm25.run"), str(TREC / "dense.run")]
MEASURES = "P@1 P@5 P@10 R@100 nDCG nDCG@10 AP AP@2 RR Success@1"


def _imported(folder, *options):
    code, _, err = capture(["import", "trec", "--qrels", QRELS, "--run", RUNS[0], "--run",
                            RUNS[1], "--out", str(folder), *options])
    assert code == 0, err
    return str(folder)


@pytest.fixture(scope="module")
def skipped(tmp_path_factory):
    """The fixture imported as trec_eval reads it without -c (a missing question left out)."""
    return _imported(tmp_path_factory.mktemp("eval") / "skip", "--missing-run", "skip")


@pytest.mark.parametrize("form", [["--format", "text"], ["--format", "csv"],
                                  ["--format", "json"], ["--trec-eval", "--system", "bm25"],
                                  ["--trec-eval", "--system", "dense", "--format", "json"],
                                  ["--format", "csv", "--na-as-zero"]])
def test_eval_prints_what_import_and_report_print(skipped, form):
    code, ours, err = capture(["eval", QRELS, *RUNS, "--measures", MEASURES, "-q", *form])
    assert code == 0, err
    code, theirs, _ = capture(["report", skipped, "--measures", MEASURES, *form])
    assert code == 0
    assert ours == theirs


def test_complete_min_relevance_and_depth_are_the_importers(tmp_path):
    folder = _imported(tmp_path / "c", "--missing-run", "zero", "--min-relevance", "2",
                       "--max-depth", "2")
    code, ours, _ = capture(["eval", QRELS, *RUNS, "--measures", MEASURES, "-q", "-c",
                             "-l", "2", "-M", "2", "--format", "csv"])
    assert code == 0
    assert ours == capture(["report", folder, "--measures", MEASURES, "--format", "csv"])[1]
    # dense lacks q3: with -c it counts (an empty ranking), so dense has three questions
    rows = list(csv.DictReader(io.StringIO(ours)))
    assert {row["case"] for row in rows if row["system"] == "dense"} == {"q1", "q2", "q3", "all"}


def test_without_q_only_the_means_are_printed(skipped):
    code, out, _ = capture(["eval", QRELS, *RUNS, "--measures", "AP RR", "--format", "csv"])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {row["case"] for row in rows} == {"all"} and len(rows) == 4
    # dense, by hand (test_cli_measures): AP 0.25 on q1 and 0.5 on q2, the mean 0.375
    assert [row["value"] for row in rows if row["system"] == "dense"
            and row["measure"] == "AP"] == ["0.375"]
    code, out, _ = capture(["eval", QRELS, RUNS[1], "--measures", "AP", "--trec-eval"])
    assert out == "map                   \tall\t0.3750\n"
    code, out, _ = capture(["eval", QRELS, *RUNS, "--measures", "AP", "--format", "json"])
    assert json.loads(out)["rows"] == []


def test_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, _ = capture(["eval", QRELS, *RUNS, "--measures", "AP", "-q"])
    assert code == 0 and os.listdir(tmp_path) == []


def test_a_broken_line_is_named_with_its_file_line_and_field(tmp_path):
    run = tmp_path / "broken.run"
    run.write_text("q1 Q0 harbour 1 7.5 bm25\nq1 Q0 ferry 2 high bm25\n")
    code, out, err = capture(["eval", QRELS, str(run), "--measures", "AP"])
    assert code == 2 and out == ""
    assert f"{run}, line 2: score must be a number" in err
    code, _, err = capture(["eval", QRELS, str(tmp_path / "missing.run"), "--measures", "AP"])
    assert code == 2 and "missing.run" in err
    code, _, err = capture(["eval", QRELS, *RUNS, "--measures", "MAP"])
    assert code == 2 and "unknown measure 'MAP'" in err
