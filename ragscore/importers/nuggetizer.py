"""Nuggets and nugget assignments in castorini/nuggetizer's layouts, with TREC RAG answers
and qrels: read into a test set (:func:`import_nuggets`) and written back
(:func:`export_nuggets`).

A **nuggets** line (nuggetizer's ``create`` output)::

    {"query": "what is python used for", "qid": "q1",
     "nuggets": [{"text": "Python is used for web development", "importance": "vital"}]}

becomes a case: the question, and its nuggets listed in order as ``n1``, ``n2``, ... with
their text and importance (``vital`` when a line gives none, as nuggetizer reads it). An
**assignments** line (nuggetizer's ``assign`` output, answers mode)::

    {"query": "...", "qid": "q1", "answer_text": "Python is used ...",
     "response_length": 42, "run_id": "run-a",
     "nuggets": [{"text": "...", "importance": "vital", "assignment": "support"}]}

is a system's (``run_id``) answer and one judgement of kind ``nugget`` per nugget
(:mod:`ragscore.core.labels`), keyed by the nugget and the answer, with the provenance the
caller gives (``llm-draft`` by ``judge:nuggetizer`` unless told otherwise: nuggetizer is
an LLM). Its nuggets must be the question's, in order. The answer is the TREC RAG answer
(``answers``, :mod:`ragscore.importers.trec_rag`) of the same run and topic when given,
its sentences joined being ``answer_text``; else ``answer_text`` itself, without a ranking.
``qrels`` grade the passages (TREC's ``qid iter docno rel``).

Both files are written as nuggetizer writes them (``json.dumps`` with Python's defaults,
one record a line, keys in its order), so a file read and written back is the same bytes
when its questions and runs come in the test set's order; a numeric ``qid`` or
``topic_id`` is written back as text.
"""
import datetime
import hashlib
import io
import json
from pathlib import Path

from ..core.labels import ORIGINS, content_key
from ..core.nuggets import ASSIGNMENTS, IMPORTANCES, assignment_key, nugget_key
from ..core.rules import OPEN, InvalidInputError, check_date, show
from ..io.answers import answer_only, labelled, run_answer_key
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, too_big, where
from ._common import check_options, file_names, open_input, stem, unicode_problem
from .trec_rag import checked_lines, read_answers, response_length, topic_id, write_answers

__all__ = ["export_nuggets", "import_nuggets"]

NUGGET_LINE = ("query", "qid", "nuggets")
ASSIGNMENT_LINE = ("query", "qid", "answer_text", "response_length", "run_id", "nuggets")
#: Keys nuggetizer may add that are not kept (reasoning and traces).
DROPPED = ("reasoning_traces", "creator_reasoning_traces", "scoring_reasoning_traces", "trace")
NUGGET_DROPPED = ("reasoning", "trace")
DRAFTER = "judge:nuggetizer"


def _read(path, max_bytes):
    """The bytes of the file at ``path`` (a regular file of at most ``max_bytes``)."""
    with open_input(path, max_bytes) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_big(path, max_bytes)
    return data


def _lines(path, data, max_bytes, keys):
    """Yield ``(place, record, dropped)`` for each line of ``data``, its keys checked."""
    with io.BytesIO(data) as handle:
        for _, place, record, dropped in checked_lines(handle, path, max_bytes, keys, DROPPED):
            yield place, record, dropped


def _text(record, field, place):
    value = record[field]
    if type(value) is not str or unicode_problem(value):
        raise DatasetFileError(f"{place}: field {field!r} must be text; got {show(value)}")
    return value


