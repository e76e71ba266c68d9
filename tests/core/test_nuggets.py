"""A case's nuggets and an answer's assignments to them (ragscore.core.nuggets), by hand."""
import pytest

from ragscore.core.counts import count
from ragscore.core.nuggets import answer_key, case_nuggets, check_nuggets, nugget_states, \
    partial_claims
from ragscore.core.rules import COURSE, OPEN, InvalidInputError

SUPPORT = {"switch": {"rollback"}, "smoke": {"checklist"}}


@pytest.mark.parametrize("value, message", [
    ("smoke", "case['nuggets'] must be a list of at most 100 nuggets; got 'smoke'"),
    ([{"id": "Smoke"}], "case['nuggets'][0]['id'] must be a claim ID matching"),
    ([{"id": "smoke"}, {"id": "smoke"}], "case['nuggets'][1]['id'] must be unique"),
    ([{"id": "smoke", "text": " "}], "case['nuggets'][0]['text'] must be a non-blank string"),
    ([{"id": "smoke", "importance": "high"}], "['importance'] must be one of vital, okay"),
    ([{"id": "smoke", "weight": 2}], "case['nuggets'][0] key must be one of id, text, "
                                     "importance; got 'weight'"),
])
def test_a_broken_nugget_list_is_refused_naming_the_field(value, message):
    with pytest.raises(InvalidInputError) as error:
        check_nuggets(value, rules=COURSE)
    assert message in str(error.value)


def test_listed_nuggets_come_first_then_the_other_expected_claims_vital():
    listed = check_nuggets([{"id": "n1", "text": "It is free.", "importance": "okay"},
                            {"id": "smoke", "importance": "okay"}], rules=OPEN)
    found = case_nuggets(listed, SUPPORT)
    assert [(n.id, n.text, n.vital, n.expected) for n in found] == [
        ("n1", "It is free.", False, False), ("smoke", None, False, True),
        ("switch", None, True, True)]


def test_a_reviewers_assignment_wins_over_the_strict_rule():
    nuggets = case_nuggets((), SUPPORT)
    states = nugget_states(nuggets, {"switch": "partial_support"}, assessed=True,
                           supported={"switch": 1}, partial={})
    # switch: partial (the reviewer's); smoke: not_support (the strict rule's)
    assert states == ((0, 1, 1, 0, 1), (1, 1, 1, 0, 0))


def test_a_nugget_without_sources_is_assigned_only_by_a_reviewer():
    nuggets = case_nuggets(({"id": "n1"},), SUPPORT)
    states = nugget_states(nuggets, {}, assessed=True, supported={}, partial={})
    assert states[0] == (0, 1, 0, 0, 0)  # n1: not assigned, never not_support


def test_an_answer_not_assessed_leaves_its_expected_claims_unassigned():
    states = nugget_states(case_nuggets((), SUPPORT), {}, assessed=False, supported={},
                           partial={})
    assert states == ((0, 1, 0, 0, 0), (1, 1, 0, 0, 0))


def test_the_span_seam_gives_partial_support_from_where_the_citations_are_visible():
    partial = partial_claims({"switch": "full", "smoke": "partial"})
    assert partial == {"smoke"}
    answer = count({"rollback", "checklist"}, SUPPORT, ("rollback", "archive", "checklist"),
                   (("switch", ("rollback",)), ("smoke", ("archive",))), partial=partial)
    # smoke cites archive (not its label: unsupported) at rank 2: partial from k = 2;
    # switch supported from k = 1
    assert answer.nuggets == ((0, 1, 1, 1, 1), (1, 1, 1, 0, 2))  # switch, then smoke
    unseen = count({"rollback", "checklist"}, SUPPORT, ("rollback",),
                   (("smoke", ("archive",)),), partial=partial)
    assert unseen.nuggets == ((0, 1, 1, 0, 0), (1, 1, 1, 0, 0))  # archive never retrieved


def test_the_answer_key_is_the_claims_in_order_and_the_passages_they_cite():
    one = answer_key([("opens monday", ["k1"]), ("at 9", [])])
    assert one == answer_key([("opens monday", ["k1"]), ("at 9", [])])
    assert one != answer_key([("at 9", []), ("opens monday", ["k1"])])
    assert one != answer_key([("opens monday", ["k2"]), ("at 9", [])])
