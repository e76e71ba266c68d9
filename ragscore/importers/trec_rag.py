"""TREC RAG answer files (castorini/ragnarok's output, the track's submission layout), read
and written.

One JSON object a line, as ragnarok writes it (``json.dump`` with Python's defaults)::

    {"run_id": "bm25_gpt-4o", "topic_id": "2024-145979", "topic": "what is ...",
     "references": ["msmarco_v2.1_doc_45_546308869#11_963663453", ...],
     "response_length": 201,
     "answer": [{"text": "Landlords can be held liable ...", "citations": [1, 0]}, ...]}

``run_id`` names the system; ``topic_id`` the question (a number is read as its digits);
``references`` the segments the answer was given, in order, which becomes the run's
ranking; each answer sentence cites segments by their 0-based index into ``references``,
resolved here to their IDs (``sentences``, :mod:`ragscore.io.nugget_fields`);
``response_length`` is kept as the file gives it. Other keys ragnarok may add
(``reasoning_traces``, ``trace``) are not kept, and counted; any other key is refused.
"""
import json

from ..core.rules import OPEN, show
from ..io.jsonl import DatasetFileError, records, where
from ._common import id_list, open_input, unicode_problem

__all__ = ["Answer", "read_answers", "response_length", "topic_id", "write_answers"]

#: The keys of an answer record, and those read but not kept.
ANSWER_KEYS = ("run_id", "topic_id", "topic", "references", "response_length", "answer")
DROPPED_KEYS = ("reasoning_traces", "trace")


class Answer:
    """One answer record read: its ``line``, ``system`` (``run_id``), ``case`` (``topic_id``
    as text), ``numbered`` (the topic ID was a number), ``question``, ``references`` (a
    tuple of IDs), ``response_length`` and ``sentences`` (``(text, cited IDs)`` pairs)."""

    __slots__ = ("line", "system", "case", "numbered", "question", "references",
                 "response_length", "sentences")

    def __init__(self, **values):
        for name, value in values.items():
            setattr(self, name, value)


def topic_id(value, field, place):
    """``(question ID, given as a number)`` of a topic ID as TREC RAG's tools write it: a
    string, or a whole number (read as its digits)."""
    if type(value) is int:
        return str(value), True
    if type(value) is not str or not OPEN.is_id(value) or unicode_problem(value):
        raise DatasetFileError(f"{place}: field {field!r} must be an ID ({OPEN.expected}) or "
                               f"a whole number; got {show(value)}")
    return value, False


def _sentences(value, references, place):
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'answer' must be an array of sentences "
                               f"({{'text', 'citations'}}); got {show(value)}")
    found = []
    for position, item in enumerate(value):
        at = f"{place}: field 'answer'[{position}]"
        if type(item) is not dict or set(item) != {"text", "citations"}:
            raise DatasetFileError(f"{at} must be an object with exactly 'text' and "
                                   f"'citations'; got {show(item)}")
        text, cited = item["text"], item["citations"]
        if type(text) is not str or unicode_problem(text):
            raise DatasetFileError(f"{at}['text'] must be text; got {show(text)}")
        if type(cited) is not list or not all(
                type(index) is int and 0 <= index < len(references) for index in cited):
            raise DatasetFileError(f"{at}['citations'] must be indexes into 'references' (0 "
                                   f"to {len(references) - 1}); got {show(cited)}")
        if len(set(cited)) != len(cited):
            raise DatasetFileError(f"{at}['citations'] cites one reference twice; got "
                                   f"{show(cited)}")
        found.append((text, tuple(references[index] for index in cited)))
    return tuple(found)


def checked_lines(handle, path, max_bytes, keys, dropped):
    """Yield ``(number, place, record, dropped)`` for each JSON line of the open file
    ``handle`` (its line number, and that line named for messages): a
    record holding a key outside ``keys`` and ``dropped`` (fields not kept), or lacking one
    of ``keys``, raises :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the
    line and the field; ``dropped`` says whether it held a field not kept."""
    for number, record in records(handle, path, max_bytes):
        place = where(path, number)
        extra = sorted(key for key in record if key not in keys + dropped)
        if extra:
            raise DatasetFileError(f"{place}: unknown field {show(extra[0])} (this file's "
                                   f"lines have {', '.join(keys)})")
        missing = [key for key in keys if key not in record]
        if missing:
            raise DatasetFileError(f"{place}: field {missing[0]!r} is missing")
        yield number, place, record, any(key in record for key in dropped)


def read_answers(path, *, max_bytes):
    """``(answers, dropped)``: every :class:`Answer` of the file, in file order, and how many
    records carried keys that are not kept. A broken record raises
    :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the line and the field."""
    found, dropped = [], 0
    with open_input(path, max_bytes) as handle:
        for number, place, record, extra in checked_lines(handle, path, max_bytes,
                                                          ANSWER_KEYS, DROPPED_KEYS):
            dropped += extra
            system = record["run_id"]
            if type(system) is not str or not OPEN.is_id(system) or unicode_problem(system):
                raise DatasetFileError(f"{place}: field 'run_id' must be a system name "
                                       f"({OPEN.expected}); got {show(system)}")
            case, numbered = topic_id(record["topic_id"], "topic_id", place)
            if type(record["topic"]) is not str or unicode_problem(record["topic"]):
                raise DatasetFileError(f"{place}: field 'topic' must be text; got "
                                       f"{show(record['topic'])}")
            length = record["response_length"]
            if type(length) is not int or length < 0:
                raise DatasetFileError(f"{place}: field 'response_length' must be a whole "
                                       f"number of at least 0; got {show(length)}")
            references = id_list(record["references"], "field 'references'", place)
            found.append(Answer(line=number, system=system, case=case, numbered=numbered,
                                question=record["topic"], references=references,
                                response_length=length,
                                sentences=_sentences(record["answer"], references, place)))
    return found, dropped


def response_length(sentences):
    """The answer's length in words as ragnarok counts it (commas and semicolons as
    spaces), for a run that recorded none.

    >>> response_length((("Yes, it opens; at 9.", ()),))
    5
    """
    return sum(len(text.replace(",", " ").replace(";", " ").split()) for text, _ in sentences)


def write_answers(handle, rows):
    """Write ``(system, case, question, run)`` rows as TREC RAG answer records, each run's
    citations as indexes into its ranking (``references``). Returns how many were
    written; a run whose answer is not recorded as sentences, or that cites a passage
    outside its ranking, is not (it has no answer in this layout)."""
    written = 0
    for system, case, question, run in rows:
        sentences = run.get("sentences")
        position = {doc: index for index, doc in enumerate(run.get("retrieved", ()))}
        if sentences is None or not all(doc in position for _, cited in sentences
                                        for doc in cited):
            continue
        length = run.get("response_length")
        handle.write(json.dumps({
            "run_id": system, "topic_id": case, "topic": question,
            "references": list(run["retrieved"]),
            "response_length": response_length(sentences) if length is None else length,
            "answer": [{"text": text, "citations": [position[doc] for doc in cited]}
                       for text, cited in sentences]}) + "\n")
        written += 1
    return written
