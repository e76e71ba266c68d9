"""Exact agreement with pytrec_eval (trec_eval) on a generated collection of 10,000 questions.

Graded qrels (-1 to 3), runs up to 1,000 deep with many tied scores, empty runs, questions
with more relevant documents than k, IDs in real-world shapes; P@k, R@k, RR@k (pytrec_eval
given the run cut to k, since its recip_rank is not cut), nDCG@k, AP@k and Hit@k at
k in {1, 5, 10, 100, 1000}, to 1e-12. The files go through
``import_trec`` (trec_eval's tie order) and the streaming reader, as a user's would.
Where ragscore says n/a (nothing relevant), trec_eval scores 0. min_relevance 2 (trec_eval
-l 2) judges grade-1 documents not relevant while nDCG still counts their gain, so it
exercises more than the default; ``tests/importers/test_trec.py`` checks level 1 on the
hand-written fixture. (Both levels were run here once: 0 difference.)
"""
import random
import uuid

import pytest

from ragscore import save_dataset
from ragscore.engine import count_folder as read_counts
from ragscore.importers import import_trec
from ragscore.tables.scores import scores_frame

pytrec_eval = pytest.importorskip("pytrec_eval")

QUESTIONS = 10_000
KS = (1, 5, 10, 100, 1000)
PEER = {"precision": "P_{k}", "recall": "recall_{k}", "ndcg": "ndcg_cut_{k}",
        "ap": "map_cut_{k}", "hit": "success_{k}"}


def _docnos(rng, count):
    """IDs as real collections spell them."""
    shapes = [
        lambda n: f"FR{940000 + n}-2-{n % 997:05d}",                  # a TREC docno
        lambda n: f"msmarco_v2.1_doc_{n % 59}_{n}#{n % 7}_{n * 13}",  # an MS MARCO segment
        lambda n: f"doc_{n}#chunk-{n % 5}",                            # a chunk ID
        lambda n: str(uuid.UUID(int=rng.getrandbits(128))),            # a UUID
        lambda n: f"path/to/{n}:section.{n % 3}",                      # slashes and colons
        lambda n: f"long-{n}-" + "x" * 190,                            # 200 characters
        lambda n: f"l\u0430unch-{n}",                                  # a Cyrillic a
        lambda n: f"Café-{n}",                                         # non-ASCII
    ]
    return [shapes[n % len(shapes)](n) for n in range(count)]


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    rng = random.Random(20261202)
    folder = tmp_path_factory.mktemp("agreement")
    docs = _docnos(rng, 30_000)
    qrels, run = {}, {}
    qrels_lines, run_lines = [], []
    for number in range(QUESTIONS):
        qid = f"Q{number}"
        judged = rng.sample(docs, rng.choice((1, 3, 8, 20, 150)))
        qrels[qid] = {doc: rng.randint(-1, 3) for doc in judged}
        depth = 1000 if number % 50 == 0 else rng.choice((0, 1, 5, 12, 40))
        pool = judged + rng.sample(docs, depth)
        ranked = list(dict.fromkeys(rng.sample(pool, min(depth, len(pool)))))
        run[qid] = {doc: float(rng.randint(0, 9)) for doc in ranked}  # many ties
        qrels_lines += [f"{qid} 0 {doc} {grade}\n" for doc, grade in qrels[qid].items()]
        run_lines += [f"{qid} Q0 {doc} {rank} {score} sys\n"
                      for rank, (doc, score) in enumerate(run[qid].items(), 1)]
    (folder / "qrels").write_text("".join(qrels_lines), encoding="utf-8")
    (folder / "run").write_text("".join(run_lines), encoding="utf-8")
    return folder, qrels, run


def _ours(folder, minimum):
    dataset, _ = import_trec(folder / "qrels", [folder / "run"], min_relevance=minimum)
    saved = save_dataset(dataset, folder / f"dataset-{minimum}", overwrite=True)
    counted = read_counts(saved)
    return {k: scores_frame(counted, k=k, metrics=("precision", "recall", "rr", "ndcg", "ap",
                                                   "hit"))
            for k in KS}


def _cut(run, k):
    """Each ranking cut to its top k in trec_eval's order (score, then docno, descending)."""
    return {qid: dict(sorted(docs.items(), key=lambda item: (item[1], item[0].encode()),
                             reverse=True)[:k])
            for qid, docs in run.items()}


@pytest.mark.parametrize("minimum", [2])
def test_every_metric_agrees_with_pytrec_eval(collection, minimum):
    folder, qrels, run = collection
    ours = _ours(folder, minimum)
    measures = {template.format(k=k) for template in PEER.values() for k in KS}
    whole = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=minimum)
    peer = whole.evaluate(run)
    compared, largest, na = 0, 0.0, 0
    for k in KS:
        table = ours[k]
        rr_peer = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"},
                                                 relevance_level=minimum).evaluate(_cut(run, k))
        columns = {name: table[name].to_numpy(dtype=object, na_value=None).tolist()
                   for name in table.columns}
        for row, (qid, _) in enumerate(table.index):
            theirs = peer[qid]
            for name in table.columns:
                value = columns[name][row]
                expected = (rr_peer[qid]["recip_rank"] if name == "rr"
                            else theirs[PEER[name].format(k=k)])
                if value is None or value != value:
                    assert expected == 0.0, (qid, name, k)
                    na += 1
                    continue
                largest = max(largest, abs(float(value) - expected))
                compared += 1
    assert compared > 250_000 and na > 1_000
    assert largest <= 1e-12, largest
