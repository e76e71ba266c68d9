"""TREC RAG answer files (castorini/ragnarok's output, the track's submission layouts), read
and written.

One JSON object a line, in either of the track's layouts. **2024**, as ragnarok writes it
(``json.dump`` with Python's defaults)::

    {"run_id": "bm25_gpt-4o", "topic_id": "2024-145979", "topic": "what is ...",
     "references": ["msmarco_v2.1_doc_45_546308869#11_963663453", ...],
     "response_length": 201,
     "answer": [{"text": "Landlords can be held liable ...", "citations": [1, 0]}, ...]}

**2025** (ragnarok's ``docs/rag25.md``, ``convert_to_trec25_format.py``): the run and the
topic under ``metadata``, no ``response_length``::

    {"metadata": {"team_id": "organizer", "run_id": "fs_rank-qwen3-32b_ag-qwen3-32b",
                  "type": "automatic", "narrative_id": "2", "narrative": "I'm seeking ..."},
     "references": [...], "answer": [{"text": "...", "citations": [0, 3, 4]}, ...]}

``run_id`` names the system; ``topic_id`` (``metadata.narrative_id``) the question (a
number is read as its digits, and said so: ``numbered``); ``topic`` (``metadata.narrative``)
its text; ``references`` the segments the answer was given, in order, which becomes the
run's ranking (each an ID, or a segment in the MS MARCO v2.1 corpus layout, whose
``segment`` is then the passage's text); each answer sentence cites segments by their 0-based index into
``references``, resolved here to their IDs (``sentences``,
:mod:`ragscore.io.nugget_fields`); ``response_length`` is kept as the file gives it.

nuggetizer's answers input asks only ``topic_id`` and ``answer`` (its schema
``assign-contexts-answers-input``), so a 2024 record may leave out ``topic``,
``references`` (no ranking), ``response_length``, a sentence's ``citations`` (it cites
nothing) and ``run_id``: the system is then the file's name without its suffix, as
nuggetizer's ``assign`` names the run of an answers file (``Path(answer_file).stem``). What
was left out is listed on each answer (``filled``). Other keys ragnarok may add
(``reasoning_traces``, ``trace``; ``team_id``, ``type`` and ``prompt`` in 2025's metadata)
are not kept, and counted; any other key is refused.
"""
import json
from pathlib import Path

from ..core.rules import OPEN, show
from ..io.jsonl import DatasetFileError, records, where
from ._common import open_input, unicode_problem
from .segments import reference_list

__all__ = ["Answer", "read_answers", "response_length", "topic_id", "write_answers"]

#: The keys of a 2024 answer record; nuggetizer asks only for ``REQUIRED``.
ANSWER_KEYS = ("run_id", "topic_id", "topic", "references", "response_length", "answer")
REQUIRED = ("topic_id", "answer")
#: The keys of a 2025 answer record and of its ``metadata``.
RAG25_KEYS = ("metadata", "references", "answer", "response_length")
METADATA_KEYS = ("team_id", "run_id", "type", "narrative_id", "narrative", "prompt")
#: Keys read but not kept: a record's reasoning, a 2025 record's metadata about the team.
DROPPED_KEYS = ("reasoning_traces", "trace")
METADATA_DROPPED = ("team_id", "type", "prompt")


class Answer:
    """One answer record read: its ``line``, ``system`` (``run_id``), ``case`` (``topic_id``
    as text), ``numbered`` (the topic ID was a number), ``question`` (``None``: the record
    gives none), ``references`` (a tuple of IDs; empty when left out),
    ``response_length`` (``None`` when left out), ``sentences`` (``(text, cited IDs)``
    pairs), ``fields`` (the names of its system, question ID and question text fields, for
    messages: ``metadata.narrative_id`` in 2025), ``filled`` (what the record left out:
    ``run_id``, ``references``, ``citations``), ``unkept`` (its 2025 metadata held
    ``team_id``, ``type`` or ``prompt``, which are not kept) and ``texts`` (``{ID: text}``
    of the references given as segments, :mod:`ragscore.importers.segments`)."""

    __slots__ = ("line", "system", "case", "numbered", "question", "references",
                 "response_length", "sentences", "fields", "filled", "unkept", "texts")

    def __init__(self, **values):
        for name, value in values.items():
            setattr(self, name, value)


