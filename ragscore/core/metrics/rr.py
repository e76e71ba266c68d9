"""RR@k: reciprocal rank of the first relevant ID, cut at k."""
from .base import REL, RATE, Metric, at_level


def reciprocal_rank(at, k):
    """RR@k = 1 / (1-based rank of the first relevant ID) if that rank is <= k, else 0.0
    (cut at k, unlike trec_eval's ``recip_rank``).

    Written ``(first_rank <= k) / first_rank``: a yes counts 1, a no 0, and the first rank
    is infinite when no relevant ID was retrieved. trec_eval's ``recip_rank`` looks down
    the whole list. n/a when nothing is labelled relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> reciprocal_rank(At(retrieval_counts(("archive", "owners"), {"owners"}), 2), 2)
    0.5
    >>> reciprocal_rank(At(retrieval_counts(("archive", "owners"), {"owners"}), 1), 1)
    0.0
    """
    return (at.first_rank <= k) / at.first_rank


METRIC = Metric(name="rr", label="RR@{k}", kind=RATE, stage="retrieval",
                formula=reciprocal_rank, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True,
                order=30, shown_when="contract", na_by_labels=True, ir_name="RR",
                uncut=True, trec_uncut="recip_rank", trec_order=(None, 20),
                parameters=(REL,), derive=at_level)
