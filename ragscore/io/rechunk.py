"""One span test set, many chunkings: a new chunking (or new versions of the documents)
for a span test set (:func:`rechunk`), a chunk-ID test set turned into spans
(:func:`anchor_chunks`), and the report each writes, listing every label with its status.

Nothing a reviewer did is lost: a span test set's labels are carried whole into the new
folder, and every reading anchors them in its documents by their text
(:func:`ragscore.core.spans.anchor`: kept, moved, orphaned, ambiguous; never guessed), so a
label orphaned by an edit stays in the folder, counted, and applies again if the text
comes back. Runs name chunks: a run is carried over only when every chunk it names (ranked,
delivered or cited) is in the new chunking with the same text; the others are left out and
counted (they need recording again).
"""
from ..core.labels import question_key
from ..core.rules import InvalidInputError, show
from ..core.spans import anchor, occurrences
from ..core.trials import trial_runs
from .answers import labelled
from .documents import check_chunking

__all__ = ["anchor_chunks", "rechunk", "span_report"]


def _chunk_ids(run):
    for one in trial_runs(run):
        yield from one.get("retrieved", ())
        yield from one.get("delivered") or ()
        for _, cited in one.get("claims") or ():
            yield from cited


def carry_runs(runs, old_corpus, new_corpus):
    """``(runs, left)``: the runs every chunk of which (ranked, delivered or cited) is in
    ``new_corpus`` with the text it had in ``old_corpus``, and ``{system: [case, ...]}`` of
    the runs left out."""
    carried, left = {}, {}
    for case, per_case in runs.items():
        for system, run in per_case.items():
            same = all(doc in new_corpus and new_corpus[doc] == old_corpus.get(doc)
                       for doc in _chunk_ids(run))
            if same:
                carried.setdefault(case, {})[system] = run
            else:
                left.setdefault(system, []).append(case)
    return carried, left


def _notes(notes, chunking):
    return tuple(note for note in notes if not note.startswith("chunking:")) + (chunking,)


def rechunk(dataset, placed, *, documents=None, min_overlap=None, allow_overlap=False,
            layout="ragscore"):
    """``(new dataset, runs left out)``: span test set ``dataset`` on the chunking
    ``placed`` (``{chunk: Placed}``), of ``documents`` (``{doc: (version, text)}``; by
    default its own) and ``min_overlap`` (by default its own). Its labels and cases are
    carried whole; its runs as :func:`carry_runs` says."""
    if not dataset.documents:
        raise InvalidInputError(f"{show(dataset.name)} is not a span test set (it holds no "
                                "source documents): 'ragscore labels anchor' turns a "
                                "chunk-ID test set into one")
    documents = dataset.documents if documents is None else documents
    positions = check_chunking(placed, documents, overlapping=allow_overlap)
    corpus = {chunk: documents[doc][1][start:end] for chunk, (doc, start, end)
              in positions.items()}
    runs, left = carry_runs(dataset.runs, dataset.corpus, corpus)
    changed = dataset._replace(
        corpus=corpus, runs=runs, documents=documents, positions=positions,
        sources={chunk: place[0] for chunk, place in positions.items()},
        versions={chunk: documents[place[0]][0] for chunk, place in positions.items()},
        min_overlap=dataset.min_overlap if min_overlap is None else min_overlap,
        overlapping_chunks=allow_overlap, groups=None, superseded=frozenset(),
        notes=_notes(dataset.notes, f"chunking: {len(positions):,} chunks of "
                                    f"{len(documents):,} documents read as {layout}"))
    return changed, left


def span_report(dataset, *, left=None, view=None):
    """The report of a span test set's labels on its chunking, as plain data: every label
    with its status (``kept``, ``moved``, ``orphaned``, ``ambiguous``; ``in no chunk`` when
    it anchored but no chunk holds it), the counts, and the runs ``left`` out (``{system:
    [case, ...]}``) with their number. ``view``: the dataset's
    :class:`~ragscore.io.spans.SpanView` when already derived."""
    view = labelled(dataset).spans if view is None else view
    unreached = {(case, span) for case, derived in view.cases.items()
                 for span in derived.unreached}
    labels = []
    for label in view.labels:
        status = label.status
        span = ((label.doc, label.now_start, label.now_end) if label.claim is None
                else (label.claim, label.doc, label.now_start, label.now_end))
        if label.kind == "span-relevance" and label.now_start is not None:
            span = (*span, label.decision)
        if (label.case, span) in unreached:
            status = "in no chunk"
        labels.append({"kind": label.kind, "case": label.case, "claim": label.claim,
                       "doc": label.doc, "version": label.version, "start": label.start,
                       "end": label.end, "text": label.text, "decision": label.decision,
                       "status": status,
                       "now": None if label.now_start is None else {
                           "version": dataset.documents[label.doc][0],
                           "start": label.now_start, "end": label.now_end}})
    counts = dict(view.counts)
    report = {"labels": labels, "counts": counts, "lost": view.lost,
              "chunks": len(dataset.corpus), "documents": len(dataset.documents)}
    if left is not None:
        report["runs left out"] = {"count": sum(map(len, left.values())),
                                   "by system": left}
    return report


