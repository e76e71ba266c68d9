"""Unsupported claims: how many generated claims fail the strict citation rule (a count)."""
from ..counts import stale, supported
from .base import COUNT, Metric


def unsupported(counts, k):
    """Unsupported = generated claims - claims supported at k - stale-supported claims at k.

    A count, not a rate: a gate can forbid any (``max_count``). ``None`` (n/a) when the answer
    was not assessed.

    >>> from ragscore.core.counts import count
    >>> launch_b = count({"launch"}, {"monday": {"launch"}}, ("launch", "archive"),
    ...                  (("monday", ("launch",)), ("bonus", ("launch",))))
    >>> unsupported(launch_b, 2)
    1
    """
    if counts.n_claims is None:
        return None
    return counts.n_claims - supported(counts, k) - stale(counts, k)


METRIC = Metric(name="unsupported", label="unsupported", kind=COUNT, stage="answer",
                value=unsupported, undefined="the answer was not assessed", slice="all",
                lower_is_better=True)
