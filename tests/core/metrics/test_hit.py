"""Hit@k on hand-worked cases (trec_eval's success)."""
from ragscore.core.counts import retrieval_counts
from ragscore.core.metrics import REGISTRY

HIT = REGISTRY["hit"].value


def test_one_relevant_id_in_the_top_k_is_a_hit():
    assert [HIT(retrieval_counts(("x", "y", "a"), {"a", "b"}), k) for k in (1, 2, 3)] == \
        [0.0, 0.0, 1.0]


def test_hit_is_na_without_relevant_ids():
    assert HIT(retrieval_counts(("x",), set()), 1) is None
