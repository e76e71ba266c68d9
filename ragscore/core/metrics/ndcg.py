"""nDCG@k: normalised discounted cumulative gain, as trec_eval's ``ndcg_cut``."""
from math import log2

from .base import RATE, Metric


def _dcg(gains, k):
    return sum(grade / log2(rank + 1) for rank, grade in gains if rank <= k)


def ndcg(counts, k):
    """nDCG@k = DCG@k / ideal DCG@k, with gain = grade and discount log2(rank + 1).

    DCG@k sums grade / log2(rank + 1) over the retrieved IDs graded above 0 within the top
    k; the ideal DCG@k ranks every ID graded above 0, largest grade first, and cuts at k.
    Binary labels have grade 1. ``min_relevance`` does not change the gains (as in
    trec_eval). ``None`` (n/a) when nothing is graded above 0.

    >>> from ragscore.core.counts import count
    >>> # grades a=3, b=2, c=1; the run returns b then a
    >>> round(ndcg(count({"a", "b", "c"}, None, ("b", "a"), None,
    ...                  grades={"a": 3, "b": 2, "c": 1}), 5), 6)
    0.817494
    """
    if counts.ideal is None:  # binary labels: gain 1 at each relevant rank
        if not counts.n_relevant:
            return None
        gains = [(rank, 1) for rank in counts.relevant_ranks]
        ideal = [(rank, 1) for rank in range(1, counts.n_relevant + 1)]
    else:
        if not counts.ideal:
            return None
        gains = counts.gains
        ideal = list(enumerate(counts.ideal, 1))
    return _dcg(gains, k) / _dcg(ideal, k)


METRIC = Metric(name="ndcg", label="nDCG@{k}", kind=RATE, stage="retrieval", value=ndcg,
                undefined="nothing is graded above 0")
