"""nDCG@k: normalised discounted cumulative gain, as trec_eval's ``ndcg_cut``."""
from .base import RATE, Metric, Parameter


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


def exp_ndcg(at, k):
    """nDCG@k with exponential gains (ir_measures' ``nDCG(dcg=exp-log2)``, gdeval's
    nDCG): gain = 2 ** grade - 1, discount log2(rank + 1), over the ideal ranking of every
    ID graded above 0, cut at k. Equal to :func:`ndcg` for binary labels; a grade 3 gains 7
    where :func:`ndcg` gains 3. n/a when nothing is graded above 0 (or a grade is above
    62, whose gain 2 ** grade would not be exact).

    >>> from ragscore.core.counts import At, count
    >>> # grades a=3, b=2, c=1; the run returns b then a: (3 + 7 / log2(3)) / (7 + 3 / log2(3) + 1 / 2)
    >>> counts = count({"a", "b", "c"}, None, ("b", "a"), None, grades={"a": 3, "b": 2, "c": 1})
    >>> round(exp_ndcg(At(counts, 5), 5), 6)
    0.789596
    """
    return at.exp_dcg / at.exp_ideal_dcg


def _dcg(text):
    if text not in ("log2", "exp-log2"):
        raise ValueError("log2 (gain = grade) or exp-log2 (gain = 2 ** grade - 1)")
    return text


def _derive(metric, values):
    """nDCG with ``dcg=exp-log2``: :func:`exp_ndcg`."""
    return metric._replace(formula=exp_ndcg,
                           defined=lambda at: (at.top_grade > 0) & (at.top_grade <= 62),
                           undefined="nothing is graded above 0, or a grade is above 62")


METRIC = Metric(name="ndcg", label="nDCG@{k}", kind=RATE, stage="retrieval", formula=ndcg,
                defined=lambda at: at.ideal_dcg > 0, undefined="nothing is graded above 0",
                needs_labels=True,
                order=70, na_by_labels=True, ir_name="nDCG", uncut=True,
                trec_name="ndcg_cut_{k}", trec_uncut="ndcg", trec_order=(60, 50),
                parameters=(Parameter("dcg", _dcg, "log2", "the gain of a grade g: g (log2) "
                                      "or 2 ** g - 1 (exp-log2), each discounted by "
                                      "log2(rank + 1)", "exp-log2"),),
                derive=_derive)
