"""Rprec: precision at R, R the number of IDs judged relevant (trec_eval's ``Rprec``)."""
from .base import REL, RATE, Metric, at_level


def r_precision(at, k):
    """Rprec = (relevant IDs within the top R) / R, R the number of IDs judged relevant
    (trec_eval's and ir_measures' ``Rprec``); at a cutoff k the ranking is cut at k first
    (as trec_eval's ``-M k``): relevant IDs within the top min(R, k), over R.

    A short list is not rewarded: the denominator is R whatever was returned. n/a when
    nothing is judged relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> # 3 relevant, the top 3 hold a and b: 2 / 3; cut at 1, only a: 1 / 3
    >>> counts = retrieval_counts(("a", "x", "b", "c"), {"a", "b", "c"})
    >>> r_precision(At(counts, 1000), 1000), r_precision(At(counts, 1), 1)
    (0.6666666666666666, 0.3333333333333333)
    """
    return at.r_hits / at.n_relevant


METRIC = Metric(name="rprec", label="Rprec@{k}", kind=RATE, stage="retrieval",
                formula=r_precision, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True,
                order=82, na_by_labels=True, ir_name="Rprec", uncut=True,
                trec_uncut="Rprec", trec_order=(None, 12),
                parameters=(REL,), derive=at_level)
