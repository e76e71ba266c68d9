"""An answer whose claims await review: n/a, with how many claims wait, in every value's
reason and in the aggregates that leave it out, from both engines."""
import pytest

import ragscore
from ragscore.core.aggregate import macro
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset


def _course_with_answers():
    course = ragscore.load_course()._replace(ids="open")
    runs = {case: dict(per_case) for case, per_case in course.runs.items()}
    # two answers recorded as text only: 2 sentences and 1 sentence, none reviewed
    runs["launch"]["A"] = {"retrieved": ("launch", "archive"),
                           "answer": "The window starts on Monday [1]. It is fictional [2]."}
    runs["rollback"]["A"] = {"retrieved": ("rollback", "checklist"),
                             "answer": "Switch traffic back [1]."}
    return course._replace(runs=runs)


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_each_value_says_how_many_claims_wait(engine):
    counted = count_dataset(_course_with_answers(), engine=engine)
    reasons = dict(zip(counted.keys, counted.reasons(REGISTRY["support"], 2)))
    assert reasons[("launch", "A")] == "not assessed: 2 claims await review"
    assert reasons[("rollback", "A")] == "not assessed: 1 claim awaits review"
    assert reasons[("launch", "B")] is None  # recorded claims: defined
    assert counted.values(REGISTRY["support"], 2)[counted.keys.index(("launch", "A"))] is None


@pytest.mark.parametrize("engine", ["reference", "columnar"])
def test_an_aggregate_adds_up_the_waiting_claims(engine):
    system_a = count_dataset(_course_with_answers(), engine=engine).by_system()["A"]
    aggregate = macro(REGISTRY["support"], system_a, k=2, slice_name="all")
    # A's four questions: launch and rollback not assessed (2 + 1 claims waiting); owner
    # and region keep their recorded claims (support 0.0 each, by the seed's table)
    assert aggregate.left_out == 2
    assert "(not assessed: 3 claims await review)" in aggregate.description
