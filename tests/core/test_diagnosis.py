"""The per-question diagnosis rule, worked by hand on the course data (seed workbook,
chapter 4's tables at k=2) and on small made-up counts for each branch."""
import pytest

from ragscore.core.counts import count
from ragscore.core.diagnosis import (DIAGNOSES, FAILURES, combine, diagnose, diagnose_counts,
                                     question_diagnoses)
from ragscore.engine import count_dataset
from ragscore.io.course import load_course


def _course_diagnoses(k):
    course = load_course()
    counted = count_dataset(course, engine="reference")
    return dict(zip(counted.keys, question_diagnoses(counted, course.runs, k=k)))


def test_course_at_k2_by_hand():
    # launch A: launch retrieved at 1 (in the top 2), monday cites launch: ok.
    # launch B: the extra claim "bonus" has no support label: 1 of 2 supported -> unsupported.
    # rollback A/B: a relevant ID in the top 2 and every claim supported: ok (rollback A's
    #   coverage is 0.5, which the rule does not diagnose).
    # owner A: owners at rank 2 (in the top 2), the claim cites archive -> unsupported.
    # region A: unanswerable (nothing relevant, no expected claim) and one claim -> should_abstain.
    # region B: unanswerable, no claim -> ok.
    assert _course_diagnoses(2) == {
        ("launch", "A"): "ok", ("launch", "B"): "unsupported",
        ("rollback", "A"): "ok", ("rollback", "B"): "ok",
        ("owner", "A"): "unsupported", ("owner", "B"): "ok",
        ("region", "A"): "should_abstain", ("region", "B"): "ok"}


def test_course_at_k1_owner_a_retrieved_but_not_delivered():
    # At k=1 the visible context is the top 1: owner A ranks archive first and owners
    # second, so its one relevant ID is retrieved but not delivered.
    found = _course_diagnoses(1)
    assert found[("owner", "A")] == "not_delivered"
    # rollback B: rollback at 1, checklist at 2; at k=1 the smoke claim (checklist) is not
    # supported: 1 of 2 -> unsupported.
    assert found[("rollback", "B")] == "unsupported"


@pytest.mark.parametrize("counts, expected", [
    # nothing relevant retrieved anywhere in the list
    (dict(n_relevant=2, n_expected=1, retrieved_relevant=0, delivered_relevant=0,
          n_claims=1, supported=0), "missed"),
    (dict(n_relevant=2, n_expected=1, retrieved_relevant=1, delivered_relevant=0,
          n_claims=1, supported=0), "not_delivered"),
    (dict(n_relevant=1, n_expected=1, retrieved_relevant=1, delivered_relevant=1,
          n_claims=0, supported=0), "should_answer"),
    (dict(n_relevant=0, n_expected=0, retrieved_relevant=0, delivered_relevant=0,
          n_claims=3, supported=0), "should_abstain"),
    (dict(n_relevant=0, n_expected=None, retrieved_relevant=0, delivered_relevant=0,
          n_claims=3, supported=0), "n/a"),
    (dict(n_relevant=0, n_expected=0, retrieved_relevant=0, delivered_relevant=0,
          n_claims=None, supported=0), "n/a"),
    # retrieval-only run: retrieval did its part
    (dict(n_relevant=1, n_expected=None, retrieved_relevant=1, delivered_relevant=1,
          n_claims=None, supported=0), "ok"),
    # claims but no answer labels: support cannot be judged, so not "unsupported"
    (dict(n_relevant=1, n_expected=None, retrieved_relevant=1, delivered_relevant=1,
          n_claims=2, supported=0), "ok"),
])
def test_each_branch(counts, expected):
    assert diagnose(**counts) == expected


def test_delivered_context_decides_not_delivered():
    # a is relevant, ranked 2nd; the delivered context is only b (a prefix: top 1).
    counts = count({"a"}, {"x": {"a"}}, ("b", "a"), (("x", ("a",)),), delivered=("b",))
    assert diagnose_counts(counts, k=2) == "not_delivered"
    # delivered = {a}, not a prefix of the ranking: read from the run's lists
    counts = count({"a"}, {"x": {"a"}}, ("b", "a"), (("x", ("a",)),), delivered=("a",))
    run = {"retrieved": ("b", "a"), "delivered": ("a",)}
    assert diagnose_counts(counts, k=2, run=run) == "ok"


def test_trials_take_the_earliest_failing_stage():
    assert combine(["ok", "should_answer", "not_delivered"]) == "not_delivered"
    assert combine(["n/a", "ok"]) == "ok"
    assert set(FAILURES) < set(DIAGNOSES)
