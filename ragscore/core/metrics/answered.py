"""Answered: an answerable question whose answer makes at least one claim."""
from .base import YES_NO, Metric


def answered(at, k):
    """True when the answer to an answerable question makes at least one claim; False when
    it makes none (it abstained, or said nothing checkable).

    The share of yes over the answerable questions is the answered rate: a system that
    goes silent keeps its support (n/a is left out of support's mean) but loses this. n/a on
    a question labelled unanswerable (abstaining is right there: see ``abstention``) and
    when the answer was not assessed. Does not depend on k.

    >>> from ragscore.core.counts import At, count
    >>> answered(At(count({"a"}, {"x": {"a"}}, ("a",), (("x", ("a",)),)), 2), 2)
    True
    >>> answered(At(count({"a"}, {"x": {"a"}}, ("a",), ()), 2), 2)
    False
    """
    return at.n_claims > 0


METRIC = Metric(name="answered", label="answered", kind=YES_NO, stage="answer",
                formula=answered, defined=lambda at: at.answerable & at.assessed,
                undefined="the question is labelled unanswerable",
                yes_means="the answer makes at least one claim", order=270)
