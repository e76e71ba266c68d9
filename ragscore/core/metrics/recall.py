"""R@k: recall at cutoff k."""
from ..counts import hits
from .base import RATE, Metric, Pooled


def recall(counts, k):
    """R@k = (relevant IDs within the top k) / (IDs labelled relevant).

    ``None`` (n/a) when nothing is labelled relevant; 0.0 for an empty list on an answerable
    question. Pooled: hits summed over relevant IDs summed.

    >>> from ragscore.core.counts import retrieval_counts
    >>> recall(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2)
    0.5
    """
    if not counts.n_relevant:
        return None
    return hits(counts, k) / counts.n_relevant


METRIC = Metric(name="recall", label="R@{k}", kind=RATE, stage="retrieval", value=recall,
                undefined="nothing is labelled relevant",
                pooled=Pooled(numerator=hits, denominator=lambda counts, k: counts.n_relevant,
                              numerator_name="hits", denominator_name="relevant documents"))