def _nuggets(value, place, *, assigned):
    """``[(text, importance, assignment or None)]`` of a line's ``nuggets``."""
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'nuggets' must be an array of nuggets; got "
                               f"{show(value)}")
    found, defaulted, dropped = [], 0, 0
    keys = ("text", "importance") + (("assignment",) if assigned else ())
    for position, item in enumerate(value):
        at = f"{place}: field 'nuggets'[{position}]"
        if type(item) is not dict or "text" not in item or any(
                key not in keys + NUGGET_DROPPED for key in item):
            raise DatasetFileError(f"{at} must be an object with {', '.join(keys)}; got "
                                   f"{show(item)}")
        dropped += any(key in item for key in NUGGET_DROPPED)
        text = item["text"]
        if type(text) is not str or not text.strip() or unicode_problem(text):
            raise DatasetFileError(f"{at}['text'] must be non-blank text; got {show(text)}")
        importance = item.get("importance")
        if importance is None and "importance" not in item:
            importance, defaulted = "vital", defaulted + 1
        if importance not in IMPORTANCES:
            raise DatasetFileError(f"{at}['importance'] must be one of "
                                   f"{', '.join(IMPORTANCES)}; got {show(importance)}")
        assignment = item.get("assignment")
        if assigned and assignment not in ASSIGNMENTS:
            raise DatasetFileError(f"{at}['assignment'] must be one of "
                                   f"{', '.join(ASSIGNMENTS)}; got {show(assignment)}")
        found.append((text, importance, assignment))
    return found, defaulted, dropped


def _provenance(origin, reviewer, date):
    if origin not in ORIGINS:
        raise InvalidInputError(f"origin must be one of {', '.join(ORIGINS)}; got "
                                f"{show(origin)}")
    if reviewer is None:
        if origin != "llm-draft":
            raise InvalidInputError(f"assignments of origin {origin!r} need a reviewer "
                                    "(--reviewer NAME): the person who judged them")
        reviewer = DRAFTER
    if type(reviewer) is not str or not reviewer.strip():
        raise InvalidInputError(f"reviewer must be a non-blank name; got {show(reviewer)}")
    date = check_date(date or datetime.date.today().isoformat(), "date")
    return reviewer, date


class _Reading:
    """What the files add up to, as they are read."""

    def __init__(self):
        self.cases, self.runs, self.corpus = {}, {}, {}
        self.notes = {"nuggets given no importance (vital, as nuggetizer reads them)": 0,
                      "lines whose reasoning or traces were not kept": 0,
                      "question IDs given as numbers (written back as text)": 0}

    def count(self, note, number=1):
        self.notes[note] += number

    def question_id(self, value, place):
        case, numbered = topic_id(value, "qid", place)
        self.count("question IDs given as numbers (written back as text)", numbered)
        return case


def _read_nuggets(path, reading, max_bytes):
    for place, record, dropped in _lines(path, _read(path, max_bytes), max_bytes, NUGGET_LINE):
        case = reading.question_id(record["qid"], place)
        if case in reading.cases:
            raise DatasetFileError(f"{place}: question {show(case)} is listed twice")
        nuggets, defaulted, dropped_items = _nuggets(record["nuggets"], place, assigned=False)
        reading.count("nuggets given no importance (vital, as nuggetizer reads them)",
                      defaulted)
        reading.count("lines whose reasoning or traces were not kept",
                      bool(dropped or dropped_items))
        reading.cases[case] = {
            "question": _text(record, "query", place), "relevant": (),
            "nuggets": tuple({"id": f"n{position}", "text": text, "importance": importance}
                             for position, (text, importance, _) in enumerate(nuggets, 1))}
    if not reading.cases:
        raise DatasetFileError(f"{path}: holds no nuggets")


def _read_answers(path, reading, max_bytes):
    answers, dropped = read_answers(path, max_bytes=max_bytes)
    reading.count("lines whose reasoning or traces were not kept", dropped)
    for answer in answers:
        place = where(path, answer.line)
        reading.count("question IDs given as numbers (written back as text)", answer.numbered)
        case = reading.cases.setdefault(answer.case, {"question": answer.question,
                                                      "relevant": ()})
        if case["question"] != answer.question:
            raise DatasetFileError(f"{place}: field 'topic' must be question "
                                   f"{show(answer.case)} as the nuggets give it "
                                   f"({show(case['question'])}); got {show(answer.question)}")
        per_case = reading.runs.setdefault(answer.case, {})
        if answer.system in per_case:
            raise DatasetFileError(f"{place}: run {show(answer.system)} answers topic "
                                   f"{show(answer.case)} twice")
        reading.corpus.update(dict.fromkeys(answer.references))
        per_case[answer.system] = {"retrieved": answer.references,
                                   "sentences": answer.sentences,
                                   "response_length": answer.response_length}


