"""R@k: recall at a cutoff of k."""
from .base import REL, RATE, Metric, Pooled, at_level


def recall(at, k):
    """R@k = (relevant IDs within the top k) / (IDs labelled relevant).

    n/a when nothing is labelled relevant; 0.0 for an empty list on an answerable question.
    Pooled: hits summed over relevant IDs summed.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> recall(At(retrieval_counts(("rollback",), {"rollback", "checklist"}), 2), 2)
    0.5
    """
    return at.hits / at.n_relevant


METRIC = Metric(name="recall", label="R@{k}", kind=RATE, stage="retrieval", formula=recall,
                defined=lambda at: at.n_relevant > 0, undefined="nothing is labelled relevant",
                pooled=Pooled(numerator=lambda at, k: at.hits,
                              denominator=lambda at, k: at.n_relevant,
                              numerator_name="hits", denominator_name="relevant documents"),
                needs_labels=True,
                order=20, shown_when="contract", na_by_labels=True, ir_name="R",
                trec_name="recall_{k}", trec_order=(40, None),
                parameters=(REL,), derive=at_level)
