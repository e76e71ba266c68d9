"""Precision over the items returned: the denominator Ragas' ID-based context precision uses."""
from ..counts import hits
from .base import RATE, Metric


def returned_precision(counts, k):
    """P/ret@k = (relevant IDs within the top k) / (IDs returned within the top k).

    Not the course's P@k: a short list is not penalised for the slots it left empty, so it
    can score 1.00 where P@k gives 0.50. Shown to explain why dashboards disagree.
    ``None`` (n/a) when nothing is labelled relevant or nothing was returned.

    >>> from ragscore.core.counts import retrieval_counts
    >>> returned_precision(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2)
    1.0
    """
    if not counts.n_relevant or not counts.n_retrieved:
        return None
    return hits(counts, k) / min(k, counts.n_retrieved)


METRIC = Metric(name="returned_precision", label="P/ret@{k}", kind=RATE, stage="retrieval",
                value=returned_precision,
                undefined="nothing is labelled relevant, or nothing was returned")
