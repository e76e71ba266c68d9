"""A team's own log (JSON Lines or CSV, one record per answered question) as a dataset.

Each record is one system answering one question. Which field holds what is an option, so
a log needs no conversion script:

==================  =================  ==============================================
field (default)     required           becomes
==================  =================  ==============================================
``question``        yes                the case's question (its ID: ``id`` if given,
                                       else a hash of the question text)
``id``              no                 the case ID
``system``          no (``--system``)  the system that answered (else ``system=``)
``retrieved``       yes                the run's ranking, in list order
``delivered``       no                 the context given to the answer stage (the
                                       ``context`` field)
``answer``          no                 the run's answer text
``reference``       no                 the case's reference answer(s): a string or a
                                       list of strings (``[]``: unanswerable)
``relevant``        no                 the case's relevant IDs (a list) or graded
                                       labels (an object of ID to integer grade)
``claims``          no                 the run's claims with their citations, as a
                                       dataset's run records hold them: ``[{"claim":
                                       ID, "citations": [IDs]}]``
==================  =================  ==============================================

A list of retrieved or delivered items holds strings (IDs, or with ``lists_of="texts"``
passage texts, each given the ID ``ctx-`` and a hash of its text) or objects with ``id``
and optionally ``text`` (or ``content``) and ``score``. The ranking is the list's order: a
``score`` is never used to reorder it. In CSV a list is a JSON array (or a Python list of
strings, as Ragas and pandas write it), a reference either plain text or a JSON array.
"""
from pathlib import Path

from ..core.rules import OPEN, InvalidInputError, show
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, where
from ._common import (TextCorpus, answer_checked, check_options, check_system, context_id,
                      id_list, question_id, stem, unicode_problem)
from .ragas import rows_of

__all__ = ["FIELDS", "import_log"]

#: Each field the importer reads and its default name in a record.
FIELDS = {"id": "id", "question": "question", "system": "system", "retrieved": "retrieved",
          "context": "delivered", "answer": "answer", "reference": "reference",
          "relevant": "relevant", "claims": "claims"}
ORDER_NOTE = "ranking order"
LISTS_OF = ("ids", "texts")


def import_log(path, *, system=None, fields=None, lists_of="ids", name=None,
               max_bytes=MAX_FILE_BYTES):
    """Import a log of answered questions (``.jsonl`` or ``.csv``); return
    ``(dataset, notes)``.

    ``fields`` maps a field of :data:`FIELDS` to the name it has in the log (the rest keep
    their defaults). ``system`` names the system of records without a system field. A
    question met again (another system, or the same one in another record) must carry the
    same text, reference and labels; the same system answering the same question twice is
    an error naming both lines.

    >>> import json, pathlib, shutil, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "log.jsonl").write_text(json.dumps({
    ...     "question": "Which beacon is red?", "retrieved": ["n2", "n1"],
    ...     "answer": "The north one.", "reference": "the north beacon"}) + "\\n")
    >>> dataset, notes = import_log(folder / "log.jsonl", system="mine")
    >>> dataset.runs
    {'323c06eef2c7': {'mine': {'retrieved': ('n2', 'n1'), 'answer': 'The north one.'}}}
    >>> dataset.cases['323c06eef2c7']['reference']
    ('the north beacon',)
    >>> shutil.rmtree(folder)
    """
    names = _field_names(fields)
    if lists_of not in LISTS_OF:
        raise InvalidInputError(f"lists_of must be 'ids' or 'texts'; got {show(lists_of)}")
    if system is not None:
        check_system(system)
    name = check_options(name=name, default_name=stem(path))
    if Path(path).suffix.lower() not in (".jsonl", ".csv"):
        raise InvalidInputError(f"{where(path)}: expected a .jsonl or .csv file")
    list_columns = frozenset({names["retrieved"], names["context"], names["relevant"],
                              names["claims"]})
    corpus = TextCorpus()
    cases, runs, first_line, run_line = {}, {}, {}, {}
    for number, record in rows_of(path, max_bytes, list_columns, names["reference"]):
        place = where(path, number)
        case, question = _case(record, names, place)
        who = _system(record, names, system, place)
        retrieved = _items(record, names["retrieved"], lists_of, place, corpus, required=True)
        run = {"retrieved": retrieved}
        delivered = _items(record, names["context"], lists_of, place, corpus)
        if delivered is not None:
            run["delivered"] = delivered
        answer = record.get(names["answer"])  # "" is an answer: an abstention
        if answer is not None:
            run["answer"] = _text(answer, names["answer"], place)
        claims = _present(record, names["claims"])
        if claims is not None:
            run["claims"] = _claims(claims, names["claims"], place, corpus)
        labels = _labels(record, names, question, place, corpus)
        if case in cases:
            _same_case(cases[case], labels, case, place, where(Path(path).name,
                                                               first_line[case]))
        else:
            cases[case], first_line[case] = labels, number
        if (case, who) in run_line:
            raise DatasetFileError(f"{place}: system {show(who)} already answered question "
                                   f"{show(case)} on line {run_line[case, who]}")
        run_line[case, who] = number
        runs.setdefault(case, {})[who] = answer_checked(run, place)
    if not cases:
        raise DatasetFileError(f"{where(path)}: holds no records")
    notes = corpus.notes()
    notes[ORDER_NOTE] = (f"each ranking is field {names['retrieved']!r} in list order (a "
                         "score, if any, is not used to reorder it)")
    dataset = Dataset(corpus=corpus.texts, cases=cases, runs=runs, name=name,
                      description=f"Imported from the log {Path(path).name!r}",
                      ids="open", min_relevance=1, sources={}, versions={})
    return dataset, notes


