"""Helpers for the metric tests: a metric's value on a ranked list or on hand-made counts."""
import pytest

from ragscore.core.counts import Counts, retrieval_counts
from ragscore.core.metrics import REGISTRY


@pytest.fixture
def at():
    """at(metric, ranked, relevant, k): the metric of a ranked list alone."""
    def _at(name, ranked, relevant, k):
        return REGISTRY[name].value(retrieval_counts(ranked, relevant), k)
    return _at


@pytest.fixture
def answer():
    """answer(metric, supported, claims, expected, k=2): a claim metric on counts made by
    hand (``supported`` claims all supported from k = 1)."""
    def _answer(name, supported, claims, expected, k=2):
        counts = Counts(relevant_ranks=(), n_relevant=1 if expected else 0,
                        claim_cutoffs=(1,) * supported, n_claims=claims,
                        n_expected=expected, n_retrieved=0)
        return REGISTRY[name].value(counts, k)
    return _answer
