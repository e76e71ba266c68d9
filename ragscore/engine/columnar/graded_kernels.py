"""The primitives of :class:`ragscore.core.graded.GradedPrimitives` as array kernels, one
value per row, under the same names (the columnar engine's ``ArrayAt`` reads them from
:data:`GRADED_PRIMITIVES`). Sums are taken in the reference's order, one addition at a
time, so both engines give the same values, bit for bit.
"""
from functools import partial

import numpy as np

from ...core.graded import INFAP_EPSILON

__all__ = ["exp_gains", "graded_primitives"]

def _at_level(columns, k, *, array_at):
    """:meth:`ragscore.core.counts.At.at_level`: the primitives with relevance read at a
    grade or above, the graded ranks at that grade as the relevant ranks (each level's
    columns made once)."""
    found = {}

    def at_level(level):
        if level not in found:
            keep = columns.gain_grade >= level
            high = columns.ideal_grade >= level
            per_case = np.bincount(columns.ideal_case[high], minlength=len(columns.graded_case))
            relevant = np.where(columns.graded, per_case[columns.row_case],
                                columns.n_relevant if level <= 1 else 0)
            found[level] = array_at(columns._replace(
                relevant_row=columns.gain_row[keep], relevant_rank=columns.gain_rank[keep],
                n_relevant=relevant), k)
        return found[level]
    return at_level


def _r_hits(columns, k):
    rows, ranks = columns.relevant_row, columns.relevant_rank
    within = ranks <= np.minimum(k, columns.n_relevant[rows])
    return np.bincount(rows[within], minlength=columns.rows)


def exp_gains(grades):
    """2 ** grade - 1 as floats (grades past 1000 held at 1000: such a row is n/a)."""
    return np.ldexp(1.0, np.minimum(grades, 1000)) - 1.0


def _top_grade(columns, k):
    top = np.zeros(len(columns.graded_case), dtype=np.int64)
    if len(columns.ideal_case):
        np.maximum.at(top, columns.ideal_case, columns.ideal_grade)
    return np.where(columns.graded, top[columns.row_case],
                    (columns.n_relevant > 0).astype(np.int64))


def _places(rows):
    """Each item's place within its row (0 first) of a flat list in row order."""
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    start = np.ones(len(rows), dtype=bool)
    start[1:] = rows[1:] != rows[:-1]
    begins = np.flatnonzero(start)
    return np.arange(len(rows)) - np.repeat(begins, np.diff(np.append(begins, len(rows))))


def _cascade(columns, k):
    within = columns.gain_rank <= k
    rows, ranks = columns.gain_row[within], columns.gain_rank[within]
    chance = exp_gains(columns.gain_grade[within]) / 16
    total, decay = np.zeros(columns.rows), np.ones(columns.rows)
    places = _places(rows)
    order = np.argsort(places, kind="stable")
    bounds = np.searchsorted(places[order], np.arange(int(places.max()) + 2 if len(places)
                                                      else 1))
    for low, high in zip(bounds[:-1], bounds[1:]):  # one place of every row at a time,
        at = order[low:high]                        # in the reference's order
        row = rows[at]
        total[row] += chance[at] * decay[row] / ranks[at]
        decay[row] *= 1 - chance[at]
    return total


def _persistence_sum(columns, k):
    def summed(p):
        within = columns.relevant_rank <= k
        ranks = columns.relevant_rank[within]
        most = int(ranks.max()) if len(ranks) else 0
        powers = np.array([p ** (rank - 1) for rank in range(1, most + 1)] or [0.0])
        return np.bincount(columns.relevant_row[within], weights=powers[ranks - 1],
                           minlength=columns.rows)
    return summed


def _span_sum(column):
    """The primitive summing a span count's ``column`` over the ranks within k, per row (a
    whole number)."""
    def summed(columns, k):
        within = columns.span_rank <= k
        return np.bincount(columns.span_row[within], weights=getattr(columns, column)[within],
                           minlength=columns.rows).astype(np.int64)
    return summed


def _below(rows, ranks, item_rows, item_ranks):
    """For each ``(item_rows[i], item_ranks[i])``: how many of ``(rows, ranks)`` (in row
    order, ranks ascending) are in that row above that rank."""
    width = int(max(ranks.max() if len(ranks) else 0, item_ranks.max() if len(item_ranks)
                    else 0)) + 2
    keys = rows * width + ranks
    return (np.searchsorted(keys, item_rows * width + item_ranks, side="left")
            - np.searchsorted(keys, item_rows * width, side="left"))


def _relevant_above(columns, k):
    """``(rows, ranks, found, judged not relevant above, pooled but unjudged above)`` of the
    relevant ranks within k (as :meth:`ragscore.core.graded.GradedPrimitives._above`)."""
    found = _places(columns.relevant_row)
    within = columns.relevant_rank <= k
    rows, ranks, found = columns.relevant_row[within], columns.relevant_rank[within], \
        found[within]
    pool = _below(columns.unjudged_row, columns.unjudged_rank, rows, ranks)
    judged = np.where(columns.pooled[rows],
                      _below(columns.judged_row, columns.judged_rank, rows, ranks) - pool,
                      ranks - 1)
    return rows, ranks, found, judged - found, np.where(columns.pooled[rows], pool, 0)


def _bpref_sum(columns, k):
    rows, _, _, below, _ = _relevant_above(columns, k)
    relevant = columns.n_relevant[rows]
    least = np.minimum(columns.n_judged[rows] - columns.n_unjudged[rows] - relevant, relevant)
    part = np.where(below > 0, 1.0 - np.minimum(below, relevant) / least, 1.0)
    return np.bincount(rows, weights=part, minlength=columns.rows)


def _infap_sum(columns, k):
    rows, ranks, found, below, pool = _relevant_above(columns, k)
    fj = (ranks - 1).astype(float)
    part = np.where(ranks == 1, 1.0, 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
        (found + below + pool) / fj) * ((found + INFAP_EPSILON) /
                                        (found + below + 2 * INFAP_EPSILON)))
    return np.bincount(rows, weights=part, minlength=columns.rows)


def graded_primitives(array_at):
    """``{primitive name: kernel(columns, k)}``: the kernels make the primitives of another
    relevance level with ``array_at(columns, k)`` (the engine's ``ArrayAt``); the
    exponential-gain DCGs are kernels.py's own DCG kernels given :func:`exp_gains`."""
    return {
        "at_level": partial(_at_level, array_at=array_at),
        "r_hits": _r_hits,
        "top_grade": _top_grade,
        "cascade": _cascade,
        "persistence_sum": _persistence_sum,
        "covered": _span_sum("span_covered"),
        "read": _span_sum("span_read"),
        "bpref_sum": _bpref_sum,
        "infap_sum": _infap_sum,
    }
