"""Output of ``ragscore compare``'s paired statistics (``--stats``) and its JSON rows.

n/a stays apart from 0: text shows ``n/a``, JSON writes ``null``.
"""
import json

from ..tables.stats import COLUMNS, EXACT_MAX_PAIRS, POWER, UNTESTED, percent
from .text import format_delta, format_value, is_na


def _plain(value):
    """A table cell as plain JSON data: None for n/a, int, float or str."""
    if is_na(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    return value


def stats_records(frame):
    """The rows of :func:`ragscore.tables.stats.stats_table` as plain dicts (keys
    :data:`ragscore.tables.stats.COLUMNS`, None for n/a)."""
    columns = [frame[name].astype(object).tolist() for name in COLUMNS]
    return [dict(zip(COLUMNS, map(_plain, values))) for values in zip(*columns)]


def comparison_records(rows):
    """The rows of :func:`ragscore.tables.compare.compare` as plain dicts (None for n/a)."""
    names = ("case", "metric", "baseline", "candidate", "delta", "verdict")
    columns = [rows[name].astype(object).tolist() for name in names]
    return [dict(zip(names, map(_plain, values))) for values in zip(*columns)]


def to_json(records):
    """A list of records as indented JSON (``null`` for n/a, never NaN)."""
    return json.dumps(records, indent=2, allow_nan=False) + "\n"


def _p(value, digits=2):
    """A p-value with ``digits`` decimals (two, as the workbook's tables print it: 0.19)."""
    return "n/a" if is_na(value) else f"{float(value):.{digits}f}"


def _test(method):
    if method == UNTESTED:
        return "none"
    return "exact" if "exact" in method else "sampled"


def render_stats(frame, *, baseline, candidate, confidence, seed, resamples, digits=2):
    """The text of a paired-statistics table: what was declared (method, confidence, seed,
    the detectable-effect formula), then one line per metric, every column as wide as its
    longest value, numbers with ``digits`` decimals.

    >>> import pandas as pd
    >>> frame = pd.DataFrame([{"metric": "support", "method": UNTESTED, "n": 3,
    ...     "mean_delta": 1 / 6, "ci_low": None, "ci_high": None, "p_value": None,
    ...     "p_holm": None, "tested": 0, "min_detectable": None, "note": "only 3 paired questions; at least 10 are needed"}])
    >>> print(render_stats(frame, baseline="A", candidate="B", confidence=0.95, seed=0,
    ...                    resamples=10_000).splitlines()[-1].split()[:8])
    ['support', '3', '+0.17', 'n/a', 'n/a', 'n/a', 'none', 'only']
    """
    level = percent(confidence)
    z = f"z_{1 - (1 - confidence) / 2:g}"
    lines = [
        f"Paired statistics of {candidate} - {baseline}, per metric over the questions where "
        "both are defined (yes counts 1, no 0):",
        f"  interval: bootstrap percentile {level} CI of the mean delta, {resamples} resamples "
        f"of the questions, seed {seed};",
        f"  p: two-sided sign-flip permutation test of the mean delta, exact over all 2^n "
        f"flips up to n = {EXACT_MAX_PAIRS}, else {resamples} random flips (seed {seed});",
        f"  min detectable: ({z} + z_{POWER:g}) * sd(delta) / sqrt(n), the normal "
        f"approximation at power {POWER:g}, assuming the observed spread.",
    ]
    records = stats_records(frame)
    tested = max((record["tested"] for record in records), default=0)
    if tested > 1:
        lines.append(f"  p (Holm): the p-value adjusted for the {tested} metrics tested here "
                     "(Holm's step-down): read it to ask whether any of them changed.")
    rows = [["metric", "n", "mean", level + " CI", "p", *(["p (Holm)"] if tested > 1 else []),
             "min det", "test", "note"]]
    for record in records:
        interval = ("n/a" if record["ci_low"] is None else
                    f"[{format_delta(record['ci_low'], digits=digits)}, "
                    f"{format_delta(record['ci_high'], digits=digits)}]")
        rows.append([record["metric"], str(record["n"]),
                     format_delta(record["mean_delta"], digits=digits), interval,
                     _p(record["p_value"], digits),
                     *([_p(record["p_holm"], digits)] if tested > 1 else []),
                     format_value(record["min_detectable"], digits=digits),
                     _test(record["method"]), record["note"]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    # numbers (n, mean, p, p (Holm), min det) right-aligned; metric, interval, test and note
    # left
    numbers = (1, 2, 4, 5, 6) if tested > 1 else (1, 2, 4, 5)
    lines += ["  ".join(cell.rjust(width) if i in numbers else cell.ljust(width)
                        for i, (cell, width) in enumerate(zip(row, widths))).rstrip()
              for row in rows]
    return "\n".join(lines) + "\n"
