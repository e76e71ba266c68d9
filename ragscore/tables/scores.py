"""Per-question score tables: one row per (case, system), one nullable column per metric.

Built column by column from the core's counts: each registered metric is read off every
run's counts, so n/a stays ``<NA>`` (``Float64`` and ``boolean`` dtypes), never 0 or NaN.
"""
from itertools import repeat
from operator import is_, itemgetter

import numpy as np
import pandas as pd

from ..core.metrics import CONTRACT, COUNT, RATE, select
from ..core.rules import RULES, InvalidInputError, check_k, show
from ..engine import DEFAULT_ENGINE, count_dataset, count_runs, default_metrics

__all__ = ["count_dataset", "default_metrics", "key_index", "nullable_column", "plain_values",
           "question_table", "score_runs", "scores_frame"]


def nullable_column(values, kind):
    """A nullable pandas array from Python values where ``None`` means n/a.

    >>> nullable_column([0.5, None], "rate").tolist()
    [0.5, <NA>]
    """
    mask = np.fromiter(map(is_, values, repeat(None)), dtype=bool, count=len(values))
    if kind == COUNT:
        data = np.array(values, dtype=object)
        data[mask] = 0
        return pd.arrays.IntegerArray(data.astype(np.int64), mask)
    if kind == RATE:
        data = np.array(values, dtype=float)  # None becomes NaN here, 0.0 below
        data[mask] = 0.0
        return pd.arrays.FloatingArray(data, mask)
    data = np.fromiter(map(is_, values, repeat(True)), dtype=bool, count=len(values))
    return pd.arrays.BooleanArray(data, mask)


def plain_values(column, kind):
    """A nullable column's values as plain Python values, ``None`` for n/a (the inverse of
    :func:`nullable_column`); read as a rate, a yes/no or count column gives floats.

    >>> plain_values(pd.Series(nullable_column([0.5, None], "rate")), "rate")
    [0.5, None]
    """
    missing = column.isna().to_numpy()
    if kind == COUNT:
        values = column.astype("Int64").to_numpy(dtype="int64", na_value=0).tolist()
    elif kind == RATE:
        values = column.astype("Float64").to_numpy(dtype=float, na_value=0.0).tolist()
    else:
        values = column.astype("boolean").to_numpy(dtype=bool, na_value=False).tolist()
    for position in missing.nonzero()[0].tolist():
        values[position] = None
    return values


def key_index(keys):
    """The ``(case, system)`` MultiIndex of ``keys``, built from integer codes (each name
    coded once, every key's by a lookup in C)."""
    cases = list(map(itemgetter(0), keys))
    systems = list(map(itemgetter(1), keys))
    levels, codes = [], []
    for names in (cases, systems):
        code = {name: place for place, name in enumerate(dict.fromkeys(names))}
        levels.append(pd.Index(list(code), dtype=object))
        codes.append(np.fromiter(map(code.__getitem__, names), dtype=np.intp,
                                 count=len(names)))
    return pd.MultiIndex(levels=levels, codes=codes, names=["case", "system"],
                         verify_integrity=False)


def scores_frame(counted, *, k, metrics=None, na_as_zero=False):
    """The per-question table of already counted runs at cutoff ``k``.

    ``metrics``: registry names (default :func:`~ragscore.engine.default_metrics`).
    ``na_as_zero``: a retrieval metric that is n/a (nothing relevant) is shown as 0, as
    trec_eval does; the table records it in ``attrs["na_as_zero"]``.
    """
    check_k(k, rules=counted.rules)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    data = {metric.name: nullable_column(counted.column(metric, k, na_as_zero=na_as_zero),
                                         metric.kind) for metric in chosen}
    frame = pd.DataFrame(data, index=key_index(counted.keys), copy=False)
    frame.attrs["k"] = k
    frame.attrs["na_as_zero"] = bool(na_as_zero)
    return frame


def score_runs(corpus, cases, runs, *, k=2, metrics=CONTRACT, progress=None, ids="course",
               min_relevance=1, unit="chunk", dedupe=False, sources=None,
               engine=DEFAULT_ENGINE):
    """Score every ``runs[case][system]`` and return a DataFrame, one row per pair.

    The index is ``("case", "system")`` in input order; the columns are ``metrics`` (by
    default the six of :func:`ragscore.evaluate`, in contract order), with nullable dtypes
    (``Float64``, ``boolean``) so n/a is ``<NA>``. The corpus is validated once and each
    case once; an error names the case and the system. ``progress``, if given, is called as
    ``progress(done, total)`` as work is done. ``ids`` (``"course"`` or ``"open"``),
    ``min_relevance``, ``unit``, ``dedupe`` and ``sources`` are the dataset options of
    :class:`~ragscore.core.scoring.Counter`; ``engine`` chooses the engine
    (:mod:`ragscore.engine`): both give the same table.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> table = score_runs(course.corpus, course.cases, course.runs, k=2)
    >>> table.loc[("rollback", "A"), "precision"]
    np.float64(0.5)
    """
    if type(ids) is not str or ids not in RULES:
        raise InvalidInputError(f"ids must be one of {', '.join(RULES)}; got {show(ids)}")
    check_k(k, rules=RULES[ids])
    chosen = select(metrics)
    counted = count_runs(corpus, cases, runs, engine=engine, rules=RULES[ids],
                         progress=progress, min_relevance=min_relevance, unit=unit,
                         dedupe=dedupe, sources=sources)
    return scores_frame(counted, k=k, metrics=[metric.name for metric in chosen])


def question_table(dataset, *, k=2, metrics=None, na_as_zero=False, engine=DEFAULT_ENGINE):
    """The per-question table of ``dataset`` (or its counted runs) at cutoff ``k``; see
    :func:`scores_frame` for ``metrics`` and ``na_as_zero``."""
    return scores_frame(count_dataset(dataset, engine=engine), k=k, metrics=metrics,
                        na_as_zero=na_as_zero)
