"""AP@k: average precision cut at k, as trec_eval's ``map_cut``."""
from .base import RATE, Metric


def average_precision(counts, k):
    """AP@k = (sum of P@r over the ranks r <= k where a relevant ID was retrieved)
    / (number of IDs judged relevant).

    The denominator is every relevant ID, retrieved or not, so missing one lowers AP.
    ``None`` (n/a) when nothing is judged relevant.

    >>> from ragscore.core.counts import retrieval_counts
    >>> # relevant at ranks 1 and 3, 3 relevant in all: (1/1 + 2/3) / 3
    >>> average_precision(retrieval_counts(("a", "x", "b"), {"a", "b", "c"}), 3) == (1 + 2 / 3) / 3
    True
    """
    if not counts.n_relevant:
        return None
    total = 0.0
    for hits, rank in enumerate(counts.relevant_ranks, 1):
        if rank > k:
            break
        total += hits / rank
    return total / counts.n_relevant


METRIC = Metric(name="ap", label="AP@{k}", kind=RATE, stage="retrieval",
                value=average_precision, undefined="nothing is labelled relevant")
