"""infAP: average precision inferred from a sampled pool (trec_eval's ``infAP``)."""
from .base import REL, RATE, Metric, at_level


def inferred_ap(at, k):
    """infAP = (1 / R) * sum over the relevant ranks r of E[P@r]: 1 at rank 1, else
    1/r + ((r-1)/r) * ((a + n + u)/(r-1)) * ((a + e)/(a + n + 2e)), a the relevant IDs above
    r, n those judged not relevant, u those pooled but not judged (listed with a negative
    grade), e = 0.00001 (Yilmaz and Aslam, CIKM 2006; trec_eval's ``infAP``). IDs above r
    outside the pool count as not relevant; pooled ones not judged are assumed relevant in
    the proportion of the judged ones. With every ID in the pool judged it is close to AP.

    At a cutoff k the ranking is cut at k first (trec_eval's ``-M k``). n/a when nothing is
    judged relevant.

    >>> from ragscore.core.counts import At, count
    >>> # a relevant at rank 1; x judged not relevant at 2; b relevant at 3: R = 2
    >>> counts = count({"a", "b"}, None, ("a", "x", "b"), None, judged={"a", "b", "x"})
    >>> expected = (1 + 1 / 3 + (2 / 3) * (2 / 2) * ((1 + 1e-5) / (2 + 2e-5))) / 2
    >>> inferred_ap(At(counts, 10), 10) == expected
    True
    """
    return at.infap_sum / at.n_relevant


METRIC = Metric(name="infap", label="infAP@{k}", kind=RATE, stage="retrieval",
                formula=inferred_ap, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True, order=89,
                na_by_labels=True, ir_name="infAP", uncut=True, trec_uncut="infAP",
                trec_order=(None, 45), parameters=(REL,), derive=at_level)
