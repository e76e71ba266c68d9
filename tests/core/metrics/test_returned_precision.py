"""Precision over returned items, by hand, beside P@k."""
from ragscore.core.counts import retrieval_counts
from ragscore.core.metrics import REGISTRY

RETURNED = REGISTRY["returned_precision"].value
PRECISION = REGISTRY["precision"].value


def test_a_short_list_is_not_charged_for_empty_slots():
    short = retrieval_counts(("rollback",), {"rollback", "checklist"})
    assert (PRECISION(short, 2), RETURNED(short, 2)) == (0.5, 1.0)


def test_the_denominator_is_what_came_back_within_k():
    ranked = retrieval_counts(("x", "a", "y", "b"), {"a", "b"})
    assert [RETURNED(ranked, k) for k in (1, 2, 3, 4, 10)] == [0.0, 0.5, 1 / 3, 0.5, 0.5]


def test_na_when_nothing_relevant_or_nothing_returned():
    assert RETURNED(retrieval_counts((), {"a"}), 2) is None
    assert RETURNED(retrieval_counts(("x",), set()), 2) is None
