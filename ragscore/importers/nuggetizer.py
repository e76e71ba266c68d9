"""Nuggets and nugget assignments in castorini/nuggetizer's layouts, with TREC RAG answers
and qrels: read into a test set (:func:`import_nuggets`) and written back
(:func:`export_nuggets`, :mod:`ragscore.importers.nuggetizer_export`).

A **nuggets** line (nuggetizer's ``create`` output, or the human nuggets of TREC RAG 25,
which give no ``query`` and add each nugget's ``mapped_sub_narrative`` and ``source``)::

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
``qrels`` grade the passages (TREC's ``qid iter docno rel``). With answers given, an
answer must be to a question of the nuggets file or the qrels, and an assignment must judge
one of the answers: a mistyped ID is refused, never made into a run of its own.

nuggetizer writes ``"failed"`` as an assignment or an importance when its LLM's reply
cannot be parsed. By default (``failed_as="not_assessed"``) such a nugget is not assessed:
no judgement is recorded for a failed assignment, so that answer's nugget scores are n/a;
a nugget whose importance failed is kept without one (vital, as a nugget without
importance is read) and none of its assignments is recorded, so every nugget score of its
question is n/a. ``failed_as="not_support"`` reads them as nuggetizer's own scorer
(``calculate_nugget_scores``) counts them: a failed assignment as ``not_support``, a
failed importance as not vital (``okay``). Both are counted in the notes.

A numeric ``qid`` or ``topic_id`` is kept as the case's ``numeric_id`` and written back as
a number.
"""
import datetime
import difflib
import hashlib
import io

from ..core.labels import ORIGINS, content_key
from ..core.nuggets import ASSIGNMENTS, IMPORTANCES, assignment_key, nugget_key
from ..core.rules import OPEN, InvalidInputError, check_date, show
from ..io.answers import answer_only, labelled, run_answer_key
from ..io.format import Dataset
from ..io.jsonl import MAX_FILE_BYTES, DatasetFileError, too_big, where
from ._common import check_options, file_names, open_input, stem, unicode_problem
from .nuggetizer_export import export_nuggets
from .trec_rag import checked_lines, read_answers, topic_id

__all__ = ["FAILED_AS", "export_nuggets", "import_nuggets"]

NUGGET_LINE = ("query", "qid", "nuggets")
ASSIGNMENT_LINE = ("query", "qid", "answer_text", "response_length", "run_id", "nuggets")
#: Keys nuggetizer may add that are not kept (reasoning and traces).
DROPPED = ("reasoning_traces", "creator_reasoning_traces", "scoring_reasoning_traces", "trace")
NUGGET_DROPPED = ("reasoning", "trace")
#: A human nugget's fields in TREC RAG 25's files, read and not kept.
NUGGET_SOURCES = ("mapped_sub_narrative", "source")
DRAFTER = "judge:nuggetizer"
#: What nuggetizer writes when its LLM's reply cannot be parsed, and how it may be read.
FAILED = "failed"
FAILED_AS = ("not_assessed", "not_support")

NOTE_DEFAULTED = "nuggets given no importance (vital, as nuggetizer reads them)"
NOTE_DROPPED = "lines whose reasoning or traces were not kept"
NOTE_NUMBERS = "question IDs given as numbers (written back as numbers)"
NOTE_TYPES = ("question IDs given as a number in one file and as text in another (written "
              "back as the first file gave them)")
NOTE_SOURCES = "nuggets whose mapped_sub_narrative or source was not kept"
NOTE_UNTITLED = "questions without text (the nuggets give no query and no answer names it)"
NOTE_FAILED = {
    "not_assessed": ('nugget assignments nuggetizer could not make ("failed"): not assessed, '
                     "so their answers' nugget scores are n/a"),
    "not_support": ('nugget assignments nuggetizer could not make ("failed"): read as '
                    "not_support (--failed-as not_support, as nuggetizer scores them)")}
NOTE_FAILED_IMPORTANCE = {
    "not_assessed": ('nuggets whose importance nuggetizer could not score ("failed"): not '
                     "assessed, so every nugget score of their question is n/a"),
    "not_support": ('nuggets whose importance nuggetizer could not score ("failed"): read as '
                    "okay (--failed-as not_support: not vital, as nuggetizer scores them)")}
NOTE_UNKEPT = ('assignments of nuggets whose importance failed: not kept (the nugget is not '
               "assessed)")
NOTE_ANSWERS = {"run_id": "answers naming no run_id (the system is the answers file's name, "
                          "as nuggetizer names it)",
                "references": "answers without references (no ranking recorded)",
                "citations": "answers with sentences that give no citations (they cite "
                             "nothing)"}
