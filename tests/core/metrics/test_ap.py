"""AP@k on hand-worked cases (trec_eval's map_cut)."""
import pytest

from ragscore.core.counts import retrieval_counts
from ragscore.core.metrics import REGISTRY

AP = REGISTRY["ap"].value


def test_every_relevant_id_is_in_the_denominator():
    # ten relevant, two retrieved at ranks 1 and 2: (1/1 + 2/2) / 10
    relevant = {f"r{n}" for n in range(10)}
    assert AP(retrieval_counts(("r0", "r1", "x"), relevant), 10) == pytest.approx(0.2)


def test_precision_at_each_relevant_rank():
    # relevant at ranks 2 and 4 of 2 relevant: (1/2 + 2/4) / 2
    assert AP(retrieval_counts(("x", "a", "y", "b"), {"a", "b"}), 4) == 0.5
    # cut at 3: only the hit at rank 2 counts
    assert AP(retrieval_counts(("x", "a", "y", "b"), {"a", "b"}), 3) == 0.25


def test_no_hit_is_zero_and_nothing_relevant_is_na():
    assert AP(retrieval_counts(("x", "y"), {"a"}), 2) == 0.0
    assert AP(retrieval_counts(("x",), set()), 2) is None
