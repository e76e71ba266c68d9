"""nDCG@k on hand-worked cases (gain = grade, discount log2(rank + 1), as trec_eval)."""
from math import log2

import pytest

from ragscore.core.counts import count, retrieval_counts
from ragscore.core.metrics import REGISTRY

NDCG = REGISTRY["ndcg"].value
GRADES = {"a": 3, "b": 2, "c": 1, "x": 0, "y": -1}


def graded(ranked, grades=GRADES, minimum=1):
    relevant = {doc for doc, grade in grades.items() if grade >= minimum}
    return count(relevant, None, tuple(ranked), None, grades=grades)


def test_graded_example_worked_by_hand():
    # DCG@5 of (b, a) = 2/log2(2) + 3/log2(3); ideal (a, b, c) = 3/1 + 2/log2(3) + 1/2
    expected = (2 + 3 / log2(3)) / (3 + 2 / log2(3) + 1 / 2)
    assert NDCG(graded(("b", "a")), 5) == pytest.approx(expected, abs=1e-15)
    assert round(expected, 6) == 0.817494  # pytrec_eval's ndcg_cut_5 on the same input


def test_the_cut_applies_to_the_ideal_too():
    # at k = 1: DCG = 2 (b first), ideal = 3 (a first)
    assert NDCG(graded(("b", "a")), 1) == pytest.approx(2 / 3)


def test_zero_and_negative_grades_add_nothing():
    assert NDCG(graded(("x", "y", "a")), 3) == pytest.approx(
        (3 / log2(4)) / (3 + 2 / log2(3) + 1 / 2))


def test_min_relevance_does_not_change_the_gains():
    assert NDCG(graded(("b", "a"), minimum=3), 5) == NDCG(graded(("b", "a")), 5)


def test_binary_labels_have_gain_one():
    # relevant {a, b}, run (x, a): DCG = 1/log2(3); ideal = 1 + 1/log2(3)
    assert NDCG(retrieval_counts(("x", "a"), {"a", "b"}), 2) == pytest.approx(
        (1 / log2(3)) / (1 + 1 / log2(3)))


def test_perfect_and_empty_rankings():
    assert NDCG(graded(("a", "b", "c")), 3) == 1.0
    assert NDCG(graded(()), 3) == 0.0


def test_na_when_nothing_is_graded_above_zero():
    assert NDCG(graded(("x",), {"x": 0, "y": -1}), 3) is None
    assert NDCG(retrieval_counts(("x",), set()), 3) is None
