"""Paired statistics of a comparison: how sure can we be that the candidate differs?

For each metric, over the questions where both systems are defined, the per-question
deltas d_i = candidate_i - baseline_i (a yes/no metric counts yes as 1, no as 0) give:

- ``mean_delta``: the mean of the d_i (what is **measured**);
- ``ci_low``, ``ci_high``: a paired bootstrap percentile interval of that mean (questions
  resampled with replacement, each keeping its pair; seeded);
- ``p_value``: a two-sided paired sign-flip permutation test of the mean delta (under the
  null hypothesis each d_i is as likely to be -d_i), exact over all 2^n sign assignments
  up to :data:`EXACT_MAX_PAIRS` pairs (``scipy.stats.permutation_test`` with
  ``permutation_type='samples'``), a seeded Monte Carlo estimate above;
- ``p_holm``: the p-value adjusted for the ``tested`` metrics tested together (Holm's
  step-down, :func:`ragscore.core.multiple.holm`): read it, not ``p_value``, when asking
  whether any of several metrics changed;
- ``min_detectable``: the smallest true mean delta the sample could detect, by the normal
  approximation (z_{1-a/2} + z_{power}) * s / sqrt(n), with a = 1 - confidence, power 0.8
  and s the sample standard deviation of the d_i (what is **declared**: a planning figure
  that assumes the observed spread, not a measurement).

Below ``min_pairs`` paired questions only n and the mean delta are given; the interval, the
p-value and the detectable effect are None and the note says why. A question counts once:
repeated trials of one question must be reduced to one value per question first.
"""
import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..core.metrics import REGISTRY
from ..core.rules import InvalidInputError, show
from .compare import compare, systems_of

#: Up to this many pairs the permutation test enumerates all 2^n sign assignments.
EXACT_MAX_PAIRS = 16
#: Bootstrap resamples and Monte Carlo sign flips, by default.
RESAMPLES = 10_000
#: At most this many draws per resampling batch (about 16 MB), whatever n is.
BATCH_VALUES = 2_000_000
#: The power the detectable effect is computed for.
POWER = 0.8
#: The method of a metric with too few pairs: only the mean delta is computed.
UNTESTED = "mean of paired deltas only"
#: The columns of :func:`stats_table`, in order (also the keys of ``--format json``).
COLUMNS = ("metric", "method", "n", "mean_delta", "ci_low", "ci_high", "p_value", "p_holm",
           "tested", "min_detectable", "note")


class PairedStats(NamedTuple):
    """The paired statistics of one metric (see the module docstring); None where undefined."""
    method: str
    n: int
    mean_delta: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    min_detectable: float | None
    note: str


def _check_options(confidence, seed, resamples, min_pairs):
    if type(confidence) not in (float, int) or not 0 < confidence < 1:
        raise InvalidInputError(f"confidence must be a number strictly between 0 and 1, "
                                f"such as 0.95; got {show(confidence)}")
    if type(seed) is not int or seed < 0:
        raise InvalidInputError(f"seed must be a whole number 0 or above; got {show(seed)}")
    if type(resamples) is not int or resamples < 1:
        raise InvalidInputError(f"resamples must be a whole number 1 or above; "
                                f"got {show(resamples)}")
    if type(min_pairs) is not int or min_pairs < 2:
        raise InvalidInputError(f"min_pairs must be a whole number 2 or above; "
                                f"got {show(min_pairs)}")


