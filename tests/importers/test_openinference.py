"""OpenInference spans: the Phoenix-style and OTLP fixtures worked by hand, and malformed
traces refused naming the place, the attribute and the value."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError, InvalidInputError, load_dataset, save_dataset
from ragscore.importers import import_openinference

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "openinference"
BILLING, AUDIT = "Who owns the billing alert?", "How long are audit logs kept?"


def _hash(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _jsonl(path, *rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _span(trace, span, parent, attributes):
    return {"context": {"trace_id": trace, "span_id": span}, "parent_id": parent,
            "attributes": attributes}


def test_the_phoenix_fixture_by_hand(tmp_path):
    dataset, notes = import_openinference(FIXTURE / "spans.jsonl", system="prod")
    assert dataset.cases == {_hash(BILLING): {"question": BILLING, "relevant": ()},
                             _hash(AUDIT): {"question": AUDIT, "relevant": ()}}
    # trace 1: documents in index order, answer from the root CHAIN span's output.value
    assert dataset.runs[_hash(BILLING)] == {"prod": {
        "retrieved": ("runbook-billing", "oncall-rota"),
        "answer": "The Aurora team owns the billing alert [1]."}}
    # trace 2: the root's input is JSON, so the question is the retriever's input.value;
    # the integer document id 17 is written as text
    assert dataset.runs[_hash(AUDIT)]["prod"]["retrieved"] == ("17",)
    assert dataset.corpus["17"] == "Audit logs are kept for 400 days, then deleted."
    assert notes["traces without a RETRIEVER span (skipped)"] == 1  # the chat trace
    assert "index order" in notes["ranking order"]
    assert load_dataset(save_dataset(dataset, tmp_path / "d")).runs == dataset.runs


def test_the_otlp_fixture_by_hand():
    dataset, _ = import_openinference(FIXTURE / "otlp.jsonl", system="prod")
    question = "What is the office wifi password?"
    assert dataset.runs == {_hash(question): {"prod": {
        "retrieved": ("oncall-rota", "runbook-billing"),
        "answer": "I cannot find that in the documents."}}}
    assert dataset.corpus == {"oncall-rota": None, "runbook-billing": None}


def test_the_answer_comes_from_the_llm_span_when_the_root_is_the_retriever(tmp_path):
    path = _jsonl(tmp_path / "s.jsonl",
                  _span("t", "r", None, {"openinference.span.kind": "RETRIEVER",
                                         "input.value": "Q?",
                                         "retrieval.documents.0.document.content": "Red."}),
                  _span("t", "l", "r", {"openinference.span.kind": "LLM",
                                        "llm.output_messages.0.message.content": "Red."}))
    dataset, _ = import_openinference(path, system="s")
    red = "ctx-" + hashlib.sha256(b"Red.").hexdigest()[:16]
    assert dataset.runs[_hash("Q?")]["s"] == {"retrieved": (red,), "answer": "Red."}


def test_malformed_traces_are_refused(tmp_path):
    retriever = {"openinference.span.kind": "RETRIEVER", "input.value": "Q?",
                 "retrieval.documents.0.document.id": "a"}
    two = _jsonl(tmp_path / "two.jsonl", _span("t", "1", None, retriever),
                 _span("t", "2", "1", retriever))
    with pytest.raises(DatasetFileError, match=re.escape(
            "two.jsonl, line 2: trace 't' has a second RETRIEVER span (the first at ")):
        import_openinference(two, system="s")
    gap = _jsonl(tmp_path / "gap.jsonl", _span("t", "1", None, {
        "openinference.span.kind": "RETRIEVER", "input.value": "Q?",
        "retrieval.documents.1.document.id": "a"}))
    with pytest.raises(DatasetFileError, match=re.escape(
            "gap.jsonl, line 1: retrieval.documents indexes must run 0, 1, 2, ...; got [1]")):
        import_openinference(gap, system="s")
    bad = _jsonl(tmp_path / "bad.jsonl", _span("t", "1", None, dict(
        retriever, **{"retrieval.documents.0.document.id": 2.5})))
    with pytest.raises(DatasetFileError, match=re.escape(
            "bad.jsonl, line 1: retrieval.documents.0.document.id must be a string or an "
            "integer; got 2.5")):
        import_openinference(bad, system="s")
    surrogate = tmp_path / "surrogate.jsonl"  # a JSON escape of half a character
    surrogate.write_text(json.dumps(_span("t", "1", None, dict(
        retriever, **{"input.value": "Q\ud800?"}))) + "\n")
    with pytest.raises(DatasetFileError, match=re.escape(
            "surrogate.jsonl, line 1: input.value (the question) holds a lone surrogate, "
            "which is not Unicode text")):
        import_openinference(surrogate, system="s")
    untraced = _jsonl(tmp_path / "untraced.jsonl", {"attributes": retriever})
    with pytest.raises(DatasetFileError, match=re.escape(
            "untraced.jsonl, line 1: missing the trace ID (context.trace_id)")):
        import_openinference(untraced, system="s")
    with pytest.raises(InvalidInputError, match="expected a .json or .jsonl file"):
        import_openinference(tmp_path / "spans.csv", system="s")
