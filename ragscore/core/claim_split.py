"""Answer text to claims: a deterministic splitter (standard library only).

:func:`split_claims` cuts an answer into claims, one per sentence by default (``line``: one
per line, ``paragraph``: one per blank-line-separated block), each with its character span
``[start, end)`` in the answer and the citation markers it carries
(:mod:`ragscore.core.claim_markers`). Every character of the answer is in exactly one claim
span or in the text between spans (whitespace, footnote definition lines).

A sentence ends at ``.``, ``!``, ``?`` (or ``。！？``) followed by whitespace or the end, and at a
blank line or the start of a list item; markers right after the stop (``... Monday. [1]``)
belong to the sentence they follow. These do **not** end a sentence: an abbreviation
(``e.g.``, ``Dr.``, a single capital initial, letters and dots such as ``A.D.``, ``H.H.``
or ``M.P.``, see :data:`ABBREVIATIONS`), a decimal
(``3.5``), a URL (``https://x.org/a.b``), a list number at the start of a line (``1. ``), a
stop inside a code span or fenced code block, or inside a marker.
"""
import re
from bisect import bisect_left, bisect_right
from collections import namedtuple

from .claim_markers import find_markers, footnotes, resolve
from .rules import InvalidInputError, show

SPLITS = ("sentence", "line", "paragraph")
#: The longest answer split, in characters (a longer one is refused with a clear error).
MAX_ANSWER = 100_000
#: Words ending in a dot that never end a sentence (lower case, without the final dot).
ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx dr mr mrs ms prof st no fig figs eq sec ch vol pp p "
    "inc ltd co corp jr sr jan feb mar apr jun jul aug sep sept oct nov dec est min max "
    "u.s u.k a.m p.m".split())

_PROTECTED = re.compile(r"```[^`]*```|`[^`\n]*`|(?:https?|ftp)://[^\s<>\]\)】\"']+"
                        r"|www\.[^\s<>\]\)】\"']+")
_STOPS = re.compile(r"[.!?]+|[。！？]")
_BLANK = re.compile(r"\n[ \t\r\f\v]*\n")
_LIST_ITEM = re.compile(r"\n(?=[ \t]*(?:[-*+\u2022]|\d{1,3}[.)])[ \t])")
_NEWLINE = re.compile(r"\n")
_WORD_BEFORE = re.compile(r"[A-Za-z.]{1,12}$")
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")  # "A.D", "H.H", "M.P" before the dot
_CLOSERS = "\"')]\u201d\u2019\u300d"


class Claim(namedtuple("Claim", "text span markers citations findings")):
    """One claim of an answer: its ``text`` as written, ``span`` ``(start, end)``,
    ``markers`` as written, ``citations`` (resolved IDs, in marker order) and ``findings``
    (markers that resolve to nothing or outside the corpus)."""

    __slots__ = ()


def _ranges(text):
    """Sorted, non-overlapping ``(start, end)`` ranges where no sentence may end."""
    spans = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    return spans


def _inside(starts, ends, position):
    at = bisect_right(starts, position) - 1
    return at >= 0 and position < ends[at]


def _is_abbreviation(text, stop, newlines):
    """True when the dot at ``stop`` closes an abbreviation, an initial or a list number
    (``newlines``: the positions of the answer's line breaks, ascending)."""
    before = _WORD_BEFORE.search(text, max(0, stop - 12), stop)
    if before:
        word = before.group(0).lstrip(".")
        if word.lower() in ABBREVIATIONS or (len(word) == 1 and word.isupper()) \
                or _INITIALS.fullmatch(word):
            return True
    at = bisect_left(newlines, stop)
    line_start = newlines[at - 1] + 1 if at else 0
    if stop - line_start > 8:
        return False
    head = text[line_start:stop].strip()
    return head.isdigit() and len(head) <= 3


def _sentence_cuts(text, starts, ends, markers):
    """Positions where a sentence ends (exclusive end of its span)."""
    marker_at = {m.start: m.end for m in markers}
    newlines = [m.start() for m in _NEWLINE.finditer(text)]
    cuts = []
    for match in _STOPS.finditer(text):
        stop = match.start()
        if _inside(starts, ends, stop):
            continue
        end = match.end()
        single = match.group(0)
        while end < len(text) and text[end] in _CLOSERS:
            end += 1
        if single not in "。！？" and end < len(text) and not text[end].isspace():
            continue  # "2.5", "a.b": no space after the stop (checked first: it is cheap)
        if single == "." and _is_abbreviation(text, stop, newlines):
            continue
        # markers after the stop belong to this sentence: "Monday. [1] [2]"
        probe = end
        while True:
            skip = probe
            while skip < len(text) and text[skip] in " \t":
                skip += 1
            if skip in marker_at:
                probe = end = marker_at[skip]
                continue
            break
        cuts.append(end)
    return cuts


