"""``ragscore report --measures`` and ``--trec-eval``: trec_eval's numbers, layout and names
from one command, checked against pytrec_eval (trec_eval 9.0.8 inside) on the shipped TREC
fixture; the summaries of CSV and JSON; the text's decimals."""
import csv
import io
import json
from pathlib import Path

import pytest

from ragscore.cli import capture

pytrec_eval = pytest.importorskip("pytrec_eval")

TREC = Path(__file__).resolve().parents[1] / "fixtures" / "import" / "trec"
MEASURES = "P@1 P@5 P@10 R@100 nDCG nDCG@10 nDCG@2 AP AP@2 RR Success@1"
PEER = ("P_1", "P_5", "P_10", "recall_100", "ndcg", "ndcg_cut_10", "ndcg_cut_2", "map",
        "map_cut_2", "recip_rank", "success_1")


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trec") / "both"
    code, _, err = capture(["import", "trec", "--qrels", str(TREC / "qrels.txt"), "--run",
                            str(TREC / "bm25.run"), "--run", str(TREC / "dense.run"),
                            "--missing-run", "skip", "--out", str(folder)])
    assert code == 0, err
    return folder


def _peer(system):
    """pytrec_eval's per-question values for one system of the fixture (it scores the
    questions in both the run and the qrels, as trec_eval does)."""
    qrels, run = {}, {}
    for line in (TREC / "qrels.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            qid, _, doc, rel = line.split()
            qrels.setdefault(qid, {})[doc] = int(rel)
    for name in ("bm25.run", "dense.run"):
        for line in (TREC / name).read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                qid, _, doc, _, score, tag = line.split()
                if tag == system:
                    run.setdefault(qid, {})[doc] = float(score)
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {"P_1,5,10", "recall_100", "ndcg", "ndcg_cut_2,10", "map", "map_cut_2",
                "recip_rank", "success_1"})
    return evaluator.evaluate(run)


@pytest.mark.parametrize("system", ["bm25", "dense"])
def test_trec_eval_layout_equals_pytrec_eval_to_the_last_digit(imported, system):
    code, out, err = capture(["report", str(imported), "--trec-eval", "--system", system,
                              "--measures", MEASURES])
    assert code == 0, err
    peer = _peer(system)
    # trec_eval -q prints "%-22s\t%s\t%.4f": per question (qids sorted), then "all", the
    # mean over those questions; measures in trec_eval's table order (measures.c: map,
    # recip_rank, P, recall, ndcg, ndcg_cut, map_cut, success; map_cut is a measure of its
    # own, printed after ndcg_cut, as trec_eval 9.0.8's binary does)
    order = ("map", "recip_rank", "P_1", "P_5", "P_10", "recall_100", "ndcg", "ndcg_cut_2",
             "ndcg_cut_10", "map_cut_2", "success_1")
    expected = [f"{name:<22}\t{qid}\t{peer[qid][name]:.4f}" for qid in sorted(peer)
                for name in order]
    expected += [f"{name:<22}\tall\t{sum(v[name] for v in peer.values()) / len(peer):.4f}"
                 for name in order]
    assert out.splitlines() == expected
    assert set(PEER) == set(order)


def test_trec_eval_json_carries_the_same_numbers_exactly(imported):
    code, out, _ = capture(["report", str(imported), "--trec-eval", "--system", "dense",
                            "--measures", MEASURES, "--format", "json"])
    assert code == 0
    ours, peer = json.loads(out), _peer("dense")
    assert sorted(ours) == sorted([*peer, "all"])
    for qid, values in peer.items():
        assert ours[qid] == pytest.approx(values, abs=1e-12)
    # dense, by hand: q1 ranks tide, lighthouse (0.75 ties ferry; docno descending), ferry;
    # relevant lighthouse (2), harbour (1): AP = (1/2) / 2 = 0.25; q2 glacier, spam-page:
    # AP = 1 / 2 = 0.5; the mean 0.375.
    assert ours["q1"]["map"] == 0.25 and ours["q2"]["map"] == 0.5
    assert ours["all"]["map"] == 0.375


