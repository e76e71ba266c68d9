"""Exact match: the answer equals a reference answer after SQuAD's normalisation."""
from .base import RATE, Metric


def exact_match(at, k):
    """EM = 1.0 when the answer equals some reference answer after SQuAD's normalisation,
    else 0.0; an unanswerable case (``reference: []``) matches only an empty answer.

    Normalisation as SQuAD 2.0's ``evaluate-v2.0.py`` (:mod:`ragscore.core.reference_answers`):
    lower case, no punctuation, no articles, single spaces; the largest over several
    references. n/a when the run recorded no answer text or the case carries no reference
    answer. Does not depend on k. The mean over questions is SQuAD's EM (as a share, not a
    percentage).

    >>> from ragscore.core.counts import At, count
    >>> answered = count(set(), None, (), None, answer="the Denver Broncos.",
    ...                  references=("Denver Broncos",))
    >>> exact_match(At(answered, 2), 2)
    1.0
    """
    return at.exact * 1.0


METRIC = Metric(name="exact_match", label="EM", kind=RATE, stage="reference",
                formula=exact_match, defined=lambda at: at.referenced,
                undefined="no answer text or no reference answer", slice="all",
                order=150, shown_when="references")
