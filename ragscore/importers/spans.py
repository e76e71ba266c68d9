"""A span test set (``ragscore import spans``): source documents, questions labelled with spans
of them, one chunking, and optionally runs naming its chunks, as one dataset folder.

=================  ==========================================================================
file               one line
=================  ==========================================================================
``DOCUMENTS``      ``{"id": str, "text": str}``, optionally ``"version": str`` (by default the
                   content hash of the text)
``QUESTIONS``      ``{"id": str, "question": str, "answerable": bool, "relevant": [{"doc": str,
                   "start": int, "end": int, "grade": int}], "evidence": [{"claim": str,
                   "doc": str, "start": int, "end": int}]}``; ``answerable``, ``relevant`` and
                   ``evidence`` optional, as are ``tags`` and ``split``. A span may carry
                   its ``text``: checked against the document at its offsets, or, without
                   ``start`` and ``end``, placed where it occurs once
``CHUNKS``         a chunk (:mod:`ragscore.importers.chunkings`: ragscore's layout, a
                   LlamaIndex node dump or LangChain documents)
``RUNS``           a run record as ``import log`` reads it (``id`` or ``question``,
                   ``system``, ``retrieved``, ``delivered``, ``answer``, ``claims``), naming
                   chunk IDs
=================  ==========================================================================

Offsets count Unicode code points, end exclusive. Several evidence spans of one claim are
alternatives (any one supports it). Each relevant and evidence span becomes a judgement of
kind ``span-relevance`` or ``evidence`` (:mod:`ragscore.core.labels`) and ``answerable`` one
of kind ``answerability``, with the provenance given (``reviewer``, ``date``, ``origin``; a
span may name its own ``reviewer``, ``date``, ``origin`` and ``note``) and the questions
file's hash as ``batch``. The chunk labels are never stored: every reading derives them
(:mod:`ragscore.io.spans`).
"""
import hashlib

from ..core.labels import ORIGINS, question_key
from ..core.rules import OPEN, InvalidInputError, show
from ..core.spans import check_offsets
from ..io.documents import check_chunking, check_text_at, read_documents, text_place
from ..io.format import SPLITS, Dataset
from ..io.jsonl import DatasetFileError, Line, object_with, records, where
from ..io.spans import span_judgement
from ._common import open_input, stem, unicode_problem
from .chunkings import read_chunks, stable_ids

__all__ = ["import_spans", "read_source_documents"]

QUESTION_KEYS = frozenset({"id", "question", "answerable", "relevant", "evidence", "tags",
                           "split"})
PROVENANCE_KEYS = frozenset({"reviewer", "date", "origin", "note"})
SPAN_KEYS = {"relevant": frozenset({"doc", "start", "end", "text", "grade"}) | PROVENANCE_KEYS,
             "evidence": frozenset({"claim", "doc", "start", "end", "text"}) | PROVENANCE_KEYS}
#: A span's text given as nothing (``"text": null`` is not a text).
_NO_TEXT = object()


def read_source_documents(path, max_bytes):
    """``{doc: (version, text)}`` of a documents file (a version left out is the content
    hash of the text)."""
    with open_input(path, max_bytes) as handle:
        return read_documents(path, handle, rules=OPEN, max_bytes=max_bytes, versioned=False)


def _batch(path, max_bytes):
    """The first 16 hex digits of the SHA-256 of the file at ``path``."""
    digest = hashlib.sha256()
    with open_input(path, max_bytes) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def _provenance(item, given, at):
    found = dict(given)
    for key in PROVENANCE_KEYS & set(item):
        value = item[key]
        if type(value) is not str or (key != "note" and not value.strip()):
            raise DatasetFileError(f"{at}: field {key!r} must be a non-blank string; got "
                                   f"{show(value)}")
        found[key] = value
    if found["origin"] not in ORIGINS:
        raise DatasetFileError(f"{at}: field 'origin' must be one of {', '.join(ORIGINS)}; "
                               f"got {show(found['origin'])}")
    return found


def _spans(record, field, case, documents, provenance, at):
    """The judgement records of a question's ``relevant`` or ``evidence`` list."""
    items = record.get(field, [])
    if type(items) is not list:
        raise DatasetFileError(f"{at}: field {field!r} must be an array of spans; got "
                               f"{show(items)}")
    found = []
    for position, item in enumerate(items):
        here = f"{at}: {field}[{position}]"
        object_with(item, SPAN_KEYS[field], "a span", here)
        missing = [key for key in ("claim", "doc", "grade")
                   if key in SPAN_KEYS[field] and key not in item]
        if missing:
            raise DatasetFileError(f"{here}: field {missing[0]!r} is missing")
        doc = item["doc"]
        if type(doc) is not str or doc not in documents:
            raise DatasetFileError(f"{here}: field 'doc' must name a document of the "
                                   f"documents file; got {show(doc)}")
        version, text = documents[doc]
        place = (doc, version, *_place(item, doc, text, here))
        given = _provenance(item, provenance, here)
        if field == "relevant":
            grade = item["grade"]
            if type(grade) is not int or not -2 ** 63 <= grade < 2 ** 63:
                raise DatasetFileError(f"{here}: field 'grade' must be a whole number (0 not "
                                       f"relevant, 1 relevant, 2 highly relevant); got "
                                       f"{show(grade)}")
            found.append(span_judgement("span-relevance", case, place,
                                        text[place[2]:place[3]], grade, given))
        else:
            claim = item["claim"]
            if not OPEN.is_id(claim):
                raise DatasetFileError(f"{here}: field 'claim' must be {OPEN.expected_claim}; "
                                       f"got {show(claim)}")
            found.append(span_judgement("evidence", case, place,
                                        text[place[2]:place[3]], "evidence", given,
                                        claim=claim))
    return found


