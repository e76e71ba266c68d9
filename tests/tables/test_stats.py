"""Paired statistics: p-values against brute-force enumeration in exact fractions, intervals
and detectable effects worked by hand."""
import itertools
import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from ragscore import InvalidInputError
from ragscore.reports import question_table
from ragscore.tables.stats import COLUMNS, UNTESTED, paired_stats, stats_table


def _exact_p(deltas):
    """Two-sided sign-flip p-value by enumerating all 2^n sign assignments, in fractions."""
    deltas = [Fraction(d) for d in deltas]
    observed = abs(sum(deltas))
    hits = sum(abs(sum(s * d for s, d in zip(signs, deltas))) >= observed
               for signs in itertools.product((1, -1), repeat=len(deltas)))
    return Fraction(hits, 2 ** len(deltas))


def _stats(deltas, **options):
    return paired_stats([0.0] * len(deltas), list(deltas), **options)


# ---- the permutation test ----------------------------------------------------------------

def test_ten_improvements_of_one_give_the_two_extreme_assignments():
    # Only all-plus and all-minus reach |mean| = 1: p = 2 / 2^10.
    result = _stats([1] * 10)
    assert result.p_value == 2 / 1024
    assert result.n == 10 and result.mean_delta == 1.0
    assert result.method.endswith("sign-flip test, exact (2^10 flips)")


def test_a_symmetric_sample_has_p_one():
    result = _stats([1, -1] * 5)
    assert result.mean_delta == 0.0
    assert result.p_value == 1.0


def test_nine_ups_and_one_down():
    # |mean| >= 0.8 needs at most one minus sign, or at most one plus: 2 * (1 + 10) = 22.
    assert _stats([1] * 9 + [-1]).p_value == 22 / 1024


@pytest.mark.parametrize("seed", range(6))
def test_exact_p_matches_brute_force_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 13))
    deltas = (rng.integers(-4, 5, size=n) / 4).tolist()  # quarters: exact in binary
    assert _stats(deltas).p_value == pytest.approx(float(_exact_p(deltas)), abs=1e-12)


def test_zero_deltas_count_as_pairs_but_move_nothing():
    deltas = [0.5] * 8 + [0.0] * 4
    assert _stats(deltas).p_value == pytest.approx(float(_exact_p(deltas)), abs=1e-12)
    assert float(_exact_p(deltas)) == 2 / 256  # only the 8 non-zero deltas' signs matter


def test_above_sixteen_pairs_monte_carlo_is_seeded_and_near_the_exact_value():
    rng = np.random.default_rng(7)
    deltas = (rng.integers(-2, 4, size=18) / 2).tolist()
    signs = 1 - 2 * ((np.arange(2 ** 18)[:, None] >> np.arange(18)) & 1)
    means = np.abs(signs @ np.asarray(deltas)) / 18
    exact = np.mean(means >= abs(np.mean(deltas)) - 1e-12)
    first, again = _stats(deltas, seed=3), _stats(deltas, seed=3)
    assert first == again
    assert first.method.endswith("sign-flip test, Monte Carlo (10000 flips)")
    assert abs(first.p_value - exact) < 0.02  # about 4 standard errors at 10,000 flips
    assert first.p_value >= 1 / 10_001  # the observed assignment counts as one of them


def test_monte_carlo_p_has_its_floor_and_its_ceiling():
    # 30 deltas of +1: only all-plus and all-minus reach |sum| = 30, p = 2 / 2^30, so
    # (almost surely) no random assignment hits and p is the floor 1 / (resamples + 1).
    assert _stats([1] * 30, resamples=999).p_value == 1 / 1000
    assert _stats([1, -1] * 15, resamples=999).p_value == 1.0  # every |sum| >= 0


# ---- the bootstrap interval --------------------------------------------------------------

def test_one_success_in_ten_gives_the_binomial_percentiles():
    # A resample's mean is Binomial(10, 0.1) / 10: P(X = 0) = 0.349 > 0.025, so the low end
    # is 0; P(X <= 2) = 0.930 < 0.975 <= P(X <= 3) = 0.987, so the high end is 0.3.
    result = _stats([1] + [0] * 9)
    assert (result.ci_low, result.ci_high) == (0.0, 0.3)


