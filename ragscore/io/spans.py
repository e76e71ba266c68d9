"""A span test set's labels applied to its chunking: every span label anchored in the
folder's documents, each question's chunk labels derived by the one rule of
:mod:`ragscore.core.spans`, and what was lost on the way said in every report.

A folder holding source documents (format version 5, :mod:`ragscore.io.documents`) keeps
its labels as judgements of kind ``span-relevance`` and ``evidence``
(:mod:`ragscore.core.labels`). :func:`span_view` resolves them (people's current
decisions, conservatively), anchors each in its document as the folder holds it now
(:func:`~ragscore.core.spans.anchor`: kept, moved, orphaned, ambiguous) and derives every
question's labels on the folder's chunking (:func:`~ragscore.core.spans.derive_case`).
:func:`apply_spans` writes them into the cases the scorer reads: ``relevant`` as grades,
``support`` as each claim's full and partial chunks, and, in memory only, ``spans``: the
claims whose citations must cover an evidence span (the strict rule generalised, applied by
:meth:`ragscore.core.scoring.Counter.prepare`). A label orphaned or ambiguous is kept in the
folder and never applied; the test set still scores, and :func:`lost_note` says how many.
"""
from collections import namedtuple

from ..core.labels import item_of, span_key
from ..core.spans import ANCHOR_STATUSES, Characters, Chunking, anchor, derive_case

__all__ = ["LOST_NOTE", "SPAN_KINDS", "SpanLabel", "SpanView", "apply_spans",
           "document_chunking", "lost_note", "span_judgement", "span_view"]

#: The judgement kinds that label spans of source documents.
SPAN_KINDS = ("span-relevance", "evidence")
#: How the note on lost labels begins (the gate repeats it among its notes).
LOST_NOTE = "span labels:"


class SpanLabel(namedtuple("SpanLabel", "kind case claim doc version start end text decision "
                                        "status now_start now_end")):
    """One span label, resolved: its ``kind``, ``case``, ``claim`` (evidence; else
    ``None``), where it was marked (``doc``, ``version``, ``start``, ``end``) and its
    ``text``; the ``decision`` people's current judgements come to (a grade, or
    ``evidence`` / ``not evidence``); its anchoring ``status`` in the folder's documents and
    its place there now (``now_start``, ``now_end``; ``None`` when orphaned or ambiguous)."""

    __slots__ = ()


class SpanView(namedtuple("SpanView", "labels cases counts characters",
                          defaults=({},))):
    """What a span test set's labels come to on one chunking: ``labels`` (every
    :class:`SpanLabel`, in judgement order), ``cases`` (``{case:
    :class:`~ragscore.core.spans.DerivedCase`}`` for each question with span labels or a
    decided answerability: a span test set labels its documents whole for them) and
    ``counts`` (labels by anchoring status, and ``unreached``: spans no chunk holds) and
    ``characters`` (``{case: :class:`~ragscore.core.spans.Characters`}``: the relevant
    characters span recall and characters read count)."""

    __slots__ = ()

    @property
    def lost(self):
        """Labels that do not reach the chunking: orphaned, ambiguous or in no chunk."""
        counts = self.counts
        return counts["orphaned"] + counts["ambiguous"] + counts["unreached"]


def document_chunking(documents):
    """The chunking of one chunk per document, named as the document (``--unit
    document``: labels name documents).

    >>> document_chunking({"d": ("v1", "One. Two.")}).positions
    {'d': ('d', 0, 9)}
    """
    return Chunking({doc: (doc, 0, len(text)) for doc, (_, text) in documents.items()})


