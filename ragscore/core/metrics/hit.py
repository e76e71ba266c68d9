"""Hit@k: whether any relevant ID is within the top k (trec_eval's ``success``)."""
from .base import REL, RATE, Metric, at_level


def hit(at, k):
    """Hit@k = 1.0 when at least one relevant ID is within the top k, else 0.0 (trec_eval's
    ``success``).

    A rate (its macro mean is the share of questions with a hit). n/a when nothing is
    labelled relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> counts = retrieval_counts(("archive", "owners"), {"owners"})
    >>> hit(At(counts, 1), 1), hit(At(counts, 2), 2)
    (0.0, 1.0)
    """
    return (at.hits > 0) * 1.0


METRIC = Metric(name="hit", label="Hit@{k}", kind=RATE, stage="retrieval", formula=hit,
                defined=lambda at: at.n_relevant > 0, undefined="nothing is labelled relevant",
                needs_labels=True,
                order=90, na_by_labels=True, ir_name="Success", trec_name="success_{k}",
                trec_order=(80, None),
                parameters=(REL,), derive=at_level)