def _read_assignments(path, reading, provenance, max_bytes):
    """The nugget judgements of an assignments file, its answers entered as runs."""
    data = _read(path, max_bytes)
    batch = content_key("nuggetizer assignments", hashlib.sha256(data).hexdigest())
    reviewer, date, origin = provenance
    judgements, seen = [], set()
    for place, record, dropped in _lines(path, data, max_bytes, ASSIGNMENT_LINE):
        reading.count("lines whose reasoning or traces were not kept", dropped)
        case_name = reading.question_id(record["qid"], place)
        case = reading.cases.get(case_name)
        if case is None:
            raise DatasetFileError(f"{place}: field 'qid': question {show(case_name)} has no "
                                   "nuggets in the nuggets file")
        if _text(record, "query", place) != case["question"]:
            raise DatasetFileError(f"{place}: field 'query' must be question "
                                   f"{show(case_name)} as the nuggets give it "
                                   f"({show(case['question'])}); got {show(record['query'])}")
        system = record["run_id"]
        if type(system) is not str or not OPEN.is_id(system):
            raise DatasetFileError(f"{place}: field 'run_id' must be a system name "
                                   f"({OPEN.expected}); got {show(system)}")
        if (case_name, system) in seen:
            raise DatasetFileError(f"{place}: run {show(system)} is assigned for question "
                                   f"{show(case_name)} twice")
        seen.add((case_name, system))
        run = _assigned_run(reading, case_name, system, record, place)
        nuggets, defaulted, dropped_items = _nuggets(record["nuggets"], place, assigned=True)
        reading.count("lines whose reasoning or traces were not kept", bool(dropped_items))
        listed = case.get("nuggets", ())
        if [(text, importance) for text, importance, _ in nuggets] != [
                (item["text"], item["importance"]) for item in listed]:
            raise DatasetFileError(f"{place}: field 'nuggets' must be question "
                                   f"{show(case_name)}'s {len(listed)} nuggets, in order, "
                                   f"with their importance, as the nuggets file lists them")
        answer = run_answer_key(run, reading.corpus)
        for item, (_, _, assignment) in zip(listed, nuggets):
            judgements.append({
                "kind": "nugget", "case": case_name,
                "key": assignment_key(nugget_key(item["id"], item["text"]), answer),
                "nugget": item["id"], "decision": assignment, "reviewer": reviewer,
                "date": date, "origin": origin, "batch": batch})
    return tuple(judgements)


def _assigned_run(reading, case_name, system, record, place):
    """The run an assignment line judges: the TREC RAG answer of that run and topic, whose
    sentences joined must be ``answer_text``; else one made of ``answer_text``."""
    text, length = _text(record, "answer_text", place), record["response_length"]
    if type(length) is not int or length < 0:
        raise DatasetFileError(f"{place}: field 'response_length' must be a whole number of "
                               f"at least 0; got {show(length)}")
    run = reading.runs.get(case_name, {}).get(system)
    if run is None:
        run = {"retrieved": (), "answer": text, "response_length": length}
        reading.runs.setdefault(case_name, {})[system] = run
        return run
    joined = " ".join(sentence for sentence, _ in run["sentences"])
    if joined != text:
        raise DatasetFileError(f"{place}: field 'answer_text' must be run {show(system)}'s "
                               f"answer to {show(case_name)} in the answers file, its "
                               f"sentences joined by a space; got {show(text)}")
    return run


