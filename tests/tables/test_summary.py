"""Aggregates and sweeps: every figure the workbook states, worked by hand."""
import pytest

from ragscore import InvalidInputError
from ragscore.reports import aggregates, answerable, claim_counts, sweep


def _row(frame, **match):
    selected = frame
    for column, value in match.items():
        selected = selected[selected[column] == value]
    assert len(selected) == 1, match
    return selected.iloc[0]


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
