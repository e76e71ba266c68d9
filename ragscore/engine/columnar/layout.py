"""The count columns, laid out from the declaration of each count
(:data:`ragscore.core.counts.COUNT_FIELDS`): the fields of
:class:`~ragscore.engine.columnar.kernels.CountColumns`, the per-row counts a
:class:`~ragscore.engine.columnar.batch.Batch` carries as they are (and their defaults when
a reader records none), the columns a selection of rows takes, and one row read back as a
:class:`~ragscore.core.counts.Counts`. Nothing here names a count: a new one is a row of
that table, a property of :class:`~ragscore.core.counts.At` and one kernel.
"""
import numpy as np

from ...core.counts import COUNT_FIELDS, FLAT, ROW, Counts

__all__ = ["COLUMNS", "PASSED", "PER_ROW", "PLAIN", "columns_of", "counts_of", "enter",
           "passed_defaults", "take_rows"]

#: The per-row flags saying a count holds a value (``None`` in :class:`Counts` where false).
FLAGS = tuple(dict.fromkeys(field.present for field in COUNT_FIELDS if field.present))
#: Every column of the count columns, after ``rows`` (their number), ``row_case`` (each
#: row's case) and ``graded_case`` (per case: graded labels).
COLUMNS = ("rows", "row_case", "graded_case") + FLAGS + tuple(
    column for field in COUNT_FIELDS for column in field.columns)
#: ``{column: dtype}`` of the per-row counts a batch carries as they are, flags first.
PASSED = {**{field.present: "bool" for field in COUNT_FIELDS if field.batch and field.present},
          **{column: field.dtype for field in COUNT_FIELDS if field.batch
             for column in field.columns}}
#: The columns holding one value per row.
PER_ROW = ("row_case",) + FLAGS + tuple(
    column for field in COUNT_FIELDS if field.shape == ROW for column in field.columns)
#: ``(row column, value columns)`` of each list per row.
_FLAT = tuple((field.columns[0], field.columns[1:]) for field in COUNT_FIELDS
              if field.shape == FLAT)
#: The columns a formula reads as they are (one value per row): the primitives at any k.
PLAIN = PER_ROW[1:]


def columns_of(name):
    """The columns the count ``name`` declares, in order.

    >>> columns_of("n_relevant")
    ('n_relevant',)
    """
    return next(field.columns for field in COUNT_FIELDS if field.name == name)


def enter(columns, field, value, *, row=None):
    """Append a row's ``value`` of the batch-carried count ``field`` (``None``: not
    recorded) to the lists ``columns`` (by column name); a list (``FLAT``) appends each
    item, beside ``row``."""
    if field.shape == FLAT:
        for item in value or ():
            columns[field.columns[0]].append(row)
            for column, one in zip(field.columns[1:],
                                   item if len(field.columns) > 2 else (item,)):
                columns[column].append(one)
        return
    if field.present:
        columns[field.present].append(value is not None)
    values = (0,) * len(field.columns) if value is None else \
        value if len(field.columns) > 1 else (value,)
    for column, one in zip(field.columns, values):
        columns[column].append(one)


#: The batch-carried columns of lists (one item per element, not per row).
_PASSED_FLAT = frozenset(column for field in COUNT_FIELDS if field.batch
                         and field.shape == FLAT for column in field.columns)


def passed_defaults(rows):
    """``{column: array}``: the batch-carried counts of ``rows`` rows that record none (each
    flag false, each value 0, each list empty)."""
    return {column: np.zeros(0 if column in _PASSED_FLAT else rows, dtype=dtype)
            for column, dtype in PASSED.items()}


def take_rows(columns, rows):
    """The count columns of ``rows`` only, in that order (lists per case kept whole)."""
    renumber = np.full(columns.rows, -1)
    renumber[rows] = np.arange(len(rows))
    changed = {name: getattr(columns, name)[rows] for name in PER_ROW}
    for row_name, names in _FLAT:
        new = renumber[getattr(columns, row_name)]
        keep = np.flatnonzero(new >= 0)
        keep = keep[np.argsort(new[keep], kind="stable")]
        changed[row_name] = new[keep]
        for name in names:
            changed[name] = getattr(columns, name)[keep]
    return columns._replace(rows=len(rows), **changed)


def counts_of(columns, row):
    """The :class:`~ragscore.core.counts.Counts` of one row, read from the count columns as
    each count is declared."""
    case = int(columns.row_case[row])
    found = {}
    for field in COUNT_FIELDS:
        if field.present and not getattr(columns, field.present)[row]:
            found[field.name] = None
            continue
        where, values = field.columns[0], field.columns[1:]
        if field.shape == ROW:
            items = tuple(int(getattr(columns, name)[row]) for name in field.columns)
            found[field.name] = items if len(items) > 1 else items[0]
            continue
        chosen = getattr(columns, where) == (row if field.shape == FLAT else case)
        lists = [getattr(columns, name)[chosen].tolist() for name in values]
        items = lists[0] if len(lists) == 1 else list(zip(*lists))
        found[field.name] = tuple(sorted(items) if field.shape == FLAT else items)  # CASE: as laid out
    return Counts(**found)
