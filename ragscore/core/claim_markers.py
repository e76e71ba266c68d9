"""Citation markers in answer text: finding them and resolving them to corpus IDs.

Marker syntaxes (see ``docs/answers.md``)::

    [1]  [1, 3]  [1-3]  [1,3-5]     numbers: positions in the delivered context (1-based),
                                    else in the retrieved ranking
    [launch]  [launch, owners]      IDs, as written
    [^1] ... [^1]: launch           a footnote; its definition line names the ID (or a number)
    【1】  【launch】                 full-width brackets, the same contents
    a user regular expression       its first group holds the contents, read as above

A bracket whose contents hold whitespace inside an item (``[citation needed]``) or that is a
Markdown link (``[text](url)``) is text, not a marker. Every pattern here is linear: bounded
character classes, no nested repetition, so no input can make matching backtrack.
"""
import re
from collections import namedtuple

from .rules import InvalidInputError, show

#: Contents longer than this are text, not a marker.
MAX_MARKER = 200
#: A numeric range may name at most this many positions.
MAX_RANGE = 100

BRACKETS = re.compile(r"\[(\^?)([^\[\]\n]{1,%d})\](?!\()|【([^【】\n]{1,%d})】"
                      % (MAX_MARKER, MAX_MARKER))
FOOTNOTE_LINE = re.compile(r"^[ \t]*\[\^([^\]\s]{1,64})\]:[ \t]*([^\n]*)$", re.MULTILINE)
_ITEM = re.compile(r"[^\s,;]+")
_SEPARATOR = re.compile(r"[ \t]*[,;][ \t]*")
#: A range of positions: ASCII digits only, as a single number (``[١-٣]`` is not 1-3).
_RANGE = re.compile(r"([0-9]{1,9})[ \t]*[-\u2013][ \t]*([0-9]{1,9})")


class Marker(namedtuple("Marker", "start end written items footnote")):
    """One marker: its span ``[start, end)`` in the answer, the text ``written``, its
    ``items`` (strings: a number, a range ``"1-3"`` or an ID) and whether it is a
    ``footnote`` reference (``[^1]``)."""

    __slots__ = ()


def _items(contents):
    """The items of a marker's contents, or ``None`` when the contents are not a marker
    (an item holding whitespace, an empty item)."""
    contents = contents.strip()
    if not contents:
        return None
    parts = _SEPARATOR.split(contents)
    items = []
    for part in parts:
        match = _RANGE.fullmatch(part)
        if match:
            items.append(f"{match.group(1)}-{match.group(2)}")
        elif _ITEM.fullmatch(part):
            items.append(part)
        else:
            return None
    return tuple(items)


def compile_pattern(pattern):
    """A user's marker pattern, compiled; it must have at least one group (the contents).

    >>> compile_pattern(r"\\(source: ([^)]+)\\)").groups
    1
    """
    if type(pattern) is not str or not pattern:
        raise InvalidInputError(f"marker pattern must be a non-empty string; got {show(pattern)}")
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise InvalidInputError(f"marker pattern {show(pattern)} is not a regular expression: "
                                f"{error}") from None
    if compiled.groups < 1:
        raise InvalidInputError(f"marker pattern {show(pattern)} must have a group holding the "
                                f"marker's contents")
    return compiled


def find_markers(text, *, pattern=None):
    """Every marker in ``text``, in order (footnote definition lines are not searched).

    >>> [m.items for m in find_markers("Ships Monday [1, 3-4]; see [launch] and 【2】.")]
    [('1', '3-4'), ('launch',), ('2',)]
    >>> find_markers("[citation needed] and [a link](https://x.org)")
    []
    """
    found = []
    if pattern is not None:
        compiled = compile_pattern(pattern) if type(pattern) is str else pattern
        for match in compiled.finditer(text):
            items = _items(match.group(1) or "")
            if items and match.end() > match.start():
                found.append(Marker(match.start(), match.end(), match.group(0), items, False))
        return found
    for match in BRACKETS.finditer(text):
        if match.group(3) is not None:
            items, footnote = _items(match.group(3)), False
        else:
            footnote = bool(match.group(1))
            items = _items(match.group(2))
            if footnote and items is not None:
                items = (match.group(2).strip(),) if len(items) == 1 else None
        if items is not None:
            found.append(Marker(match.start(), match.end(), match.group(0), items, footnote))
    return found


def footnotes(text):
    """``{label: (definition, (start, end))}`` of the footnote lines ``[^label]: definition``.

    >>> footnotes("Ships Monday [^1].\\n\\n[^1]: launch")
    {'1': ('launch', (20, 32))}
    """
    return {match.group(1): (match.group(2).strip(), (match.start(), match.end()))
            for match in FOOTNOTE_LINE.finditer(text)}


def _positions(item):
    """The 1-based positions a numeric item names, or ``None`` when it is not numeric."""
    if item.isdigit() and item.isascii():
        return [int(item)]
    match = _RANGE.fullmatch(item)
    if not match:
        return None
    low, high = int(match.group(1)), int(match.group(2))
    if high < low or high - low >= MAX_RANGE:
        return []
    return list(range(low, high + 1))


def resolve(markers, *, context, source, known=None, notes=None):
    """``(citations, findings)`` of one claim's markers, citations in marker order without
    repeats. ``context`` is the ranked list numbers index (1-based) and ``source`` names it
    (``"delivered"`` or ``"retrieved"``); ``known`` is the corpus IDs (``None``: not checked);
    ``notes`` the footnote definitions. Every marker that resolves to nothing, or to an ID
    outside the corpus, is a finding.

    >>> resolve(find_markers("[2] [9] [ghost]"), context=("a", "b"), source="delivered",
    ...         known={"a", "b"})
    (('b',), ('[9] points past the 2 delivered passages', '[ghost] names ghost, which is not in the corpus'))
    """
    citations, findings = {}, []
    for marker in markers:
        items = marker.items
        if marker.footnote:
            definition = (notes or {}).get(items[0])
            if definition is None:
                findings.append(f"{marker.written} has no footnote line [^{items[0]}]: ...")
                continue
            items = _items(definition[0].strip("[]【】 ")) or ()
            if not items:
                findings.append(f"{marker.written}'s footnote line names no document")
                continue
        for item in items:
            positions = _positions(item)
            if positions is None:
                if known is not None and item not in known:
                    findings.append(f"{marker.written} names {item}, which is not in the corpus")
                else:
                    citations.setdefault(item)
                continue
            if not positions:
                findings.append(f"{marker.written}: range {item} is reversed or names more than "
                                f"{MAX_RANGE} passages")
            for position in positions:
                if 1 <= position <= len(context):
                    citations.setdefault(context[position - 1])
                else:
                    findings.append(f"{marker.written} points past the {len(context)} {source} "
                                    f"passages")
                    break
    return tuple(citations), tuple(findings)