def topic_id(value, field, place):
    """``(question ID, given as a number)`` of a topic ID as TREC RAG's tools write it: a
    string, or a whole number (read as its digits)."""
    if type(value) is int and OPEN.is_id(str(value)):
        return str(value), True
    if type(value) is not str or not OPEN.is_id(value) or unicode_problem(value):
        raise DatasetFileError(f"{place}: field {field!r} must be an ID ({OPEN.expected}) or "
                               f"a whole number; got {show(value)}")
    return value, False


def _sentences(value, references, place):
    """``(sentences, uncited)``: the ``(text, cited IDs)`` pairs of a record's ``answer``
    and whether some sentence left ``citations`` out."""
    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'answer' must be an array of sentences "
                               f"({{'text', 'citations'}}); got {show(value)}")
    found, uncited = [], False
    for position, item in enumerate(value):
        at = f"{place}: field 'answer'[{position}]"
        if type(item) is not dict or "text" not in item or not set(item) <= {"text",
                                                                             "citations"}:
            raise DatasetFileError(f"{at} must be an object with 'text' and optionally "
                                   f"'citations'; got {show(item)}")
        text, cited = item["text"], item.get("citations", [])
        uncited = uncited or "citations" not in item
        if type(text) is not str or unicode_problem(text):
            raise DatasetFileError(f"{at}['text'] must be text; got {show(text)}")
        if cited and references is None:
            raise DatasetFileError(f"{at}['citations'] cites references by index, and the "
                                   f"record has no 'references'; got {show(cited)}")
        if type(cited) is not list or not all(
                type(index) is int and 0 <= index < len(references or ()) for index in cited):
            raise DatasetFileError(f"{at}['citations'] must be indexes into 'references' (0 "
                                   f"to {len(references or ()) - 1}); got {show(cited)}")
        if len(set(cited)) != len(cited):
            raise DatasetFileError(f"{at}['citations'] cites one reference twice; got "
                                   f"{show(cited)}")
        found.append((text, tuple(references[index] for index in cited)))
    return tuple(found), uncited


def checked_lines(handle, path, max_bytes, keys, dropped, required=None):
    """Yield ``(number, place, record, dropped)`` for each JSON line of the open file
    ``handle`` (its line number, and that line named for messages): a
    record holding a key outside ``keys`` and ``dropped`` (fields not kept), or lacking one
    of ``required`` (by default every one of ``keys``), raises
    :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the line and the field;
    ``dropped`` says whether it held a field not kept."""
    for number, record in records(handle, path, max_bytes):
        place = where(path, number)
        yield number, place, _keys_checked(record, place, keys, dropped, required), any(
            key in record for key in dropped)


def _keys_checked(record, place, keys, dropped, required=None):
    if type(record) is not dict:
        raise DatasetFileError(f"{place}: a record must be an object; got {show(record)}")
    extra = sorted(key for key in record if key not in keys + dropped)
    if extra:
        raise DatasetFileError(f"{place}: unknown field {show(extra[0])} (this file's "
                               f"lines have {', '.join(keys)})")
    missing = [key for key in (keys if required is None else required) if key not in record]
    if missing:
        raise DatasetFileError(f"{place}: field {missing[0]!r} is missing")
    return record


