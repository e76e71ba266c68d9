"""P@k: precision at a cutoff of k fixed slots."""
from ..counts import hits
from .base import RATE, Metric


def precision(counts, k):
    """P@k = (relevant IDs within the top k) / k.

    The denominator is k even when fewer than k IDs were returned: a short list is not
    rewarded for returning little. ``None`` (n/a) when nothing is labelled relevant.

    >>> from ragscore.core.counts import retrieval_counts
    >>> precision(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2)
    0.5
    """
    if not counts.n_relevant:
        return None
    return hits(counts, k) / k


METRIC = Metric(name="precision", label="P@{k}", kind=RATE, stage="retrieval",
                value=precision, undefined="nothing is labelled relevant")
