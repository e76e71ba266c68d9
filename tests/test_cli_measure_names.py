"""``ragscore measures`` (every name with its definition), ``eval -m`` (trec_eval's
spellings, repeatable) and the measures with parameters through eval, report, compare and
--trec-eval (issue 44, item 3)."""
import json
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.core.metrics import REGISTRY

pytrec_eval = pytest.importorskip("pytrec_eval")

TREC_EVAL = Path(__file__).resolve().parents[1] / "fixtures" / "trec_eval"
QRELS, RUN = str(TREC_EVAL / "qrels.rel_level"), str(TREC_EVAL / "results.test")


def _peer(measures, level=1):
    """pytrec_eval's per-question values on trec_eval's collection (qrels.rel_level)."""
    qrels, run = {}, {}
    for line in Path(QRELS).read_text().splitlines():
        qid, _, doc, grade = line.split()
        qrels.setdefault(qid, {})[doc] = int(grade)
    for line in Path(RUN).read_text().splitlines():
        qid, _, doc, _, score = line.split()[:5]
        run.setdefault(qid, {})[doc] = float(score)
    return pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level).evaluate(run)


def test_measures_lists_every_name_with_its_definition():
    code, out, _ = capture(["measures"])
    assert code == 0
    for metric in REGISTRY.values():  # every metric, none cut short
        assert f"{metric.label_at('k')}  (registry: {metric.name}" in out
    assert ("Rprec@k  (registry: rprec; ir_measures: Rprec, Rprec@k, Rprec(rel=2); "
            "trec_eval: Rprec, -m Rprec)") in out
    assert "  Rprec = (relevant IDs within the top R) / R" in out
    assert "  parameter dcg: the gain of a grade g: g (log2) or 2 ** g - 1 (exp-log2)" in out
    code, out, _ = capture(["measures", "--format", "json"])
    rows = json.loads(out)["measures"]
    assert [row["name"] for row in rows] == list(REGISTRY)
    rbp = next(row for row in rows if row["name"] == "rbp")
    assert [parameter["name"] for parameter in rbp["parameters"]] == ["p", "rel"]
    assert rbp["undefined"] == "nothing is labelled relevant"


def test_eval_help_points_at_measures(capsys):
    code, _, _ = capture(["eval", "--help"])  # argparse prints help to sys.stdout
    out = capsys.readouterr().out
    assert code == 0 and "'ragscore measures' lists every" in " ".join(out.split())
    assert "-m NAME" in out


def test_eval_m_takes_trec_evals_spellings_and_gives_its_numbers():
    code, out, err = capture(["eval", QRELS, RUN, "-l", "2", "-m", "P.5,10", "-m", "map",
                              "-m", "Rprec", "-m", "recip_rank", "-m", "ndcg_cut.10",
                              "--trec-eval", "-q"])
    assert code == 0, err
    peer = _peer({"P_5", "P_10", "map", "Rprec", "recip_rank", "ndcg_cut_10"}, level=2)
    lines = [line.split("\t") for line in out.splitlines()]
    assert [name.strip() for name, qid, _ in lines if qid == "all"] == [
        "map", "Rprec", "recip_rank", "P_5", "P_10", "ndcg_cut_10"]  # trec_eval's order
    compared = 0
    for name, qid, value in lines:
        if qid != "all":
            assert float(value) == pytest.approx(peer[qid][name.strip()], abs=5e-5)
            compared += 1
    assert compared == 18  # 3 questions x 6 measures


def test_eval_m_and_measures_give_the_same_numbers():
    by_m = capture(["eval", QRELS, RUN, "-m", "P.10", "-m", "map", "--format", "json"])
    by_name = capture(["eval", QRELS, RUN, "--measures", "P@10 AP", "--format", "json"])
    assert by_m == by_name and by_m[0] == 0


@pytest.mark.parametrize("argv, words", [
    (["-m", "P10"], "-m: trec_eval has no measure 'P10' that ragscore computes; closest: "
                    "P.10, P, map_cut.10"),
    (["-m", "nDCG@10"], "-m: trec_eval has no measure 'nDCG@10'"),
    (["-m", "P.x"], "-m: trec_eval has no measure 'P.x'"),
    (["--measures", "P(rel=x)@10"], "'P(rel=x)@10': measure P: parameter rel must be a whole "
                                    "number from 1 to 1000"),
    (["--measures", "AP", "-m", "map"], "--measures and -m both name the measures"),
    (["--measures", "nDCG(dcg=exp-log2)@10", "--trec-eval"],
     "nDCG(dcg=exp-log2)@10 has no trec_eval name"),
])
def test_bad_measures_exit_2_with_one_line_and_write_nothing(tmp_path, argv, words):
    code, out, err = capture(["eval", QRELS, RUN, *argv])
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert words in err


def test_parameterised_measures_in_eval_report_and_compare(tmp_path):
    names = "P(rel=2)@10 AP(rel=2) Rprec nDCG(dcg=exp-log2)@10 RBP(p=0.5) ERR@10 Judged@10"
    code, out, err = capture(["eval", QRELS, RUN, "--measures", names, "--format", "json",
                              "--na-as-zero"])
    assert code == 0, err
    summary = {row["measure"]: row["value"] for row in json.loads(out)["summary"]
               if row["method"] == "macro"}
    peer = _peer({"P_10", "map"}, level=2)
    assert summary["P(rel=2)@10"] == pytest.approx(
        sum(values["P_10"] for values in peer.values()) / 3, abs=1e-12)
    assert summary["AP(rel=2)"] == pytest.approx(
        sum(values["map"] for values in peer.values()) / 3, abs=1e-12)
    folder = tmp_path / "set"
    code, _, err = capture(["import", "trec", "--qrels", QRELS, "--run", RUN, "--out",
                            str(folder)])
    assert code == 0, err
    code, out, err = capture(["report", str(folder), "--measures", names, "--format", "json"])
    assert code == 0, err
    assert {row["measure"] for row in json.loads(out)["summary"]} == set(names.split())
    code, out, err = capture(["compare", str(folder), "--baseline", "STANDARD", "--candidate",
                              "STANDARD", "--measures", names, "--format", "json"])
    assert code == 0, err
    assert [row["measure"] for row in json.loads(out)["summary"]] == names.split()


#: every trec_eval measure ragscore computes, with trec_eval's own cutoffs
ALL_TREC = ["map", "Rprec", "bpref", "recip_rank", "P", "recall", "infAP", "ndcg", "ndcg_cut",
            "map_cut", "success"]


@pytest.mark.parametrize("qrels, expected, options", [
    ("qrels.test", "out.test.aq", []), ("qrels.rel_level", "out.test.aql", ["-l", "2"])])
def test_eval_m_prints_trec_evals_own_expected_output(qrels, expected, options):
    # trec_eval's make quicktest: trec_eval -m all_trec -q [-l2] QRELS results.test; its
    # lines for the measures ragscore computes, byte for byte (with -l2, qrels.rel_level
    # lists grade -1: pooled but unjudged, which bpref skips and infAP counts)
    argv = ["eval", str(TREC_EVAL / qrels), RUN, "-q", "--trec-eval", *options]
    for name in ALL_TREC:
        argv += ["-m", name]
    code, out, err = capture(argv)
    assert code == 0, err
    ours = out.splitlines()
    names = {line.split()[0] for line in ours}
    theirs = [line for line in (TREC_EVAL / expected).read_text().splitlines()
              if line.split()[0] in names]
    assert len(names) == 45 and len(ours) == 180  # 45 measures x (3 questions + all)
    assert ours == theirs
