"""Labels grounded in source text: spans of versioned documents, the chunks cut from them,
and the one rule that derives a chunking's labels from the spans.

Offsets count Unicode code points (Python's ``str`` indices), end exclusive: the span
``(doc, start, end)`` is ``text[start:end]`` of its document. A **chunking** places every
chunk at ``(doc, start, end)`` of a document; its text is that slice. Reviewers label
spans (:mod:`ragscore.core.labels`, kinds ``span-relevance`` and ``evidence``), never
chunks, so one test set judges every chunking of the same documents.

The rule, for one question (:func:`derive_case`):

- **relevance**: a chunk's grade is the highest grade of the relevant spans of which it
  holds at least ``min_overlap`` characters (all of a span shorter than that); a chunk holding
  any character of a claim's evidence is relevant at least at ``min_relevance`` (evidence
  answers the question); no other chunk is relevant. ``min_overlap`` defaults to 1: any
  shared character;
- **support**: for each expected claim, a chunk is **full** when it contains one of the
  claim's evidence spans whole, **partial** when it overlaps one without containing any
  (several evidence spans of one claim are alternatives);
- **the strict rule generalised** (:func:`support_level`): a claim is supported at k when
  it cites at least one chunk, every cited chunk is visible at k and overlaps one of its
  evidence spans, and the cited chunks together cover one evidence span entirely. Where
  every chunk that overlaps evidence contains it whole, this is the strict citation rule of
  :func:`ragscore.core.counts.claim_cutoff` over the full chunks, exactly.

A new chunking or a new version of a document moves each span by its text
(:func:`anchor`): **kept**, **moved**, **orphaned** or **ambiguous**, never guessed. A span
or chunk given by its text alone is placed by the same search (:func:`occurrences`).

Standard library only.
"""
from bisect import bisect_left, bisect_right
from collections import namedtuple
from itertools import accumulate

from .rules import InvalidInputError, show

__all__ = ["ANCHOR_STATUSES", "Anchored", "ClaimChunks", "Chunking", "DerivedCase",
           "Evidence", "MIN_OVERLAP", "anchor", "check_offsets", "chunk_level",
           "derive_case", "document_version", "occurrences", "support_level"]

#: The overlap a chunk needs to take a relevant span's grade, by default: one character.
MIN_OVERLAP = 1
#: What becomes of a span when its document changes (:func:`anchor`), in this order.
ANCHOR_STATUSES = ("kept", "moved", "orphaned", "ambiguous")


def document_version(text):
    """A document's version when none is given: the first 16 hex digits of the SHA-256 of
    its text (UTF-8), so an edited text is a new version and an unchanged one is not.

    >>> document_version("One.") == document_version("One.")
    True
    >>> document_version("One.") == document_version("One!")
    False
    """
    import hashlib  # only when asked: import ragscore stays light

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def check_offsets(start, end, length, at, *, names=("start", "end")):
    """Raise :class:`~ragscore.core.rules.InvalidInputError` naming ``at`` unless
    ``start`` and ``end`` are whole numbers with ``0 <= start < end <= length`` (a span
    holds at least one character of a text ``length`` code points long). ``names``: the
    fields that hold ``start`` and ``end`` in the input, as its messages name them.

    >>> check_offsets(0, 5, 5, "line 1")
    >>> check_offsets(3, 9, 5, "line 2")
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: line 2: field 'end' must be at most the document's length (5 code points); got 9
    """
    start_name, end_name = names
    for field, value in ((start_name, start), (end_name, end)):
        if type(value) is not int:
            raise InvalidInputError(f"{at}: field {field!r} must be a whole number (an offset "
                                    f"in code points); got {show(value)}")
    if start < 0:
        raise InvalidInputError(f"{at}: field {start_name!r} must be 0 or more; got {start}")
    if end <= start:
        raise InvalidInputError(f"{at}: field {end_name!r} must be greater than "
                                f"{start_name!r} ({start}): a span holds at least one "
                                f"character; got {end}")
    if end > length:
        raise InvalidInputError(f"{at}: field {end_name!r} must be at most the document's "
                                f"length ({length:,} code points); got {end}")


