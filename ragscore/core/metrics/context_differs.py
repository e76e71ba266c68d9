"""ctx differs@k: the delivered context is not the top k retrieved."""
from .base import YES_NO, Metric


def context_differs(at, k):
    """Yes when the recorded delivered context, as a set, is not the top k retrieved.

    The counts say for which k the two are equal: from ``context_low`` (0: at no k) to
    ``context_high`` (-1: every k from there on). n/a when no delivered context was
    recorded: the top k is then taken as what the answer stage saw.

    >>> from ragscore.core.counts import At, count
    >>> shown = count({"a"}, {"c": {"a"}}, ("a", "b"), (("c", ("a",)),), delivered=("a",))
    >>> context_differs(At(shown, 1), 1), context_differs(At(shown, 2), 2)
    (False, True)
    """
    return ((at.context_low == 0) | (at.context_low > k)
            | ((at.context_high != -1) & (at.context_high < k)))


METRIC = Metric(name="context_differs", label="ctx differs@{k}", kind=YES_NO, stage="retrieval",
                formula=context_differs, defined=lambda at: at.context_recorded,
                undefined="no delivered context was recorded", slice="all",
                yes_means="were given a context other than their top k", lower_is_better=True,
                neutral=True,
                order=140, shown_when="delivered")