def _field_names(fields):
    names = dict(FIELDS)
    if fields is None:
        return names
    if type(fields) is not dict:
        raise InvalidInputError(f"fields must be a dict of field to name; got {show(fields)}")
    for field, given in fields.items():
        if field not in FIELDS:
            raise InvalidInputError(f"fields: unknown field {show(field)}; expected one of "
                                    f"{', '.join(FIELDS)}")
        if given is None:
            continue
        if type(given) is not str or not given:
            raise InvalidInputError(f"fields[{field!r}] must be a non-empty field name; got "
                                    f"{show(given)}")
        names[field] = given
    return names


def _present(record, field):
    """The value of ``field``, ``None`` when absent, null or an empty CSV cell."""
    value = record.get(field)
    return None if value is None or value == "" else value


def _text(value, field, place):
    if type(value) is not str:
        raise DatasetFileError(f"{place}: field {field!r} must be a string; got {show(value)}")
    problem = unicode_problem(value)
    if problem:
        raise DatasetFileError(f"{place}: field {field!r} {problem}")
    return value


def _case(record, names, place):
    question = _present(record, names["question"])
    if question is None:
        raise DatasetFileError(f"{place}: missing field {names['question']!r} (the question; "
                               "another name is given with --question-field)")
    question = _text(question, names["question"], place)
    if not question.strip():
        raise DatasetFileError(f"{place}: field {names['question']!r} must be a non-blank "
                               f"string; got {show(question)}")
    case = _present(record, names["id"])
    if case is None:
        return question_id(question), question
    if type(case) is int and not isinstance(case, bool):
        case = str(case)
    if not OPEN.is_id(case) or unicode_problem(case):
        raise DatasetFileError(f"{place}: field {names['id']!r} must be {OPEN.expected}; got "
                               f"{show(case)}")
    return case, question


def _system(record, names, default, place):
    who = _present(record, names["system"])
    if who is None:
        if default is None:
            raise DatasetFileError(f"{place}: missing field {names['system']!r} and no "
                                   "--system given: name the system that answered")
        return default
    if not OPEN.is_id(who) or unicode_problem(who):
        raise DatasetFileError(f"{place}: field {names['system']!r} must be {OPEN.expected}; "
                               f"got {show(who)}")
    return who


