"""OpenInference traces (Arize Phoenix span exports, OTLP JSON dumps) as the runs of one
system.

Attribute names are OpenInference's semantic conventions (``Arize-ai/openinference``,
``spec/semantic_conventions.md``): ``openinference.span.kind`` (``RETRIEVER``, ``LLM``,
``CHAIN``, ...), ``input.value``, ``input.mime_type``, ``output.value``,
``llm.output_messages.{i}.message.content`` and, on a retriever span,
``retrieval.documents.{i}.document.id`` / ``.content`` / ``.score``.

A span is read from any of the shapes exports take, its attributes flattened to dotted
keys: flat (``"retrieval.documents.0.document.id"``), nested (``{"retrieval":
{"documents": [{"document": {"id": ...}}]}}``), Phoenix's dataframe columns
(``"attributes.input.value"``, ``"context.trace_id"``, ``"parent_id"``, ``"span_kind"``) or
OTLP JSON (``resourceSpans`` > ``scopeSpans`` > ``spans``, ``traceId``, ``parentSpanId``,
attributes as ``{"key", "value": {"stringValue" | "intValue" | "doubleValue" | ...}}``).

Spans are grouped by trace ID; a trace is one question answered:

- the **ranking** is its one ``RETRIEVER`` span's documents in index order ``i`` (a score is
  never used to reorder them); a document's ID is ``document.id`` (a number is written as
  text), else ``ctx-`` and a hash of its ``document.content``, which becomes corpus text;
- the **question** is the root span's ``input.value`` (the span without a parent), unless
  its ``input.mime_type`` is ``application/json``; then the retriever's ``input.value``;
- the **answer** is the root span's ``output.value`` when the root is not the retriever,
  else the last ``LLM`` span's ``llm.output_messages.0.message.content`` or ``output.value``.

Traces without a retriever span are skipped and counted in the notes; a trace with two is
refused (which one ranked?). No delivered context is recorded: the spans do not say which
retrieved documents reached the prompt.
"""
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, where
from ._common import (TextCorpus, answer_checked, check_options, check_system, context_id,
                      id_list,
                      question_id, stem, unicode_problem)
from .llamaindex import _results

__all__ = ["import_openinference"]

KIND = "openinference.span.kind"
SKIPPED_NOTE = "traces without a RETRIEVER span (skipped)"
ORDER_NOTE = "ranking order"
_OTLP_VALUES = ("stringValue", "intValue", "doubleValue", "boolValue")


