"""Paired comparison: verdicts worked by hand on the course data."""
import pandas as pd
import pytest

from ragscore import InvalidInputError
from ragscore.reports import compare, question_table


@pytest.fixture
def table(course):
    return question_table(course, k=2)


def _row(frame, **match):
    selected = frame
    for column, value in match.items():
        selected = selected[selected[column] == value]
    assert len(selected) == 1, match
    return selected.iloc[0]


# ---- paired comparison -------------------------------------------------------------------

def test_b_against_a_verdicts(table):
    rows = compare(table, baseline="A", candidate="B")
    verdict = {(r.case, r.metric): r.verdict for r in rows.itertuples()}
    assert verdict[("rollback", "recall")] == "improved"
    assert verdict[("rollback", "coverage")] == "improved"
    assert verdict[("owner", "rr")] == "improved"
    assert verdict[("owner", "support")] == "improved"
    assert verdict[("region", "abstention_correct")] == "improved"
    assert verdict[("launch", "support")] == "regressed"
    assert verdict[("launch", "coverage")] == "unchanged"
    assert verdict[("region", "support")] == "no longer defined"   # 0.00 -> n/a
    assert verdict[("region", "recall")] == "unchanged"            # n/a on both sides
    assert len(rows) == 4 * 6


def test_launch_support_regression_is_listed_first(table):
    rows = compare(table, baseline="A", candidate="B")
    first = rows.iloc[0]
    assert (first.case, first.metric, first.verdict) == ("launch", "support", "regressed")
    assert (first.baseline, first.candidate, first.delta) == (1.0, 0.5, -0.5)
    coverage = _row(rows, case="launch", metric="coverage")
    assert (coverage.baseline, coverage.candidate, coverage.delta) == (1.0, 1.0, 0.0)
    order = list(rows["verdict"])
    assert order == sorted(order, key=["regressed", "no longer defined", "newly defined",
                                       "improved", "unchanged"].index)


def test_a_against_b_flips_the_verdicts(table):
    rows = compare(table, baseline="B", candidate="A")
    assert _row(rows, case="launch", metric="support").verdict == "improved"
    assert _row(rows, case="region", metric="support").verdict == "newly defined"
    assert _row(rows, case="owner", metric="coverage").verdict == "regressed"
    assert _row(rows, case="owner", metric="coverage").delta == -1.0


def test_na_delta_stays_missing(table):
    rows = compare(table, baseline="A", candidate="B")
    region = _row(rows, case="region", metric="support")
    assert region.baseline == 0.0
    assert region.candidate is pd.NA and region.delta is pd.NA


def test_unknown_system_is_a_clear_error(table):
    with pytest.raises(InvalidInputError, match=r"system must be one of 'A', 'B'; got 'C'"):
        compare(table, baseline="A", candidate="C")
