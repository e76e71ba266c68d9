"""Reports: every figure the workbook states, worked by hand; formats parsed back."""
import csv
import io
import json
from html.parser import HTMLParser

import pandas as pd
import pytest

from ragscore import InvalidInputError, METRICS
from ragscore.reports import aggregates, answerable, claim_counts, compare, question_table, \
    render, sweep


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


# ---- aggregates ---------------------------------------------------------------------------

def test_answerable_slice_is_the_three_labelled_questions(course):
    assert answerable(course) == ["launch", "rollback", "owner"]


def test_mean_recall_over_answerable_questions(course):
    frame = aggregates(course, k=2)
    a = _row(frame, system="A", slice="answerable", metric="recall", method="macro")
    b = _row(frame, system="B", slice="answerable", metric="recall", method="macro")
    assert a.value == pytest.approx((1 + 0.5 + 1) / 3) and round(a.value, 4) == 0.8333
    assert b.value == 1.0
    assert (a.used, a.left_out, a.denominator) == (3, 0, 3)


def test_macro_support_over_non_empty_answers(course):
    frame = aggregates(course, k=2)
    a = _row(frame, system="A", slice="answerable", metric="support", method="macro")
    b = _row(frame, system="B", slice="answerable", metric="support", method="macro")
    assert round(a.value, 4) == 0.6667 and a.value == pytest.approx(2 / 3)
    assert round(b.value, 4) == 0.8333 and b.value == pytest.approx(2.5 / 3)
    assert "3 answerable questions" in a.description and "0 left out as n/a" in a.description


def test_pooled_support_counts_claims(course):
    frame = aggregates(course, k=2)
    a = _row(frame, system="A", slice="answerable", metric="support", method="pooled")
    b = _row(frame, system="B", slice="answerable", metric="support", method="pooled")
    assert (a.numerator, a.denominator, a.value) == (2, 3, pytest.approx(2 / 3))
    assert (b.numerator, b.denominator, b.value) == (4, 5, 0.8)
    assert b.description == "4 supported of 5 claims, summed over 3 answerable questions"


def test_macro_and_pooled_support_differ_for_b_only(course):
    frame = aggregates(course, k=2)
    support = frame[(frame.metric == "support") & (frame.slice == "answerable")]
    values = {(r.system, r.method): r.value for r in support.itertuples()}
    assert values[("A", "macro")] == pytest.approx(values[("A", "pooled")])   # 2/3 both ways
    assert values[("B", "macro")] != pytest.approx(values[("B", "pooled")])   # 0.8333 vs 0.80


def test_unanswerable_slice_counts_correct_abstentions(course):
    frame = aggregates(course, k=2)
    a = _row(frame, system="A", slice="unanswerable", metric="abstention_correct")
    b = _row(frame, system="B", slice="unanswerable", metric="abstention_correct")
    assert (a.numerator, a.denominator, a.method) == (0, 1, "count")
    assert (b.numerator, b.denominator) == (1, 1)
    assert b.description.startswith("1 of 1 unanswerable questions")
    unanswerable = frame[frame.slice == "unanswerable"]
    assert set(unanswerable.metric) == {"abstention_correct"}  # no retrieval "success" there


def test_na_is_never_averaged_in_as_zero(course):
    # Give owner B an empty answer: its support becomes n/a, and must be left out.
    course.runs["owner"]["B"] = {"retrieved": ("owners",), "claims": ()}
    frame = aggregates(course, k=2)
    b = _row(frame, system="B", slice="answerable", metric="support", method="macro")
    assert b.value == pytest.approx((0.5 + 1.0) / 2)  # not (0.5 + 1 + 0) / 3
    assert (b.used, b.left_out) == (2, 1)
    assert "1 left out as n/a" in b.description
    coverage = _row(frame, system="B", slice="answerable", metric="coverage", method="macro")
    assert coverage.value == pytest.approx((1 + 1 + 0) / 3)  # coverage of an abstention is 0


