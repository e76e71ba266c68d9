"""Support: the share of generated claims that are supported under the strict citation rule."""
from .base import RATE, Metric, Pooled


def support(at, k):
    """Support = (generated claims supported at k) / (generated claims), a claim supported
    only when it cites something and every cited ID is labelled for it and visible.

    A claim is supported only when every citation is labelled for it and retrieved within
    the top k (:func:`ragscore.core.counts.claim_cutoff`). n/a when the answer makes no
    claims or was not assessed. Pooled: supported claims summed over claims summed.

    >>> from ragscore.core.counts import At, count
    >>> launch_b = count({"launch"}, {"monday": {"launch"}}, ("launch", "archive"),
    ...                  (("monday", ("launch",)), ("bonus", ("launch",))))
    >>> support(At(launch_b, 2), 2)
    0.5
    """
    return at.supported / at.n_claims


METRIC = Metric(name="support", label="support", kind=RATE, stage="answer", formula=support,
                defined=lambda at: at.n_claims > 0,  # no claims, or not assessed
                undefined="the answer makes no claims",
                pooled=Pooled(numerator=lambda at, k: at.supported,
                              denominator=lambda at, k: at.n_claims,
                              numerator_name="supported", denominator_name="claims"),
                order=40, shown_when="contract")
