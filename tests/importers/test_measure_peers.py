"""Issue 44's measures held to the peers that define them, value by value: pytrec_eval
(trec_eval 9.0.8 inside) for ``Rprec``, ``Bpref``, ``infAP`` (a negative grade: trec_eval's
pooled but unjudged) and the relevance level (``P(rel=2)@10``,
``AP(rel=2)``, ``R(rel=3)@100``: trec_eval ``-l``), and for ``nDCG(dcg=exp-log2)@k`` given
the qrels with each grade g written as its gain 2 ** g - 1; ir_measures' providers for the
rest: gdeval (its perl script) for ``ERR@k`` and ``nDCG(dcg=exp-log2)@k``, cwl_eval for
``RBP(rel=L, p=...)`` and its own ``judged`` for ``Judged@k``.

On trec_eval's own test collection (fixtures/trec_eval: ``qrels.test`` and, with grades -1
to 4, ``qrels.rel_level``, against ``results.test``) and on generated sets whose scores tie
(integers 0 to 5). pytrec_eval is given the scores as they are: it breaks ties as trec_eval
does (score as a C float, then docno descending), as ragscore's import does. gdeval breaks
ties on doubles and ir_measures' judged provider by docno ascending, so those peers are given
the run with strictly decreasing scores in trec_eval's order (docs/peers: export a run so
every tool sees one order): they check the measure, pytrec_eval the order. Where ragscore says
n/a (nothing relevant), the peers say 0 or leave the question out. Both engines.
"""
import os
import random
from math import isclose
from pathlib import Path

import pytest

from ragscore.core.measures import parse_measures, score_measures
from ragscore.engine import count_dataset
from ragscore.importers import import_trec

pytrec_eval = pytest.importorskip("pytrec_eval")
ir_measures = pytest.importorskip("ir_measures")

TREC_EVAL = Path(__file__).resolve().parents[2] / "fixtures" / "trec_eval"
SETS = int(os.environ.get("RAGSCORE_PEER_SETS", "2"))
#: ragscore's name -> (pytrec_eval's name, its relevance level; None: the test set's)
PYTREC = {"Rprec": ("Rprec", None), "P@10": ("P_10", None), "P(rel=2)@10": ("P_10", 2),
          "P(rel=2)@5": ("P_5", 2), "AP(rel=2)": ("map", 2), "R(rel=3)@100": ("recall_100", 3),
          "Rprec(rel=2)": ("Rprec", 2), "RR(rel=3)": ("recip_rank", 3),
          "Bpref": ("bpref", None), "Bpref(rel=2)": ("bpref", 2), "infAP": ("infAP", None),
          "infAP(rel=3)": ("infAP", 3)}
#: ragscore's name -> ir_measures' measure and the provider that computes it
IR = {"ERR@10": ("ERR@10", "gdeval"), "ERR@3": ("ERR@3", "gdeval"),
      "nDCG(dcg=exp-log2)@10": ("nDCG(dcg='exp-log2')@10", "gdeval"),
      "RBP(rel=1)": ("RBP(rel=1)", "cwl_eval"), "RBP(p=0.5,rel=2)": ("RBP(rel=2,p=0.5)",
                                                                    "cwl_eval"),
      "Judged@10": ("Judged@10", "judged"), "Judged@3": ("Judged@3", "judged")}
#: gdeval prints five decimals (its values are rounded to them)
PLACES = {"gdeval": 5e-6 + 1e-12}  # half a unit of the fifth place


def _read(qrels_path, run_path):
    qrels, run = {}, {}
    for line in qrels_path.read_text().splitlines():
        qid, _, doc, grade = line.split()
        qrels.setdefault(qid, {})[doc] = int(grade)
    for line in run_path.read_text().splitlines():
        qid, _, doc, _, score = line.split()[:5]
        run.setdefault(qid, {})[doc] = float(score)
    return qrels, run


def _ours(qrels_path, run_path, names, engine, minimum=1):
    dataset, _ = import_trec(qrels_path, run_path, min_relevance=minimum)
    counted = count_dataset(dataset, engine=engine)
    scored = score_measures(counted, parse_measures(" ".join(names)), default_k=10)
    return {label: dict(zip(scored.cases, values)) for label, values in scored.columns.items()}


def _ordered(run):
    """Each ranking with strictly decreasing scores in trec_eval's order (score as a C
    float, descending; then docno descending), for peers that break ties otherwise."""
    import struct

    single = lambda value: struct.unpack("f", struct.pack("f", value))[0]  # noqa: E731
    found = {}
    for qid, docs in run.items():
        ranked = sorted(docs, key=lambda doc: (single(docs[doc]), doc.encode()), reverse=True)
        found[qid] = {doc: float(len(ranked) - rank) for rank, doc in enumerate(ranked)}
    return found


