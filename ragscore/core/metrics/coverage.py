"""Coverage: the share of expected claims the answer makes with support."""
from .base import RATE, Metric


def coverage(at, k):
    """Coverage = (expected claims made and supported at k) / (expected claims).

    Only expected claims can be supported and claim IDs are unique, so the supported count
    is the same as support's. n/a when no claim is expected (an unanswerable question) or
    when the answer was not assessed; 0.0 when an answerable question gets an answer with
    no claims.

    >>> from ragscore.core.counts import At, count
    >>> rollback_a = count({"rollback", "checklist"},
    ...                    {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                    ("rollback",), (("switch", ("rollback",)),))
    >>> coverage(At(rollback_a, 2), 2)
    0.5
    """
    return at.supported / at.n_expected


METRIC = Metric(name="coverage", label="coverage", kind=RATE, stage="answer", formula=coverage,
                defined=lambda at: (at.n_expected > 0) & at.assessed,
                undefined="no claims are expected", needs_labels=True,
                order=50, shown_when="contract", na_by_labels=True)
