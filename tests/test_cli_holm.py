"""Many comparisons said honestly (issue 44, item 5): ``compare --stats``, ``compare
--measures`` and ``sweep --baseline --candidate`` give each p-value beside its Holm
adjustment for the tests made together, and say how many were tested."""
import json
from pathlib import Path

import pytest

from ragscore.cli import capture

PRACTICE = str(Path(__file__).resolve().parents[1] / "fixtures" / "practice")
PAIR = ["--baseline", "baseline", "--candidate", "rerank"]


def test_compare_stats_adjusts_for_the_metrics_tested():
    code, out, err = capture(["compare", PRACTICE, *PAIR, "--stats", "--format", "json"])
    assert code == 0, err
    rows = {row["metric"]: row for row in json.loads(out)}
    # 9 metrics, abstention untested (7 pairs): m = 8. Sorted by p: recall and rr (1/10001),
    # precision (2/10001), coverage, support, then three at 1: Holm multiplies the j-th
    # smallest by m - j + 1 and keeps the running largest
    assert {row["tested"] for row in rows.values()} == {8}
    assert rows["abstention_correct"]["p_holm"] is None
    p = {name: row["p_value"] for name, row in rows.items()}
    assert rows["recall"]["p_holm"] == pytest.approx(8 * p["recall"], abs=1e-15)
    assert rows["rr"]["p_holm"] == pytest.approx(8 * p["rr"], abs=1e-15)  # max(7p, 8p)
    assert rows["precision"]["p_holm"] == pytest.approx(6 * p["precision"], abs=1e-15)
    assert rows["coverage"]["p_holm"] == pytest.approx(5 * p["coverage"], abs=1e-15)
    assert rows["support"]["p_holm"] == pytest.approx(4 * p["support"], abs=1e-15)
    code, text, _ = capture(["compare", PRACTICE, *PAIR, "--stats"])
    assert "p (Holm): the p-value adjusted for the 8 metrics tested here" in text
    assert "p  p (Holm)" in text


def test_compare_measures_adjusts_for_the_measures():
    code, out, err = capture(["compare", PRACTICE, *PAIR, "--measures", "P@1 P@2 R@2",
                              "--format", "json"])
    assert code == 0, err
    summary = json.loads(out)["summary"]
    assert [row["tested"] for row in summary] == [3, 3, 3]
    smallest = min(summary, key=lambda row: row["p_value"])
    assert smallest["p_holm"] == pytest.approx(3 * smallest["p_value"], abs=1e-15)
    code, out, _ = capture(["compare", PRACTICE, *PAIR, "--measures", "P@1 P@2 R@2",
                            "--format", "csv"])
    header, *lines = out.splitlines()
    assert "p_value,p_holm,tested" in header
    assert sum(line.startswith("all,") for line in lines) == 3


def test_sweep_tests_every_metric_at_every_cutoff():
    code, out, err = capture(["sweep", PRACTICE, "--max-k", "3", *PAIR, "--metrics",
                              "precision,recall,abstention_correct", "--format", "json"])
    assert code == 0, err
    found = json.loads(out)
    stats = found["stats"]
    assert len(found["means"]) == 9  # 3 systems x 3 cutoffs, as without --baseline
    assert [(row["metric"], row["k"]) for row in stats[:3]] == [
        ("precision", 1), ("recall", 1), ("abstention_correct", 1)]
    # abstention (7 pairs) is not tested: 2 metrics x 3 cutoffs
    assert {row["tested"] for row in stats} == {6}
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    tested = [row for row in stats if row["p_value"] is not None]
    _, expected, _, _ = multitest.multipletests([row["p_value"] for row in tested],
                                                method="holm")
    assert [row["p_holm"] for row in tested] == pytest.approx(list(expected), abs=1e-15)
    assert stats[5]["same_as_k"] == 1  # abstention at k=2 reads what it read at k=1


def test_sweep_text_says_how_many_were_tested_and_bad_pairs_exit_2():
    code, out, _ = capture(["sweep", PRACTICE, "--max-k", "2", *PAIR, "--metrics",
                            "precision,recall"])
    assert code == 0 and "p (Holm) adjusted for the 4 tests of this sweep" in out
    code, out, err = capture(["sweep", PRACTICE, "--max-k", "2", "--baseline", "baseline"])
    assert code == 2 and out == "" and "--baseline and --candidate go together" in err
    code, out, err = capture(["sweep", PRACTICE, "--max-k", "2", *PAIR, "--format", "csv"])
    assert code == 2 and out == "" and "its paired statistics" in err
