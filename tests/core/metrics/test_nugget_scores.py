"""The five nugget scores worked by hand (TREC RAG's formulas, nuggetizer's names), with
their undefined cases: only okay nuggets, no nugget, a partial assignment, an unassigned
nugget (n/a, never 0)."""
import pytest

from ragscore.core.counts import Counts, count
from ragscore.core.metrics import REGISTRY, na_reason
from ragscore.core.nuggets import case_nuggets

SCORES = ("nugget_strict_vital", "nugget_strict_all", "nugget_vital", "nugget_all",
          "nugget_weighted")


def placed(states):
    """Nugget states ``(vital, assigned, full, half)`` with their positions in front."""
    return tuple((position, *state) for position, state in enumerate(states))


def scored(*states, k=1):
    """The five scores of hand-made nugget states ``(vital, assigned, full, half)``."""
    counts = Counts(relevant_ranks=(), n_relevant=1, claim_cutoffs=(), n_claims=0,
                    n_expected=0, n_retrieved=0, nuggets=placed(states))
    return {name: REGISTRY[name].value(counts, k) for name in SCORES}


SUPPORT, PARTIAL, NOT, OPEN = (1, 1, 1, 1), (1, 1, 0, 1), (1, 1, 0, 0), (1, 0, 0, 0)


def okay(state):
    return (0,) + state[1:]


def test_four_vital_two_okay_by_hand():
    # vital: support, partial, not, support; okay: partial, not.
    # V strict = 2/4; A strict = 2/6; V = (2 + 0.5)/4 = 0.625; A = (2 + 0.5 x 2)/6 = 0.5;
    # W = (2 + 0.5 + 0.5 x (0 + 0.5 x 1)) / (4 + 0.5 x 2) = 2.75 / 5 = 0.55
    assert scored(SUPPORT, PARTIAL, NOT, SUPPORT, okay(PARTIAL), okay(NOT)) == {
        "nugget_strict_vital": 0.5, "nugget_strict_all": 2 / 6, "nugget_vital": 0.625,
        "nugget_all": 0.5, "nugget_weighted": 0.55}


def test_only_okay_nuggets_leave_the_vital_scores_undefined():
    # okay: support, partial. A strict = 1/2; A = (1 + 0.5)/2; W = 0.5 x 1.5 / (0.5 x 2)
    found = scored(okay(SUPPORT), okay(PARTIAL))
    assert found == {"nugget_strict_vital": None, "nugget_strict_all": 0.5,
                     "nugget_vital": None, "nugget_all": 0.75, "nugget_weighted": 0.75}
    counts = Counts((), 1, (), 0, 0, 0, nuggets=placed([(0, 1, 1, 1)]))
    assert na_reason(REGISTRY["nugget_vital"], counts, 1) == "the question has no vital nugget"


def test_no_nugget_is_na_for_every_score():
    counts = Counts((), 1, (), 0, 0, 0, nuggets=())
    for name in SCORES:
        assert REGISTRY[name].value(counts, 1) is None
    assert na_reason(REGISTRY["nugget_all"], counts, 1) == "the question has no nugget"


def test_a_partial_assignment_counts_half_except_in_the_strict_scores():
    found = scored(PARTIAL, SUPPORT)
    assert found["nugget_strict_vital"] == 0.5 and found["nugget_vital"] == 0.75
    assert found["nugget_strict_all"] == 0.5 and found["nugget_all"] == 0.75
    assert found["nugget_weighted"] == 0.75


def test_an_unassigned_nugget_makes_the_scores_na_never_zero():
    found = scored(SUPPORT, OPEN)
    assert found == dict.fromkeys(SCORES)
    counts = Counts((), 1, (), 0, 0, 0, nuggets=placed([OPEN, SUPPORT]))
    assert na_reason(REGISTRY["nugget_weighted"], counts, 1) == "a nugget is not assigned yet"
    # an unassigned okay nugget leaves the vital scores defined
    assert scored(SUPPORT, okay(OPEN))["nugget_strict_vital"] == 1.0
    assert scored(SUPPORT, okay(OPEN))["nugget_all"] is None


def test_derived_assignments_follow_the_cutoff():
    # supported from k = 3: not_support below it, support from it
    assert scored((1, 1, 3, 3), SUPPORT, k=2)["nugget_strict_vital"] == 0.5
    assert scored((1, 1, 3, 3), SUPPORT, k=3)["nugget_strict_vital"] == 1.0
    # partial from k = 2, support from k = 4
    assert [scored((1, 1, 4, 2), k=k)["nugget_vital"] for k in (1, 2, 4)] == [0.0, 0.5, 1.0]


SUPPORT_LABELS = {"switch": {"rollback"}, "smoke": {"checklist"}}


def test_course_questions_score_their_coverage_when_every_nugget_is_vital():
    # no nuggets listed: the expected claims, vital, assigned by the strict rule
    answer = count({"rollback", "checklist"}, SUPPORT_LABELS, ("rollback", "checklist"),
                   (("switch", ("rollback",)),))
    assert answer.nuggets is None
    for name in SCORES:
        assert REGISTRY[name].value(answer, 2) == REGISTRY["coverage"].value(answer, 2) == 0.5
    not_assessed = count({"rollback"}, SUPPORT_LABELS, ("rollback",), None)
    assert REGISTRY["nugget_weighted"].value(not_assessed, 2) is None


def test_an_okay_expected_claim_weighs_half():
    nuggets = case_nuggets(({"id": "smoke", "importance": "okay"},), SUPPORT_LABELS)
    answer = count({"rollback", "checklist"}, SUPPORT_LABELS, ("rollback", "checklist"),
                   (("switch", ("rollback",)),), nuggets=nuggets)
    # switch (vital) supported, smoke (okay) not: W = 1 / (1 + 0.5)
    assert REGISTRY["nugget_weighted"].value(answer, 2) == 1 / 1.5
    assert REGISTRY["nugget_strict_all"].value(answer, 2) == 0.5  # = coverage
    assert REGISTRY["nugget_strict_vital"].value(answer, 2) == 1.0


@pytest.mark.parametrize("name", SCORES)
def test_na_as_zero_reads_nuggetizer_convention(name):
    assert REGISTRY[name].zero_by == "nuggetizer"
