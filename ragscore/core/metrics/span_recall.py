"""span R@k: the share of the relevant characters the top k chunks carry (span test sets)."""
from .base import RATE, Metric, Pooled


def span_recall(at, k):
    """span R@k = (relevant characters covered by the top k chunks) / (relevant
    characters), the relevant characters those of the question's relevant spans (graded
    at ``min_relevance`` or above) and evidence spans, merged, each counted once however
    many chunks hold it: unlike R@k, it does not change with how many chunks one passage
    was cut into. n/a where the labels are not spans (characters are not known) or no
    relevant span is marked. Pooled: covered characters summed over relevant characters
    summed.

    >>> from ragscore.core.counts import At, count
    >>> # 10 relevant characters; rank 1 covers 4 of them, rank 2 the other 6
    >>> counts = count({"a"}, None, ("a", "b"), None, characters=(10, ((1, 4, 50),
    ...                                                                 (2, 6, 30))))
    >>> span_recall(At(counts, 1), 1), span_recall(At(counts, 2), 2)
    (0.4, 1.0)
    """
    return at.covered / at.span_relevant


METRIC = Metric(name="span_recall", label="span R@{k}", kind=RATE, stage="retrieval",
                formula=span_recall, defined=lambda at: at.spanned & (at.span_relevant > 0),
                undefined="not a span test set (labels name chunks, not characters), or no "
                          "relevant span is marked",
                pooled=Pooled(numerator=lambda at, k: at.covered,
                              denominator=lambda at, k: at.span_relevant,
                              numerator_name="relevant characters covered",
                              denominator_name="relevant characters"),
                needs_labels=True, order=95, na_by_labels=True)