class Chunking:
    """A chunking, indexed for interval queries: ``positions`` is ``{chunk: (doc, start,
    end)}``. Each document's chunks are sorted once by start, with the running furthest end,
    so the chunks a span overlaps are found by two binary searches and a scan of the chunks
    between them: ``O(log n + found)`` per span, never every pair.

    >>> chunking = Chunking({"a": ("d", 0, 10), "b": ("d", 10, 20), "c": ("d", 20, 30)})
    >>> chunking.overlapping("d", 8, 12)
    [('a', 0, 10), ('b', 10, 20)]
    >>> chunking.overlapping("other", 0, 5)
    []
    """

    _last = (None, None)  # the positions most recently indexed, and their index

    @classmethod
    def of(cls, positions):
        """The :class:`Chunking` of ``positions``, built once for the same dict object
        (a folder's reading checks its chunks with it, then derives its labels with it)."""
        if cls._last[0] is not positions:
            cls._last = (positions, cls(positions))
        return cls._last[1]

    def __init__(self, positions):
        self.positions = positions
        by_doc = {}
        for chunk, (doc, start, end) in positions.items():
            by_doc.setdefault(doc, []).append((start, end, chunk))
        self._docs = {}
        for doc, placed in by_doc.items():
            placed.sort()
            starts, ends, chunks = (list(column) for column in zip(*placed))
            self._docs[doc] = (starts, ends, chunks, list(accumulate(ends, max)))

    def overlapping(self, doc, start, end):
        """``[(chunk, start, end)]`` of the chunks holding a character of ``[start, end)``
        of ``doc``, in document order."""
        found = self._docs.get(doc)
        if found is None:
            return []
        starts, ends, chunks, reach = found
        last = bisect_left(starts, end)  # chunks starting at or after `end` hold none of it
        first = bisect_right(reach, start)  # before `first`, every chunk ends by `start`
        return [(chunks[i], starts[i], ends[i]) for i in range(first, last) if ends[i] > start]

    def first_overlap(self):
        """``(doc, chunk, other)``: the first two chunks of one document that share a
        character (in document order), or ``None`` when no two do.

        >>> Chunking({"a": ("d", 0, 10), "b": ("d", 8, 20)}).first_overlap()
        ('d', 'a', 'b')
        """
        for doc, (starts, ends, chunks, reach) in self._docs.items():
            for i in range(1, len(starts)):
                if starts[i] < reach[i - 1]:
                    earlier = next(j for j in range(i) if ends[j] > starts[i])
                    return doc, chunks[earlier], chunks[i]
        return None


def chunk_level(place, spans):
    """``"full"`` when the chunk at ``place`` (``(doc, start, end)``) contains one of
    ``spans`` whole, ``"partial"`` when it overlaps one without containing any, else
    ``None``.

    >>> spans = (("d", 10, 20),)
    >>> chunk_level(("d", 0, 30), spans), chunk_level(("d", 15, 30), spans)
    ('full', 'partial')
    >>> chunk_level(("d", 20, 30), spans) is None
    True
    """
    level = None
    doc, start, end = place
    for span_doc, span_start, span_end in spans:
        if span_doc != doc or end <= span_start or start >= span_end:
            continue
        if start <= span_start and span_end <= end:
            return "full"
        level = "partial"
    return level


def _covers(span, places):
    """True when the chunks at ``places`` together hold every character of ``span``."""
    doc, start, end = span
    reached = start
    for place_start, place_end in sorted((s, e) for d, s, e in places if d == doc):
        if place_start > reached:
            return False
        reached = max(reached, place_end)
        if reached >= end:
            return True
    return reached >= end


def support_level(citations, spans, position_of):
    """How far cited chunks support a claim whose evidence is ``spans`` (alternatives):

    - ``"full"``: at least one citation, every cited chunk overlaps one of ``spans``, and
      the cited chunks together cover one of ``spans`` entirely (the strict rule
      generalised; visibility at k is the counter's part);
    - ``"partial"``: not full, and some cited chunk overlaps one of ``spans``;
    - ``None``: no cited chunk overlaps any.

    ``position_of(chunk)`` gives a chunk's ``(doc, start, end)``, or ``None`` for a chunk
    it does not know (one that overlaps no evidence of the claim).

    A worked example: the evidence ``[10, 30)`` of document ``d`` is cut in two by chunks
    ``a = [0, 20)`` and ``b = [20, 40)``. Cited together they cover it; either alone only
    overlaps it::

    >>> where = {"a": ("d", 0, 20), "b": ("d", 20, 40)}.get
    >>> evidence = (("d", 10, 30),)
    >>> support_level(("a", "b"), evidence, where), support_level(("a",), evidence, where)
    ('full', 'partial')
    >>> support_level(("a", "x"), evidence, where)  # an extra citation outside the evidence
    'partial'
    """
    places = [position_of(chunk) for chunk in citations]
    overlapping = [place is not None and chunk_level(place, spans) is not None
                   for place in places]
    if not any(overlapping):
        return None
    if all(overlapping) and any(_covers(span, places) for span in spans):
        return "full"
    return "partial"