def _place(item, doc, document, here):
    """``(start, end)`` of a span in ``document`` (the text of document ``doc``): its
    offsets, checked against its ``text`` when it gives one; or, given only its ``text``,
    where that occurs once (:func:`~ragscore.io.documents.text_place`)."""
    given = item.get("text", _NO_TEXT)
    if given is not _NO_TEXT and (type(given) is not str or not given
                                  or unicode_problem(given)):
        raise DatasetFileError(f"{here}: field 'text' must be non-empty text (the span's "
                               f"text, as the document holds it); got {show(given)}")
    if "start" not in item and "end" not in item:
        if given is _NO_TEXT:
            raise DatasetFileError(f"{here}: field 'start' is missing (a span gives 'start' "
                                   "and 'end', or its 'text' to be placed where it occurs "
                                   "once)")
        return text_place(given, doc, document, here)
    for key in ("start", "end"):
        if key not in item:
            raise DatasetFileError(f"{here}: field {key!r} is missing")
    try:
        check_offsets(item["start"], item["end"], len(document), here)
    except InvalidInputError as error:
        raise DatasetFileError(str(error)) from None
    if given is not _NO_TEXT:
        check_text_at(given, doc, document, item["start"], item["end"], here)
    return item["start"], item["end"]


def _question(record, at, documents, provenance):
    """``(case ID, case, judgement records)`` of one line of the questions file."""
    object_with(record, QUESTION_KEYS, "a question", at)
    case = record.get("id")
    if not OPEN.is_id(case) or unicode_problem(case):
        raise DatasetFileError(f"{at}: field 'id' must be {OPEN.expected}; got {show(case)}")
    question = record.get("question")
    if type(question) is not str or not question.strip() or unicode_problem(question):
        raise DatasetFileError(f"{at}: field 'question' must be non-blank text; got "
                               f"{show(question)}")
    found = {"question": question, "relevant": ()}
    for key in ("tags", "split"):
        if key in record:
            found[key] = _slice(record, key, at)
    judged = (_spans(record, "relevant", case, documents, provenance, at)
              + _spans(record, "evidence", case, documents, provenance, at))
    answerable = record.get("answerable")
    if "answerable" in record:
        if type(answerable) is not bool:
            raise DatasetFileError(f"{at}: field 'answerable' must be true or false; got "
                                   f"{show(answerable)}")
        if not answerable and any(item["kind"] == "evidence" or item["decision"] > 0
                                  for item in judged):
            raise DatasetFileError(f"{at}: question {show(case)} is answerable: false, yet "
                                   "lists evidence or a relevant span graded above 0")
        judged.append({"kind": "answerability", "case": case, "key": question_key(question),
                       "decision": "answerable" if answerable else "unanswerable",
                       **provenance})
    return case, found, judged


def _slice(record, key, at):
    value = record[key]
    if key == "split":
        if value not in SPLITS:
            raise DatasetFileError(f"{at}: field 'split' must be one of {', '.join(SPLITS)}; "
                                   f"got {show(value)}")
        return value
    if type(value) is not list or not all(type(tag) is str and tag.strip() for tag in value):
        raise DatasetFileError(f"{at}: field 'tags' must be an array of non-blank strings; "
                               f"got {show(value)}")
    return tuple(value)


def read_questions(path, documents, provenance, max_bytes):
    """``(cases, judgements)`` of a questions file checked against ``documents``."""
    cases, judgements, first = {}, [], {}
    with open_input(path, max_bytes) as handle:
        for number, record in records(handle, path, max_bytes):
            at = Line(path, number)
            case, found, judged = _question(record, at, documents, provenance)
            if case in cases:
                raise DatasetFileError(f"{at}: duplicate question id {show(case)} (first on "
                                       f"line {first[case]})")
            cases[case], first[case] = found, number
            judgements += judged
    if not cases:
        raise DatasetFileError(f"{where(path)}: holds no questions")
    return cases, judgements


def _renamed(run, renamed):
    """A run whose chunk IDs (ranked, delivered, cited) are read through ``renamed``."""
    def ids(found):
        return None if found is None else tuple(renamed.get(doc, doc) for doc in found)

    changed = dict(run, retrieved=ids(run["retrieved"]))
    if run.get("delivered") is not None:
        changed["delivered"] = ids(run["delivered"])
    if run.get("claims") is not None:
        changed["claims"] = tuple((claim, ids(cited)) for claim, cited in run["claims"])
    return changed


