"""AP@k: average precision cut at k, as trec_eval's ``map_cut``."""
from .base import REL, RATE, Metric, at_level


def average_precision(at, k):
    """AP@k = (sum of P@r over the ranks r <= k where a relevant ID was retrieved)
    / (number of IDs judged relevant) (trec_eval's ``map_cut``).

    The denominator is every relevant ID, retrieved or not, so missing one lowers AP.
    n/a when nothing is judged relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> # relevant at ranks 1 and 3, 3 relevant in all: (1/1 + 2/3) / 3
    >>> counts = retrieval_counts(("a", "x", "b"), {"a", "b", "c"})
    >>> average_precision(At(counts, 3), 3) == (1 + 2 / 3) / 3
    True
    """
    return at.precision_sum / at.n_relevant


METRIC = Metric(name="ap", label="AP@{k}", kind=RATE, stage="retrieval",
                formula=average_precision, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True,
                order=80, na_by_labels=True, ir_name="AP", uncut=True,
                trec_name="map_cut_{k}", trec_uncut="map", trec_order=(70, 10),
                parameters=(REL,), derive=at_level)
