"""Operation figures and the spread of repeated trials, worked by hand."""
from pathlib import Path

import pytest

from ragscore.io.course import load_course
from ragscore.folders import load_dataset
from ragscore.tables.records import ops_summary, percentile, trial_spread

RUNS = Path(__file__).resolve().parents[2] / "fixtures" / "course-runs"


def test_ops_summary_of_the_course_runs():
    # A's four records: latency 410, 395, 430, 380 ms -> sorted 380 395 410 430; nearest rank:
    # median = 2nd (ceil(0.5 * 4)) = 395, p95 = 4th (ceil(0.95 * 4)) = 430;
    # tokens 820 + 760 + 905 + 610 = 3095; cost 0.0016 + 0.0015 + 0.0018 + 0.0012 = 0.0061
    row = ops_summary(load_dataset(RUNS)).set_index("system").loc["A"]
    assert (row["records"], row["failed"], row["retries"]) == (4, 0, 0)
    assert (row["latency_ms_median"], row["latency_ms_p95"]) == (395, 430)
    assert row["tokens_total"] == 3095
    assert row["cost_total"] == pytest.approx(0.0061)


def test_ops_summary_without_figures_is_empty_not_zero():
    assert ops_summary(load_course()).empty


def test_percentile_nearest_rank_by_hand():
    assert percentile([5], 0.95) == 5
    assert percentile(list(range(1, 21)), 0.95) == 19  # ceil(19.0) = 19th of 20
    assert percentile(list(range(1, 101)), 0.5) == 50


def test_trial_spread_lists_only_repeated_questions():
    course = load_course()
    runs = {name: dict(per_case) for name, per_case in course.runs.items()}
    # B answers launch three times: the recorded answer (support 1/2), then monday alone
    # twice (support 1/1): min 0.5, max 1.0, mean 2.5 / 3, two of three agree
    first = dict(course.runs["launch"]["B"], trial=1)
    again = dict(first, claims=(("monday", ("launch",)),))
    runs["launch"]["B"] = [first, dict(again, trial=2), dict(again, trial=3)]
    spread = trial_spread(course._replace(runs=runs), k=2, metrics=("support",))
    assert len(spread) == 1
    row = spread.iloc[0]
    assert (row["case"], row["system"], row["trials"], row["defined"]) == ("launch", "B", 3, 3)
    assert (row["min"], row["max"], row["agree"]) == (0.5, 1.0, 2)
    assert row["mean"] == pytest.approx(2.5 / 3)
