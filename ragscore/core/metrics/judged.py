"""Judged@k: the share of the top k whose relevance someone judged (ir_measures' Judged)."""
from .base import RATE, Metric, Pooled


def judged(at, k):
    """Judged@k = (retrieved IDs within the top k whose relevance is judged, at any grade) /
    (IDs returned within the top k), as ir_measures' ``Judged@k``: a short list divides by
    what it returned.

    An unjudged ID counts as not relevant in every other metric (trec_eval's convention), so
    a low Judged@k says the other figures are lower bounds: judge the pool deeper. Under
    course rules every passage is judged (1.0). n/a when nothing is judged for the question
    or nothing was returned. Pooled: judged IDs summed over returned IDs summed.

    >>> from ragscore.core.counts import At, count
    >>> ranked = count({"a"}, None, ("a", "b", "c"), None, grades={"a": 1, "b": 0, "x": 2},
    ...                judged={"a", "b", "x"})
    >>> judged(At(ranked, 2), 2), judged(At(ranked, 3), 3)
    (1.0, 0.6666666666666666)
    """
    return at.judged / at.returned


METRIC = Metric(name="judged", label="Judged@{k}", kind=RATE, stage="retrieval",
                formula=judged, defined=lambda at: at.any_judged & (at.returned > 0),
                undefined="nothing is judged for this question, or nothing was returned",
                slice="all", needs_labels=True,
                pooled=Pooled(numerator=lambda at, k: at.judged,
                              denominator=lambda at, k: at.returned,
                              numerator_name="judged passages",
                              denominator_name="passages returned"),
                order=170, shown_when="judgements", ir_name="Judged")