def _runs(path, cases, corpus, system, max_bytes, renamed=None):
    """The runs of a run log (:func:`~ragscore.importers.log.import_log`), each checked
    against the questions and the chunking; the reference answers they carry. ``renamed``:
    ``{ID the pipeline gave: stable ID}`` (``--stable-ids``), applied to the runs' IDs."""
    from .log import import_log

    logged, _ = import_log(path, system=system, max_bytes=max_bytes)
    if renamed:
        logged = logged._replace(runs={
            case: {who: _renamed(run, renamed) for who, run in per_case.items()}
            for case, per_case in logged.runs.items()})
    references = {}
    for case, found in logged.cases.items():
        at = f"{where(path)} (question {show(case)})"
        if case not in cases:
            raise DatasetFileError(f"{at}: not a question of the questions file (a run names "
                                   "its question by 'id', else by a hash of its text)")
        if found["question"] != cases[case]["question"]:
            raise DatasetFileError(f"{at}: field 'question' is {show(found['question'])}, the "
                                   f"questions file says {show(cases[case]['question'])}")
        if found.get("relevant"):
            raise DatasetFileError(f"{at}: field 'relevant' labels chunks; a span test set's "
                                   "labels are its spans (the questions file)")
        if "reference" in found:
            references[case] = found["reference"]
    for case, per_case in logged.runs.items():
        for who, run in per_case.items():
            for field, ids in (("retrieved", run["retrieved"]),
                               ("delivered", run.get("delivered") or ()),
                               *(("claims[].citations", cited) for _, cited in
                                 run.get("claims") or ())):
                unknown = next((doc for doc in ids if doc not in corpus), None)
                if unknown is not None:
                    raise DatasetFileError(f"{where(path)} (question {show(case)}, system "
                                           f"{show(who)}): field {field!r} names "
                                           f"{show(unknown)}, not a chunk of the chunking")
    return logged.runs, references


def import_spans(documents, questions, chunks, *, runs=None, system=None, layout="auto",
                 doc_field="source", reviewer, date, origin="human", min_overlap=1,
                 allow_overlap=False, stable=False, name=None, max_bytes):
    """Import a span test set (see the module docstring); return ``(dataset, notes)``.
    ``stable``: name LlamaIndex and LangChain chunks ``DOC@START-END``
    (:func:`~ragscore.importers.chunkings.stable_ids`), the runs' IDs renamed with them."""
    from ..core.labels import check_record

    given = {"reviewer": reviewer, "date": date, "origin": origin,
             "batch": _batch(questions, max_bytes)}
    check_record({"kind": "answerability", "case": "x", "key": "0" * 16,
                  "decision": "unsure", **given}, "--reviewer, --date, --origin")
    if type(min_overlap) is not int or min_overlap < 1:
        raise InvalidInputError(f"--min-overlap must be a whole number of at least 1 "
                                f"(characters); got {show(min_overlap)}")
    sources = read_source_documents(documents, max_bytes)
    cases, judgements = read_questions(questions, sources, given, max_bytes)
    placed, read_as = read_chunks(chunks, layout=layout, doc_field=doc_field,
                                  max_bytes=max_bytes)
    renamed = None
    if stable:
        placed, renamed = stable_ids(placed, read_as)
    positions = check_chunking(placed, sources, overlapping=allow_overlap)
    corpus = {chunk: sources[doc][1][start:end] for chunk, (doc, start, end) in
              positions.items()}
    found_runs, references = ({}, {}) if runs is None else _runs(runs, cases, corpus, system,
                                                                 max_bytes, renamed)
    for case, reference in references.items():
        cases[case] = dict(cases[case], reference=reference)
    for position, record in enumerate(judgements):
        check_record(record, f"{where(questions)}: judgement {position}", is_id=OPEN.is_id)
    dataset = Dataset(
        corpus=corpus, cases=cases, runs=found_runs, name=name or stem(questions),
        description=f"Imported from the span test set {stem(questions)!r}", ids="open",
        sources={chunk: place[0] for chunk, place in positions.items()},
        versions={chunk: sources[place[0]][0] for chunk, place in positions.items()},
        judgements=tuple(judgements), documents=sources, positions=positions,
        min_overlap=min_overlap, overlapping_chunks=allow_overlap)
    kinds = {}
    for record in judgements:
        kinds[record["kind"]] = kinds.get(record["kind"], 0) + 1
    notes = {"chunking": f"{len(positions):,} chunks of {len(sources):,} documents read as "
                         f"{read_as}" + (", each named by its place, DOC@START-END "
                                         "(--stable-ids)" if stable else ""),
             "labels": ", ".join(f"{kind} {count:,}" for kind, count in kinds.items())
             or "none"}
    return dataset, notes
