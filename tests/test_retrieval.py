"""The single-metric retrieval functions, on hand-worked cases, and their agreement with evaluate."""
import itertools

from ragscore import evaluate
from ragscore.retrieval import precision_at_k, recall_at_k, reciprocal_rank_at_k

RELEVANT = {"rollback", "checklist"}


def test_precision_keeps_k_as_denominator():
    assert precision_at_k(("rollback",), RELEVANT, 2) == 0.5
    assert precision_at_k(("rollback",), RELEVANT, 1) == 1.0
    assert precision_at_k(("rollback",), RELEVANT, 4) == 0.25
    assert precision_at_k(("archive", "rollback", "checklist"), RELEVANT, 2) == 0.5
    assert precision_at_k((), RELEVANT, 3) == 0.0


def test_recall_divides_by_relevant_count():
    assert recall_at_k(("rollback",), RELEVANT, 2) == 0.5
    assert recall_at_k(("checklist", "rollback"), RELEVANT, 2) == 1.0
    assert recall_at_k(("archive", "rollback", "checklist"), RELEVANT, 2) == 0.5
    assert recall_at_k(("archive", "rollback", "checklist"), RELEVANT, 3) == 1.0
    assert recall_at_k((), RELEVANT, 2) == 0.0


def test_reciprocal_rank_uses_first_hit_within_k():
    assert reciprocal_rank_at_k(("archive", "owners"), {"owners"}, 2) == 0.5
    assert reciprocal_rank_at_k(("archive", "owners"), {"owners"}, 1) == 0.0
    assert reciprocal_rank_at_k(("a", "b", "owners"), {"owners"}, 3) == 1 / 3
    assert reciprocal_rank_at_k(("owners", "archive"), {"owners", "archive"}, 2) == 1.0
    assert reciprocal_rank_at_k((), {"owners"}, 2) == 0.0


def test_all_three_are_none_without_relevant_documents():
    for metric in (precision_at_k, recall_at_k, reciprocal_rank_at_k):
        assert metric(("archive",), set(), 2) is None
        assert metric((), frozenset(), 1) is None


def test_single_metric_functions_agree_with_evaluate():
    corpus = {doc: "text" for doc in "abcd"}
    for size in range(4):
        for relevant in itertools.combinations("abc", size):
            case = {"relevant": relevant, "support": {"x": relevant[:1]} if relevant else {}}
            for length in range(4):
                for ranked in itertools.permutations("abcd", length):
                    for k in (1, 2, 3, 4):
                        scores = evaluate(corpus, case, {"retrieved": ranked, "claims": ()}, k=k)
                        rel = set(relevant)
                        assert scores["precision"] == precision_at_k(ranked, rel, k)
                        assert scores["recall"] == recall_at_k(ranked, rel, k)
                        assert scores["rr"] == reciprocal_rank_at_k(ranked, rel, k)


def test_recall_never_falls_as_k_grows():
    ranked = ("d", "a", "c", "b")
    for relevant in ({"a"}, {"b", "c"}, {"a", "b", "c"}):
        values = [recall_at_k(ranked, relevant, k) for k in range(1, 6)]
        assert values == sorted(values)