def anchor_chunks(dataset, documents, *, provenance, allow_overlap=False):
    """``(span test set, report)``: a chunk-ID test set turned into spans of
    ``documents`` (``{doc: (version, text)}``). Each chunk's text is looked for in the
    document its ``source`` names (else in every document): found there once, **kept**;
    found once in another document, **moved**; not found, **orphaned**; found more than
    once, **ambiguous** (never guessed). A placed chunk's relevance becomes a relevant span
    (its grade; a listed ID at the lowest relevant grade), each claim's sources its
    evidence spans (any one supports it, as before), a case labelled unanswerable an
    answerability judgement; ``provenance`` (``reviewer``, ``date``, ``origin``,
    ``batch``) is written on each. Chunks that cannot be placed are left out with their
    labels, and so are the runs that name them; the report lists both, and where each
    ambiguous chunk's text occurs (``ambiguous places``)."""
    from .spans import span_judgement

    placed, statuses, ambiguous = {}, {}, {}
    for chunk, text in dataset.corpus.items():
        status, place = _anchor_chunk(chunk, text, (dataset.sources or {}).get(chunk),
                                      documents)
        statuses[chunk] = status
        if place is not None:
            placed[chunk] = place
        if status == "ambiguous":
            ambiguous[chunk] = _places(text, (dataset.sources or {}).get(chunk), documents)
    positions = check_chunking(placed, documents, overlapping=allow_overlap)
    judgements, labels = [], []
    for case_name, case in dataset.cases.items():
        for kind, claim, chunk, decision in _case_labels(case, dataset.min_relevance):
            labels.append({"kind": kind, "case": case_name, "claim": claim, "chunk": chunk,
                           "decision": decision, "status": statuses.get(chunk, "orphaned")})
            if chunk in positions:
                doc, start, end = positions[chunk]
                judgements.append(span_judgement(
                    kind, case_name, (doc, documents[doc][0], start, end),
                    documents[doc][1][start:end], decision, provenance, claim=claim))
        if case.get("support") is not None:
            judgements.append({"kind": "answerability", "case": case_name,
                               "key": question_key(case.get("question", "")),
                               "decision": "answerable" if case["support"] else "unanswerable",
                               **provenance})
    corpus = {chunk: dataset.corpus[chunk] for chunk in positions}
    runs, left = carry_runs(dataset.runs, dataset.corpus, corpus)
    cases = {name: {key: value for key, value in case.items()
                    if key not in ("relevant", "support", "conflicting")} | {"relevant": ()}
             for name, case in dataset.cases.items()}
    changed = dataset._replace(
        corpus=corpus, cases=cases, runs=runs, ids="open", documents=documents,
        positions=positions, sources={chunk: place[0] for chunk, place in positions.items()},
        versions={chunk: documents[place[0]][0] for chunk, place in positions.items()},
        judgements=dataset.judgements + tuple(judgements), overlapping_chunks=allow_overlap,
        groups=None, superseded=frozenset(),
        notes=_notes(dataset.notes, f"chunking: {len(positions):,} chunks of "
                                    f"{len(documents):,} documents placed by their text"))
    counts = {status: sum(1 for label in labels if label["status"] == status)
              for status in ("kept", "moved", "orphaned", "ambiguous")}
    report = {"labels": labels, "counts": counts,
              "lost": counts["orphaned"] + counts["ambiguous"],
              "chunks": {status: sum(1 for found in statuses.values() if found == status)
                         for status in ("kept", "moved", "orphaned", "ambiguous")},
              "ambiguous places": ambiguous,
              "runs left out": {"count": sum(map(len, left.values())), "by system": left}}
    return changed, report


def _case_labels(case, min_relevance):
    """``[(kind, claim, chunk, decision)]``: a case's chunk labels as span labels to be:
    each relevant chunk's grade (a listed one at ``min_relevance``), each claim's sources
    as its evidence."""
    listed = case.get("relevant") or ()
    grades = dict(listed) if type(listed) is dict else dict.fromkeys(listed, min_relevance)
    return ([("span-relevance", None, chunk, grade) for chunk, grade in grades.items()]
            + [("evidence", claim, chunk, "evidence")
               for claim, sources in (case.get("support") or {}).items() for chunk in sources])


def _places(text, source, documents, limit=5):
    """``[[doc, start, end], ...]``: where an ambiguous chunk's text occurs (the first
    ``limit`` places in each document searched: its ``source`` when that holds the text
    more than once, else every document), as :func:`~ragscore.core.spans.occurrences`
    finds it."""
    searched = [source] if source in documents and len(
        occurrences(text, documents[source][1], limit=2)) > 1 else list(documents)
    return [[doc, start, start + len(text)] for doc in searched
            for start in occurrences(text, documents[doc][1], limit=limit)]


def _anchor_chunk(chunk, text, source, documents):
    """``(status, Placed or None)`` of one chunk's text in ``documents``."""
    from .documents import Placed

    if not text:
        return "orphaned", None
    if source in documents:
        found = anchor(text, None, None, documents[source])
        if found.status != "orphaned":
            place = None if found.start is None else Placed(
                source, found.start, found.end, None, text, f"corpus {show(chunk)}")
            return found.status, place
    hits = [(doc, anchor(text, None, None, found)) for doc, found in documents.items()
            if doc != source]
    hits = [(doc, found) for doc, found in hits if found.status != "orphaned"]
    if not hits:
        return "orphaned", None
    if len(hits) > 1 or hits[0][1].status == "ambiguous":
        return "ambiguous", None
    doc, found = hits[0]
    return ("moved" if source is not None else "kept"), Placed(
        doc, found.start, found.end, None, text, f"corpus {show(chunk)}")
