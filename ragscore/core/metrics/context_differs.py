"""Context differs: the delivered context is not the top k retrieved (a flag per question)."""
from ..counts import delivered_differs
from .base import YES_NO, Metric


def context_differs(counts, k):
    """Yes when the recorded delivered context, as a set, is not the top k retrieved.

    ``None`` (n/a) when no delivered context was recorded: the top k is then taken as what
    the answer stage saw.

    >>> from ragscore.core.counts import count
    >>> shown = count({"a"}, {}, ("a", "b", "c"), (), delivered=("a", "c"))
    >>> context_differs(shown, 2)
    True
    """
    return delivered_differs(counts, k)


METRIC = Metric(name="context_differs", label="ctx differs@{k}", kind=YES_NO, stage="retrieval",
                value=context_differs, undefined="no delivered context was recorded",
                slice="all", yes_means="were given a context other than their top k",
                lower_is_better=True)
