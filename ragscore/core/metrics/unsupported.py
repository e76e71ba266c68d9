"""Unsupported: how many generated claims fail the strict citation rule (a count)."""
from .base import COUNT, Metric


def unsupported(at, k):
    """Unsupported = generated claims - claims supported at k - stale-supported claims at k.

    A count, not a rate: a gate can forbid any (``max_count``). n/a when the answer was not
    assessed.

    >>> from ragscore.core.counts import At, count
    >>> launch_b = count({"launch"}, {"monday": {"launch"}}, ("launch", "archive"),
    ...                  (("monday", ("launch",)), ("bonus", ("launch",))))
    >>> unsupported(At(launch_b, 2), 2)
    1
    """
    return at.n_claims - at.supported - at.stale


METRIC = Metric(name="unsupported", label="unsupported", kind=COUNT, stage="answer",
                formula=unsupported, defined=lambda at: at.assessed,
                undefined="the answer was not assessed", slice="all", lower_is_better=True,
                order=120)
