"""Support: the share of generated claims that are supported under the strict citation rule."""
from ..counts import supported
from .base import RATE, Metric, Pooled


def support(counts, k):
    """Support = (generated claims supported at k) / (generated claims).

    A claim is supported only when every citation is labelled for it and retrieved within
    the top k (:func:`ragscore.core.counts.claim_cutoff`). ``None`` (n/a) when the answer
    makes no claims or was not assessed. Pooled: supported claims summed over claims summed.

    >>> from ragscore.core.counts import count
    >>> launch_b = count({"launch"}, {"monday": {"launch"}}, ("launch", "archive"),
    ...                  (("monday", ("launch",)), ("bonus", ("launch",))))
    >>> support(launch_b, 2)
    0.5
    """
    if not counts.n_claims:  # no claims, or the answer was not assessed
        return None
    return supported(counts, k) / counts.n_claims


METRIC = Metric(name="support", label="support", kind=RATE, stage="answer", value=support,
                undefined="the answer makes no claims",
                pooled=Pooled(numerator=supported, denominator=lambda counts, k: counts.n_claims or 0,
                              numerator_name="supported", denominator_name="claims"))
