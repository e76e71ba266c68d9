"""Holm's adjustment (issue 44, item 5): by hand, and against statsmodels'
``multipletests(method="holm")`` where it is installed."""
import random

import pytest

from ragscore.core.multiple import holm


def test_by_hand():
    # m = 4, sorted 0.01 0.02 0.03 0.5: 4 * 0.01 = 0.04; 3 * 0.02 = 0.06; 2 * 0.03 = 0.06;
    # 1 * 0.5 = 0.5 (each at least the one before)
    assert holm([0.5, 0.03, 0.01, 0.02]) == pytest.approx([0.5, 0.06, 0.04, 0.06], abs=1e-15)
    # 3 * 0.3 = 0.9 carries forward over 2 * 0.4 and 0.6; capped at 1 below
    assert holm([0.4, 0.3, 0.6]) == pytest.approx([0.9, 0.9, 0.9], abs=1e-15)
    # not tested: left out of m (m = 2: 2 * 0.01, max(0.02, 0.04))
    assert holm([None, 0.04, None, 0.01]) == [None, 0.04, None, 0.02]


def test_agrees_with_statsmodels():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = random.Random(7)
    compared = 0
    for _ in range(500):
        values = [rng.choice((rng.random(), rng.random() / 100, 1.0, 0.05))
                  for _ in range(rng.randint(1, 30))]
        _, expected, _, _ = multitest.multipletests(values, method="holm")
        assert holm(values) == pytest.approx(list(expected), abs=1e-15)
        compared += len(values)
    assert compared > 5000


def test_capped_at_one():
    assert holm([0.6, 0.7]) == [1.0, 1.0]  # 2 * 0.6 = 1.2, capped; then max(1, 0.7)