def import_openinference(path, *, system, name=None, max_bytes=MAX_FILE_BYTES):
    """Import an OpenInference span export (``.json`` or ``.jsonl``) as the runs of
    ``system``; return ``(dataset, notes)``. Each trace with a retriever span becomes a case
    (ID: a hash of its question; nothing labelled relevant) and the run of ``system``
    (``retrieved``, and ``answer`` when the trace holds one).

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> spans = [{"context": {"trace_id": "t1", "span_id": "s1"}, "parent_id": None,
    ...           "attributes": {"openinference.span.kind": "CHAIN",
    ...                          "input.value": "Which beacon is red?",
    ...                          "output.value": "The north one."}},
    ...          {"context": {"trace_id": "t1", "span_id": "s2"}, "parent_id": "s1",
    ...           "attributes": {"openinference.span.kind": "RETRIEVER",
    ...                          "retrieval.documents.0.document.id": "n2",
    ...                          "retrieval.documents.1.document.id": "n1"}}]
    >>> _ = (folder / "spans.jsonl").write_text("".join(json.dumps(s) + "\\n" for s in spans))
    >>> dataset, notes = import_openinference(folder / "spans.jsonl", system="prod")
    >>> dataset.runs
    {'323c06eef2c7': {'prod': {'retrieved': ('n2', 'n1'), 'answer': 'The north one.'}}}
    >>> shutil.rmtree(folder)
    """
    check_system(system)
    name = check_options(name=name, default_name=stem(path))
    if Path(path).suffix.lower() not in (".json", ".jsonl"):
        raise InvalidInputError(f"{where(path)}: expected a .json or .jsonl file")
    traces = {}
    for place, span in _spans(path, max_bytes):
        trace = _text_of(span, ("trace_id",), place, "the trace ID (context.trace_id)")
        traces.setdefault(trace, []).append((place, span))
    if not traces:
        raise DatasetFileError(f"{where(path)}: holds no spans")
    corpus = TextCorpus()
    cases, runs, seen, skipped = {}, {}, {}, 0
    for trace, spans in traces.items():
        found = _trace(trace, spans, corpus)
        if found is None:
            skipped += 1
            continue
        place, question, retrieved, answer = found
        case = question_id(question)
        if case in seen:
            raise DatasetFileError(f"{place}: trace {show(trace)} asks {show(question)}, "
                                   f"already asked by trace {show(seen[case])}")
        seen[case] = trace
        cases[case] = {"question": question, "relevant": ()}
        run = {"retrieved": retrieved}
        if answer is not None:
            run["answer"] = answer
        runs[case] = {system: answer_checked(run, place)}
    if not cases:
        raise DatasetFileError(f"{where(path)}: no trace holds a RETRIEVER span")
    notes = corpus.notes()
    notes[SKIPPED_NOTE] = skipped
    notes[ORDER_NOTE] = ("each ranking is its retriever span's retrieval.documents in index "
                         "order (a score is not used to reorder it)")
    dataset = Dataset(corpus=corpus.texts, cases=cases, runs=runs, name=name,
                      description=f"Imported from the OpenInference spans "
                                  f"{Path(path).name!r} as system {system!r}",
                      ids="open", min_relevance=1, sources={}, versions={})
    return dataset, notes


# ---- spans ------------------------------------------------------------------------------------

def _flatten(value, prefix, into):
    if type(value) is dict:
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), into)
    elif type(value) is list and value and all(type(item) is dict for item in value):
        for position, item in enumerate(value):
            _flatten(item, f"{prefix}.{position}", into)
    else:
        into[prefix] = value
    return into


def _otlp_attributes(items, place):
    found = {}
    if type(items) is not list:
        raise DatasetFileError(f"{place}: key 'attributes' must be a list of key/value "
                               f"objects; got {show(items)}")
    for item in items:
        value = item.get("value") if type(item) is dict else None
        if type(value) is not dict or type(item.get("key")) is not str:
            raise DatasetFileError(f"{place}: an attribute must be {{'key', 'value'}}; got "
                                   f"{show(item)}")
        kind = next((kind for kind in _OTLP_VALUES if kind in value), None)
        found[item["key"]] = value[kind] if kind else None
    return found


def _normal(span, place, *, otlp=False):
    """``{dotted key: value}`` of a span: its attributes and ``trace_id``, ``span_id``,
    ``parent_id`` and ``span_kind`` whatever the export calls them."""
    if type(span) is not dict:
        raise DatasetFileError(f"{place}: expected a span object; got {show(span)}")
    if otlp:
        flat = _otlp_attributes(span.get("attributes", []), place)
        flat.update(trace_id=span.get("traceId"), span_id=span.get("spanId"),
                    parent_id=span.get("parentSpanId") or None)
        return flat
    whole = _flatten(span, "", {})
    flat = {}
    for key, value in whole.items():
        for prefix in ("attributes.", "context."):
            if key.startswith(prefix):
                key = key[len(prefix):]
        flat[key] = value
    flat.setdefault("parent_id", whole.get("parent_span_id"))
    if KIND not in flat and "span_kind" in flat:
        flat[KIND] = flat["span_kind"]
    return flat


def _spans(path, max_bytes):
    """Yield ``(place, flat span)`` for each span of a JSON Lines, JSON array or OTLP JSON
    file."""
    for place, _, record in _results(path, max_bytes):
        if "resourceSpans" in record:
            yield from _otlp(record, place)
        else:
            yield place, _normal(record, place)