NOTE_METADATA = "answers whose metadata team_id, type or prompt was not kept"


def closest(value, options, count=3):
    """The ``count`` names of ``options`` closest to ``value`` (difflib's similarity ratio,
    at least 0.5; ties in name order), best first, shown for a message; ``""`` when none is
    close.

    >>> closest("run-c", ["run-b", "other", "run-a"])
    "'run-a', 'run-b'"
    >>> closest("t3", ["t1", "2024-145979"])
    "'t1'"
    """
    value, ranked = str(value), []
    for option in map(str, options):
        ratio = difflib.SequenceMatcher(None, value, option).ratio()
        if ratio >= 0.5:
            ranked.append((-ratio, option))
    return ", ".join(show(name) for _, name in sorted(ranked)[:count])


def _read(path, max_bytes):
    """The bytes of the file at ``path`` (a regular file of at most ``max_bytes``)."""
    with open_input(path, max_bytes) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_big(path, max_bytes)
    return data


def _lines(path, data, max_bytes, keys, required=None):
    """Yield ``(place, record, dropped)`` for each line of ``data``, its keys checked."""
    with io.BytesIO(data) as handle:
        for _, place, record, dropped in checked_lines(handle, path, max_bytes, keys, DROPPED,
                                                       required):
            yield place, record, dropped


def _text(record, field, place):
    value = record[field]
    if type(value) is not str or unicode_problem(value):
        raise DatasetFileError(f"{place}: field {field!r} must be text; got {show(value)}")
    return value


def _nuggets(value, place, reading, *, assigned):
    """``[(text, importance, assignment or None)]`` of a line's ``nuggets``, ``"failed"``
    included as nuggetizer wrote it."""
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'nuggets' must be an array of nuggets; got "
                               f"{show(value)}")
    found, dropped = [], 0
    keys = ("text", "importance") + (("assignment",) if assigned else ())
    allowed = keys + NUGGET_DROPPED + (() if assigned else NUGGET_SOURCES)
    for position, item in enumerate(value):
        at = f"{place}: field 'nuggets'[{position}]"
        if type(item) is not dict or "text" not in item or any(
                key not in allowed for key in item):
            raise DatasetFileError(f"{at} must be an object with {', '.join(keys)}; got "
                                   f"{show(item)}")
        dropped += any(key in item for key in NUGGET_DROPPED)
        reading.count(NOTE_SOURCES, any(key in item for key in NUGGET_SOURCES))
        text = item["text"]
        if type(text) is not str or not text.strip() or unicode_problem(text):
            raise DatasetFileError(f"{at}['text'] must be non-blank text; got {show(text)}")
        importance = item.get("importance")
        if importance is None and "importance" not in item:
            importance = "vital"
            reading.count(NOTE_DEFAULTED)
        if importance not in IMPORTANCES + (FAILED,):
            raise DatasetFileError(f"{at}['importance'] must be one of "
                                   f"{', '.join(IMPORTANCES)}; got {show(importance)} "
                                   f"(or {FAILED!r}, nuggetizer's mark of an importance its "
                                   "LLM could not score)")
        assignment = item.get("assignment")
        if assigned and assignment not in ASSIGNMENTS + (FAILED,):
            raise DatasetFileError(f"{at}['assignment'] must be one of "
                                   f"{', '.join(ASSIGNMENTS)}; got {show(assignment)} (or "
                                   f"{FAILED!r}, nuggetizer's mark of an assignment its LLM "
                                   "could not make)")
        found.append((text, importance, assignment))
    reading.count(NOTE_DROPPED, bool(dropped))
    return found


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

    def __init__(self, failed_as):
        self.cases, self.runs, self.corpus = {}, {}, {}
        self.failed_as, self.answers, self.untitled, self.given = failed_as, None, set(), {}
        self.wrote = {}  # {case: [(text, importance)]} as the nuggets file wrote them
        self.titled = set()  # cases whose text an answer or assignment gave
        self.notes = dict.fromkeys((NOTE_DEFAULTED, NOTE_SOURCES, NOTE_DROPPED, NOTE_NUMBERS,
                                    NOTE_TYPES, NOTE_FAILED_IMPORTANCE[failed_as],
                                    NOTE_FAILED[failed_as], NOTE_UNKEPT, *NOTE_ANSWERS.values(),
                                    NOTE_METADATA, NOTE_UNTITLED), 0)

    def count(self, note, number=1):
        self.notes[note] += number

    def question_id(self, value, field, place):
        """The case a ``qid`` or ``topic_id`` names; whether it was a number is kept from
        the first file that names the case."""
        case, numbered = topic_id(value, field, place)
        given = self.given.setdefault(case, numbered)
        self.count(NOTE_TYPES, given != numbered)
        return case

    def question(self, case_name, text, field, place):
        """Check ``text`` (a record's question, or ``None``) against the case's; a case
        without text takes the first it is given."""
        case = self.cases[case_name]
        if text is None:
            return
        if case_name in self.untitled:
            case["question"] = text
            self.untitled.discard(case_name)
            self.titled.add(case_name)
        elif text != case["question"]:
            given = ("an earlier answer or assignment gives it" if case_name in self.titled
                     else "the nuggets give it")
            raise DatasetFileError(f"{place}: field {field!r} must be question "
                                   f"{show(case_name)} as {given} ({show(case['question'])}); "
                                   f"got {show(text)}")

    def unknown(self, case_name, field, place):
        """Refuse an answer to a question the nuggets file and the qrels do not hold."""
        hint = closest(case_name, self.cases)
        raise DatasetFileError(f"{place}: field {field!r}: question {show(case_name)} is not "
                               "in the nuggets file or the qrels"
                               + (f"; closest: {hint}" if hint else ""))


