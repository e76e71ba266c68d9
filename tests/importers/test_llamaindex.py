"""LlamaIndex: a QA dataset with a TREC run, retriever results, and pinned messages."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from ragscore.importers.trec import ORDER_NOTES

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.importers import import_llamaindex, import_llamaindex_results

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "llamaindex"
QA, RESULTS, RUN = FIXTURE / "qa.json", FIXTURE / "results.json", FIXTURE / "vector.run"
Q1, Q2, Q3 = (f"5c0e1b7a-2f64-4d1e-9a0b-7e3f2d1c9a0{n}" for n in (1, 2, 3))


def _hash(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def test_qa_dataset_with_a_trec_run():
    dataset, notes = import_llamaindex(QA, runs=[RUN])
    assert dataset.cases == {
        Q1: {"question": "Which pier does the island ferry leave from?",
             "relevant": ("node-ferry",)},
        Q2: {"question": "What colour is the harbour beacon?",
             "relevant": ("node-beacon", "node-beacon-old")},
        Q3: {"question": "When is the fish market open?", "relevant": ("node-market",)},
    }
    assert dataset.runs == {  # a tie at 0.77: 'node-beacon-old' > 'node-beacon'
        Q1: {"vector": {"retrieved": ("node-ferry", "node-gulls")}},
        Q2: {"vector": {"retrieved": ("node-beacon-old", "node-beacon")}},
        Q3: {"vector": {"retrieved": ()}},
    }
    assert len(dataset.corpus) == 5 and dataset.corpus["node-gulls"] == \
        "Gulls nest on the old warehouse roof."
    assert notes == {"run questions without qrels": {"vector": 0},
                     "judged questions missing from a run": {"vector": 1},
                     "missing_run": "zero", "ranking order": ORDER_NOTES["score"]}


def test_retriever_results_as_one_system():
    dataset, notes = import_llamaindex_results(RESULTS, system="vector")
    ferry, beacon, market = (_hash("Which pier does the island ferry leave from?"),
                             _hash("What colour is the harbour beacon?"),
                             _hash("When is the fish market open?"))
    assert list(dataset.cases) == [ferry, beacon, market]
    assert dataset.cases[beacon] == {"question": "What colour is the harbour beacon?",
                                     "relevant": ("node-beacon", "node-beacon-old")}
    assert dataset.runs == {ferry: {"vector": {"retrieved": ("node-gulls", "node-ferry")}},
                            beacon: {"vector": {"retrieved": ("node-beacon",)}},
                            market: {"vector": {"retrieved": ("node-ferry", "node-gulls")}}}
    # retrieved_texts give text; expected-only IDs without texts have none
    assert dataset.corpus["node-ferry"] == "The island ferry leaves the north pier at nine."
    assert dataset.corpus["node-market"] is None
    assert notes["texts differing from the first text of their ID (first kept)"] == 0


def test_results_as_json_lines_name_their_lines(tmp_path):
    rows = json.loads(RESULTS.read_text())
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows[:2]) + "\n"
                    + json.dumps(rows[0]) + "\n")
    with pytest.raises(DatasetFileError, match="^" + re.escape(
            f"{path}, line 4: query 'Which pier does the island ferry leave from?' is also at "
            f"{path}, line 1") + "$"):
        import_llamaindex_results(path, system="vector")
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert import_llamaindex_results(path, system="v")[0].runs == \
        {case: {"v": run["vector"]} for case, run in
         import_llamaindex_results(RESULTS, system="vector")[0].runs.items()}


def test_saves_and_loads_back_unchanged(tmp_path):
    dataset, _ = import_llamaindex(QA, runs=RUN)
    assert load_dataset(save_dataset(dataset, tmp_path / "qa")) == dataset
    results, _ = import_llamaindex_results(RESULTS, system="vector")
    assert load_dataset(save_dataset(results, tmp_path / "results")) == results


def _qa(tmp_path, **changes):
    data = json.loads(QA.read_text())
    for key, value in changes.items():
        data[key] = value
    path = tmp_path / "qa.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("changes, message", [
    ({"relevant_docs": {Q1: ["node-ferry"], Q2: ["node-beacon"]}},
     "key 'relevant_docs': query '" + Q3 + "' has no entry"),
    ({"relevant_docs": {Q1: ["node-ferry"], Q2: ["node-beacon"], Q3: ["node-nowhere"]}},
     "key 'relevant_docs' > '" + Q3 + "': document 'node-nowhere' is not in the corpus"),
    ({"relevant_docs": {Q1: ["node-ferry"], Q2: ["node-beacon", "node-beacon"],
                        Q3: ["node-market"]}},
     "key 'relevant_docs' > '" + Q2 + "': the value lists 'node-beacon' twice (a repeated "
     "ID is refused, not dropped)"),
    ({"corpus": {"node-ferry": 3}}, "key 'corpus' > 'node-ferry': must be a string; got 3"),
    ({"queries": []}, "key 'queries': must be an object; got []"),
])
def test_a_bad_qa_file_names_the_key(tmp_path, changes, message):
    path = _qa(tmp_path, **changes)
    with pytest.raises(DatasetFileError, match=f"^{re.escape(f'{path}, {message}')}$"):
        import_llamaindex(path)


def test_a_run_document_outside_the_corpus_is_named(tmp_path):
    run = tmp_path / "vector.run"
    run.write_text(RUN.read_text() + f"{Q3} Q0 node-elsewhere 1 0.5 vector\n")
    with pytest.raises(DatasetFileError, match="^" + re.escape(
            f"{run}, line 5: document 'node-elsewhere' is not in the corpus of qa.json") + "$"):
        import_llamaindex(QA, runs=run)


@pytest.mark.parametrize("item, message", [
    ({"query": "Q?", "expected_ids": ["a"], "retrieved_ids": ["b", "b"]},
     "key 'retrieved_ids' lists 'b' twice (a repeated ID is refused, not dropped)"),
    ({"query": "Q?", "expected_ids": "a", "retrieved_ids": []},
     "key 'expected_ids' must be a list of strings; got 'a'"),
    ({"expected_ids": ["a"], "retrieved_ids": []}, "key 'query' must be a string; got None"),
    ([], "expected a JSON object; got []"),
])
def test_a_bad_result_names_its_item(tmp_path, item, message):
    path = tmp_path / "results.json"
    path.write_text(json.dumps([{"query": "P?", "expected_ids": ["a"], "retrieved_ids": []},
                                item]))
    with pytest.raises(DatasetFileError, match=f"^{re.escape(f'{path}, item 2: {message}')}$"):
        import_llamaindex_results(path, system="s")


def test_a_system_name_must_be_an_id():
    with pytest.raises(InvalidInputError, match="^system must be an ID"):
        import_llamaindex_results(RESULTS, system="")
