"""LlamaIndex evaluation files as datasets.

- An ``EmbeddingQAFinetuneDataset`` saved as JSON (``save_json``): one object with
  ``queries`` ``{id: text}``, ``corpus`` ``{id: text}`` and ``relevant_docs``
  ``{query id: [doc ids]}`` (other keys, such as ``mode``, are ignored). Its runs come as TREC
  run files.
- The results of a ``RetrieverEvaluator``: a JSON array, or JSON Lines, of objects with
  ``query``, ``expected_ids`` and ``retrieved_ids`` (``expected_texts`` and
  ``retrieved_texts``, when as long as their IDs, become corpus text; ``metric_dict`` and
  other keys are ignored).

A single JSON document has no useful line numbers, so its errors name the key path
(``qa.json, key 'relevant_docs' > 'q2'``); JSON Lines errors name the line, and a JSON
array's errors name the item (1-based).
"""
from pathlib import Path

from ..core.rules import OPEN, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, read_json, read_value, records, where
from ._common import (LIST_ORDER_NOTE, TextCorpus, assemble_runs, check_options, check_system,
                      document_text,
                      file_names, id_list, open_input, paths_of, question_id, stem,
                      text_list, unicode_problem)
from .trec import ORDER_NOTES, RunReader

__all__ = ["import_llamaindex", "import_llamaindex_results"]


def _at(path, *keys):
    return f"{where(path)}, key " + " > ".join(show(key) for key in keys)


def _mapping(data, key, path):
    value = data.get(key)
    if type(value) is not dict:
        if key not in data:
            raise DatasetFileError(f"{where(path)}: missing key {key!r}")
        raise DatasetFileError(f"{_at(path, key)}: must be an object; got {show(value)}")
    return value


def _text(value, path, *keys):
    if type(value) is not str:
        raise DatasetFileError(f"{_at(path, *keys)}: must be a string; got {show(value)}")
    problem = unicode_problem(value)
    if problem:
        raise DatasetFileError(f"{_at(path, *keys)}: {problem}")
    return value


def _key_id(value, path, *keys):
    if not OPEN.is_id(value) or unicode_problem(value):
        raise DatasetFileError(f"{_at(path, *keys)}: the key must be {OPEN.expected}")
    return value


def import_llamaindex(path, *, runs=(), missing_run="zero", name=None,
                      max_bytes=MAX_FILE_BYTES):
    """Import an ``EmbeddingQAFinetuneDataset`` JSON file and, optionally, TREC run files;
    return ``(dataset, notes)``.

    Each query becomes a case (question: its text; ``relevant``: its ``relevant_docs``,
    binary). Every query must have ``relevant_docs`` and every ``relevant_docs`` key must
    be a query; every relevant document must be in the corpus. Runs are read as
    :func:`~.trec.import_trec` reads them, with the same ``notes``.

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "qa.json").write_text(json.dumps({
    ...     "queries": {"q1": "Which beacon is red?"},
    ...     "corpus": {"n1": "The north beacon is red.", "n2": "The pier is long."},
    ...     "relevant_docs": {"q1": ["n1"]}, "mode": "text"}))
    >>> dataset, notes = import_llamaindex(folder / "qa.json")
    >>> dataset.cases
    {'q1': {'question': 'Which beacon is red?', 'relevant': ('n1',)}}
    >>> shutil.rmtree(folder)
    """
    name = check_options(name=name, default_name=stem(path), missing_run=missing_run)
    run_paths = paths_of(runs, "runs")
    with open_input(path, max_bytes) as handle:
        data = read_json(handle, path, max_bytes)
    queries = _mapping(data, "queries", path)
    texts = _mapping(data, "corpus", path)
    labels = _mapping(data, "relevant_docs", path)
    corpus = {_key_id(doc, path, "corpus", doc):
              document_text(_text(text, path, "corpus", doc))
              for doc, text in texts.items()}
    if not corpus:
        raise DatasetFileError(f"{_at(path, 'corpus')}: holds no documents")
    cases = {}
    for qid, question in queries.items():
        _key_id(qid, path, "queries", qid)
        _text(question, path, "queries", qid)
        if qid not in labels:
            raise DatasetFileError(f"{_at(path, 'relevant_docs')}: query {show(qid)} has "
                                   "no entry")
        place = _at(path, "relevant_docs", qid)
        relevant = id_list(labels[qid], "the value", place)
        outside = next((doc for doc in relevant if doc not in corpus), None)
        if outside is not None:
            raise DatasetFileError(f"{place}: document {show(outside)} is not in the "
                                   "corpus")
        cases[qid] = {"question": question, "relevant": relevant}
    extra = next((qid for qid in labels if qid not in queries), None)
    if extra is not None:
        raise DatasetFileError(f"{_at(path, 'relevant_docs', extra)}: no such query in "
                               "'queries'")
    if not cases:
        raise DatasetFileError(f"{_at(path, 'queries')}: holds no queries")
    reader = RunReader(cases, {doc: doc for doc in corpus} if run_paths else {},
                       known_as=f"the corpus of {Path(path).name}", max_bytes=max_bytes)
    for run_path in run_paths:
        reader.read(run_path)
    imported, notes = assemble_runs(cases, reader.rankings, reader.unjudged, missing_run)
    if run_paths:
        notes["ranking order"] = ORDER_NOTES["score"]
    description = f"Imported from the LlamaIndex QA dataset {file_names([path])}"
    if run_paths:
        description += f" and runs {file_names(run_paths)}"
    dataset = Dataset(corpus=corpus, cases=cases, runs=imported, name=name,
                      description=description, ids="open", min_relevance=1, sources={},
                      versions={})
    return dataset, notes


