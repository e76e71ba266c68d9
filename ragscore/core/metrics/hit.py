"""Hit@k: whether any relevant ID is in the top k, as trec_eval's ``success``."""
from ..counts import hits
from .base import RATE, Metric


def hit(counts, k):
    """Hit@k = 1.0 when at least one relevant ID is within the top k, else 0.0.

    A rate (its macro mean is the share of questions with a hit). ``None`` (n/a) when
    nothing is labelled relevant.

    >>> from ragscore.core.counts import retrieval_counts
    >>> hit(retrieval_counts(("x", "a"), {"a"}), 1), hit(retrieval_counts(("x", "a"), {"a"}), 2)
    (0.0, 1.0)
    """
    if not counts.n_relevant:
        return None
    return 1.0 if hits(counts, k) else 0.0


METRIC = Metric(name="hit", label="Hit@{k}", kind=RATE, stage="retrieval", value=hit,
                undefined="nothing is labelled relevant")