def _read_nuggets(path, reading, max_bytes):
    for place, record, dropped in _lines(path, _read(path, max_bytes), max_bytes, NUGGET_LINE,
                                         ("qid", "nuggets")):
        case = reading.question_id(record["qid"], "qid", place)
        if case in reading.cases:
            raise DatasetFileError(f"{place}: question {show(case)} is listed twice")
        nuggets = _nuggets(record["nuggets"], place, reading, assigned=False)
        reading.count(NOTE_DROPPED, dropped)
        listed = []
        for position, (text, importance, _) in enumerate(nuggets, 1):
            listed.append({"id": f"n{position}", "text": text})
            if importance == FAILED:
                reading.count(NOTE_FAILED_IMPORTANCE[reading.failed_as])
                if reading.failed_as == "not_support":
                    listed[-1]["importance"] = "okay"
            else:
                listed[-1]["importance"] = importance
        reading.cases[case] = {"question": "", "relevant": (), "nuggets": tuple(listed)}
        reading.wrote[case] = [(text, importance) for text, importance, _ in nuggets]
        if "query" in record:
            reading.cases[case]["question"] = _text(record, "query", place)
        else:
            reading.untitled.add(case)
    if not reading.cases:
        raise DatasetFileError(f"{path}: holds no nuggets")


def _read_qrels(path, reading, max_bytes):
    from .trec import read_qrels

    for qid, grades in read_qrels(path, {}, max_bytes=max_bytes).items():
        if qid not in reading.cases:
            reading.cases[qid] = {"question": ""}
            reading.untitled.add(qid)
        reading.cases[qid]["relevant"] = grades
        reading.corpus.update(dict.fromkeys(grades))


def _read_answers(path, reading, max_bytes):
    answers, dropped = read_answers(path, max_bytes=max_bytes)
    reading.count(NOTE_DROPPED, dropped)
    reading.answers = path
    for answer in answers:
        place = where(path, answer.line)
        _, id_field, text_field = answer.fields
        if answer.case not in reading.cases:
            reading.unknown(answer.case, id_field, place)
        given = reading.given.setdefault(answer.case, answer.numbered)
        reading.count(NOTE_TYPES, given != answer.numbered)
        reading.question(answer.case, answer.question, text_field, place)
        for filled in answer.filled:
            reading.count(NOTE_ANSWERS[filled])
        reading.count(NOTE_METADATA, answer.unkept)
        per_case = reading.runs.setdefault(answer.case, {})
        if answer.system in per_case:
            raise DatasetFileError(f"{place}: run {show(answer.system)} answers topic "
                                   f"{show(answer.case)} twice")
        reading.corpus.update(dict.fromkeys(answer.references))
        per_case[answer.system] = {"retrieved": answer.references,
                                   "sentences": answer.sentences}
        if answer.response_length is not None:
            per_case[answer.system]["response_length"] = answer.response_length


