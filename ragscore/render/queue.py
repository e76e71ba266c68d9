"""A review queue written out (``ragscore review export``): JSON Lines, or CSV to open in a
spreadsheet.

The CSV is made so that no cell can run in a spreadsheet or hide what it holds: text shown
to the reviewer (question, passage, claim) is written as every report's CSV writes text
(:mod:`ragscore.render.escape`: control characters, line breaks and bidirectional overrides
as visible escapes such as ``\\u202e``; a cell starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return behind a ``'``). The cells read back on import
(:data:`ragscore.io.queue_file.READ_BACK`, and the JSON cells) are written so that reading
undoes exactly what was done: an ID that needs it is a JSON string (``"\\u202eabc"``), and
the JSON escapes every such character, so every row read back is the row written.
"""
import csv
import io
import json
import re

from ..core.rules import InvalidInputError, show
from ..io.queue_file import READ_BACK
from ..io.review_queue import COLUMNS
from .escape import csv_cell, text as shown_text

__all__ = ["write_queue"]

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
#: An ID starting with one of these is written as a JSON string (a formula, or a quote).
_LEADS = ("=", "+", "-", "@", "\t", "\r", '"', "'", " ")
_JSON = ("citations", "passages", "context", "findings", "expected", "moves", "decisions")
#: The columns a queue ordered by what decides adds (``audit``: in the seeded audit slice;
#: ``moves``: the rules the item can still move), and a queue of disputes (``decisions``:
#: each reviewer's), after the others when present; import ignores them.
ORDERED = ("audit", "moves", "decisions")


def _json(value):
    """JSON with every unsafe character as a ``\\uXXXX`` escape (still JSON).

    >>> _json(["a\\u202eb"])
    '["a\\\\u202eb"]'
    """
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}",
                       json.dumps(value, ensure_ascii=False))


def _id_cell(value):
    """An ID as a CSV cell that reads back to it: as it is when plain, else as a JSON
    string.

    >>> _id_cell("launch"), _id_cell("=1+1")
    ('launch', '"=1+1"')
    """
    if not value or (not _UNSAFE.search(value) and not value.startswith(_LEADS)):
        return value
    return _json(value)


def _cell(name, value):
    if name == "audit":
        return "yes" if value else ""
    if name in READ_BACK:
        return _id_cell(value)
    if name in _JSON:
        return _json(value)
    return csv_cell(shown_text(value))


def write_queue(rows, *, kind="jsonl"):
    """The queue ``rows`` as text: JSON Lines (one object a line) or CSV (see the module
    docstring)."""
    if kind == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    if kind != "csv":
        raise InvalidInputError(f"queue format must be jsonl or csv; got {show(kind)}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = COLUMNS + tuple(name for name in ORDERED if any(name in row for row in rows))
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(name, row[name]) for name in columns])
    return buffer.getvalue()