def _compare(ours, theirs, where, tolerance=1e-12):
    """Each question's value equal to the peer's; n/a where the peer says 0 or nothing."""
    compared = 0
    for qid, value in ours.items():
        expected = theirs.get(qid)
        if value is None:
            assert expected in (None, 0.0), (where, qid, expected)
            continue
        assert expected is not None, (where, qid, value)
        assert isclose(value, expected, rel_tol=0, abs_tol=tolerance), (where, qid, value,
                                                                        expected)
        compared += 1
    return compared


def _pytrec(qrels, run, name, level):
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {name}, relevance_level=level)
    return {qid: values[name] for qid, values in evaluator.evaluate(run).items()}


def _ir(qrels, run, name, provider):
    measure = ir_measures.parse_measure(name)
    found = getattr(ir_measures, provider).iter_calc([measure], qrels, run)
    return {metric.query_id: float(metric.value) for metric in found}


def _check_all(qrels_path, run_path, engine, minimum=1):
    qrels, run = _read(qrels_path, run_path)
    ours = _ours(qrels_path, run_path, list(PYTREC) + list(IR), engine, minimum)
    compared = {}
    for label, (name, level) in PYTREC.items():
        compared[label] = _compare(ours[label], _pytrec(qrels, run, name, level or minimum),
                                   label)
    # nDCG with exponential gains: trec_eval's ndcg_cut over the gains 2 ** g - 1
    gains = {qid: {doc: 2 ** grade - 1 if grade > 0 else grade for doc, grade in docs.items()}
             for qid, docs in qrels.items()}
    compared["nDCG(dcg=exp-log2)@10 (pytrec_eval)"] = _compare(
        ours["nDCG(dcg=exp-log2)@10"], _pytrec(gains, run, "ndcg_cut_10", 1), "exp nDCG")
    ordered = _ordered(run)
    for label, (name, provider) in IR.items():
        compared[f"{label} ({provider})"] = _compare(
            ours[label], _ir(qrels, ordered, name, provider), label,
            PLACES.get(provider, 1e-12))
    return compared


@pytest.mark.parametrize("engine", ["reference", "columnar"])
@pytest.mark.parametrize("qrels, minimum", [("qrels.test", 1), ("qrels.rel_level", 2)])
def test_trec_evals_own_collection(engine, qrels, minimum):
    compared = _check_all(TREC_EVAL / qrels, TREC_EVAL / "results.test", engine, minimum)
    # 3 questions, each compared where ragscore defines it (qrels.test has no grade 2)
    assert compared["Rprec"] == 3 and compared["ERR@10 (gdeval)"] == 3, compared
    assert compared["Bpref"] == 3 and compared["infAP"] == 3, compared
    assert compared["Judged@10 (judged)"] == 3


def _generate(rng, folder):
    docs = [f"d{number}" for number in range(30)] + ["D5", "d_1", "a", "z"]
    qrel_lines, run_lines = [], []
    for number in range(150):
        qid = str(300 + number)  # gdeval reads numeric topics only
        judged = rng.sample(docs, rng.randint(1, 12))
        qrel_lines += [f"{qid} 0 {doc} {rng.randint(-1, 4)}\n" for doc in judged]
        ranked = rng.sample(docs, rng.randint(1, 25))
        run_lines += [f"{qid} Q0 {doc} {rank} {rng.randint(0, 5)} sys\n"  # many ties
                      for rank, doc in enumerate(ranked, 1)]
    rng.shuffle(run_lines)
    (folder / "qrels").write_text("".join(qrel_lines), encoding="ascii")
    (folder / "run").write_text("".join(run_lines), encoding="ascii")


@pytest.mark.parametrize("engine", ["reference", "columnar"])
@pytest.mark.parametrize("seed", range(SETS))
def test_generated_sets_with_ties(tmp_path, engine, seed):
    _generate(random.Random(seed), tmp_path)
    compared = _check_all(tmp_path / "qrels", tmp_path / "run", engine)
    assert min(compared.values()) > 50, compared


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", range(2, 30))
def test_more_generated_sets(tmp_path, seed):
    _generate(random.Random(seed), tmp_path)
    for engine in ("reference", "columnar"):
        compared = _check_all(tmp_path / "qrels", tmp_path / "run", engine)
        assert min(compared.values()) > 50, compared
