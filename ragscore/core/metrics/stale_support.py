"""Stale support: claims supported only by chunks of outdated document versions."""
from .base import RATE, Metric, Pooled


def stale_support(at, k):
    """Stale support = (claims supported at k only by superseded chunks) / (generated claims).

    A claim counts here, and not in ``support``, when it meets the strict citation rule and
    every chunk it cites belongs to an outdated version of its document (corpus
    ``superseded``). n/a when the answer makes no claims. Pooled: stale claims summed over
    claims summed.

    >>> from ragscore.core.counts import At, count
    >>> old = count({"v1"}, {"c": {"v1"}}, ("v1",), (("c", ("v1",)),), superseded={"v1"})
    >>> stale_support(At(old, 1), 1)
    1.0
    """
    return at.stale / at.n_claims


METRIC = Metric(name="stale_support", label="stale", kind=RATE, stage="answer",
                formula=stale_support, defined=lambda at: at.n_claims > 0,
                undefined="the answer makes no claims",
                pooled=Pooled(numerator=lambda at, k: at.stale,
                              denominator=lambda at, k: at.n_claims,
                              numerator_name="stale-supported", denominator_name="claims"),
                lower_is_better=True,
                order=110, shown_when="superseded")
