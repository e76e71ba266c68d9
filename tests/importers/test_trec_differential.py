"""A differential test against pytrec_eval on generated runs whose scores collide in 32-bit
precision (issue 21, item 6).

trec_eval (and pytrec_eval, its Python binding) keeps a run's score as a C ``float``: two
scores that differ as doubles but round to the same float (``0.50000001`` and ``0.5``) tie,
and the tie is broken by docno, descending. Each generated question draws its scores from
groups of such near-twins (and from scores that differ by one float32 step, which must not
tie), so most rankings depend on getting both rules right. pytrec_eval is given the same
scores as Python floats; it does the rounding and the cutting itself (``P_k``, ``recall_k``,
``ndcg_cut_k``, ``map_cut_k``, ``success_k``, and ``recip_rank`` over the whole run against
ragscore's RR at a k past every run's end), so nothing of ragscore's ordering is reused on
the peer's side.

Seeded (``RAGSCORE_TREC_TRIALS`` seeds, 3 by default; benchmarks/gate_properties.py runs
more).
"""
import os
import random

import pytest

from ragscore.core.metrics import REGISTRY
from ragscore.core.rules import OPEN
from ragscore.engine.reference import count_runs
from ragscore.importers import import_trec

pytrec_eval = pytest.importorskip("pytrec_eval")

TRIALS = int(os.environ.get("RAGSCORE_TREC_TRIALS", "3"))
KS = (1, 3, 10)
PEER = {"precision": "P_{k}", "recall": "recall_{k}", "ndcg": "ndcg_cut_{k}",
        "ap": "map_cut_{k}", "hit": "success_{k}"}
# each group's scores are equal as C floats but not as doubles (float32 has 24 bits: near
# 0.5 its step is 2**-25, about 3e-8; near 1000, 2**-14, about 6e-5)
TWINS = (("0.5", "0.50000001", "0.500000005", "5e-1"),
         ("1", "1.00000002", "0.99999999", "1.0"),
         ("1000.00001", "1000", "999.999999"),
         ("-2.5", "-2.50000001", "-2.4999999999"))
# one float32 step apart: these must not tie
STEPS = ("0.5000001", "0.4999999", "1.0000002", "1000.0001")


def _generate(rng, folder):
    docs = [f"d{number}" for number in range(12)] + ["D5", "d_1", "a", "z"]
    qrels, run, qrel_lines, run_lines = {}, {}, [], []
    for number in range(200):
        qid = f"q{number}"
        judged = rng.sample(docs, rng.randint(1, 6))
        qrels[qid] = {doc: rng.randint(0, 3) for doc in judged}
        ranked = rng.sample(docs, rng.randint(1, 9))
        group = rng.choice(TWINS)
        texts = {doc: rng.choice(group if rng.random() < 0.8 else STEPS) for doc in ranked}
        run[qid] = {doc: float(text) for doc, text in texts.items()}
        qrel_lines += [f"{qid} 0 {doc} {grade}\n" for doc, grade in qrels[qid].items()]
        run_lines += [f"{qid} Q0 {doc} {rank} {text} sys\n"
                      for rank, (doc, text) in enumerate(texts.items(), 1)]
    rng.shuffle(run_lines)  # a question's lines need not be contiguous
    (folder / "qrels").write_text("".join(qrel_lines), encoding="ascii")
    (folder / "run").write_text("".join(run_lines), encoding="ascii")
    return qrels, run


@pytest.mark.parametrize("engine", ["reference", "columnar"])
@pytest.mark.parametrize("seed", range(TRIALS))
def test_float32_ties_rank_as_pytrec_eval_ranks_them(tmp_path, seed, engine):
    qrels, run = _generate(random.Random(seed), tmp_path)
    dataset, _ = import_trec(tmp_path / "qrels", tmp_path / "run", engine=engine)
    counted = count_runs(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN,
                         min_relevance=dataset.min_relevance)
    ours = dict(zip((case for case, _ in counted.keys), counted.counts))
    measures = {template.format(k=k) for template in PEER.values() for k in KS}
    peer = pytrec_eval.RelevanceEvaluator(qrels, measures | {"recip_rank"}).evaluate(run)
    compared = 0
    for qid, theirs in peer.items():
        for k in KS:
            for name, template in PEER.items():
                value = REGISTRY[name].value(ours[qid], k)
                expected = theirs[template.format(k=k)]
                if value is None:  # nothing relevant: ragscore says n/a, trec_eval 0
                    assert expected == 0.0, (qid, name, k)
                    continue
                assert value == pytest.approx(expected, abs=1e-12), (qid, name, k)
                compared += 1
        rr = REGISTRY["rr"].value(ours[qid], 100)
        assert (rr or 0.0) == pytest.approx(theirs["recip_rank"], abs=1e-12), qid
    assert compared > 1000


