"""Per-question score tables: one row per (case, system), one nullable column per metric.

Built column by column from the core's counts: each registered metric is read off every
run's counts, so n/a stays ``<NA>`` (``Float64`` and ``boolean`` dtypes), never 0 or NaN.
"""
import numpy as np
import pandas as pd

from ..core.metrics import CONTRACT, RATE, select
from ..core.rules import COURSE, check_k
from ..core.scoring import CountedRuns, count_runs


def count_dataset(dataset, *, progress=None):
    """The :class:`~ragscore.core.scoring.CountedRuns` of a dataset (each run counted once).

    Passing the result instead of the dataset to :func:`question_table`, ``aggregates``,
    ``sweep`` or ``claim_counts`` spares counting the runs again.
    """
    if isinstance(dataset, CountedRuns):
        return dataset
    return count_runs(dataset.corpus, dataset.cases, dataset.runs,
                      rules=getattr(dataset, "rules", COURSE), progress=progress)


def nullable_column(values, kind):
    """A nullable pandas array from Python values where ``None`` means n/a.

    >>> nullable_column([0.5, None], "rate").tolist()
    [0.5, <NA>]
    """
    mask = np.fromiter((value is None for value in values), dtype=bool, count=len(values))
    if kind == RATE:
        data = np.fromiter((0.0 if value is None else value for value in values), dtype=float,
                           count=len(values))
        return pd.arrays.FloatingArray(data, mask)
    data = np.fromiter((value is True for value in values), dtype=bool, count=len(values))
    return pd.arrays.BooleanArray(data, mask)


def key_index(keys):
    """The ``(case, system)`` MultiIndex of ``keys``, built from integer codes."""
    case_codes, system_codes = {}, {}
    cases = np.fromiter((case_codes.setdefault(case, len(case_codes)) for case, _ in keys),
                        dtype=np.intp, count=len(keys))
    systems = np.fromiter((system_codes.setdefault(system, len(system_codes))
                           for _, system in keys), dtype=np.intp, count=len(keys))
    return pd.MultiIndex(
        levels=[pd.Index(list(case_codes), dtype=object),
                pd.Index(list(system_codes), dtype=object)],
        codes=[cases, systems], names=["case", "system"], verify_integrity=False)


def scores_frame(counted, *, k, metrics=CONTRACT):
    """The per-question table of already counted runs at cutoff ``k``."""
    check_k(k, rules=getattr(counted, "rules", COURSE))
    chosen = select(metrics)
    data = {metric.name: nullable_column([metric.value(counts, k) for counts in counted.counts],
                                         metric.kind)
            for metric in chosen}
    frame = pd.DataFrame(data, index=key_index(counted.keys), copy=False)
    frame.attrs["k"] = k
    return frame


def score_runs(corpus, cases, runs, *, k=2, metrics=CONTRACT, progress=None):
    """Score every ``runs[case][system]`` and return a DataFrame, one row per pair.

    The index is ``("case", "system")`` in input order; the columns are ``metrics`` (by
    default the six of :func:`ragscore.evaluate`, in contract order), with nullable dtypes
    (``Float64``, ``boolean``) so n/a is ``<NA>``. The corpus is validated once and each
    case once; an error names the case and the system. ``progress``, if given, is called as
    ``progress(done, total)`` after each case.

    >>> from ragscore.io.course import load_course
    >>> course = load_course()
    >>> table = score_runs(course.corpus, course.cases, course.runs, k=2)
    >>> table.loc[("rollback", "A"), "precision"]
    np.float64(0.5)
    """
    check_k(k)
    select(metrics)
    counted = count_runs(corpus, cases, runs, progress=progress)
    return scores_frame(counted, k=k, metrics=metrics)


def question_table(dataset, *, k=2, metrics=CONTRACT):
    """The per-question table of ``dataset`` (or its counted runs) at cutoff ``k``."""
    return scores_frame(count_dataset(dataset), k=k, metrics=metrics)
