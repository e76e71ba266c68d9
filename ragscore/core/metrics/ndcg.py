"""nDCG@k: normalised discounted cumulative gain, as trec_eval's ``ndcg_cut``."""
from .base import RATE, Metric


def ndcg(at, k):
    """nDCG@k = DCG@k / ideal DCG@k, with gain = grade and discount log2(rank + 1); the
    ideal ranks every ID graded above 0 (trec_eval's ``ndcg_cut``).

    DCG@k sums grade / log2(rank + 1) over the retrieved IDs graded above 0 within the top
    k; the ideal DCG@k ranks every ID graded above 0, largest grade first, and cuts at k.
    Binary labels have grade 1. ``min_relevance`` does not change the gains (as in
    trec_eval). n/a when nothing is graded above 0.

    >>> from ragscore.core.counts import At, count
    >>> # grades a=3, b=2, c=1; the run returns b then a
    >>> counts = count({"a", "b", "c"}, None, ("b", "a"), None, grades={"a": 3, "b": 2, "c": 1})
    >>> round(ndcg(At(counts, 5), 5), 6)
    0.817494
    """
    return at.dcg / at.ideal_dcg


METRIC = Metric(name="ndcg", label="nDCG@{k}", kind=RATE, stage="retrieval", formula=ndcg,
                defined=lambda at: at.ideal_dcg > 0, undefined="nothing is graded above 0",
                needs_labels=True,
                order=70, na_by_labels=True, ir_name="nDCG", uncut=True,
                trec_name="ndcg_cut_{k}", trec_uncut="ndcg", trec_order=(60, 50))