def import_nuggets(nuggets, *, assignments=None, answers=None, qrels=None, origin="llm-draft",
                   reviewer=None, date=None, name=None, max_bytes=MAX_FILE_BYTES):
    """Import nuggetizer's nuggets (and assignments), TREC RAG answers and qrels; return
    ``(dataset, notes)`` (format version 5: the assignments become judgements with
    ``origin``, ``reviewer`` and ``date``). See the module docstring."""
    name = check_options(name=name, default_name=stem(nuggets))
    provenance = (*_provenance(origin, reviewer, date), origin) if assignments else None
    reading = _Reading()
    _read_nuggets(nuggets, reading, max_bytes)
    if answers is not None:
        _read_answers(answers, reading, max_bytes)
    judgements = ()
    if assignments is not None:
        judgements = _read_assignments(assignments, reading, provenance, max_bytes)
    if qrels is not None:
        from .trec import read_qrels

        for qid, grades in read_qrels(qrels, {}, max_bytes=max_bytes).items():
            reading.cases.setdefault(qid, {"question": ""})["relevant"] = grades
            reading.corpus.update(dict.fromkeys(grades))
    files = [path for path in (nuggets, assignments, answers, qrels) if path is not None]
    if not reading.corpus:
        raise DatasetFileError(f"{file_names(files)}: name no passage, and a test set needs "
                               "one: give the answers the assignments judge (--answers, "
                               "whose references are passages) or qrels (--qrels)")
    runs = {case: reading.runs[case] for case in reading.cases if case in reading.runs}
    dataset = Dataset(corpus=reading.corpus, cases=reading.cases, runs=runs, name=name,
                      description=f"Imported from nuggetizer and TREC RAG files "
                                  f"{file_names(files)}",
                      ids="open", sources={}, versions={}, judgements=judgements)
    notes = {note: number for note, number in reading.notes.items() if number}
    if judgements:
        notes["nugget assignments"] = (f"{len(judgements):,} judgements, origin {origin}, by "
                                       f"{provenance[0]} on {provenance[1]}")
    return dataset, notes


def _assignment(decided, nugget, answer):
    return decided.get(assignment_key(nugget_key(nugget["id"], nugget.get("text")), answer))


def export_nuggets(dataset, *, nuggets=None, assignments=None, answers=None, drafts=False):
    """Write ``dataset``'s nuggets, nugget assignments and TREC RAG answers to the paths
    given (each optional); return ``{what: records written}``, and ``skipped``: answers
    whose nuggets are not all assigned (nuggetizer's layout has no place for that). The
    assignments are people's (``drafts``: a machine's where no person judged)."""
    from ..io.store import write_file_atomically

    order = _run_order(dataset)
    written = {}
    if nuggets is not None:
        lines = [json.dumps({"query": case.get("question", ""), "qid": name,
                             "nuggets": [{"text": item.get("text", item["id"]),
                                          "importance": item.get("importance", "vital")}
                                         for item in case["nuggets"]]}) + "\n"
                 for name, case in dataset.cases.items() if "nuggets" in case]
        write_file_atomically(Path(nuggets), lines)
        written["nuggets"] = len(lines)
    if assignments is not None:
        lines, skipped = _assignment_lines(dataset, order, drafts)
        write_file_atomically(Path(assignments), lines)
        written["assignments"], written["skipped"] = len(lines), skipped
    if answers is not None:
        buffer = io.StringIO()
        written["answers"] = write_answers(buffer, (
            (system, case, dataset.cases[case].get("question", ""), run)
            for system, case, run in order))
        write_file_atomically(Path(answers), [buffer.getvalue()])
    return written


def _run_order(dataset):
    """``(system, case, run)`` for every single-trial run, system after system (in order of
    first appearance), each system's questions in the test set's order."""
    found = []
    for system in dataset.systems:
        for case, per_case in dataset.runs.items():
            run = per_case.get(system)
            if type(run) is dict:
                found.append((system, case, run))
    return found


def _assignment_lines(dataset, order, drafts):
    decided = labelled(dataset, judges=drafts).nuggets
    lines, skipped = [], 0
    for system, case_name, run in order:
        case = dataset.cases[case_name]
        if "nuggets" not in case or not answer_only(run):
            continue
        answer = run_answer_key(run, dataset.corpus)
        chosen = [_assignment(decided.get(case_name, {}), item, answer)
                  for item in case["nuggets"]]
        if None in chosen:
            skipped += 1
            continue
        sentences = run.get("sentences")
        length = run.get("response_length")
        lines.append(json.dumps({
            "query": case.get("question", ""), "qid": case_name,
            "answer_text": " ".join(text for text, _ in sentences) if sentences is not None
            else run["answer"],
            "response_length": (response_length(sentences) if sentences is not None else 0)
            if length is None else length,
            "run_id": system,
            "nuggets": [{"text": item.get("text", item["id"]),
                         "importance": item.get("importance", "vital"),
                         "assignment": assignment}
                        for item, assignment in zip(case["nuggets"], chosen)]}) + "\n")
    return lines, skipped
