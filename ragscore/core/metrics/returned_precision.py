"""P/ret@k: precision over the IDs actually returned within the top k (not the course's P@k)."""
from .base import RATE, Metric


def returned_precision(at, k):
    """P/ret@k = (relevant IDs within the top k) / (IDs returned within the top k): Ragas'
    ID-based context precision, **not** P@k.

    Not the course's P@k: a short list is not penalised for the slots it left empty, so it
    can score 1.00 where P@k gives 0.50. Shown to explain why dashboards disagree. n/a when
    nothing is labelled relevant or nothing was returned.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> returned_precision(At(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2), 2)
    1.0
    """
    return at.hits / at.returned


METRIC = Metric(name="returned_precision", label="P/ret@{k}", kind=RATE, stage="retrieval",
                formula=returned_precision,
                defined=lambda at: (at.n_relevant > 0) & (at.n_retrieved > 0),
                undefined="nothing is labelled relevant, or nothing was returned",
                needs_labels=True,
                order=100)
