"""Correct abstention: an unanswerable question answered with no claims."""
from .base import YES_NO, Metric


def abstention_correct(at, k):
    """True when an unanswerable question (no expected claims) gets an answer with no claims.

    False when it gets any claim. n/a on an answerable question, where abstaining shows up
    as zero coverage instead, and when the answer was not assessed or the question carries
    no answer labels. Does not depend on k.

    >>> from ragscore.core.counts import At, count
    >>> abstention_correct(At(count(set(), {}, (), ()), 2), 2)
    True
    >>> abstention_correct(At(count(set(), {}, ("archive",), (("region", ("archive",)),)), 2), 2)
    False
    """
    return at.n_claims == 0


METRIC = Metric(name="abstention_correct", label="abstention", kind=YES_NO, stage="answer",
                formula=abstention_correct,
                defined=lambda at: (at.n_expected == 0) & at.labelled & at.assessed,
                undefined="the question is answerable", slice="unanswerable",
                yes_means="answered with no claims (correct abstention)", needs_labels=True,
                order=60, shown_when="contract", na_by_labels=True)