def _deltas(baseline_values, candidate_values):
    before = list(baseline_values)
    after = list(candidate_values)
    if len(before) != len(after):
        raise InvalidInputError(f"baseline and candidate values must pair up one to one; "
                                f"got {len(before)} baseline and {len(after)} candidate values")
    for side, values in (("baseline", before), ("candidate", after)):
        for position, value in enumerate(values):
            if isinstance(value, bool):
                continue
            if not isinstance(value, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(value):
                raise InvalidInputError(
                    f"{side} value {position} must be a finite number or a bool (keep only "
                    f"the questions where both systems are defined); got {show(value)}")
    return np.asarray(after, dtype=float) - np.asarray(before, dtype=float)


def percent(confidence):
    """A confidence level as people write it.

    >>> percent(0.95), percent(0.999), percent(0.5)
    ('95%', '99.9%', '50%')
    """
    return f"{round(confidence * 100, 6):g}%"


def method_of(n, *, confidence=0.95, resamples=RESAMPLES):
    """How the interval and the p-value of ``n`` pairs are computed, in words.

    >>> method_of(12)
    'bootstrap percentile 95% CI (10000 resamples); sign-flip test, exact (2^12 flips)'
    >>> method_of(17, resamples=5000)
    'bootstrap percentile 95% CI (5000 resamples); sign-flip test, Monte Carlo (5000 flips)'
    """
    interval = f"bootstrap percentile {percent(confidence)} CI ({resamples} resamples)"
    if n <= EXACT_MAX_PAIRS:
        return f"{interval}; sign-flip test, exact (2^{n} flips)"
    return f"{interval}; sign-flip test, Monte Carlo ({resamples} flips)"


def _mean(values, axis=-1):
    return np.mean(values, axis=axis)


def paired_stats(baseline_values, candidate_values, *, confidence=0.95, seed=0,
                 resamples=RESAMPLES, min_pairs=10):
    """Paired statistics of candidate - baseline over questions defined on both sides.

    ``baseline_values[i]`` and ``candidate_values[i]`` belong to the same question (one
    value per question; yes/no as True/False or 1/0). Returns a :class:`PairedStats`:
    ``mean_delta`` = sum(d_i) / n (None when n = 0); below ``min_pairs`` pairs, ci_low,
    ci_high, p_value and min_detectable are None and ``note`` says why. The same inputs and
    ``seed`` give the same numbers on every run.

    The p-value is two-sided: the share of the 2^n sign assignments s (exact, n <= 16) or
    of ``resamples`` random ones (Monte Carlo, counting the observed one: (hits + 1) /
    (resamples + 1)) whose mean of s_i * |d_i| is at least as far from 0 as the observed
    mean. min_detectable = (z_{1-a/2} + z_{0.8}) * s / sqrt(n), a = 1 - confidence, s the
    standard deviation of the d_i (n - 1 denominator): the normal approximation for a
    paired test with power 0.8.

    >>> result = paired_stats([0] * 10, [1] * 10)
    >>> result.p_value == 2 / 2 ** 10, result.ci_low, result.ci_high, result.min_detectable
    (True, 1.0, 1.0, 0.0)
    >>> paired_stats([0.5, 1.0, 0.0], [1.0, 1.0, 0.5]).note
    'only 3 paired questions; at least 10 are needed'
    """
    _check_options(confidence, seed, resamples, min_pairs)
    deltas = _deltas(baseline_values, candidate_values)
    n = len(deltas)
    method = method_of(n, confidence=confidence, resamples=resamples)
    if n < min_pairs:
        method = UNTESTED
    if n == 0:
        return PairedStats(method, 0, None, None, None, None, None,
                           f"no question where both systems are defined; at least "
                           f"{min_pairs} are needed")
    mean_delta = float(np.mean(deltas))
    if n < min_pairs:
        return PairedStats(method, n, mean_delta, None, None, None, None,
                           f"only {n} paired question{'s' * (n != 1)}; at least {min_pairs} "
                           "are needed")
    low, high = _interval(deltas, confidence=confidence, seed=seed, resamples=resamples)
    spread = float(np.std(deltas, ddof=1))
    normal = NormalDist()  # the standard library's quantiles: no scipy import for two numbers
    z = normal.inv_cdf(1 - (1 - confidence) / 2) + normal.inv_cdf(POWER)
    detectable = float(z * spread / math.sqrt(n))
    note = "every paired question has the same delta" if spread == 0 else ""
    return PairedStats(method, n, mean_delta, low, high,
                       _sign_flip_p(deltas, seed=seed, resamples=resamples), detectable, note)


def _batches(total, width):
    """Sizes of the batches of ``total`` resamples, each at most :data:`BATCH_VALUES` wide."""
    size = max(1, BATCH_VALUES // width)
    return [min(size, total - start) for start in range(0, total, size)]


def _sign_flip_p(deltas, *, seed, resamples):
    """The two-sided sign-flip p-value of the mean of ``deltas`` (see :func:`paired_stats`).

    Up to :data:`EXACT_MAX_PAIRS` pairs ``scipy.stats.permutation_test`` enumerates every
    sign assignment. Above, random assignments are drawn grouped by |d|: the sum of
    s_i * |d_i| depends only on how many of the c pairs sharing a magnitude v keep their
    sign, a Binomial(c, 1/2) count, so a resample costs one draw per distinct magnitude
    instead of one per question (the same distribution as flipping each sign; scipy's own
    Monte Carlo took 12 s per metric at 10,000 questions).
    """
    if len(deltas) <= EXACT_MAX_PAIRS:
        from scipy import stats

        test = stats.permutation_test((deltas,), _mean, permutation_type="samples",
                                      vectorized=True, n_resamples=math.inf,
                                      alternative="two-sided")
        return float(test.pvalue)
    magnitudes, counts = np.unique(np.abs(deltas), return_counts=True)
    observed = abs(float(np.sum(deltas)))
    tolerance = 1e-9 * float(np.sum(magnitudes * counts))  # rounding of sums in another order
    rng = np.random.default_rng(seed)
    hits = 0
    for size in _batches(resamples, len(counts)):
        kept = rng.binomial(counts, 0.5, size=(size, len(counts)))
        sums = (2 * kept - counts) @ magnitudes
        hits += int(np.count_nonzero(np.abs(sums) >= observed - tolerance))
    return (hits + 1) / (resamples + 1)


def _interval(deltas, *, confidence, seed, resamples):
    """The bootstrap percentile interval of the mean delta, as two floats.

    A resample draws n questions with replacement; its mean depends only on how many times
    each distinct delta was drawn, a Multinomial(n, c_k / n) count, so a resample costs one
    draw per distinct delta (the same distribution as ``scipy.stats.bootstrap`` resampling
    questions, which took 8 s per metric at 100,000 questions). The interval is the
    a/2 and 1 - a/2 percentiles of the resampled means (numpy's linear interpolation, as
    scipy's ``method='percentile'``).
    """
    values, counts = np.unique(deltas, return_counts=True)
    if len(values) == 1:  # every resample has the same mean
        return float(values[0]), float(values[0])
    rng = np.random.default_rng(seed)
    n = len(deltas)
    means = np.concatenate([rng.multinomial(n, counts / n, size=size) @ values / n
                            for size in _batches(resamples, len(values))])
    tail = (1 - confidence) / 2
    low, high = np.percentile(means, [100 * tail, 100 * (1 - tail)])
    return float(low), float(high)


def with_holm(records):
    """Add ``p_holm`` (Holm-adjusted over every record with a p-value) and ``tested`` (how
    many have one) to each of ``records`` (dicts with ``p_value``), in place."""
    from ..core.multiple import holm

    adjusted = holm([record["p_value"] for record in records])
    tested = sum(value is not None for value in adjusted)
    for record, value in zip(records, adjusted):
        record.update(p_holm=value, tested=tested)
    return records


def stats_table(table, *, baseline, candidate, confidence=0.95, seed=0,
                resamples=RESAMPLES, min_pairs=10):
    """One row of :func:`paired_stats` per metric column of a per-question ``table``.

    Pairs are the questions both systems answered where the metric is defined on both sides
    (the rows :func:`ragscore.tables.compare.compare` gives a delta), in question order.
    Columns: :data:`COLUMNS`; the numbers are nullable floats (None as ``<NA>``);
    ``p_holm`` adjusts each p-value for the ``tested`` metrics given a p-value.
    Each metric's resampling starts from ``seed``, so a metric's numbers do not depend on
    which other metrics are shown.
    """
    if list(table.index.names) != ["case", "system"]:
        raise InvalidInputError(
            f"paired statistics need a table indexed by (case, system), one row per question "
            f"and system; got an index of {show(list(table.index.names))}: reduce repeated "
            "trials to one value per question first")
    systems_of(table, baseline, candidate)
    repeated = table.index[table.index.duplicated()]
    if len(repeated):
        first = ", ".join(f"{name} {show(value)}"
                          for name, value in zip(table.index.names, repeated[0]))
        raise InvalidInputError(
            f"paired statistics need one row per (case, system), a question counting once; "
            f"got {len(repeated)} repeated, the first {first}: reduce repeated trials to one "
            "value per question first")
    rows = compare(table, baseline=baseline, candidate=candidate)
    order = {case: position for position, case in enumerate(
        dict.fromkeys(table.index.get_level_values("case")))}
    rows = rows[rows["delta"].notna()]
    rows = rows.iloc[np.argsort(rows["case"].map(order).to_numpy(), kind="stable")]
    records = []
    for metric in (name for name in table.columns if name in REGISTRY):
        chosen = rows[rows["metric"] == metric]
        result = paired_stats(chosen["baseline"].to_numpy(dtype=float),
                              chosen["candidate"].to_numpy(dtype=float),
                              confidence=confidence, seed=seed, resamples=resamples,
                              min_pairs=min_pairs)
        records.append({"metric": metric, **result._asdict()})
    with_holm(records)
    frame = pd.DataFrame(records, columns=list(COLUMNS))
    for name in ("mean_delta", "ci_low", "ci_high", "p_value", "p_holm", "min_detectable"):
        frame[name] = pd.array([np.nan if value is None else value for value in frame[name]],
                               dtype="Float64")
    frame["n"] = frame["n"].astype(int)
    return frame