def split_claims(answer, *, split="sentence", context=(), source="retrieved", known=None,
                 pattern=None):
    """The :class:`Claim` list of ``answer``, in order.

    ``context`` is the ranked list numeric markers index (1-based: the delivered context
    when recorded, else the retrieved ranking) and ``source`` names which; ``known`` the
    corpus IDs (``None``: not checked); ``pattern`` a user regular expression for markers
    (its first group holds the contents). Refuses (``ValueError``) an answer that is not a
    string or is longer than :data:`MAX_ANSWER` characters.

    >>> [c.text for c in split_claims("Ships Monday, e.g. at 9.30 [1]. Ask Dr. Ho [2].")]
    ['Ships Monday, e.g. at 9.30 [1].', 'Ask Dr. Ho [2].']
    >>> split_claims("Ships Monday [2].", context=("a", "launch"))[0].citations
    ('launch',)
    """
    if type(answer) is not str:
        raise InvalidInputError(f"answer must be a string; got {show(answer)}")
    if len(answer) > MAX_ANSWER:
        raise InvalidInputError(f"answer has {len(answer):,} characters; at most "
                                f"{MAX_ANSWER:,} are split into claims")
    if split not in SPLITS:
        raise InvalidInputError(f"split must be one of {', '.join(SPLITS)}; got {show(split)}")
    notes = footnotes(answer)
    removed = sorted(span for _, span in notes.values())
    markers = find_markers(answer, pattern=pattern)
    ranges = sorted(_ranges(answer) + [(m.start, m.end) for m in markers])
    starts, ends = [s for s, _ in ranges], [e for _, e in ranges]
    cuts = set()
    for start, end in removed:
        cuts.update((start, end))
    if split == "line":
        cuts.update(m.start() for m in _NEWLINE.finditer(answer))
    else:
        cuts.update(m.start() for m in _BLANK.finditer(answer) if not _inside(starts, ends,
                                                                              m.start()))
    if split == "sentence":
        cuts.update(m.start() for m in _LIST_ITEM.finditer(answer)
                    if not _inside(starts, ends, m.start()))
        cuts.update(_sentence_cuts(answer, starts, ends, markers))
    bounds = [0] + sorted(cuts) + [len(answer)]
    removed_starts = [s for s, _ in removed]
    marker_starts = [m.start for m in markers]
    claims = []
    for low, high in zip(bounds, bounds[1:]):
        at = bisect_right(removed_starts, low) - 1
        if at >= 0 and low < removed[at][1]:
            continue  # a footnote definition line
        piece = answer[low:high]
        stripped = piece.strip()
        if not stripped:
            continue
        start = low + (len(piece) - len(piece.lstrip()))
        end = start + len(stripped)
        if claims and not any(ch.isalnum() for ch in stripped) and not any(
                start <= m.start < end for m in markers):  # a stray "." joins its sentence
            start = claims.pop().span[0]
            stripped = answer[start:end]
        first = bisect_left(marker_starts, start)
        last = bisect_left(marker_starts, end)
        own = [m for m in markers[first:last] if m.end <= end]
        citations, findings = resolve(own, context=tuple(context), source=source, known=known,
                                      notes=notes)
        if own and not _has_words(answer, start, end, own):
            findings += ("holds citation markers but no text",)
        claims.append(Claim(stripped, (start, end), tuple(m.written for m in own), citations,
                            findings))
    return claims


def _has_words(text, start, end, markers):
    position = start
    for marker in markers:
        if any(ch.isalnum() for ch in text[position:marker.start]):
            return True
        position = marker.end
    return any(ch.isalnum() for ch in text[position:end])


def gaps(answer, claims):
    """The ``(start, end)`` ranges of ``answer`` outside every claim span, in order.

    >>> gaps("Yes. No.", split_claims("Yes. No."))
    [(4, 5)]
    """
    found, position = [], 0
    for claim in claims:
        start, end = claim.span
        if start > position:
            found.append((position, start))
        position = end
    if position < len(answer):
        found.append((position, len(answer)))
    return found
