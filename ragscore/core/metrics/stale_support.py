"""Stale support: the share of generated claims supported only by superseded sources."""
from ..counts import stale
from .base import RATE, Metric, Pooled


def stale_support(counts, k):
    """Stale support = (claims supported at k only by superseded chunks) / (generated claims).

    A claim counts here, and not in ``support``, when it meets the strict citation rule and
    every chunk it cites belongs to an outdated version of its document (corpus
    ``superseded``). ``None`` (n/a) when the answer makes no claims. Pooled: stale claims
    summed over claims summed.

    >>> from ragscore.core.counts import count
    >>> old = count({"v1"}, {"fee": {"v1"}}, ("v1",), (("fee", ("v1",)),),
    ...             superseded=frozenset({"v1"}))
    >>> stale_support(old, 1)
    1.0
    """
    if not counts.n_claims:
        return None
    return stale(counts, k) / counts.n_claims


METRIC = Metric(name="stale_support", label="stale", kind=RATE, stage="answer",
                value=stale_support, undefined="the answer makes no claims",
                pooled=Pooled(numerator=stale, denominator=lambda counts, k: counts.n_claims or 0,
                              numerator_name="stale-supported", denominator_name="claims"),
                lower_is_better=True)
