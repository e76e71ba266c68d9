"""The review page's identity and the file it exports, read back and checked
(``ragscore review page``, ``ragscore review import``).

A page holds the items of one export of the review queue. Its **export identity** is a
content key over the folder it was made from (:func:`folder_identity`: the hashes of its
questions and corpus, :func:`ragscore.io.manifest.fingerprint`), the reviewer it was made
for and every item ``(kind, case, key)`` in the page's order. The browser keeps the
reviewer's decisions under that identity (so a reload loses nothing and two exports never
mix), and the page's export is JSON Lines:

- line 1, the header: ``{"ragscore_review_page": 1, "export", "folder", "dataset",
  "reviewer", "items"}``;
- then one line per item, in the page's order, decided or not: its ``kind``, ``case``,
  ``key`` and subject (``doc``, ``citations``, ``nugget``) as exported, the ``decision``
  (``""``: still to review), ``states``, ``note``, ``reviewer``, ``date`` and ``check``,
  a content key over the export and the line's fields (:func:`line_check`).

:func:`page_rows` checks such a file against the folder before any row is read as a
decision: the header's fields, the folder it was made from, each line's fields (an unknown
one refused) and its ``check`` (a line edited by hand, or taken from another export, no
longer matches), a relevance grade on the page's scale (0, 1 or 2), and finally that the
lines make the export the header names (none added, removed or moved). The rows then go
through every check of a queue file (:func:`ragscore.io.queue_file.read_decisions`: keys,
kinds, subjects, duplicates, decisions and ``states`` on the item's scale, a file imported
once). Every refusal names the line and the field; nothing is stored.
"""
import json
import re
from collections import namedtuple

from ..core.labels import content_key
from ..core.rules import InvalidInputError, show

__all__ = ["HEADER", "LINE_FIELDS", "PageIdentity", "export_identity", "export_text",
           "folder_identity", "is_page_export", "line_check", "page_identity", "page_rows"]

#: The header's mark and the export's layout version.
HEADER, VERSION = "ragscore_review_page", 1
HEADER_FIELDS = (HEADER, "export", "folder", "dataset", "reviewer", "items")
#: The fields of an item's line, in the order the page writes them.
LINE_FIELDS = ("kind", "case", "key", "doc", "citations", "nugget", "decision", "states",
               "note", "reviewer", "date", "check")
_REQUIRED = ("kind", "case", "key", "decision", "check")
#: The grades a page offers for a passage (its relevance items' scale).
PAGE_GRADES = (0, 1, 2)
_KEY = re.compile(r"[0-9a-f]{16}")


class PageIdentity(namedtuple("PageIdentity", "export folder dataset reviewer")):
    """Who a page is: its ``export`` identity, the ``folder`` identity it was made from, the
    ``dataset``'s name (shown) and the ``reviewer`` it was made for (``""``: anyone)."""

    __slots__ = ()


def folder_identity(dataset):
    """The identity of a test set a page is made from: a content key over the hashes of its
    questions (with their labels) and its corpus; judgements and runs are not part of it, so
    a review imported meanwhile keeps it.

    >>> from ragscore.io.course import load_course
    >>> len(folder_identity(load_course()))
    16
    """
    from .manifest import fingerprint

    found = fingerprint(dataset)
    return content_key("review folder", found["questions_sha256"], found["corpus_sha256"])


def export_identity(folder, reviewer, items):
    """The identity of one export: ``folder``'s identity, the ``reviewer`` (``""``: none)
    and its ``items`` ``(kind, case, key)`` in order.

    >>> export_identity("f" * 16, "", [("answerability", "q", "0" * 16)]) == export_identity(
    ...     "f" * 16, "ana", [("answerability", "q", "0" * 16)])
    False
    """
    return content_key("review page", folder, reviewer or "",
                       [[kind, case, key] for kind, case, key in items])


def page_identity(dataset, rows, reviewer=None):
    """The :class:`PageIdentity` of a page of queue ``rows`` made from ``dataset``."""
    folder = folder_identity(dataset)
    items = [(row["kind"], row["case"], row["key"]) for row in rows]
    return PageIdentity(export_identity(folder, reviewer, items), folder,
                        getattr(dataset, "name", "") or "", reviewer or "")


def line_check(export, row):
    """The ``check`` of one exported line: a content key over the ``export`` and the line's
    item and decision fields (the page's script computes the same, byte for byte: the parts
    as compact JSON, UTF-8, SHA-256, 16 hex digits).

    >>> row = {"kind": "relevance", "case": "q", "key": "0" * 16, "decision": 1,
    ...        "states": "", "note": "", "reviewer": "ana", "date": "2026-12-04"}
    >>> line_check("e" * 16, row) == line_check("e" * 16, dict(row, decision=2))
    False
    """
    return content_key("review page line", export, row.get("kind"), row.get("case"),
                       row.get("key"), row.get("decision"), row.get("states"),
                       row.get("note"), row.get("reviewer"), row.get("date"))


