"""Paired, per-question comparison of two systems as a table (the rows of
:func:`ragscore.core.paired.paired_rows`, where the verdict rule lives)."""
import numpy as np
import pandas as pd

from ..core.metrics import RATE, REGISTRY
from ..core.paired import VERDICTS, paired_rows, systems_in
from .scores import nullable_column, plain_values

__all__ = ["VERDICTS", "compare", "systems_of"]


def systems_of(table, *names):
    """The systems of a per-question table in order of appearance; ``names`` must be among them."""
    return systems_in(table.index.tolist(), *names)


def compare(table, *, baseline, candidate):
    """Paired, per-question comparison of two systems on the questions both answered.

    One row per (case, metric) for every metric column of ``table``: the baseline value,
    the candidate value, ``delta`` = candidate - baseline (a yes/no metric counts yes as 1
    and no as 0; n/a when either side is n/a) and a verdict: regressed, no longer defined,
    newly defined, improved, changed or unchanged (for a metric where lower is better, such
    as disclosures, a rise is a regression; a change of a neutral flag, such as ctx
    differs, is ``changed``). Regressions come first, then the rest in that
    order; within a verdict, question order, then metric order.
    """
    metrics = [REGISTRY[name] for name in table.columns if name in REGISTRY]
    rows = paired_rows(table.index.tolist(),
                       {metric.name: plain_values(table[metric.name], RATE) for metric in metrics},
                       baseline=baseline, candidate=candidate, metrics=metrics)
    cases, names, before, after, delta, verdicts = (list(column) for column in zip(*rows)) \
        if rows else ([], [], [], [], [], [])
    return pd.DataFrame({
        "case": np.array(cases, dtype=object),
        "metric": np.array(names, dtype=object),
        "baseline": nullable_column(before, RATE),
        "candidate": nullable_column(after, RATE),
        "delta": nullable_column(delta, RATE),
        "verdict": np.array(verdicts, dtype=object),
    })
