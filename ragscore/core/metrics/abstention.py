"""Correct abstention: on an unanswerable question, the answer makes no claims."""
from .base import YES_NO, Metric


def abstention_correct(counts, k):
    """True when an unanswerable question (no expected claims) gets an answer with no claims.

    False when it gets any claim. ``None`` (n/a) on an answerable question, where abstaining
    shows up as zero coverage instead. Does not depend on k.

    >>> from ragscore.core.counts import count
    >>> abstention_correct(count(set(), {}, (), ()), 2)
    True
    >>> abstention_correct(count(set(), {}, (), (("region", ("archive",)),)), 2)
    False
    """
    if counts.n_expected or counts.n_expected is None or counts.n_claims is None:
        return None  # answerable, not labelled, or not assessed
    return counts.n_claims == 0


METRIC = Metric(name="abstention_correct", label="abstention", kind=YES_NO, stage="answer",
                value=abstention_correct, undefined="the question is answerable",
                slice="unanswerable",
                yes_means="answered with no claims (correct abstention)")