def _compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def export_text(identity, rows, decided, *, reviewer, date, notes=None):
    """The file a page of ``rows`` with ``identity`` exports (the same bytes its script
    writes): ``decided`` maps a row's position to ``(decision, states)``, ``notes`` a
    position to its note; the others are still to review. For a program that decides
    without a browser (a notebook, a test) and for reading what the page writes.

    >>> from ragscore.io.page_export import PageIdentity
    >>> text = export_text(PageIdentity("e" * 16, "f" * 16, "d", ""), [{"kind":
    ...     "answerability", "case": "q", "key": "0" * 16}], {0: ("answerable", None)},
    ...     reviewer="ana", date="2026-12-04")
    >>> text.splitlines()[1][:83]
    '{"kind":"answerability","case":"q","key":"0000000000000000","decision":"answerable"'
    """
    notes = notes or {}
    header = {HEADER: VERSION, "export": identity.export, "folder": identity.folder,
              "dataset": identity.dataset, "reviewer": identity.reviewer, "items": len(rows)}
    lines = [_compact(header)]
    for position, row in enumerate(rows):
        decision, states = decided.get(position, ("", ""))
        line = {"kind": row["kind"], "case": row["case"], "key": row["key"]}
        if row["kind"] in ("relevance", "citation"):
            line["doc"] = row["doc"]
        if row["kind"] == "support":
            line["citations"] = list(row["citations"])
        if row["kind"] == "nugget":
            line["nugget"] = row["nugget"]
        line.update(decision=decision, states=states or "", note=notes.get(position, ""),
                    reviewer=reviewer or "", date=date or "")
        line["check"] = line_check(identity.export, line)
        lines.append(_compact(line))
    return "\n".join(lines) + "\n"


def _lines(text):
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except RecursionError:
            raise InvalidInputError(f"line {number}: not JSON (nested too deeply)") from None
        except ValueError as error:
            raise InvalidInputError(f"line {number}: not JSON ({error.msg})") from None
        if type(value) is not dict:
            raise InvalidInputError(f"line {number}: expected an object; got {show(value)}")
        yield number, value


def is_page_export(text):
    """True when ``text``'s first line is a review page's header.

    >>> is_page_export('{"ragscore_review_page": 1}\\n'), is_page_export('{"kind": "x"}')
    (True, False)
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        value = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return type(value) is dict and HEADER in value


def _header(number, header, dataset):
    unknown = sorted(str(name) for name in header if name not in HEADER_FIELDS)
    if unknown:
        raise InvalidInputError(f"line {number}: unknown field {show(unknown[0])} in the "
                                f"page's header (it has {', '.join(HEADER_FIELDS)})")
    missing = [name for name in HEADER_FIELDS if name not in header]
    if missing:
        raise InvalidInputError(f"line {number}: field {missing[0]!r} is missing from the "
                                "page's header")
    if header[HEADER] != VERSION:
        raise InvalidInputError(f"line {number}: field {HEADER!r} must be {VERSION} (the "
                                f"layout this ragscore reads); got {show(header[HEADER])}")
    for name in ("export", "folder"):
        if type(header[name]) is not str or not _KEY.fullmatch(header[name]):
            raise InvalidInputError(f"line {number}: field {name!r} must be 16 hex digits; "
                                    f"got {show(header[name])}")
    if type(header["reviewer"]) is not str:
        raise InvalidInputError(f"line {number}: field 'reviewer' must be a string; got "
                                f"{show(header['reviewer'])}")
    if type(header["items"]) is not int or header["items"] < 0:
        raise InvalidInputError(f"line {number}: field 'items' must be a whole number; got "
                                f"{show(header['items'])}")
    here = folder_identity(dataset)
    if header["folder"] != here:
        raise InvalidInputError(
            f"line {number}: field 'folder': this page was made from another test set (its "
            f"questions and corpus {header['folder']}, this folder's {here}); import it into "
            "the folder it was made from, or make a page of this one")


def _item(number, row, export):
    unknown = sorted(str(name) for name in row if name not in LINE_FIELDS)
    if unknown:
        raise InvalidInputError(f"line {number}: unknown field {show(unknown[0])} (a page's "
                                f"line has {', '.join(LINE_FIELDS)})")
    missing = [name for name in _REQUIRED if name not in row]
    if missing:
        raise InvalidInputError(f"line {number}: field {missing[0]!r} is missing")
    if row["check"] != line_check(export, row):
        raise InvalidInputError(
            f"line {number}: field 'check' does not match the line: it is not as the page "
            "exported it (edited by hand, or taken from another export); decide on the page "
            "and export again")
    if row["kind"] == "relevance" and row["decision"] not in ("",) + PAGE_GRADES:
        raise InvalidInputError(f"line {number}: field 'decision' must be one of "
                                f"{', '.join(map(str, PAGE_GRADES))} for a relevance row (the "
                                f"page's grades; or empty: still to review); got "
                                f"{show(row['decision'])}")
    return {name: value for name, value in row.items() if name != "check"}


def page_rows(text, dataset):
    """``[(line number, row)]`` of a page's export ``text`` checked against ``dataset`` (see
    the module docstring); a problem raises
    :class:`~ragscore.core.rules.InvalidInputError` naming the line and the field."""
    lines = list(_lines(text))
    if not lines:
        raise InvalidInputError("line 1: the file is empty (a page's export starts with its "
                                "header)")
    number, header = lines[0]
    if HEADER not in header:
        raise InvalidInputError(f"line {number}: field {HEADER!r} is missing: not a review "
                                "page's export")
    _header(number, header, dataset)
    rows = [(at, _item(at, row, header["export"])) for at, row in lines[1:]]
    items = [(row["kind"], row["case"], row["key"]) for _, row in rows]
    if len(items) != header["items"] or export_identity(
            header["folder"], header["reviewer"], items) != header["export"]:
        raise InvalidInputError(
            f"line {number}: field 'export': the file's {len(items)} item lines do not make "
            f"export {header['export']} ({header['items']} items; a line added, removed or "
            "moved by hand); decide on the page and export again")
    return rows