def test_the_interval_is_reproducible_and_depends_on_the_seed():
    deltas = [0.51, -0.23, 0.97, 0.02, 0.29, 0.71, -0.47, 0.53, 0.19, 0.89, 0.07, 0.41]
    first, again, other = _stats(deltas, seed=1), _stats(deltas, seed=1), _stats(deltas, seed=2)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    assert (first.ci_low, first.ci_high) != (other.ci_low, other.ci_high)
    assert first.ci_low < first.mean_delta < first.ci_high
    narrower = _stats(deltas, seed=1, confidence=0.5)
    assert first.ci_low < narrower.ci_low < narrower.ci_high < first.ci_high


def test_the_interval_agrees_with_scipy_bootstrap_resampling_questions():
    # The grouped draw (multinomial counts per distinct delta) against scipy's resampling of
    # whole questions: the same distribution, so the ends agree within Monte Carlo error.
    from scipy import stats
    rng = np.random.default_rng(11)
    deltas = np.concatenate([rng.integers(-2, 3, size=30) / 2, rng.normal(0.2, 0.4, 30)])
    ours = _stats(deltas.tolist(), resamples=20_000)
    theirs = stats.bootstrap((deltas,), np.mean, method="percentile", n_resamples=20_000,
                             rng=np.random.default_rng(0)).confidence_interval
    assert ours.ci_low == pytest.approx(theirs.low, abs=0.02)
    assert ours.ci_high == pytest.approx(theirs.high, abs=0.02)


def test_equal_deltas_give_a_point_interval_and_a_zero_detectable_effect():
    result = _stats([0.5] * 10)
    assert (result.ci_low, result.ci_high, result.min_detectable) == (0.5, 0.5, 0.0)
    assert result.note == "every paired question has the same delta"


# ---- the detectable effect ---------------------------------------------------------------

@pytest.mark.parametrize("confidence", [0.95, 0.9])
def test_min_detectable_is_the_normal_approximation_at_power_08(confidence):
    deltas = [1, 0] * 5  # mean 0.5, sum of squares 2.5, s = sqrt(2.5 / 9)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2) + NormalDist().inv_cdf(0.8)
    expected = z * math.sqrt(2.5 / 9) / math.sqrt(10)
    assert _stats(deltas, confidence=confidence).min_detectable == pytest.approx(expected)
    assert round(_stats(deltas).min_detectable, 4) == 0.4669


# ---- too few pairs, yes/no values, bad input ---------------------------------------------

def test_below_ten_pairs_only_the_mean_is_given():
    result = paired_stats([0.5, 1.0, 0.0], [1.0, 1.0, 0.5])
    assert result == (UNTESTED, 3, 1 / 3, None, None, None, None,
                      "only 3 paired questions; at least 10 are needed")
    assert paired_stats([1.0], [0.0]).note == "only 1 paired question; at least 10 are needed"
    assert paired_stats([], []).note == ("no question where both systems are defined; at "
                                         "least 10 are needed")
    assert paired_stats([], []).mean_delta is None
    assert _stats([1] * 4, min_pairs=4).p_value == 2 / 16


def test_yes_counts_as_one():
    result = paired_stats([False] * 10, [True] * 9 + [False])
    assert result.mean_delta == 0.9
    assert result.p_value == 2 / 512  # nine ones and a zero: only all-plus and all-minus


def test_the_input_is_not_changed():
    before, after = [0.0] * 10, [1.0] * 10
    paired_stats(before, after)
    assert (before, after) == ([0.0] * 10, [1.0] * 10)


