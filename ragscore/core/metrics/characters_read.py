"""chars@k: the characters of the top k chunks, the text they hand the answer stage."""
from .base import COUNT, Metric


def characters_read(at, k):
    """chars@k = the characters of the top k chunks (their lengths summed; two chunks
    sharing text each count it, as the answer stage reads both): what a chunking costs the
    answer stage for the recall it gives (span R@k). A count per question, neither better
    nor worse when it changes. n/a where the labels are not spans (the chunks' places are
    not known).

    >>> from ragscore.core.counts import At, count
    >>> counts = count({"a"}, None, ("a", "b"), None, characters=(10, ((1, 4, 50),
    ...                                                                 (2, 6, 30))))
    >>> characters_read(At(counts, 1), 1), characters_read(At(counts, 2), 2)
    (50, 80)
    """
    return at.read


METRIC = Metric(name="characters_read", label="chars@{k}", kind=COUNT, stage="retrieval",
                formula=characters_read, defined=lambda at: at.spanned,
                undefined="not a span test set (labels name chunks, not characters)",
                slice="all", neutral=True, order=96)