def test_the_issue_example_ties_and_breaks_by_docno(tmp_path):
    # a is relevant; 0.50000001 and 0.5 are both 0.5 as C floats, so b (docno descending)
    # ranks first: P@1 = 0, RR = 1/2 (trec_eval and pytrec_eval give the same)
    (tmp_path / "qrels").write_text("q1 0 a 1\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 0.50000001 r\nq1 Q0 b 2 0.5 r\n")
    dataset, _ = import_trec(tmp_path / "qrels", tmp_path / "run")
    assert dataset.runs["q1"]["r"]["retrieved"] == ("b", "a")
    peer = pytrec_eval.RelevanceEvaluator({"q1": {"a": 1}}, {"P_1", "recip_rank"}).evaluate(
        {"q1": {"a": 0.50000001, "b": 0.5}})
    assert peer["q1"] == {"P_1": 0.0, "recip_rank": 0.5}


@pytest.mark.parametrize("engine", ["reference", "columnar"])
@pytest.mark.parametrize("score, read", [("1_0", "1"), ("\u0661\u0662", "0"),
                                         ("\uff11\uff12", "0")])
def test_scores_outside_strtod_are_refused_naming_what_trec_eval_reads(tmp_path, engine,
                                                                        score, read):
    (tmp_path / "qrels").write_text("q1 0 a 1\n")
    (tmp_path / "run").write_text(f"q1 Q0 a 1 {score} r\n", encoding="utf-8")
    from ragscore import DatasetFileError

    with pytest.raises(DatasetFileError, match=rf"run, line 1: score must be a number as C's "
                                               rf"strtod reads one .*\(trec_eval would read "
                                               rf"{read}\)$"):
        import_trec(tmp_path / "qrels", tmp_path / "run", engine=engine)


def test_text_after_the_sixth_field_is_ignored_as_in_results_trunc(tmp_path):
    # the shape of trec_eval's test/results.trunc: words after the run tag
    (tmp_path / "qrels").write_text("q1 0 a 1\n")
    (tmp_path / "run").write_text("q1 Q0 b 1 0.9 r trailing words\nq1 Q0 a 2 0.5 r x\n")
    dataset, _ = import_trec(tmp_path / "qrels", tmp_path / "run")
    assert dataset.runs["q1"]["r"]["retrieved"] == ("b", "a")


@pytest.mark.parametrize("seed", range(TRIALS))
def test_max_depth_is_trec_eval_m(tmp_path, seed):
    # trec_eval -M 3 keeps each ranking's best 3: at k=10 that is, with pytrec_eval cutting
    # the whole run itself, P_3 * 3 / 10, recall_3 and map_cut_3 (AP divides by the number
    # relevant at any cut; nDCG@10's ideal is not nDCG@3's, so it is not compared here)
    qrels, run = _generate(random.Random(100 + seed), tmp_path)
    dataset, _ = import_trec(tmp_path / "qrels", tmp_path / "run", max_depth=3)
    counted = count_runs(dataset.corpus, dataset.cases, dataset.runs, rules=OPEN,
                         min_relevance=dataset.min_relevance)
    ours = dict(zip((case for case, _ in counted.keys), counted.counts))
    peer = pytrec_eval.RelevanceEvaluator(
        qrels, {"P_3", "recall_3", "map_cut_3"}).evaluate(run)
    for qid, theirs in peer.items():
        expected = {"precision": theirs["P_3"] * 3 / 10, "recall": theirs["recall_3"],
                    "ap": theirs["map_cut_3"]}
        for name, value in expected.items():
            ours_value = REGISTRY[name].value(ours[qid], 10)
            assert (ours_value or 0.0) == pytest.approx(value, abs=1e-12), (qid, name)
