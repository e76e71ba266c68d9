"""RR@k: reciprocal rank of the first relevant ID, cut at k."""
from .base import RATE, Metric


def reciprocal_rank(counts, k):
    """RR@k = 1 / (1-based rank of the first relevant ID) if that rank is <= k, else 0.0.

    Cut at k, unlike trec_eval's ``recip_rank``, which looks down the whole list. ``None``
    (n/a) when nothing is labelled relevant.

    >>> from ragscore.core.counts import retrieval_counts
    >>> reciprocal_rank(retrieval_counts(("archive", "owners"), {"owners"}), 2)
    0.5
    >>> reciprocal_rank(retrieval_counts(("archive", "owners"), {"owners"}), 1)
    0.0
    """
    if not counts.n_relevant:
        return None
    ranks = counts.relevant_ranks
    if ranks and ranks[0] <= k:
        return 1 / ranks[0]
    return 0.0


METRIC = Metric(name="rr", label="RR@{k}", kind=RATE, stage="retrieval", value=reciprocal_rank,
                undefined="nothing is labelled relevant")
