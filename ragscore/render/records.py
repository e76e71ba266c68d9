"""What run records say beyond quality, as the lines a report for people prints: the
spread of repeated trials per question, and the operation figures per system."""
from .text import format_value


def record_lines(counted, *, k, metrics, digits=2):
    """Lines on repeated trials (their spread per question) and on operations per system
    (none when the runs record neither)."""
    from ..tables.records import ops_summary, trial_spread

    lines = []
    if "trials" in counted.features:
        spread = trial_spread(counted, k=k, metrics=metrics)
        lines += ["", "Repeated trials: each question counts once (its value above is the "
                      "trials' mean; yes/no: yes only if every trial says yes); the spread:"]
        for case, system, metric, trials, defined, low, high, mean, agree in zip(
                *(spread[name].tolist() for name in spread.columns)):
            if not defined:
                continue
            lines.append(f"- {case} {system} {metric}: {trials} trials, {defined} defined, "
                         f"min {format_value(low, digits=digits)}, max "
                         f"{format_value(high, digits=digits)}, mean "
                         f"{format_value(mean, digits=digits)}, {agree} agree")
    if counted.ops:
        ops = ops_summary(counted)
        lines += ["", "Operations per system (every trial is a record; latency percentiles "
                      "by nearest rank):"]
        for row in ops.astype(object).itertuples(index=False):
            lines.append(
                f"- {row.system}: {row.records} records, {row.failed} failed, {row.retries} "
                f"retries, latency median {format_value(row.latency_ms_median)} ms, p95 "
                f"{format_value(row.latency_ms_p95)} ms, tokens {format_value(row.tokens_total)}"
                f", cost {'n/a' if row.cost_total is None else f'{row.cost_total:.4f}'}")
    return lines