class Evidence(namedtuple("Evidence", "spans positions")):
    """One claim's evidence as a chunking meets it: its ``spans`` (``(doc, start, end)``,
    alternatives) and ``positions`` (``{chunk: (doc, start, end)}`` of every chunk that
    overlaps one of them). :meth:`level` applies :func:`support_level` to a citation list."""

    __slots__ = ()

    def level(self, citations):
        """:func:`support_level` of ``citations`` against this evidence."""
        return support_level(citations, self.spans, self.positions.get)


class ClaimChunks(namedtuple("ClaimChunks", "full partial")):
    """The chunks of one expected claim: ``full`` (each contains one of its evidence spans
    whole) and ``partial`` (each overlaps one without containing any), in document order.
    This is what ``ragscore labels`` prints per claim and what graded support (TREC's
    ``partial_support``) reads."""

    __slots__ = ()


class DerivedCase(namedtuple("DerivedCase", "relevant support evidence unreached")):
    """A question's labels on one chunking (:func:`derive_case`): ``relevant`` (``{chunk:
    grade}`` of every chunk a span reaches, graded 0 when it falls below ``min_overlap`` of
    every relevant span it touches), ``support`` (``{claim: ClaimChunks}`` for each claim
    some chunk reaches), ``evidence`` (``{claim: Evidence}`` for the claims that have a
    partial chunk: only there can a citation list be partial) and ``unreached`` (the spans,
    relevant ``(doc, start, end, grade)`` or evidence ``(claim, doc, start, end)``, that no
    chunk holds a character of: the chunking dropped that text)."""

    __slots__ = ()


def derive_case(relevant, evidence, chunking, *, min_overlap=MIN_OVERLAP, min_relevance=1):
    """The :class:`DerivedCase` of one question on ``chunking`` (a :class:`Chunking`), from
    its ``relevant`` spans ``(doc, start, end, grade)`` and its ``evidence`` spans ``(claim,
    doc, start, end)``, by the rule in the module docstring.

    A worked example of ``min_overlap``: the relevant span ``[10, 26)`` ("starts on Monday",
    16 characters) is cut by chunks ``a = [0, 23)`` (holds 13 of them) and ``b = [23, 40)``
    (holds 3). With the default, any shared character, both take its grade; with
    ``min_overlap=5`` only ``a`` does, and ``b`` is graded 0 (reached, not relevant)::

    >>> chunking = Chunking({"a": ("d", 0, 23), "b": ("d", 23, 40)})
    >>> derive_case([("d", 10, 26, 2)], [], chunking).relevant
    {'a': 2, 'b': 2}
    >>> derive_case([("d", 10, 26, 2)], [], chunking, min_overlap=5).relevant
    {'a': 2, 'b': 0}

    The same text as a claim's evidence: ``a`` and ``b`` each hold part of it, so both are
    partial, and both relevant at least at ``min_relevance``::

    >>> found = derive_case([], [("monday", "d", 10, 26)], chunking)
    >>> found.support["monday"], found.relevant
    (ClaimChunks(full=(), partial=('a', 'b')), {'a': 1, 'b': 1})
    """
    if type(min_overlap) is not int or min_overlap < 1:
        raise InvalidInputError(f"min_overlap must be a whole number of at least 1 "
                                f"(characters); got {show(min_overlap)}")
    grades, unreached = {}, []
    for doc, start, end, grade in relevant:
        needed = min(min_overlap, end - start)
        reached = chunking.overlapping(doc, start, end)
        if not reached:
            unreached.append((doc, start, end, grade))
        for chunk, chunk_start, chunk_end in reached:
            held = min(end, chunk_end) - max(start, chunk_start)
            found = grade if held >= needed else 0
            if chunk not in grades or found > grades[chunk]:
                grades[chunk] = found
    by_claim = {}
    for claim, doc, start, end in evidence:
        by_claim.setdefault(claim, []).append((doc, start, end))
    support, partial = {}, {}
    for claim, spans in by_claim.items():
        positions = {}
        for span in spans:
            reached = chunking.overlapping(*span)
            if not reached:
                unreached.append((claim, *span))
            for chunk, chunk_start, chunk_end in reached:
                positions[chunk] = (span[0], chunk_start, chunk_end)
        if not positions:
            continue
        levels = {chunk: chunk_level(place, spans) for chunk, place in positions.items()}
        ordered = sorted(positions, key=positions.get)
        support[claim] = ClaimChunks(
            tuple(chunk for chunk in ordered if levels[chunk] == "full"),
            tuple(chunk for chunk in ordered if levels[chunk] == "partial"))
        if support[claim].partial:
            partial[claim] = Evidence(tuple(spans), positions)
        for chunk in positions:
            if grades.get(chunk, 0) < min_relevance:
                grades[chunk] = min_relevance
    return DerivedCase(grades, support, partial, tuple(unreached))


