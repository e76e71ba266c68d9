"""A column of values as text, one column at a time: the cells of
:mod:`ragscore.render.measured`'s outputs made by C-level calls over whole lists (``map``,
``str.format``, ``str.join``), not a Python function per cell.

Each helper gives exactly the text its per-cell counterpart gives (``repr`` of a number, a
fixed number of decimals, a CSV field as the ``csv`` module quotes it, a JSON string as the
``json`` module writes it); ``tests/render/test_measured_columns.py`` holds the outputs made
this way to those made cell by cell, byte for byte. Standard library only.
"""
import csv
import io
import json
import re
from itertools import compress, repeat
from operator import is_

from .escape import _FORMULA_START, csv_cell

__all__ = ["csv_fields", "fixed", "json_names", "reprs", "where_none"]

_NONE = type(None)
#: ``repr`` of ``None``, ``True`` and ``False`` as CSV and JSON write them (no number's repr
#: is one of these words).
CSV_WORDS = {"None": "", "True": "true", "False": "false"}
JSON_WORDS = {"None": "null", "True": "true", "False": "false"}


def where_none(values):
    """The positions of ``None`` in the list ``values``.

    >>> where_none([0.5, None, 1, None])
    [1, 3]
    """
    if None not in values:
        return []
    return list(compress(range(len(values)), map(is_, values, repeat(None))))


def reprs(values, words):
    """``repr`` of each of ``values``, ``None``, ``True`` and ``False`` written as ``words``
    says (:data:`CSV_WORDS` or :data:`JSON_WORDS`).

    >>> reprs([0.1 + 0.2, None, 3, True, 1e-05], CSV_WORDS)
    ['0.30000000000000004', '', '3', 'true', '1e-05']
    """
    texts = list(map(repr, values))
    kinds = set(map(type, values))
    if kinds & {_NONE, bool}:
        texts = list(map(words.get, texts, texts))
    return texts


def fixed(values, digits, *, none="n/a", bools=("yes", "no")):
    """Each number of ``values`` with ``digits`` decimals (``f"{value:.{digits}f}"``), an
    ``int`` as ``str``, ``None`` as ``none``, a bool as ``bools`` (yes, no); ``bools`` and
    ``int`` left alone when ``bools`` is ``None`` (then ``True`` is ``1.0000``, as the
    format writes it).

    >>> fixed([0.5, None, 2, True, 1 / 3], 4)
    ['0.5000', 'n/a', '2', 'yes', '0.3333']
    """
    kinds = set(map(type, values))
    form = f"{{:.{digits}f}}".format
    if bools is not None and kinds & {int, bool}:
        return [none if value is None else (bools[0] if value else bools[1])
                if type(value) is bool else str(value) if type(value) is int else form(value)
                for value in values]
    if _NONE not in kinds:
        return list(map(form, values))
    missing = where_none(values)
    texts = list(map(form, map({None: 0.0}.get, values, values)))
    for place in missing:
        texts[place] = none
    return texts


#: Fields the ``csv`` module writes as they are: letters, digits and a few marks (anything
#: else, a space included, goes through the module itself).
_PLAIN_FIELD = re.compile(r"[\w.#:/@+='-]*")
#: Many such fields, one a line.
_PLAIN_FIELDS = re.compile(r"[\w.#:/@+='\n-]*")


def _csv_field(value):
    """One CSV field as the ``csv`` module writes it (quoted where it must be)."""
    if type(value) is str and _PLAIN_FIELD.fullmatch(value):
        return value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([value, ""])
    return buffer.getvalue()[:-2]


def csv_fields(values, *, cells=False):
    """Each of ``values`` (``str``) as a CSV field, made a cell first when ``cells``
    (:func:`~ragscore.render.escape.csv_cell`: formula starts behind a quote), each distinct
    value quoted once; when none needs either, the values as they are.

    >>> csv_fields(["a", "a,b", "a"]), csv_fields(["=x", "y"], cells=True)
    (['a', '"a,b"', 'a'], ["'=x", 'y'])
    """
    distinct = dict.fromkeys(values)
    names = list(distinct)
    joined = "\n".join(names) if all(map(str.__instancecheck__, names)) else None
    if joined is not None and joined.count("\n") == len(names) - 1 and \
            _PLAIN_FIELDS.fullmatch(joined) and \
            not (cells and any(map(str.startswith, names, repeat(_FORMULA_START)))):
        return list(values)  # letters, digits and a few marks: each field is itself
    for value in names:
        distinct[value] = _csv_field(csv_cell(value) if cells else value)
    return list(map(distinct.__getitem__, values))


def json_names(values):
    """Each of ``values`` (``str``) as a JSON string, as ``json.dumps(value,
    ensure_ascii=False)`` writes it (each distinct value once).

    >>> json_names(["q1", 'say "x"', "q1"])
    ['"q1"', '"say \\\\"x\\\\""', '"q1"']
    """
    distinct = dict.fromkeys(values)
    for value in distinct:
        distinct[value] = json.dumps(value, ensure_ascii=False)
    return list(map(distinct.__getitem__, values))
