"""The verdict rule and the order of paired rows, worked by hand."""
import pytest

from ragscore.core.metrics import select
from ragscore.core.paired import VERDICTS, pair_up, paired_rows, verdict
from ragscore.core.rules import InvalidInputError


@pytest.mark.parametrize("before, after, lower, expected", [
    (0.5, 0.25, False, "regressed"),
    (0.25, 0.5, False, "improved"),
    (0.5, 0.5, False, "unchanged"),
    (None, 0.5, False, "newly defined"),
    (0.5, None, False, "no longer defined"),
    (None, None, False, "unchanged"),
    (1.0, 2.0, True, "regressed"),   # a count of problems rose
    (2.0, 1.0, True, "improved"),
    (2.0, 2.0, True, "unchanged"),
])
def test_the_verdict_on_one_pair(before, after, lower, expected):
    assert verdict(before, after, lower_is_better=lower) == expected


@pytest.mark.parametrize("before, after, expected", [
    (1.0, 0.0, "changed"), (0.0, 1.0, "changed"), (1.0, 1.0, "unchanged"),
    (None, 1.0, "newly defined"), (0.0, None, "no longer defined")])
def test_a_neutral_flag_only_changes(before, after, expected):
    """ctx differs@k: a delivered context that now differs from the top k, or no longer
    does, is a different input to read, not a better or a worse one."""
    assert verdict(before, after, lower_is_better=True, neutral=True) == expected


def test_a_changed_delivered_context_is_changed_in_a_comparison():
    keys = [("q1", "A"), ("q1", "B"), ("q2", "A"), ("q2", "B")]
    rows = paired_rows(keys, {"context_differs": [True, False, False, True]}, baseline="A",
                       candidate="B", metrics=select(("context_differs",)))
    assert [row[-1] for row in rows] == ["changed", "changed"]


def test_rows_come_regressions_first_then_question_then_metric_order():
    keys = [("q1", "A"), ("q1", "B"), ("q2", "A"), ("q2", "B"), ("q3", "B")]
    columns = {"precision": [0.5, 0.25, 0.0, 0.5, 1.0],
               "abstention_correct": [None, None, True, False, None],
               "disclosures": [0, 1, 2, 2, 0]}
    rows = paired_rows(keys, columns, baseline="A", candidate="B",
                       metrics=select(("precision", "abstention_correct", "disclosures")))
    # q3 has no baseline run: left out. By hand: q1 precision 0.5 -> 0.25 regressed,
    # q1 disclosures 0 -> 1 regressed (lower is better), q2 abstention yes -> no regressed,
    # q2 precision 0 -> 0.5 improved, q1 abstention n/a both: unchanged, q2 disclosures same.
    assert rows == [
        ("q1", "precision", 0.5, 0.25, -0.25, "regressed"),
        ("q1", "disclosures", 0.0, 1.0, 1.0, "regressed"),
        ("q2", "abstention_correct", 1.0, 0.0, -1.0, "regressed"),
        ("q2", "precision", 0.0, 0.5, 0.5, "improved"),
        ("q1", "abstention_correct", None, None, None, "unchanged"),
        ("q2", "disclosures", 2.0, 2.0, 0.0, "unchanged"),
    ]
    assert {row[5] for row in rows} <= set(VERDICTS)


def test_an_unknown_system_names_the_known_ones():
    with pytest.raises(InvalidInputError, match=r"system must be one of 'A', 'B'; got 'C'"):
        paired_rows([("q1", "A"), ("q1", "B")], {"rr": [1.0, 0.5]}, baseline="A",
                    candidate="C", metrics=select(("rr",)))


def test_questions_follow_the_baseline_order_whatever_the_candidate_order():
    # B ran q2 before q1 and also q3, which A never ran; A ran q1, then q2, then q4
    keys = [("q2", "B"), ("q1", "A"), ("q1", "B"), ("q2", "A"), ("q3", "B"), ("q4", "A")]
    columns = {"rr": [1.0, 0.5, 0.5, 1.0, 1.0, 0.25]}
    paired = pair_up(keys, columns, baseline="A", candidate="B", metrics=select(("rr",)))
    assert paired.cases == ["q1", "q2"]  # by hand: the questions both ran, A's order
    assert [paired.outcomes[code][1:] for code in paired.codes] == [
        (0.5, 0.5, 0.0, "unchanged"), (1.0, 1.0, 0.0, "unchanged")]
    assert paired_rows(keys, columns, baseline="A", candidate="B",
                       metrics=select(("rr",))) == [("q1", "rr", 0.5, 0.5, 0.0, "unchanged"),
                                                    ("q2", "rr", 1.0, 1.0, 0.0, "unchanged")]
