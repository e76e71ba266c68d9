"""ALCE result files (princeton-nlp/ALCE, ``run.py``'s ``result/*.json``), read and written.

One JSON document, as ALCE writes it (``json.dump(..., indent=4)``)::

    {"args": {...}, "data": [
        {"question": "Who ...?", "answer": "...",
         "docs": [{"id": "1254", "title": "Aurora", "text": "..."}, ...],
         "output": "The Aurora team owns it [1][2]."}]}

Each item is one question answered by one system (``system``, given by the caller: the file
names its model in ``args``, not a system): the question becomes a case (ID: the item's
``id``, ``sample_id`` or ``question_id``, else a hash of the question), its ``docs`` the
run's ranking in order (a passage's ID: its ``id``, else ``ctx-`` and a hash of its title
and text; its ``title`` the document it comes from, corpus ``source``), its ``output`` the
run's answer text, whose ``[n]`` markers cite the n-th passage (:mod:`ragscore.core.
claim_markers` reads them as ALCE's ``eval.py`` does). A string ``answer`` is the case's
reference answer. What else an item or the file holds (``args``, ``prompt``,
``qa_pairs``, ...) is not kept, and counted.

:func:`export_alce` writes one system's runs back in that layout (``data`` only), so a file
it wrote is read and written back byte for byte.
"""
import json

from ..core.rules import OPEN, InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, read_json, where
from ._common import answer_checked, check_options, check_system, context_id, open_input, \
    question_id, stem, unicode_problem

__all__ = ["export_alce", "import_alce"]

ITEM_IDS = ("id", "sample_id", "question_id")
KEPT = ("question", "answer", "docs", "output") + ITEM_IDS
DOC_KEPT = ("id", "title", "text")


def _text(value, what, place, *, blank=True):
    if type(value) is not str or unicode_problem(value) or not blank and not value.strip():
        raise DatasetFileError(f"{place}: {what} must be text; got {show(value)}")
    return value


def _docs(value, place, corpus, sources, notes):
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'docs' must be an array of passages; got "
                               f"{show(value)}")
    ranked = []
    for position, doc in enumerate(value):
        at = f"{place}: docs[{position}]"
        if type(doc) is not dict or "text" not in doc:
            raise DatasetFileError(f"{at} must be an object with 'text' (and 'title', "
                                   f"'id'); got {show(doc)}")
        text = _text(doc["text"], "'text'", at)
        title = _text(doc.get("title", ""), "'title'", at)
        notes["passage fields not kept"] += sum(key not in DOC_KEPT for key in doc)
        doc_id = doc.get("id")
        if doc_id is None:
            doc_id = context_id(f"{title}\n{text}")
        elif type(doc_id) is int:
            doc_id = str(doc_id)
        if not OPEN.is_id(doc_id):
            raise DatasetFileError(f"{at}['id'] must be an ID ({OPEN.expected}); got "
                                   f"{show(doc_id)}")
        if doc_id in ranked:
            raise DatasetFileError(f"{at}: passage {show(doc_id)} is listed twice")
        known = corpus.get(doc_id)
        if known is not None and known != (text or None):
            raise DatasetFileError(f"{at}: passage {show(doc_id)} has another text than in "
                                   "an earlier item")
        corpus[doc_id] = text or None
        if title and OPEN.is_id(title):
            sources[doc_id] = title
        ranked.append(doc_id)
    return tuple(ranked)


def import_alce(path, *, system, name=None, max_bytes=MAX_FILE_BYTES):
    """Import one system's ALCE result file; return ``(dataset, notes)``. See the module
    docstring.

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "run.json").write_text(json.dumps({"data": [{
    ...     "question": "Who owns the alert?", "output": "Aurora owns it [1].",
    ...     "docs": [{"id": "p1", "title": "Alerts", "text": "Aurora owns it."}]}]}))
    >>> dataset, notes = import_alce(folder / "run.json", system="gpt")
    >>> dataset.runs["0d33240934cc"]["gpt"]
    {'retrieved': ('p1',), 'answer': 'Aurora owns it [1].'}
    >>> shutil.rmtree(folder)
    """
    check_system(system)
    name = check_options(name=name, default_name=stem(path))
    with open_input(path, max_bytes) as handle:
        document = read_json(handle, path, max_bytes)
    items = document.get("data")
    if type(items) is not list or not items:
        raise DatasetFileError(f"{where(path)}: field 'data' must be a non-empty array of "
                               f"answered questions; got {show(items)}")
    corpus, sources, cases, runs = {}, {}, {}, {}
    notes = {"file fields not kept (args, costs, ...)": sum(key != "data" for key in document),
             "item fields not kept (prompt, qa_pairs, ...)": 0, "passage fields not kept": 0,
             "answers that are not one string (not kept as a reference)": 0}
    for position, item in enumerate(items):
        place = f"{where(path)}: data[{position}]"
        if type(item) is not dict or "question" not in item or "output" not in item:
            raise DatasetFileError(f"{place} must be an object with 'question', 'docs' and "
                                   f"'output'; got {show(item)}")
        question = _text(item["question"], "field 'question'", place, blank=False)
        case = next((str(item[key]) for key in ITEM_IDS if key in item), None)
        case = question_id(question) if case is None else case
        if not OPEN.is_id(case):
            raise DatasetFileError(f"{place}: its ID must be {OPEN.expected}; got {show(case)}")
        if case in cases:
            raise DatasetFileError(f"{place}: question {show(case)} is answered twice")
        notes["item fields not kept (prompt, qa_pairs, ...)"] += sum(
            key not in KEPT for key in item)
        cases[case] = {"question": question, "relevant": ()}
        answer = item.get("answer")
        if type(answer) is str and not unicode_problem(answer):
            cases[case]["reference"] = (answer,)
        elif answer is not None:
            notes["answers that are not one string (not kept as a reference)"] += 1
        ranked = _docs(item.get("docs", []), place, corpus, sources, notes)
        runs[case] = {system: answer_checked(
            {"retrieved": ranked, "answer": _text(item["output"], "field 'output'", place)},
            place)}
    if not corpus:
        raise DatasetFileError(f"{where(path)}: no item lists a passage (docs)")
    dataset = Dataset(corpus=corpus, cases=cases, runs=runs, name=name,
                      description=f"Imported from the ALCE result file {stem(path)!r}",
                      ids="open", sources=sources, versions={})
    return dataset, {note: number for note, number in notes.items() if number}


def export_alce(dataset, path, *, system):
    """Write ``system``'s answers as an ALCE result file at ``path`` (``data`` only, as
    ``json.dump(..., indent=4)`` writes it); return how many items were written. A run
    without answer text is not written."""
    from pathlib import Path

    from ..io.store import write_file_atomically

    if system not in dataset.systems:
        raise InvalidInputError(f"system {show(system)} is not in the dataset (its systems: "
                                f"{', '.join(dataset.systems) or 'none'})")
    sources = dataset.sources or {}
    items = []
    for case_name, per_case in dataset.runs.items():
        run = per_case.get(system)
        if type(run) is not dict or "answer" not in run:
            continue
        case = dataset.cases[case_name]
        item = {"id": case_name, "question": case.get("question", "")}
        references = case.get("reference")
        if references is not None and len(references) == 1:
            item["answer"] = references[0]
        item["docs"] = [{"id": doc, "title": sources.get(doc, ""),
                         "text": dataset.corpus.get(doc) or ""} for doc in run["retrieved"]]
        item["output"] = run["answer"]
        items.append(item)
    write_file_atomically(Path(path), [json.dumps({"data": items}, indent=4)])
    return len(items)