def _layout(record, place):
    """``(system, question ID, question text, fields, metadata dropped)`` of a record in
    the 2024 or 2025 layout, with their fields' names; ``system`` is ``None`` when the
    record names none."""
    if type(record) is dict and "metadata" in record:
        _keys_checked(record, place, RAG25_KEYS, DROPPED_KEYS, ("metadata", "references",
                                                                "answer"))
        metadata = record["metadata"]
        if type(metadata) is not dict:
            raise DatasetFileError(f"{place}: field 'metadata' must be an object with "
                                   f"run_id and narrative_id; got {show(metadata)}")
        extra = sorted(key for key in metadata if key not in METADATA_KEYS)
        if extra:
            raise DatasetFileError(f"{place}: unknown field {show('metadata.' + extra[0])} "
                                   f"(metadata has {', '.join(METADATA_KEYS)})")
        for key in ("run_id", "narrative_id"):
            if key not in metadata:
                raise DatasetFileError(f"{place}: field 'metadata.{key}' is missing")
        return (metadata["run_id"], metadata["narrative_id"], metadata.get("narrative"),
                ("metadata.run_id", "metadata.narrative_id", "metadata.narrative"),
                any(key in metadata for key in METADATA_DROPPED))
    _keys_checked(record, place, ANSWER_KEYS, DROPPED_KEYS, REQUIRED)
    return (record.get("run_id"), record["topic_id"], record.get("topic"),
            ("run_id", "topic_id", "topic"), False)


def _system(value, field, place, path):
    """The system a record names, or (``None``) the file's name as nuggetizer reads it."""
    if value is None:
        named = Path(path).stem
        if not OPEN.is_id(named) or unicode_problem(named):
            raise DatasetFileError(f"{place}: field {field!r} is missing, and the file's name "
                                   f"{show(named)} cannot name the system instead "
                                   f"({OPEN.expected})")
        return named
    if type(value) is not str or not OPEN.is_id(value) or unicode_problem(value):
        raise DatasetFileError(f"{place}: field {field!r} must be a system name "
                               f"({OPEN.expected}); got {show(value)}")
    return value


def read_answers(path, *, max_bytes):
    """``(answers, dropped)``: every :class:`Answer` of the file, in file order, and how many
    records carried keys that are not kept. A broken record raises
    :class:`~ragscore.io.jsonl.DatasetFileError` naming the file, the line and the field."""
    found, dropped = [], 0
    with open_input(path, max_bytes) as handle:
        for number, record in records(handle, path, max_bytes):
            place = where(path, number)
            system, case, question, fields, metadata = _layout(record, place)
            dropped += any(key in record for key in DROPPED_KEYS)
            filled = ("run_id",) if system is None else ()
            system = _system(system, fields[0], place, path)
            case, numbered = topic_id(case, fields[1], place)
            if question is not None and (type(question) is not str
                                         or unicode_problem(question)):
                raise DatasetFileError(f"{place}: field {fields[2]!r} must be text; got "
                                       f"{show(question)}")
            length = record.get("response_length")
            if length is not None and (type(length) is not int or length < 0) or \
                    length is None and "response_length" in record:
                raise DatasetFileError(f"{place}: field 'response_length' must be a whole "
                                       f"number of at least 0; got {show(length)}")
            references, texts = None, {}
            if "references" in record:
                references, texts = reference_list(record["references"], place)
            sentences, uncited = _sentences(record["answer"], references, place)
            filled += ("references",) * (references is None) + ("citations",) * uncited
            found.append(Answer(line=number, system=system, case=case, numbered=numbered,
                                question=question, references=references or (),
                                response_length=length, sentences=sentences, fields=fields,
                                filled=filled, unkept=metadata, texts=texts))
    return found, dropped


def response_length(sentences):
    """The answer's length in words as ragnarok counts it (commas and semicolons as
    spaces), for a run that recorded none.

    >>> response_length((("Yes, it opens; at 9.", ()),))
    5
    """
    return sum(len(text.replace(",", " ").replace(";", " ").split()) for text, _ in sentences)


def write_answers(handle, rows):
    """Write ``(system, case, question, run)`` rows as TREC RAG answer records (2024's
    layout, as ragnarok writes them), each run's citations as indexes into its ranking
    (``references``); ``case`` may be a number (a topic ID the source wrote as one).
    Returns how many were written; a run whose answer is not recorded as sentences, or
    that cites a passage outside its ranking, is not (it has no answer in this layout)."""
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
