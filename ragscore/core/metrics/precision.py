"""P@k: precision at a cutoff of k fixed slots."""
from .base import REL, RATE, Metric, at_level


def precision(at, k):
    """P@k = (relevant IDs within the top k) / k: a short list keeps the denominator k.

    The denominator is k even when fewer than k IDs were returned: a short list is not
    rewarded for returning little. n/a when nothing is labelled relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> precision(At(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2), 2)
    0.5
    """
    return at.hits / k


METRIC = Metric(name="precision", label="P@{k}", kind=RATE, stage="retrieval",
                formula=precision, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True,
                order=10, shown_when="contract", na_by_labels=True, ir_name="P",
                trec_name="P_{k}", trec_order=(30, None),
                parameters=(REL,), derive=at_level)