class Anchored(namedtuple("Anchored", "status start end")):
    """Where a span lies in a document's current text: its ``status`` (one of
    :data:`ANCHOR_STATUSES`) and its ``start`` and ``end`` there (``None`` when orphaned or
    ambiguous)."""

    __slots__ = ()


def anchor(text, start, version, document):
    """Where the span holding ``text``, marked at ``start`` of its document's ``version``,
    lies in ``document`` (``(version, text)`` of the document now, or ``None`` when the
    document is gone):

    - the same version: **kept** where it was;
    - else the text is looked for in the new text: found once at ``start``, **kept**; found
      once elsewhere, **moved** there (a paragraph added above it, for instance); not found,
      **orphaned** (its text was edited or removed); found more than once, **ambiguous**
      (never guessed).

    ``start`` and ``version`` may be ``None`` (a chunk's text anchored without a recorded
    place): found once is then **kept**.

    >>> anchor("Monday", 30, "v1", ("v2", "New line. The window starts on Monday."))
    Anchored(status='moved', start=31, end=37)
    >>> anchor("Monday", 30, "v1", ("v2", "Monday or Monday?")).status
    'ambiguous'
    >>> anchor("Monday", 30, "v1", ("v2", "The window starts on Tuesday.")).status
    'orphaned'
    """
    if document is None:
        return Anchored("orphaned", None, None)
    now_version, now_text = document
    if version is not None and now_version == version:
        return Anchored("kept", start, start + len(text))
    found = occurrences(text, now_text, limit=2)
    if not found:
        return Anchored("orphaned", None, None)
    if len(found) > 1:
        return Anchored("ambiguous", None, None)
    first = found[0]
    return Anchored("kept" if start is None or first == start else "moved", first,
                    first + len(text))


def occurrences(text, document, *, limit=None):
    """Every offset at which non-empty ``text`` starts in ``document``, overlapping ones
    included, in order (the first ``limit`` when given). The one rule that places a span
    or a chunk by its text: found once, it is there; more than once, ambiguous (never
    guessed); not found, nowhere.

    >>> occurrences("on", "one on Monday")
    [0, 4, 8]
    >>> occurrences("aa", "aaa"), occurrences("x", "aaa"), occurrences("a", "aaa", limit=2)
    ([0, 1], [], [0, 1])
    """
    found, at = [], document.find(text)
    while at >= 0 and (limit is None or len(found) < limit):
        found.append(at)
        at = document.find(text, at + 1)
    return found


class Characters(namedtuple("Characters", "relevant places")):
    """What span recall and characters read count for one question: ``relevant``, ``{doc:
    ((start, end), ...)}``, the characters of its relevant spans (graded at
    ``min_relevance`` or above) and of its evidence, merged and sorted; ``places``,
    ``{chunk: (doc, start, end)}``, the chunking's (shared by every question).

    >>> found = Characters({"d": ((2, 6),)}, {"a": ("d", 0, 4), "b": ("d", 4, 10)})
    >>> found.read_at(("b", "a"))  # b: 2 relevant of 6; a: 2 more of 4
    (4, ((1, 2, 6), (2, 2, 4)))
    """

    __slots__ = ()

    @classmethod
    def of(cls, spans, places):
        """From ``spans`` (``(doc, start, end)`` each, in any order, overlapping or not)."""
        merged = {}
        for doc, start, end in sorted(spans):
            found = merged.setdefault(doc, [])
            if found and start <= found[-1][1]:
                found[-1] = (found[-1][0], max(found[-1][1], end))
            else:
                found.append((start, end))
        return cls({doc: tuple(found) for doc, found in merged.items()}, places)

    def read_at(self, retrieved):
        """``(relevant characters, ((rank, newly covered, read), ...))``: for each rank of
        ``retrieved``, the relevant characters its chunk covers that no chunk above it
        covered, and the characters of the chunk (what it hands the answer stage)."""
        covered, found = {}, []
        for rank, chunk in enumerate(retrieved, 1):
            doc, start, end = self.places[chunk]
            new = 0
            for low, high in self.relevant.get(doc, ()):
                low, high = max(low, start), min(high, end)
                if low < high:
                    new += _uncovered(covered.setdefault(doc, []), low, high)
            found.append((rank, new, end - start))
        return sum(high - low for spans in self.relevant.values() for low, high in spans), \
            tuple(found)


def _uncovered(covered, low, high):
    """How many characters of ``[low, high)`` the intervals ``covered`` miss; they are then
    added to ``covered`` (kept as a list of disjoint intervals)."""
    missing, cursor = 0, low
    for start, end in sorted(covered):
        if end <= cursor or start >= high:
            continue
        missing += max(0, start - cursor)
        cursor = max(cursor, end)
    missing += max(0, high - cursor)
    covered.append((low, high))
    return missing