def test_claim_counts_behind_the_rates(course):
    counts = claim_counts(course, k=2)
    assert counts.loc[("launch", "B")].tolist() == [1, 1, 1, 2, 1]
    assert counts.loc[("rollback", "A")].tolist() == [1, 2, 1, 1, 2]
    assert counts.loc[("region", "B")].tolist() == [0, 0, 0, 0, 0]


# ---- sweep --------------------------------------------------------------------------------

def test_sweep_by_hand(course):
    frame = sweep(course, max_k=3)
    assert list(frame.index) == [("A", 1), ("A", 2), ("A", 3), ("B", 1), ("B", 2), ("B", 3)]
    # A at k=1: launch P=1, rollback P=1, owner P=0 (archive first).
    assert frame.loc[("A", 1), "precision"] == pytest.approx(2 / 3)
    assert frame.loc[("A", 1), "recall"] == pytest.approx((1 + 0.5 + 0) / 3)
    # B at k=1: rollback's checklist citation falls outside the context.
    assert frame.loc[("B", 1), "coverage"] == pytest.approx((1 + 0.5 + 1) / 3)
    assert frame.loc[("B", 3), "precision"] == pytest.approx((1 / 3 + 2 / 3 + 1 / 3) / 3)
    assert frame.loc[("B", 2), "abstention_correct"] == 1.0
    assert frame.loc[("A", 2), "abstention_correct"] == 0.0
    assert set(frame["questions"]) == {3}


def test_sweep_refuses_a_bad_max_k(course):
    with pytest.raises(InvalidInputError, match=r"k must be an int from 1 to 100; got 0"):
        sweep(course, max_k=0)


# ---- formats, each parsed back ------------------------------------------------------------

def test_csv_parses_back_with_na_as_empty(table):
    rows = list(csv.DictReader(io.StringIO(render(table, k=2, fmt="csv"))))
    assert len(rows) == 8
    region_a = rows[6]
    assert (region_a["case"], region_a["system"]) == ("region", "A")
    assert region_a["precision"] == "" and region_a["support"] == "0.0"
    assert region_a["abstention_correct"] == "false" and rows[7]["abstention_correct"] == "true"
    assert float(rows[1]["support"]) == 0.5


def test_json_parses_back_with_na_as_null(table):
    data = json.loads(render(table, k=2, fmt="json"))
    assert data["k"] == 2 and data["metrics"] == list(METRICS)
    region_b = data["rows"][7]
    assert region_b == {"case": "region", "system": "B", "precision": None, "recall": None,
                        "rr": None, "support": None, "coverage": None,
                        "abstention_correct": True}
    assert data["rows"][6]["support"] == 0.0 and data["rows"][6]["abstention_correct"] is False


def test_markdown_has_a_header_and_eight_rows(table):
    lines = render(table, k=2, fmt="markdown").splitlines()
    assert lines[0] == "| case | system | P@2 | R@2 | RR@2 | support | coverage | abstention |"
    assert lines[2] == "| launch | A | 0.50 | 1.00 | 1.00 | 1.00 | 1.00 | n/a |"
    assert lines[9] == "| region | B | n/a | n/a | n/a | n/a | n/a | yes |"
    assert len(lines) == 10


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.na_cells = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        if tag == "td" and ("class", "na") in attrs:
            self.na_cells += 1

    def handle_data(self, data):
        if self.rows and data.strip():
            self.rows[-1].append(data.strip())


def test_html_parses_back(table):
    parser = _Cells()
    parser.feed(render(table, k=2, fmt="html"))
    assert parser.rows[0] == ["case", "system", "P@2", "R@2", "RR@2", "support", "coverage",
                              "abstention"]
    assert parser.rows[7] == ["region", "A", "n/a", "n/a", "n/a", "0.00", "n/a", "no"]
    assert parser.na_cells == 6 + 4 + 5  # answerable abstention, region A, region B


def test_text_format_is_the_demo_layout(table):
    assert render(table, k=2, fmt="text").splitlines()[5] == \
        "owner A | 0.50 1.00 0.50 0.00 0.00 n/a"


def test_unknown_format_is_refused(table):
    with pytest.raises(InvalidInputError, match=r"fmt must be one of text, markdown, csv, "
                                                r"html, json; got 'xml'"):
        render(table, k=2, fmt="xml")