def span_view(dataset, records, decided, *, unit="chunk"):
    """The :class:`SpanView` of ``dataset`` (a span test set: its documents and chunking),
    whose judgement ``records`` resolve to ``decided`` (``{item: decision}``,
    :func:`~ragscore.core.labels.resolved`); ``unit="document"`` derives the labels of the
    chunking of one chunk per document."""
    documents = dataset.documents
    labels, relevant, evidence = [], {}, {}
    subjects = {}
    for record in records:
        if record["kind"] in SPAN_KINDS:
            subjects.setdefault(item_of(record), record)
    counts = dict.fromkeys(ANCHOR_STATUSES + ("unreached",), 0)
    for item, record in subjects.items():
        decision = decided.get(item)
        if decision is None:  # only a machine's draft: nothing a person decided
            continue
        found = anchor(record["text"], record["start"], record["version"],
                       documents.get(record["doc"]))
        counts[found.status] += 1
        labels.append(SpanLabel(record["kind"], record["case"], record.get("claim"),
                                record["doc"], record["version"], record["start"],
                                record["end"], record["text"], decision, *found))
        if found.start is None:
            continue
        if record["kind"] == "span-relevance":
            relevant.setdefault(record["case"], []).append(
                (record["doc"], found.start, found.end, decision))
        elif decision == "evidence":
            evidence.setdefault(record["case"], []).append(
                (record["claim"], record["doc"], found.start, found.end))
    chunking = (document_chunking(documents) if unit == "document"
                else Chunking.of(dataset.positions))
    cases = {}
    decided_only = [case for (kind, case, _), decision in decided.items()  # labelled all
                    if kind == "answerability" and decision != "unsure"]  # the same
    for case in dict.fromkeys(list(relevant) + list(evidence) + decided_only):
        if case in dataset.cases:
            cases[case] = derive_case(relevant.get(case, ()), evidence.get(case, ()), chunking,
                                      min_overlap=dataset.min_overlap,
                                      min_relevance=dataset.min_relevance)
            counts["unreached"] += len(cases[case].unreached)
    positions = chunking.positions
    characters = {case: Characters.of(
        [(doc, start, end) for doc, start, end, grade in relevant.get(case, ())
         if type(grade) is int and grade >= dataset.min_relevance]
        + [(doc, start, end) for _, doc, start, end in evidence.get(case, ())], positions)
        for case in cases}
    return SpanView(tuple(labels), cases, counts, characters)


def apply_spans(cases, view, *, min_relevance=1):
    """``cases`` with the derived labels of ``view`` (a :class:`SpanView`): a case's own
    labels win where they say something (a listed ``relevant`` ID, a claim of its own
    ``support``; a case whose own labels say unanswerable keeps nothing graded above 0);
    the derived grades fill ``relevant``, each derived claim's full and partial chunks its
    ``support``, ``spans`` (in memory only, never saved) holds the claims whose
    citations must cover an evidence span and ``span_characters`` its relevant characters
    (:class:`~ragscore.core.spans.Characters`). A case's own list of relevant IDs is graded at
    ``min_relevance``. The input is not changed."""
    changed = dict(cases)
    for name, derived in view.cases.items():
        case = dict(cases[name])
        listed = case.get("relevant") or ()
        grades = dict(listed) if type(listed) is dict else dict.fromkeys(listed,
                                                                         min_relevance)
        unanswerable = case.get("support") == {}
        for chunk, grade in derived.relevant.items():
            if not (unanswerable and grade > 0):
                grades.setdefault(chunk, grade)
        case["relevant"] = grades
        if derived.support and not unanswerable:
            support = {claim: chunks.full + chunks.partial
                       for claim, chunks in derived.support.items()}
            support.update(case.get("support") or {})
            case["support"] = support
        case["spans"] = derived.evidence
        case["span_characters"] = view.characters.get(name)
        changed[name] = case
    return changed


def lost_note(view):
    """The sentence every report repeats when span labels did not reach the chunking, or
    ``None`` when none was lost.

    >>> view = SpanView(("a label",) * 8, {}, {"kept": 5, "moved": 1, "orphaned": 1,
    ...                                         "ambiguous": 1, "unreached": 0})
    >>> lost_note(view)
    "span labels: 2 of 8 lost (1 orphaned, 1 ambiguous, 0 in no chunk): their questions score without them ('ragscore labels DIR' lists every label with its status)"
    """
    if not view.lost:
        return None
    counts = view.counts
    return (f"{LOST_NOTE} {view.lost} of {len(view.labels)} lost ({counts['orphaned']} "
            f"orphaned, {counts['ambiguous']} ambiguous, {counts['unreached']} in no chunk): "
            "their questions score without them ('ragscore labels DIR' lists every label "
            "with its status)")


def span_judgement(kind, case, place, text, decision, provenance, *, claim=None):
    """One judgement record of a span (kind ``span-relevance`` or ``evidence``): ``place``
    is ``(doc, version, start, end)`` and ``text`` the span's text.

    >>> record = span_judgement("evidence", "q1", ("d", "v1", 0, 6), "Monday", "evidence",
    ...                         {"reviewer": "ana", "date": "2026-12-04", "origin": "human",
    ...                          "batch": "0123456789abcdef"}, claim="monday")
    >>> record["claim"], record["text"], len(record["key"])
    ('monday', 'Monday', 16)
    """
    doc, version, start, end = place
    record = {"kind": kind, "case": case,
              "key": span_key(doc, version, start, end, text, claim=claim)}
    if claim is not None:
        record["claim"] = claim
    record.update({"doc": doc, "version": version, "start": start, "end": end, "text": text,
                   "decision": decision})
    record.update(provenance)
    return record
