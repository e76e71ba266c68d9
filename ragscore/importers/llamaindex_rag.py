"""A LlamaIndex ``LabelledRagDataset`` and the responses of one or more query engines.

- The dataset is what ``LabelledRagDataset.save_json`` writes: ``{"examples": [...]}``, each
  example a ``LabelledRagDataExample`` with ``query``, ``reference_contexts`` (texts) and
  ``reference_answer`` (``query_by`` and ``reference_answer_by`` are ignored).
- The responses of a system, one file each, in the examples' order: what
  ``RagPredictionDataset.save_json`` writes, ``{"predictions": [...]}`` of
  ``RagExamplePrediction`` (``response``, and ``contexts``: "the contexts in raw text form
  used to generate the response", LlamaIndex fills them from ``response.source_nodes``),
  or a JSON array / JSON Lines of ``Response`` dumps, ``{"response", "source_nodes":
  [NodeWithScore.to_dict(), ...]}`` (each ``{"node": {"text", ...}, "score"}``).

Contexts are known by their text, so every context, reference or predicted, is named
``ctx-`` and a hash of its text (:func:`~._common.context_id`): the same passage gets the
same ID on both sides, and a node's own ``id_`` is not used (a reference context has none
to match it). The ranking is the contexts' (source nodes') order, and since those are the
contexts the response was generated from, they are also recorded as the delivered context.
"""
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, read_json, where
from ._common import (TextCorpus, answer_checked, check_options, check_system, context_id,
                      id_list, open_input,
                      question_id, stem, text_list, unicode_problem)
from .llamaindex import _results

__all__ = ["import_llamaindex_rag"]


def import_llamaindex_rag(dataset_path, predictions=(), *, name=None,
                          max_bytes=MAX_FILE_BYTES):
    """Import a ``LabelledRagDataset`` JSON file and, for each ``(path, system)`` in
    ``predictions``, that system's responses; return ``(dataset, notes)``.

    Each example becomes a case (ID: a hash of its query; ``relevant``: its reference
    contexts; ``reference``: its reference answer). The n-th response of a file answers
    the n-th example; a file with another count of responses is refused.

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "rag.json").write_text(json.dumps({"examples": [{
    ...     "query": "Which beacon is red?", "reference_contexts": ["The north beacon is red."],
    ...     "reference_answer": "The north beacon", "query_by": None}]}))
    >>> _ = (folder / "vector.json").write_text(json.dumps({"predictions": [{
    ...     "response": "The north one.", "contexts": ["The north beacon is red."]}]}))
    >>> dataset, notes = import_llamaindex_rag(folder / "rag.json",
    ...                                        [(folder / "vector.json", "vector")])
    >>> dataset.runs['323c06eef2c7']['vector']['answer']
    'The north one.'
    >>> shutil.rmtree(folder)
    """
    name = check_options(name=name, default_name=stem(dataset_path))
    pairs = list(predictions)
    systems = [check_system(system) for _, system in pairs]
    if len(set(systems)) != len(systems):
        raise InvalidInputError(f"each system once; got {show(systems)}")
    corpus = TextCorpus()
    cases = _examples(dataset_path, corpus, max_bytes)
    runs = {case: {} for case in cases}
    for path, system in pairs:
        responses = _responses(path, corpus, max_bytes)
        if len(responses) != len(cases):
            raise DatasetFileError(f"{where(path)}: holds {len(responses)} responses for "
                                   f"{len(cases)} examples in {Path(dataset_path).name}; the "
                                   "n-th response answers the n-th example")
        for number, (case, (answer, contexts)) in enumerate(zip(cases, responses), 1):
            run = {"retrieved": contexts, "answer": answer}
            if contexts:
                run["delivered"] = contexts
            runs[case][system] = answer_checked(run, f"{where(path)}, response {number}")
    notes = corpus.notes()
    notes["ranking order"] = ("each ranking is the response's contexts (source nodes) in "
                              "their order, also recorded as the delivered context")
    dataset = Dataset(corpus=corpus.texts, cases=cases,
                      runs={case: per_case for case, per_case in runs.items() if per_case},
                      name=name, description=f"Imported from the LlamaIndex RAG dataset "
                                             f"{Path(dataset_path).name!r}",
                      ids="open", min_relevance=1, sources={}, versions={})
    return dataset, notes