def _read_assignments(path, reading, provenance, max_bytes):
    """The nugget judgements of an assignments file, its answers entered as runs."""
    data = _read(path, max_bytes)
    batch = content_key("nuggetizer assignments", hashlib.sha256(data).hexdigest())
    reviewer, date, origin = provenance
    judgements, seen = [], set()
    for place, record, dropped in _lines(path, data, max_bytes, ASSIGNMENT_LINE):
        reading.count(NOTE_DROPPED, dropped)
        case_name = reading.question_id(record["qid"], "qid", place)
        case = reading.cases.get(case_name)
        if case is None or "nuggets" not in case:
            hint = closest(case_name, [name for name, found in reading.cases.items()
                                       if "nuggets" in found])
            raise DatasetFileError(f"{place}: field 'qid': question {show(case_name)} has no "
                                   "nuggets in the nuggets file"
                                   + (f"; closest: {hint}" if hint else ""))
        reading.question(case_name, _text(record, "query", place), "query", place)
        system = record["run_id"]
        if type(system) is not str or not OPEN.is_id(system):
            raise DatasetFileError(f"{place}: field 'run_id' must be a system name "
                                   f"({OPEN.expected}); got {show(system)}")
        if (case_name, system) in seen:
            raise DatasetFileError(f"{place}: run {show(system)} is assigned for question "
                                   f"{show(case_name)} twice")
        seen.add((case_name, system))
        run = _assigned_run(reading, case_name, system, record, place)
        nuggets = _nuggets(record["nuggets"], place, reading, assigned=True)
        listed, failed = case["nuggets"], reading.failed_as
        if [(text, importance) for text, importance, _ in nuggets] != reading.wrote[case_name]:
            raise DatasetFileError(f"{place}: field 'nuggets' must be question "
                                   f"{show(case_name)}'s {len(listed)} nuggets, in order, "
                                   f"with their importance, as the nuggets file lists them")
        answer = run_answer_key(run, reading.corpus)
        for item, (_, importance, assignment) in zip(listed, nuggets):
            if importance == FAILED and failed == "not_assessed":
                reading.count(NOTE_UNKEPT, assignment != FAILED)
                continue
            if assignment == FAILED:
                reading.count(NOTE_FAILED[failed])
                if failed == "not_assessed":
                    continue
                assignment = "not_support"
            judgements.append({
                "kind": "nugget", "case": case_name,
                "key": assignment_key(nugget_key(item["id"], item["text"]), answer),
                "nugget": item["id"], "decision": assignment, "reviewer": reviewer,
                "date": date, "origin": origin, "batch": batch})
    return tuple(judgements)


def _assigned_run(reading, case_name, system, record, place):
    """The run an assignment line judges: with answers given, the TREC RAG answer of that
    run and topic, whose sentences joined must be ``answer_text`` (none is refused); else
    one made of ``answer_text``."""
    text, length = _text(record, "answer_text", place), record["response_length"]
    if type(length) is not int or length < 0:
        raise DatasetFileError(f"{place}: field 'response_length' must be a whole number of "
                               f"at least 0; got {show(length)}")
    run = reading.runs.get(case_name, {}).get(system)
    if run is None and reading.answers is not None:
        answering = list(reading.runs.get(case_name, {}))
        hint = closest(system, answering) or ", ".join(map(show, answering[:3]))
        raise DatasetFileError(
            f"{place}: field 'run_id': run {show(system)} has no answer to question "
            f"{show(case_name)} in {where(reading.answers)}"
            + (f"; runs answering it there: {hint}" if hint else "; no run answers it there"))
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
                   reviewer=None, date=None, failed_as="not_assessed", name=None,
                   max_bytes=MAX_FILE_BYTES):
    """Import nuggetizer's nuggets (and assignments), TREC RAG answers and qrels; return
    ``(dataset, notes)`` (format version 5: the assignments become judgements with
    ``origin``, ``reviewer`` and ``date``; ``failed_as``: how a ``"failed"`` assignment or
    importance is read, one of :data:`FAILED_AS`). See the module docstring."""
    name = check_options(name=name, default_name=stem(nuggets))
    if failed_as not in FAILED_AS:
        raise InvalidInputError(f"failed_as must be one of {', '.join(FAILED_AS)}; got "
                                f"{show(failed_as)}")
    provenance = (*_provenance(origin, reviewer, date), origin) if assignments else None
    reading = _Reading(failed_as)
    _read_nuggets(nuggets, reading, max_bytes)
    if qrels is not None:
        _read_qrels(qrels, reading, max_bytes)
    if answers is not None:
        _read_answers(answers, reading, max_bytes)
    judgements = ()
    if assignments is not None:
        judgements = _read_assignments(assignments, reading, provenance, max_bytes)
    files = [path for path in (nuggets, assignments, answers, qrels) if path is not None]
    if not reading.corpus:
        raise DatasetFileError(f"{file_names(files)}: name no passage, and a test set needs "
                               "one: give the answers the assignments judge (--answers, "
                               "whose references are passages) or qrels (--qrels)")
    for case_name, numbered in reading.given.items():
        if numbered:
            reading.cases[case_name]["numeric_id"] = True
    reading.count(NOTE_NUMBERS, sum(reading.given.values()))
    reading.count(NOTE_UNTITLED, sum("nuggets" in reading.cases[case]
                                     for case in reading.untitled))
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
