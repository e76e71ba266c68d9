"""One ranking imported through every importer gives the same numbers; the ranking order
each used is in its notes; ``import trec --order rank`` reads the rank column."""
import json

import pytest

from ragscore import save_dataset
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_folder
from ragscore.importers import import_beir, import_llamaindex, import_ragas, import_trec
from ragscore.importers._common import LIST_ORDER_NOTE
from ragscore.importers.llamaindex import import_llamaindex_results
from ragscore.importers.trec import ORDER_NOTES

#: question id, text, relevant documents, the ranking (best first)
QUESTIONS = [("q1", "Where does the ferry leave?", ["d1", "d2"], ["d3", "d1", "d4"]),
             ("q2", "When is high tide?", ["d2"], ["d2", "d4"]),
             ("q3", "Who paints the beacon?", ["d4"], ["d1", "d3", "d4"])]
TEXTS = {"d1": "ferry pier", "d2": "tide table", "d3": "gull nests", "d4": "beacon paint"}


def _write(folder, *, tied=False):
    """Every format's files holding the one ranking of system ``sys``. ``tied``: every
    score 1.0 in the TREC run (its ranks still give the order)."""
    folder.mkdir(exist_ok=True)
    (folder / "qrels").write_text("".join(f"{qid} 0 {doc} 1\n" for qid, _, relevant, _
                                          in QUESTIONS for doc in relevant))
    (folder / "run").write_text("".join(
        f"{qid} Q0 {doc} {rank} {1.0 if tied else 10 - rank} sys\n"
        for qid, _, _, ranking in QUESTIONS for rank, doc in enumerate(ranking, 1)))
    beir = folder / "beir"
    (beir / "qrels").mkdir(parents=True, exist_ok=True)
    (beir / "corpus.jsonl").write_text("".join(json.dumps({"_id": doc, "text": text}) + "\n"
                                               for doc, text in TEXTS.items()))
    (beir / "queries.jsonl").write_text("".join(json.dumps({"_id": qid, "text": text}) + "\n"
                                                for qid, text, _, _ in QUESTIONS))
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{qid}\t{doc}\t1\n" for qid, _, relevant, _ in QUESTIONS for doc in relevant))
    (folder / "ragas.jsonl").write_text("".join(json.dumps({
        "user_input": text, "retrieved_context_ids": ranking,
        "retrieved_contexts": [TEXTS[doc] for doc in ranking],
        "reference_context_ids": relevant, "response": "an answer"}) + "\n"
        for _, text, relevant, ranking in QUESTIONS))
    (folder / "qa.json").write_text(json.dumps({
        "queries": {qid: text for qid, text, _, _ in QUESTIONS}, "corpus": TEXTS,
        "relevant_docs": {qid: relevant for qid, _, relevant, _ in QUESTIONS},
        "mode": "text"}))
    (folder / "results.json").write_text(json.dumps([
        {"query": text, "expected_ids": relevant, "expected_texts": None,
         "retrieved_ids": ranking, "retrieved_texts": [TEXTS[doc] for doc in ranking],
         "mode": "text", "metric_dict": {}} for _, text, relevant, ranking in QUESTIONS]))
    return folder


MEASURES = (("precision", 2), ("recall", 2), ("rr", 3), ("ap", 100), ("ndcg", 3), ("hit", 1))


def _numbers(dataset, folder, name):
    """Every measure's values of system ``sys``, sorted (case names differ by importer)."""
    counted = count_folder(save_dataset(dataset._replace(name=name), folder / name))
    rows = counted.positions(counted.systems[0])
    return {f"{metric}@{k}": sorted(counted.values(REGISTRY[metric], k)[row] for row in rows)
            for metric, k in MEASURES}


def test_one_ranking_through_every_importer_gives_the_same_numbers(tmp_path):
    folder = _write(tmp_path / "in")
    imported = {
        "trec": import_trec(folder / "qrels", folder / "run"),
        "trec-rank": import_trec(folder / "qrels", folder / "run", order="rank"),
        "beir": import_beir(folder / "beir", runs=folder / "run"),
        "ragas": import_ragas([(folder / "ragas.jsonl", "sys")]),
        "llamaindex": import_llamaindex(folder / "qa.json", runs=folder / "run"),
        "llamaindex-results": import_llamaindex_results(folder / "results.json",
                                                        system="sys"),
    }
    numbers = {name: _numbers(dataset, tmp_path, name)
               for name, (dataset, _) in imported.items()}
    # by hand: P@2 q1 1/2 (d1), q2 1/2 (d2), q3 0; RR@3 q1 1/2, q2 1, q3 1/3;
    # AP (uncut) q1 (1/2) / 2 relevant = 1/4, q2 1, q3 (1/3) / 1 = 1/3; Hit@1 only q2.
    expected = numbers["trec"]
    assert expected["precision@2"] == [0.0, 0.5, 0.5]
    assert expected["rr@3"] == [1 / 3, 0.5, 1.0]
    assert expected["ap@100"] == [0.25, 1 / 3, 1.0]
    assert expected["hit@1"] == [0.0, 0.0, 1.0]
    for name, found in numbers.items():
        assert found == expected, name
    orders = {name: notes["ranking order"] for name, (_, notes) in imported.items()}
    assert orders == {"trec": ORDER_NOTES["score"], "trec-rank": ORDER_NOTES["rank"],
                      "beir": ORDER_NOTES["score"], "ragas": LIST_ORDER_NOTE,
                      "llamaindex": ORDER_NOTES["score"],
                      "llamaindex-results": LIST_ORDER_NOTE}


def test_rank_order_reads_the_rank_column_where_scores_tie(tmp_path):
    folder = _write(tmp_path / "tied", tied=True)
    by_rank, _ = import_trec(folder / "qrels", folder / "run", order="rank")
    by_score, _ = import_trec(folder / "qrels", folder / "run")
    assert by_rank.runs["q1"]["sys"]["retrieved"] == ("d3", "d1", "d4")
    # every score 1.0: trec_eval's order breaks the tie by docno descending
    assert by_score.runs["q1"]["sys"]["retrieved"] == ("d4", "d3", "d1")


def test_rank_order_refuses_a_rank_that_is_not_a_whole_number(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 first 1.0 sys\n")
    with pytest.raises(ValueError, match="line 1.*rank must be a whole number 0 or above "
                                         "\\(--order rank orders by it\\); got 'first'"):
        import_trec(tmp_path / "qrels", tmp_path / "run", order="rank")
    with pytest.raises(ValueError, match="order must be one of score, rank"):
        import_trec(tmp_path / "qrels", tmp_path / "run", order="list")