def _examples(path, corpus, max_bytes):
    with open_input(path, max_bytes) as handle:
        data = read_json(handle, path, max_bytes)
    examples = data.get("examples") if type(data) is dict else None
    if type(examples) is not list or not examples:
        raise DatasetFileError(f"{where(path)}: key 'examples' must be a non-empty list; got "
                               f"{show(examples)}")
    cases = {}
    for position, example in enumerate(examples, start=1):
        place = f"{where(path)}, example {position}"
        if type(example) is not dict:
            raise DatasetFileError(f"{place}: expected an object; got {show(example)}")
        query = example.get("query")
        if type(query) is not str or not query.strip() or unicode_problem(query):
            raise DatasetFileError(f"{place}: key 'query' must be a non-blank string; got "
                                   f"{show(query)}")
        texts = text_list(example.get("reference_contexts") or [],
                          "key 'reference_contexts'", place)
        relevant = id_list(list(dict.fromkeys(context_id(text) for text in texts)),
                           "key 'reference_contexts' (as hashes)", place)
        corpus.add(relevant, list(dict.fromkeys(texts)))
        case = {"question": query, "relevant": relevant}
        answer = example.get("reference_answer")
        if answer is not None:
            if type(answer) is not str or unicode_problem(answer):
                raise DatasetFileError(f"{place}: key 'reference_answer' must be a string; "
                                       f"got {show(answer)}")
            case["reference"] = (answer,)
        key = question_id(query)
        if key in cases:
            raise DatasetFileError(f"{place}: query {show(query)} is asked twice")
        cases[key] = case
    return cases


def _responses(path, corpus, max_bytes):
    """``[(answer, context IDs)]`` of a predictions file, in order."""
    if Path(path).suffix.lower() == ".json":
        with open_input(path, max_bytes) as handle:
            start = handle.read(4096).lstrip()[:1]
        if start == b"{":
            with open_input(path, max_bytes) as handle:
                data = read_json(handle, path, max_bytes)
            items = data.get("predictions") if type(data) is dict else None
            if type(items) is not list:
                raise DatasetFileError(f"{where(path)}: key 'predictions' must be a list; "
                                       f"got {show(items)}")
            listed = [(f"{where(path)}, prediction {n}", item)
                      for n, item in enumerate(items, start=1)]
        else:
            listed = [(place, item) for place, _, item in _results(path, max_bytes)]
    else:
        listed = [(place, item) for place, _, item in _results(path, max_bytes)]
    found = []
    for place, item in listed:
        if type(item) is not dict:
            raise DatasetFileError(f"{place}: expected an object; got {show(item)}")
        answer = item.get("response", "")
        if type(answer) is not str or unicode_problem(answer):
            raise DatasetFileError(f"{place}: key 'response' must be a string; got "
                                   f"{show(answer)}")
        if "source_nodes" in item:
            texts = []
            nodes = item["source_nodes"]
            if type(nodes) is not list:
                raise DatasetFileError(f"{place}: key 'source_nodes' must be a list; got "
                                       f"{show(nodes)}")
            for position, node in enumerate(nodes):
                text = node.get("node", {}).get("text") if type(node) is dict and type(
                    node.get("node")) is dict else None
                if type(text) is not str:
                    raise DatasetFileError(f"{place}: source_nodes[{position}] must be "
                                           f"{{'node': {{'text': ...}}, 'score': ...}}; got "
                                           f"{show(node)}")
                texts.append(text)
            texts = text_list(texts, "key 'source_nodes'", place)
        else:
            texts = text_list(item.get("contexts") or [], "key 'contexts'", place)
        ids = id_list([context_id(text) for text in texts], "the contexts (as hashes)", place)
        corpus.add(ids, texts)
        found.append((answer, ids))
    return found
