"""RBP: rank-biased precision with persistence p (Moffat and Zobel, 2008)."""
from .base import REL, RATE, Metric, Parameter, at_level

#: The persistence read when none is given (ir_measures' default).
PERSISTENCE = 0.8


def rank_biased_precision(at, k, p=PERSISTENCE):
    """RBP@k = (1 - p) * sum over the relevant ranks r <= k of p ** (r - 1): the share of a
    reader's attention, who reads on from each rank with chance p, spent on relevant IDs
    (ir_measures' ``RBP(rel=1)`` by cwl_eval: binary relevance at the test set's
    ``min_relevance``, or ``rel``). Uncut, the whole ranking; the unread tail is not added
    (no residual). n/a when nothing is judged relevant.

    >>> from ragscore.core.counts import At, retrieval_counts
    >>> # relevant at ranks 1 and 3: 0.2 * (1 + 0.8 ** 2)
    >>> counts = retrieval_counts(("a", "x", "b"), {"a", "b"})
    >>> rank_biased_precision(At(counts, 10), 10) == (1 - 0.8) * (1 + 0.8 ** 2)
    True
    """
    return (1 - p) * at.persistence_sum(p)


def _persistence(text):
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise ValueError("a number strictly between 0 and 1 (the chance of reading on)")
    return value


def _derive(metric, values):
    """RBP with ``p`` (and ``rel``) set."""
    p = values.get("p", PERSISTENCE)
    found = metric._replace(formula=lambda at, k: rank_biased_precision(at, k, p))
    return at_level(found, values) if "rel" in values else found


METRIC = Metric(name="rbp", label="RBP@{k}", kind=RATE, stage="retrieval",
                formula=rank_biased_precision, defined=lambda at: at.n_relevant > 0,
                undefined="nothing is labelled relevant", needs_labels=True,
                order=86, na_by_labels=True, ir_name="RBP", uncut=True,
                parameters=(Parameter("p", _persistence, PERSISTENCE,
                                      "the chance of reading on from one rank to the next",
                                      "0.5"), REL),
                derive=_derive)
