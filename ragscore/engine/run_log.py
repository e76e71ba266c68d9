"""A run log as a table: rows of run records, as pandas and Dask hold them, read under the
rules of a folder's runs file.

A table holds a list or a struct in whatever form its reader gives: ``dd.read_parquet``
gives numpy object arrays (of strings, or of dicts whose ``citations`` are arrays again),
``dtype_backend="pyarrow"`` gives pyarrow lists of structs (read as lists and dicts), a
string column may be ``str``, ``string[pyarrow]`` or ``object``, and an integer column with
missing values may hold floats (``1.0``). :func:`runs_of` turns each row into the record a
runs file would hold (lists, dicts, Python numbers; a missing value is a field not given)
and reads it with the folder reader's own rules (:meth:`ragscore.io.records.Reader.run`, the
duplicate-run rule :class:`ragscore.io.records.Trials`): what a runs file refuses, a table
refuses, with the partition, the row, the case, the system and the field named.

>>> from ragscore.core.rules import RULES
>>> runs_of([{"case": "q1", "system": "A", "retrieved": ("d1", "d2"), "trial": None}],
...         rules=RULES["open"], cases={"q1"})
{'q1': {'A': {'retrieved': ('d1', 'd2')}}}
"""
import math

from ..core.rules import InvalidInputError, show
from ..io.format import KEYS
from ..io.records import Reader, Trials

__all__ = ["is_missing", "runs_of"]

#: The format version whose run keys a table may hold (every run key there is).
VERSION = max(KEYS)
#: Keys whose values are whole numbers: a float column holding them (pandas stores an
#: integer column with missing values as floats) is read back as integers.
WHOLE = frozenset({"trial", "tokens", "retries"})


def is_missing(value):
    """True for a table's missing value: ``None``, ``pd.NA`` or a float NaN."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ == "NAType"  # pandas.NA, without importing pandas here


def _plain(value):
    """``value`` as a JSON reader would give it: arrays and tuples as lists, structs as
    dicts, numpy scalars as Python ones, ``pd.NA`` as ``None``; anything else as it is (the
    rules then refuse it by name)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return None if math.isnan(value) else value
    if kind is list or kind is tuple:
        return _listed(list(value))
    if kind is dict:
        return {key: _plain(item) for key, item in value.items()}
    if kind.__module__ == "numpy":
        if kind.__name__ == "ndarray" and value.ndim:
            return _listed(value.tolist())
        return _plain(value.item())  # a numpy scalar: np.str_, np.int64, np.float64, ...
    return None if is_missing(value) else value


_SCALARS = frozenset({str, int, bool})


def _listed(items):
    """The plain values of ``items`` (a list of its own): as they are when every one is a
    string, an int or a bool (a list of IDs, checked in one pass), else each made plain."""
    if set(map(type, items)) <= _SCALARS:
        return items
    return [_plain(item) for item in items]


def _whole(value):
    """A float that holds a whole number (from an integer column with missing values) as
    an int; anything else as it is."""
    return int(value) if type(value) is float and value.is_integer() else value


#: A value a table leaves out (a record then does not give that key).
MISSING = object()
#: Keys that hold lists, and what a string found there most likely is.
LISTS = {"retrieved": "a list of IDs", "delivered": "a list of IDs",
         "claims": "a list of objects with 'claim' and 'citations'"}
STRING_HINT = ("a Dask frame made with from_pandas turns lists into strings unless "
               "dataframe.convert-string is off")


def _column(values, name, float_column):
    """A column's values as record values (:data:`MISSING` where not given)."""
    found = []
    for value in values:
        if is_missing(value):
            found.append(MISSING)
            continue
        value = _plain(value)
        if float_column and name in WHOLE:
            value = _whole(value)
        found.append(value)
    return found


def _rows(records, where):
    """The records of a table (a pandas DataFrame, its ``case`` perhaps the index) or of a
    list of dicts, each a dict of plain values with missing values left out."""
    if hasattr(records, "columns") and hasattr(records, "index"):
        names = [name for name in records.index.names
                 if name in ("case", "system") and name not in records.columns]
        if names:
            records = records.reset_index(level=names)
        repeated = records.columns[records.columns.duplicated()]
        if len(repeated):
            raise InvalidInputError(f"{where}: column {show(repeated[0])} appears twice")
        columns = {}
        for name in records.columns:
            series = records[name]
            columns[name] = _column(series.tolist(), name, series.dtype.kind == "f")
        names = list(columns)
        for values in zip(*columns.values()):
            yield {name: value for name, value in zip(names, values) if value is not MISSING}
        return
    for record in records:
        if type(record) is not dict:
            yield record
            continue
        yield {key: value for key, value in
               zip(record, _column(record.values(), None, False)) if value is not MISSING}


def _place(where, position, record):
    """Where a record is, for messages: its row, its case and its system when it has them."""
    named = [f"{key} {show(record[key])}" for key in ("case", "system")
             if type(record) is dict and type(record.get(key)) is str]
    return ", ".join([f"{where}, row {position}"] + named)


def _no_strings(record, place):
    """Refuse a list field that holds a string, saying how a string may have got there."""
    for key, expected in LISTS.items():
        if type(record.get(key)) is str:
            raise InvalidInputError(f"{place}: {key} must be {expected}; got "
                                    f"{show(record[key])} ({STRING_HINT})")


def runs_of(records, *, rules, cases, where="run log"):
    """``runs[case][system]`` (a question's trials as a list, in trial order) from run
    records: a pandas DataFrame (as ``dd.read_parquet`` or ``from_pandas`` gives a
    partition) or a list of dicts. Each record is read by the runs file's rules under the
    ID rules ``rules``, and must name a case in ``cases``; an error names ``where`` (the
    partition), the row, the case and the system.
    """
    reader, trials = Reader(VERSION, rules, None), Trials()
    runs = {}
    for position, record in enumerate(_rows(records, where)):
        place = _place(where, position, record)
        if type(record) is not dict:
            raise InvalidInputError(f"{place}: a run record must be a dict; got {show(record)}")
        _no_strings(record, place)
        case, system, run = reader.run(record, place)
        if case not in cases:
            raise InvalidInputError(f"{place}: case {show(case)} is not in the test set")
        problem = trials.add(case, system, run.get("trial"))
        if problem:
            raise InvalidInputError(f"{place}: {problem}")
        per_case = runs.setdefault(case, {})
        if "trial" in run:
            per_case.setdefault(system, []).append(run)
        else:
            per_case[system] = run
    for per_case in runs.values():
        for trials_of in per_case.values():
            if type(trials_of) is list:
                trials_of.sort(key=lambda run: run["trial"])
    return runs
