"""What run records say beyond quality: the spread of repeated trials and the operation
figures (latency, tokens, cost, retries, failures), per system, as pandas tables."""
import math

import pandas as pd

from ..core.metrics import select
from ..core.rules import check_k
from ..core.trials import spread_of
from .scores import count_dataset, default_metrics

SPREAD_COLUMNS = ["case", "system", "metric", "trials", "defined", "min", "max", "mean", "agree"]
OPS_COLUMNS = ["system", "records", "failed", "retries", "latency_ms_median", "latency_ms_p95",
               "tokens_total", "cost_total"]


def trial_spread(dataset, *, k=2, metrics=None):
    """One row per (question, system, metric) with repeated trials: how many trials, how many
    defined, min, max, mean and how many trials agree on the most common value. Questions
    with one trial are not listed (nothing spreads)."""
    counted = count_dataset(dataset)
    check_k(k, rules=counted.rules)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    rows = []
    per_metric = {metric.name: counted.trial_values(metric, k) for metric in chosen}
    for position in sorted(next(iter(per_metric.values()), {})):
        case, system = counted.keys[position]
        for metric in chosen:
            result = spread_of(per_metric[metric.name][position])
            rows.append({"case": case, "system": system, "metric": metric.name,
                         "trials": result.trials, "defined": result.defined,
                         "min": result.low, "max": result.high, "mean": result.mean,
                         "agree": result.agree})
    frame = pd.DataFrame.from_records(rows, columns=SPREAD_COLUMNS)
    for column in ("min", "max", "mean"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Float64")
    return frame


def percentile(values, share):
    """The ``share`` percentile of ``values`` by the nearest-rank method (no interpolation).

    >>> percentile([10, 20, 30, 40], 0.95), percentile([10, 20, 30, 40], 0.5)
    (40, 20)
    """
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def ops_summary(dataset):
    """Per system: records with operation figures, failures, retries, median and 95th
    percentile latency (nearest rank), total tokens and cost. Every trial is one record; a
    figure no record gave is n/a, never 0."""
    counted = count_dataset(dataset)
    per_system = {}
    for (_, system), records in (counted.ops or {}).items():
        per_system.setdefault(system, []).extend(records)
    rows = []
    for system, records in per_system.items():
        latency = [r["latency_ms"] for r in records if "latency_ms" in r]
        tokens = [r["tokens"] for r in records if "tokens" in r]
        cost = [r["cost"] for r in records if "cost" in r]
        rows.append({
            "system": system, "records": len(records),
            "failed": sum(1 for r in records if r.get("failed")),
            "retries": sum(r.get("retries", 0) for r in records),
            "latency_ms_median": percentile(latency, 0.5) if latency else None,
            "latency_ms_p95": percentile(latency, 0.95) if latency else None,
            "tokens_total": sum(tokens) if tokens else None,
            "cost_total": sum(cost) if cost else None})
    frame = pd.DataFrame.from_records(rows, columns=OPS_COLUMNS)
    for column in ("latency_ms_median", "latency_ms_p95", "cost_total"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Float64")
    frame["tokens_total"] = pd.array(frame["tokens_total"].tolist(), dtype="Int64")
    return frame
