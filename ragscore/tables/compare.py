"""Paired, per-question comparison of two systems, computed column by column."""
import numpy as np
import pandas as pd

from ..core.metrics import REGISTRY
from ..core.rules import InvalidInputError, show

#: Verdicts of a paired comparison, in the order a report lists them (regressions first).
VERDICTS = ("regressed", "no longer defined", "newly defined", "improved", "unchanged")


def systems_of(table, *names):
    """The systems of a per-question table in order of appearance; ``names`` must be among them."""
    present = list(dict.fromkeys(table.index.get_level_values("system")))
    for name in names:
        if name not in present:
            raise InvalidInputError(
                f"system must be one of {', '.join(map(show, present)) or '(none: no runs)'}; "
                f"got {show(name)}")
    return present


def _as_float(column):
    """Values as floats (yes 1.0, no 0.0) and a mask of n/a, from a nullable column."""
    missing = column.isna().to_numpy()
    values = column.astype("Float64").to_numpy(dtype=float, na_value=0.0)
    return values, missing


def verdicts(before, before_missing, after, after_missing):
    """The verdict of each pair, as an array of strings.

    >>> verdicts(np.array([1.0, 0.0, 0.5, 0.0]), np.array([False, True, False, False]),
    ...          np.array([0.5, 1.0, 0.5, 0.0]), np.array([False, False, False, True])).tolist()
    ['regressed', 'newly defined', 'unchanged', 'no longer defined']
    """
    both = ~before_missing & ~after_missing
    return np.select(
        [both & (after < before), ~before_missing & after_missing,
         before_missing & ~after_missing, both & (after > before)],
        list(VERDICTS[:4]), default=VERDICTS[4]).astype(object)


def compare(table, *, baseline, candidate):
    """Paired, per-question comparison of two systems on the questions both answered.

    One row per (case, metric) for every metric column of ``table``: the baseline value,
    the candidate value, ``delta`` = candidate - baseline (a yes/no metric counts yes as 1
    and no as 0; n/a when either side is n/a) and a verdict: regressed, no longer defined,
    newly defined, improved or unchanged (for a metric where lower is better, such as
    disclosures, a rise is a regression). Regressions come first, then the rest in that
    order; within a verdict, question order, then metric order.
    """
    systems_of(table, baseline, candidate)
    before_rows = table.xs(baseline, level="system")
    after_rows = table.xs(candidate, level="system")
    cases = before_rows.index[before_rows.index.isin(after_rows.index)]
    before_rows, after_rows = before_rows.loc[cases], after_rows.loc[cases]
    metrics = [name for name in table.columns if name in REGISTRY]
    shape = (len(cases), len(metrics))
    before, before_missing, after, after_missing = (np.empty(shape), np.empty(shape, bool),
                                                    np.empty(shape), np.empty(shape, bool))
    for position, metric in enumerate(metrics):
        before[:, position], before_missing[:, position] = _as_float(before_rows[metric])
        after[:, position], after_missing[:, position] = _as_float(after_rows[metric])
    before, before_missing = before.ravel(), before_missing.ravel()
    after, after_missing = after.ravel(), after_missing.ravel()
    either = before_missing | after_missing
    # where lower is better (counts of problems), a rise is the regression
    sign = np.tile(np.array([-1.0 if REGISTRY[name].lower_is_better else 1.0
                             for name in metrics]), len(cases))
    verdict = verdicts(before * sign, before_missing, after * sign, after_missing)
    frame = pd.DataFrame({
        "case": np.repeat(np.asarray(cases, dtype=object), len(metrics)),
        "metric": np.tile(np.asarray(metrics, dtype=object), len(cases)),
        "baseline": pd.arrays.FloatingArray(before, before_missing),
        "candidate": pd.arrays.FloatingArray(after, after_missing),
        "delta": pd.arrays.FloatingArray(np.where(either, 0.0, after - before), either),
        "verdict": verdict,
    })
    rank = pd.Series(verdict).map({name: order for order, name in enumerate(VERDICTS)})
    order = np.argsort(rank.to_numpy(), kind="stable")
    return frame.iloc[order].reset_index(drop=True)