def test_trec_eval_needs_one_system_and_trec_names(imported):
    code, _, err = capture(["report", str(imported), "--trec-eval"])
    assert code == 2 and "pass --system NAME" in err and "bm25, dense" in err
    code, _, err = capture(["report", str(imported), "--trec-eval", "--system", "bm25",
                            "--measures", "RR@3"])
    assert code == 2 and "RR@3 has no trec_eval name" in err
    code, _, err = capture(["report", str(imported), "--system", "nope", "--measures", "AP"])
    assert code == 2 and "--system must be one of the dataset's systems (bm25, dense)" in err


def test_unknown_measure_names_the_closest_ones(imported):
    # three closest names and, for a trec_eval name, the measure it is; never a cut list
    code, _, err = capture(["report", str(imported), "--measures", "MAP"])
    assert code == 2 and len(err.splitlines()) == 1 and "(cut;" not in err
    assert ("unknown measure 'MAP' ('map' is trec_eval's name of AP; 'ragscore eval -m' "
            "takes trec_eval's names); closest: AP, AP@10, ") in err
    assert err.rstrip().endswith("('ragscore measures' lists every name) (see 'ragscore "
                                 "report --help')")


def test_csv_and_json_carry_a_summary_per_measure_and_system(imported):
    code, out, _ = capture(["report", str(imported), "--measures", "AP R@2", "--format",
                            "csv"])
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    summary = {(r["system"], r["measure"], r["method"]): r for r in rows if r["case"] == "all"}
    # bm25: q1 ranks harbour, lighthouse (7.5 tie; docno descending puts lighthouse first?
    # "lighthouse" > "harbour", so lighthouse, harbour), ferry, tide: AP 1; q2 moraine,
    # glacier: AP 1; q3 orchard after Orchard ("orchard" > "Orchard": orchard first): AP 1.
    assert float(summary["bm25", "AP", "macro"]["value"]) == 1.0
    assert summary["bm25", "AP", "macro"]["used"] == "3"
    # dense at R@2 pooled: q1 finds lighthouse of 2 relevant, q2 glacier of 2 (spam-page
    # -1 is not relevant): 2 of 4 = 0.5; macro (1/2 + 1/2) / 2 = 0.5, q3 not run (skip).
    assert float(summary["dense", "R@2", "pooled"]["value"]) == 0.5
    assert summary["dense", "R@2", "macro"]["left_out"] == "0"
    per_question = [r for r in rows if r["case"] != "all"]
    assert len(per_question) == 2 * (3 + 2)  # 2 measures, 3 bm25 and 2 dense questions
    code, out, _ = capture(["report", str(imported), "--measures", "AP", "--format", "json"])
    found = json.loads(out)
    assert found["measures"] == ["AP"]
    assert {(s["system"], s["method"], s["value"]) for s in found["summary"]} == {
        ("bm25", "macro", 1.0), ("dense", "macro", 0.375)}


def test_text_prints_four_decimals_or_digits_and_columns_fit(imported):
    code, out, _ = capture(["report", str(imported), "--measures", "AP", "--system", "dense"])
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == ["case  system      AP", "q1    dense   0.2500", "q2    dense   0.5000"]
    assert "dense   AP       macro   0.3750     2         0" in out
    code, out, _ = capture(["report", str(imported), "--measures", "AP", "--system", "dense",
                            "--digits", "2"])
    assert out.splitlines()[1] == "q1    dense   0.25"


def test_csv_escapes_names_a_spreadsheet_would_run(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "x.run"
    qrels.write_text("=1+1 0 d1 1\n")
    run.write_text("=1+1 Q0 d1 1 2.0 @sum\n")
    folder = tmp_path / "formula"
    code, _, err = capture(["import", "trec", "--qrels", str(qrels), "--run", str(run),
                            "--out", str(folder)])
    assert code == 0, err
    code, out, _ = capture(["report", str(folder), "--measures", "AP", "--format", "csv"])
    rows = list(csv.reader(io.StringIO(out)))
    # the question '=1+1' and the system '@sum' start with formula characters: quoted
    # with a leading apostrophe; the summary's case 'all' is ours and plain
    assert rows[1][:2] == ["'@sum", "'=1+1"]
    assert rows[2][:2] == ["'@sum", "all"]
