"""A LlamaIndex LabelledRagDataset with two systems' responses (a RagPredictionDataset and
Response dumps with source nodes), worked by hand; mismatches refused."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, load_dataset, save_dataset
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_folder
from ragscore.importers import import_llamaindex_rag

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "llamaindex"
DATASET = FIXTURE / "rag_dataset.json"
SYSTEMS = [(FIXTURE / "vector_predictions.json", "vector"),
           (FIXTURE / "bm25_responses.jsonl", "bm25")]
BILLING = "The Aurora team owns the billing alert and is paged first."
ROTA = "The on-call rota rotates weekly between Aurora and Borealis."


def _ctx(text):
    return "ctx-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _case(query):
    return hashlib.sha256(query.encode("utf-8")).hexdigest()[:12]


def test_the_fixture_by_hand(tmp_path):
    dataset, notes = import_llamaindex_rag(DATASET, SYSTEMS)
    billing = _case("Who owns the billing alert?")
    assert dataset.cases[billing] == {"question": "Who owns the billing alert?",
                                      "relevant": (_ctx(BILLING),),
                                      "reference": ("The Aurora team",)}
    # contexts named by their text's hash on both sides; order kept; delivered = contexts
    assert dataset.runs[billing]["vector"] == {
        "retrieved": (_ctx(BILLING), _ctx(ROTA)), "delivered": (_ctx(BILLING), _ctx(ROTA)),
        "answer": "The Aurora team."}
    assert dataset.runs[billing]["bm25"]["retrieved"] == (_ctx(ROTA), _ctx(BILLING))
    assert dataset.corpus[_ctx(ROTA)] == ROTA
    assert "delivered" in notes["ranking order"]
    assert load_dataset(save_dataset(dataset, tmp_path / "d")).runs == dataset.runs


def test_the_fixture_scores_by_hand(tmp_path):
    dataset, _ = import_llamaindex_rag(DATASET, SYSTEMS)
    counted = count_folder(save_dataset(dataset, tmp_path / "d"), engine="columnar")
    f1 = dict(zip(counted.keys, counted.values(REGISTRY["token_f1"], 2)))
    guests = _case("Which network do guests use?")
    # "guests use visitor network" (4) vs "visitor network" (2): common 2, F1 = 4 / 6
    assert f1[guests, "vector"] == pytest.approx(2 / 3)
    assert f1[guests, "bm25"] == 0.0  # an empty response to an answerable question
    # bm25 ranks the billing runbook second for the billing question: RR@2 = 1/2
    rr = dict(zip(counted.keys, counted.values(REGISTRY["rr"], 2)))
    assert rr[_case("Who owns the billing alert?"), "bm25"] == 0.5


def test_a_predictions_file_of_another_length_is_refused(tmp_path):
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"predictions": [{"response": "x", "contexts": []}]}))
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{short}: holds 1 responses for 3 examples in rag_dataset.json; the n-th "
            "response answers the n-th example")):
        import_llamaindex_rag(DATASET, [(short, "s")])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"predictions": [{"response": 7}]}))
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{bad}, prediction 1: key 'response' must be a string; got 7")):
        import_llamaindex_rag(DATASET, [(bad, "s")])