def _items(record, field, lists_of, place, corpus, *, required=False):
    """The IDs of a retrieved or delivered list (their texts entered in ``corpus``), or
    ``None`` when the field is absent and not ``required``."""
    value = _present(record, field)
    if value is None:
        if required:
            raise DatasetFileError(f"{place}: missing field {field!r} (the ranked list; "
                                   "another name is given with --retrieved-field)")
        return None
    what = f"field {field!r}"
    if type(value) is not list:
        raise DatasetFileError(f"{place}: {what} must be a list; got {show(value)}")
    ids, texts = [], []
    for position, item in enumerate(value):
        if type(item) is dict:
            doc = item.get("id")
            if type(doc) is int and not isinstance(doc, bool):
                doc = str(doc)
            text = item.get("text", item.get("content"))
            if type(doc) is not str or text is not None and type(text) is not str:
                raise DatasetFileError(f"{place}: {what}[{position}] must have an 'id' (a "
                                       f"string) and optionally a 'text' string; got "
                                       f"{show(item)}")
            ids.append(doc)
            texts.append(None if text is None else
                         _text(text, f"{field}[{position}].text", place))
        elif type(item) is str and lists_of == "texts":
            ids.append(context_id(item))
            texts.append(_text(item, f"{field}[{position}]", place))
        elif type(item) is str:
            ids.append(item)
            texts.append(None)
        else:
            raise DatasetFileError(f"{place}: {what}[{position}] must be a string or an object "
                                   f"with 'id'; got {show(item)}")
    ids = id_list(ids, what, place)
    corpus.add(ids)
    for doc, text in zip(ids, texts):
        if text is not None:
            corpus.add((doc,), (text,))
    return ids


def _claims(value, field, place, corpus):
    """A run's claims, ``((claim, citations), ...)``, from ``[{"claim", "citations"}]``."""
    expected = f"an array of {{'claim': ID, 'citations': [IDs]}} objects"
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field {field!r} must be {expected}; got {show(value)}")
    found = []
    for position, item in enumerate(value):
        if type(item) is not dict or set(item) != {"claim", "citations"} or not OPEN.is_id(
                item["claim"]):
            raise DatasetFileError(f"{place}: field {field!r}[{position}] must be an object "
                                   f"with 'claim' (an ID) and 'citations'; got {show(item)}")
        problem = unicode_problem(item["claim"])
        if problem:
            raise DatasetFileError(f"{place}: field {field!r}[{position}].claim {problem}")
        cited = id_list(item["citations"], f"field {field!r}[{position}].citations", place)
        corpus.add(cited)
        found.append((item["claim"], cited))
    if len({claim for claim, _ in found}) != len(found):
        raise DatasetFileError(f"{place}: field {field!r} names a claim twice")
    return tuple(found)


def _labels(record, names, question, place, corpus):
    """The case a record implies: question, relevant labels and reference answers."""
    case = {"question": question, "relevant": ()}
    relevant = _present(record, names["relevant"])
    if type(relevant) is dict:
        for doc, grade in relevant.items():
            if type(grade) is not int or isinstance(grade, bool):
                raise DatasetFileError(f"{place}: field {names['relevant']!r} must map IDs to "
                                       f"integer grades; got {show(doc)}: {show(grade)}")
        corpus.add(id_list(list(relevant), f"field {names['relevant']!r}", place))
        case["relevant"] = dict(relevant)
    elif relevant is not None:
        case["relevant"] = id_list(relevant, f"field {names['relevant']!r}", place)
        corpus.add(case["relevant"])
    reference = _present(record, names["reference"])
    if reference is not None:
        if type(reference) is str:
            reference = [reference]
        if type(reference) is not list or not all(type(item) is str for item in reference):
            raise DatasetFileError(f"{place}: field {names['reference']!r} must be a string or "
                                   f"a list of strings (an empty list: unanswerable); got "
                                   f"{show(reference)}")
        for item in reference:
            _text(item, names["reference"], place)
        case["reference"] = tuple(reference)
    return case


def _same_case(first, labels, case, place, at):
    for key, what in (("question", "question"), ("reference", "reference answers"),
                      ("relevant", "relevant labels")):
        mine, theirs = labels.get(key), first.get(key)
        if key == "relevant" and type(mine) is not dict and type(theirs) is not dict:
            mine, theirs = set(mine), set(theirs)
        if mine != theirs:
            raise DatasetFileError(f"{place}: question {show(case)} has {what} "
                                   f"{show(labels.get(key))} here but "
                                   f"{show(first.get(key))} at {at}")