def _otlp(record, place):
    number = 0
    for resource in _list(record, "resourceSpans", place):
        for scope in _list(resource, "scopeSpans", place):
            for span in _list(scope, "spans", place):
                number += 1
                yield f"{place}, span {number}", _normal(span, f"{place}, span {number}",
                                                         otlp=True)


def _list(value, key, place):
    found = value.get(key, []) if type(value) is dict else None
    if type(found) is not list:
        raise DatasetFileError(f"{place}: key {key!r} must be a list; got {show(found)}")
    return found


def _text_of(span, keys, place, what):
    for key in keys:
        value = span.get(key)
        if value is not None:
            if type(value) is int and not isinstance(value, bool):
                value = str(value)
            if type(value) is not str:
                raise DatasetFileError(f"{place}: {key} ({what}) must be a string; got "
                                       f"{show(value)}")
            problem = unicode_problem(value)
            if problem:
                raise DatasetFileError(f"{place}: {key} ({what}) {problem}")
            return value
    raise DatasetFileError(f"{place}: missing {what}")


def _documents(span, place, corpus):
    """The retriever span's documents in index order, as IDs."""
    indexes = sorted({int(key.split(".")[2]) for key in span
                      if key.startswith("retrieval.documents.") and key.split(".")[2].isdigit()})
    if indexes != list(range(len(indexes))):
        raise DatasetFileError(f"{place}: retrieval.documents indexes must run 0, 1, 2, ...; "
                               f"got {show(indexes)}")
    ids = []
    for index in indexes:
        stem_ = f"retrieval.documents.{index}.document"
        doc, text = span.get(f"{stem_}.id"), span.get(f"{stem_}.content")
        if text is not None and (type(text) is not str or unicode_problem(text)):
            raise DatasetFileError(f"{place}: {stem_}.content must be a string; got "
                                   f"{show(text)}")
        if type(doc) is int and not isinstance(doc, bool):
            doc = str(doc)
        if doc is None:
            if text is None:
                raise DatasetFileError(f"{place}: {stem_} has neither an id nor a content")
            doc = context_id(text)
        elif type(doc) is not str:
            raise DatasetFileError(f"{place}: {stem_}.id must be a string or an integer; got "
                                   f"{show(doc)}")
        ids.append((doc, text))
    ranked = id_list([doc for doc, _ in ids], "retrieval.documents", place)
    for doc, text in ids:
        corpus.add((doc,), None if text is None else (text,))
    return ranked


def _trace(trace, spans, corpus):
    """``(place, question, retrieved, answer)`` of one trace, or ``None`` without a
    retriever span."""
    retrievers = [(place, span) for place, span in spans if span.get(KIND) == "RETRIEVER"]
    if not retrievers:
        return None
    if len(retrievers) > 1:
        raise DatasetFileError(f"{retrievers[1][0]}: trace {show(trace)} has a second "
                               f"RETRIEVER span (the first at {retrievers[0][0]}); which one "
                               "ranked is not clear")
    place, retriever = retrievers[0]
    retrieved = _documents(retriever, place, corpus)
    roots = [(at, span) for at, span in spans if not span.get("parent_id")]
    root_place, root = roots[0] if roots else (place, retriever)
    question_from = (retriever if root.get("input.mime_type") == "application/json"
                     or "input.value" not in root else root)
    question = _text_of(question_from, ("input.value",),
                        root_place if question_from is root else place, "the question")
    answer = None
    if root is not retriever and "output.value" in root:
        answer = _text_of(root, ("output.value",), root_place, "the answer")
    else:
        for at, span in spans:
            if span.get(KIND) == "LLM":
                answer = _text_of(span, ("llm.output_messages.0.message.content",
                                         "output.value"), at, "the answer")
    return place, question, retrieved, answer