@pytest.mark.parametrize("call, message", [
    (lambda: paired_stats([1.0], [1.0, 0.0]),
     "baseline and candidate values must pair up one to one; got 1 baseline and 2 candidate"),
    (lambda: paired_stats([1.0, None], [1.0, 0.0]),
     "baseline value 1 must be a finite number or a bool .*; got None"),
    (lambda: paired_stats([1.0], [float("nan")]),
     "candidate value 0 must be a finite number or a bool .*; got nan"),
    (lambda: paired_stats([1.0], [1.0], confidence=95),
     "confidence must be a number strictly between 0 and 1, such as 0.95; got 95"),
    (lambda: paired_stats([1.0], [1.0], resamples=0),
     "resamples must be a whole number 1 or above; got 0"),
    (lambda: paired_stats([1.0], [1.0], seed=-1),
     "seed must be a whole number 0 or above; got -1"),
    (lambda: paired_stats([1.0], [1.0], min_pairs=1),
     "min_pairs must be a whole number 2 or above; got 1"),
])
def test_bad_input_is_refused_clearly(call, message):
    with pytest.raises(InvalidInputError, match=message):
        call()


# ---- the table over a comparison ---------------------------------------------------------

def test_course_table_counts_the_pairs_per_metric(course):
    table = stats_table(question_table(course, k=2), baseline="A", candidate="B")
    assert tuple(table.columns) == COLUMNS
    assert table["metric"].tolist() == ["precision", "recall", "rr", "support", "coverage",
                                        "abstention_correct"]
    assert table["n"].tolist() == [3, 3, 3, 3, 3, 1]  # region: n/a retrieval, B makes no claim
    support = table.set_index("metric").loc["support"]
    assert support["mean_delta"] == pytest.approx((-0.5 + 0.0 + 1.0) / 3)
    assert support["ci_low"] is pd.NA and support["p_value"] is pd.NA
    assert support["note"] == "only 3 paired questions; at least 10 are needed"


def test_course_table_with_a_lower_minimum_tests_what_it_has(course):
    table = stats_table(question_table(course, k=2), baseline="A", candidate="B", min_pairs=3)
    coverage = table.set_index("metric").loc["coverage"]
    # deltas 0 (launch), +0.5 (rollback), +1 (owner): 4 of the 8 assignments reach 0.5
    assert coverage["p_value"] == float(_exact_p([0, 0.5, 1])) == 0.5
    assert coverage["method"].endswith("exact (2^3 flips)")


def test_a_metric_does_not_depend_on_which_others_are_shown(course):
    everything = stats_table(question_table(course, k=2), baseline="A", candidate="B",
                             min_pairs=3)
    alone = stats_table(question_table(course, k=2, metrics=("coverage",)), baseline="A",
                        candidate="B", min_pairs=3)
    assert alone["metric"].tolist() == ["coverage"]
    # every column but the Holm adjustment, which is over the metrics tested together by design
    own = [name for name in alone.columns if name not in ("p_holm", "tested")]
    assert alone[own].iloc[0].tolist() == everything[own].iloc[4].tolist()
    # alone, the one p-value tested is its own adjustment
    assert alone.iloc[0]["tested"] == 1 and alone.iloc[0]["p_holm"] == alone.iloc[0]["p_value"]


def test_an_unknown_system_is_named(course):
    with pytest.raises(InvalidInputError, match="system must be one of 'A', 'B'; got 'C'"):
        stats_table(question_table(course, k=2), baseline="A", candidate="C")


def test_a_repeated_question_is_refused_not_counted_twice(course):
    table = question_table(course, k=2)
    repeated = pd.concat([table, table.iloc[:2]])
    with pytest.raises(InvalidInputError, match="one row per \\(case, system\\), a question "
                       "counting once; got 2 repeated, the first case 'launch', system 'A'"):
        stats_table(repeated, baseline="A", candidate="B")


def test_a_table_with_a_trial_level_is_refused_until_trials_are_reduced(course):
    table = question_table(course, k=2)
    trials = table.set_index(pd.Index([1] * len(table), name="trial"), append=True)
    with pytest.raises(InvalidInputError, match="indexed by \\(case, system\\), one row per "
                       "question and system; got an index of \\['case', 'system', 'trial'\\]"):
        stats_table(trials, baseline="A", candidate="B")