def _results(path, max_bytes):
    """Yield ``(place, number, object)`` for each result of a JSON array or JSON Lines file."""
    with open_input(path, max_bytes) as handle:
        start = handle.read(4096).lstrip()
        handle.seek(0)
        if start[:1] != b"[":
            for number, record in records(handle, path, max_bytes):
                yield where(path, number), number, record
            return
        value = read_value(handle, path, max_bytes)
    for position, item in enumerate(value, start=1):
        place = f"{where(path)}, item {position}"
        if type(item) is not dict:
            raise DatasetFileError(f"{place}: expected a JSON object; got {show(item)}")
        yield place, position, item


def import_llamaindex_results(path, *, system, name=None, max_bytes=MAX_FILE_BYTES):
    """Import the results of a LlamaIndex ``RetrieverEvaluator`` as the runs of one system;
    return ``(dataset, notes)``.

    Each result becomes a case named by the short hash of its ``query`` (the first 12 hex
    digits of its SHA-256, as :func:`~._common.question_id`): ``relevant`` is
    ``expected_ids`` (binary) and the run of ``system`` retrieves ``retrieved_ids``. A
    repeated ID in either list is an error (not dropped), as is a query met twice.
    ``notes`` counts texts left out (see :class:`~._common.TextCorpus`).

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "results.json").write_text(json.dumps([
    ...     {"query": "Which beacon is red?", "expected_ids": ["n1"],
    ...      "retrieved_ids": ["n2", "n1"], "metric_dict": {}}]))
    >>> dataset, notes = import_llamaindex_results(folder / "results.json", system="vector")
    >>> dataset.runs
    {'323c06eef2c7': {'vector': {'retrieved': ('n2', 'n1')}}}
    >>> shutil.rmtree(folder)
    """
    name = check_options(name=name, default_name=stem(path))
    check_system(system)
    corpus = TextCorpus()
    cases, runs, places = {}, {}, {}
    for place, _, record in _results(path, max_bytes):
        query = record.get("query")
        if type(query) is not str or unicode_problem(query):
            raise DatasetFileError(f"{place}: key 'query' must be a string; got "
                                   f"{show(query)}")
        case = question_id(query)
        if case in places:
            raise DatasetFileError(f"{place}: query {show(query)} is also at "
                                   f"{places[case]}")
        places[case] = place
        expected = id_list(record.get("expected_ids"), "key 'expected_ids'", place)
        retrieved = id_list(record.get("retrieved_ids"), "key 'retrieved_ids'", place)
        for ids, key in ((expected, "expected_texts"), (retrieved, "retrieved_texts")):
            texts = record.get(key)
            corpus.add(ids, None if texts is None else text_list(texts, f"key {key!r}",
                                                                 place))
        cases[case] = {"question": query, "relevant": expected}
        runs[case] = {system: {"retrieved": retrieved}}
    if not cases:
        raise DatasetFileError(f"{where(path)}: holds no results")
    if not corpus.texts:
        raise DatasetFileError(f"{where(path)}: names no documents")
    dataset = Dataset(corpus=corpus.texts, cases=cases, runs=runs, name=name,
                      description=f"Imported from the LlamaIndex retrieval results "
                                  f"{file_names([path])} as system {system!r}",
                      ids="open", min_relevance=1, sources={}, versions={})
    return dataset, {**corpus.notes(), "ranking order": LIST_ORDER_NOTE}
