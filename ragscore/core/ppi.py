"""A judge's drafts made useful, never trusted: prediction-powered inference of a mean.

A machine judge drafts every item; people judge a random sample of the questions (the audit
slice). Per answer i, ``f_i`` is a metric read from the judge's drafts alone and ``y_i`` the
same metric read from people's judgements. The target is the mean of y over all M answers of
the test set (what people would say had they judged everything); the sample holds n of
them, the rest N = M - n. With d_i = y_i - f_i on the sample (Angelopoulos et al.,
"Prediction-powered inference", Science 2023, for a finite set of answers, which is the
difference estimator of survey sampling):

    estimate = (sum over the sample of y + sum over the rest of f + N * mean of d) / M
    variance = (1 - n / M) * s^2(d) / n
    interval = estimate -/+ z_{1 - a/2} * sqrt(variance)

(the estimate's error is (N / M) times the difference between the sample's mean of d and
the rest's, whose variance over random samples is s^2(d) (1/n + 1/N)).

The mean of d corrects the judge's bias with what people said on the sample, so the
estimate is unbiased whatever the judge does; when the judge agrees with people d varies
little and the interval is narrower than people's sample alone (:func:`sample_mean`: the
sample's mean of y, variance (1 - n / M) s^2(y) / n). Undefined (``None``, with the reason)
with fewer than two answers in the sample.

The interval is a normal approximation: it covers the mean about 95% of the time when the
sample holds enough answers where judge and people differ (about 100 sample answers for a
judge agreeing nine times in ten, ``tests/core/test_ppi.py``), and is too narrow when it
holds only a few. ``conservative`` (what a gate reads) guards that case: it uses at least
the variance of a disagreement rate shrunk upward, (m + 2) / (n + 4) for m disagreements
in n (Agresti and Coull's), so a sample with none still gives an interval of some width.

Standard library only.
"""
from collections import namedtuple
from math import fsum, sqrt
from statistics import NormalDist

__all__ = ["ESTIMATED_STAGES", "Estimate", "estimate_problem", "ppi_mean", "sample_mean"]


class Estimate(namedtuple("Estimate", "mean low high sample rest method reason")):
    """An estimated mean and its interval (``None`` when undefined, with ``reason``), from
    ``sample`` answers people judged and ``rest`` answers only the judge did, by
    ``method`` (``ppi`` or ``sample``)."""

    __slots__ = ()


def _variance(values):
    mean = fsum(values) / len(values)
    return fsum((value - mean) ** 2 for value in values) / (len(values) - 1)


def _z(confidence):
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def _too_few(people, rest, method):
    return Estimate(None, None, None, len(people), rest, method,
                    f"{len(people)} answer{'s' * (len(people) != 1)} in the sample; at least "
                    "two are needed")


def sample_mean(people, *, rest=0, confidence=0.95):
    """People's own estimate from the sample: the mean of ``people`` -/+ z times the square
    root of (1 - n / M) s^2 / n, M = n + ``rest`` answers in all.

    >>> sample_mean([1.0, 0.0, 1.0, 1.0]).mean
    0.75
    """
    people = [float(value) for value in people]
    if len(people) < 2:
        return _too_few(people, rest, "sample")
    n, total = len(people), len(people) + rest
    mean = fsum(people) / n
    half = _z(confidence) * sqrt((1 - n / total) * _variance(people) / n)
    return Estimate(mean, mean - half, mean + half, n, rest, "sample", "")


def _conservative(differences):
    """s^2(d), or more where few answers of the sample disagree: at least the disagreement
    rate shrunk upward, (m + 2) / (n + 4) (Agresti and Coull's), times the mean d^2 of the m
    disagreements (1, the largest a rate allows, when there is none)."""
    n = len(differences)
    apart = [d * d for d in differences if d != 0]
    typical = fsum(apart) / len(apart) if apart else 1.0
    return max(_variance(differences), (len(apart) + 2) / (n + 4) * typical)


def ppi_mean(rest, sample_judge, sample_people, *, confidence=0.95, conservative=False):
    """The prediction-powered mean (see the module docstring): ``rest`` the judge's values
    of the answers outside the sample, ``sample_judge`` and ``sample_people`` the judge's
    and people's values of the sample's answers, pair by pair.

    The judge says 0.5 of all six answers; people say 1 of the two in the sample: d = 0.5
    on both (variance 0), so the estimate is (2 + 4 x 0.5 + 4 x 0.5) / 6 = 1.

    >>> found = ppi_mean([0.5] * 4, [0.5, 0.5], [1.0, 1.0])
    >>> found.mean, found.low, found.high
    (1.0, 1.0, 1.0)
    """
    rest = [float(value) for value in rest]
    judge = [float(value) for value in sample_judge]
    people = [float(value) for value in sample_people]
    if len(judge) != len(people):
        raise ValueError(f"the sample's judge and people values must pair up; got "
                         f"{len(judge)} and {len(people)}")
    if len(people) < 2:
        return _too_few(people, len(rest), "ppi")
    n, others = len(people), len(rest)
    total = n + others
    differences = [y - f for y, f in zip(people, judge)]
    correction = fsum(differences) / n
    mean = (fsum(people) + fsum(rest) + others * correction) / total
    spread = _conservative(differences) if conservative else _variance(differences)
    variance = (1 - n / total) * spread / n
    half = _z(confidence) * sqrt(variance)
    return Estimate(mean, mean - half, mean + half, n, others, "ppi", "")


#: The stages of the metrics an estimate reads: an answer's, by its labels.
ESTIMATED_STAGES = ("answer", "reference")


def estimate_problem(rule, metric):
    """Why a rule's estimate cannot be made, as ``(message, field)``, or ``None``: not
    ``ppi``, on a check other than ``min_mean``, on a metric that does not read an answer's
    labels, or with an audit share outside (0, 1] or a seed that is not a whole number 0 or
    above (:func:`ragscore.core.gate.check_rule` raises it)."""
    if rule.estimate != "ppi":
        return (f"estimate must be \"ppi\" (or left out: people's judgements alone); got "
                f"{rule.estimate!r}", "estimate")
    if rule.check != "min_mean":
        return (f"estimate = \"ppi\" estimates a mean, so it needs check min_mean; got "
                f"{rule.check}", "estimate")
    if metric.stage not in ESTIMATED_STAGES:
        return (f"estimate = \"ppi\" reads answers judged by a machine and by people; "
                f"{metric.name} is a {metric.stage} metric", "estimate")
    share = rule.audit_share
    if share is not None and (type(share) not in (int, float) or not 0 < share <= 1):
        return f"audit_share must be a number above 0, at most 1; got {share!r}", "audit_share"
    if rule.audit_seed is not None and (type(rule.audit_seed) is not int
                                        or rule.audit_seed < 0):
        return (f"audit_seed must be a whole number 0 or above; got {rule.audit_seed!r}",
                "audit_seed")
    return None
