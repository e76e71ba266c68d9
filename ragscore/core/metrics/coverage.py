"""Coverage: the share of expected claims the answer makes and supports."""
from ..counts import supported
from .base import RATE, Metric


def coverage(counts, k):
    """Coverage = (expected claims made and supported at k) / (expected claims).

    Only expected claims can be supported and claim IDs are unique, so the supported count
    is the same as support's. ``None`` (n/a) when no claim is expected (an unanswerable
    question) or when the answer was not assessed; 0.0 when an answerable question gets an
    answer with no claims.

    >>> from ragscore.core.counts import count
    >>> rollback_a = count({"rollback", "checklist"},
    ...                    {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                    ("rollback",), (("switch", ("rollback",)),))
    >>> coverage(rollback_a, 2)
    0.5
    """
    if not counts.n_expected or counts.n_claims is None:  # nothing expected, or not assessed
        return None
    return supported(counts, k) / counts.n_expected


METRIC = Metric(name="coverage", label="coverage", kind=RATE, stage="answer", value=coverage,
                undefined="no claims are expected")
