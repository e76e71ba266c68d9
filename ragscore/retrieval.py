"""Retrieval metrics at a cutoff k, with binary relevance.

All three take the ranked list (best first), the set of relevant IDs and k, and return
``None`` when nothing is labelled relevant (an unanswerable case: a declared policy, so these
cases stay out of answerable-only averages instead of counting as 0 or 1).
"""


def precision_at_k(ranked, relevant, k):
    """P@k = (relevant IDs among the top k) / k.

    The denominator is k even when fewer than k items were returned ("fixed slots"):
    a short list is not rewarded for returning little. ``None`` when ``relevant`` is empty.

    >>> precision_at_k(("rollback",), {"rollback", "checklist"}, 2)
    0.5
    """
    if not relevant:
        return None
    top = ranked[:k]
    hits = len(relevant.intersection(top))
    return hits / k


def recall_at_k(ranked, relevant, k):
    """R@k = (relevant IDs among the top k) / (number of relevant IDs).

    ``None`` when ``relevant`` is empty; 0.0 for an empty list on an answerable case.

    >>> recall_at_k(("rollback",), {"rollback", "checklist"}, 2)
    0.5
    """
    if not relevant:
        return None
    hits = len(relevant.intersection(ranked[:k]))
    return hits / len(relevant)


def reciprocal_rank_at_k(ranked, relevant, k):
    """RR@k = 1 / (one-based rank of the first relevant ID within the top k), else 0.0.

    ``None`` when ``relevant`` is empty.

    >>> reciprocal_rank_at_k(("archive", "owners"), {"owners"}, 2)
    0.5
    """
    if not relevant:
        return None
    for rank, doc in enumerate(ranked[:k], start=1):
        if doc in relevant:
            return 1 / rank
    return 0.0
