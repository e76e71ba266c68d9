"""The gate's verdict counts every n/a (issue 40, item 1): a candidate that goes silent fails,
however high the mean of what it still answers; ``max_na`` and ``max_na_share`` allow it in
the policy; the ``answered`` measure gates the share of answered questions.

Every expected number is worked by hand from fixtures/course (the seed's table):

- support, A: launch 1.00, rollback 1.00, owner 0.00, region 0.00 (it answered an
  unanswerable question); B: launch 0.50, rollback 1.00, owner 1.00, region n/a (a correct
  abstention: n/a, as the labels make it on an unanswerable question).
- "quiet" is B answering nothing on launch: support n/a there ("the answer makes no
  claims"), the others as B's. "silent" is A answering nothing on launch and rollback.
"""
import copy

import pytest

from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.usecases.gate import gate


def _with(course, name, like, silent_on):
    """``course`` with system ``name``: system ``like``'s runs, no claims on ``silent_on``."""
    for case, systems in course.runs.items():
        run = copy.deepcopy(systems[like])
        if case in silent_on:
            run["claims"] = ()
        systems[name] = run
    return course


def _policy(tmp_path, body):
    path = tmp_path / "gate.toml"
    path.write_text("k = 2\n" + body)
    return str(path)


NO_REGRESSION = """
[[rule]]
name = "no support regression"
metric = "support"
check = "no_regression"
"""


def test_a_candidate_that_goes_silent_fails_no_regression(course, tmp_path):
    data = _with(course, "silent", "A", {"launch", "rollback"})
    verdict = gate(data, policy=_policy(tmp_path, NO_REGRESSION), candidate="silent",
                   baseline="A")
    outcome = verdict.outcomes[0]
    # owner 0.00 vs 0.00 and region 0.00 vs 0.00: nothing fell; launch and rollback are n/a
    # on the candidate only: 2 unforced n/a against the baseline's 0
    assert outcome.value == 0 and outcome.used == 2
    assert (outcome.na.candidate, outcome.na.baseline, outcome.na.unforced) == (2, 0, 2)
    assert not verdict.passed and verdict.exit_code == 1
    assert "n/a: candidate 2 (the answer makes no claims: 2), baseline 0." in outcome.detail
    assert "n/a on 2 more questions than the baseline (max_na allows 0)" in outcome.detail
    assert [(case, value, before) for case, value, before in outcome.failures] == [
        ("launch", None, 1.0), ("rollback", None, 1.0)]


@pytest.mark.parametrize("allowance, passed", [
    ("max_na = 2", True), ("max_na = 1", False),
    ("max_na_share = 0.5", True),   # 0.5 of the 4 questions in scope: 2 allowed
    ("max_na_share = 0.3", False),  # 0.3 of 4 = 1.2, rounded down: 1 allowed
])
def test_max_na_allows_what_the_policy_says(course, tmp_path, allowance, passed):
    data = _with(course, "silent", "A", {"launch", "rollback"})
    verdict = gate(data, policy=_policy(tmp_path, NO_REGRESSION + allowance + "\n"),
                   candidate="silent", baseline="A")
    assert verdict.passed is passed


def test_a_policy_wide_max_na_applies_to_every_rule(course, tmp_path):
    data = _with(course, "silent", "A", {"launch", "rollback"})
    verdict = gate(data, policy=_policy(tmp_path, "max_na = 2\n" + NO_REGRESSION),
                   candidate="silent", baseline="A")
    assert verdict.passed and verdict.outcomes[0].na.allowed == 2


def test_a_silent_candidate_fails_a_mean_without_a_baseline(course, tmp_path):
    data = _with(course, "quiet", "B", {"launch"})
    policy = _policy(tmp_path, """
[[rule]]
name = "mean support"
metric = "support"
check = "min_mean"
threshold = 0.8
""")
    outcome = gate(data, policy=policy, candidate="quiet").outcomes[0]
    # defined: rollback 1.00 and owner 1.00, mean 1.00 >= 0.8; launch n/a by the candidate's
    # silence, region n/a because it is unanswerable (forced by the labels, not counted)
    assert outcome.value == 1.0 and outcome.used == 2
    assert (outcome.na.candidate, outcome.na.forced, outcome.na.unforced) == (2, 1, 1)
    assert not outcome.passed
    assert "n/a on 1 more question than the labels make it" in outcome.detail


def test_a_correct_abstention_is_not_held_against_the_candidate(course, tmp_path):
    # B abstains on region, A answered it: support n/a on B only, as the labels make it
    outcome = gate(course, policy=_policy(tmp_path, NO_REGRESSION), candidate="B",
                   baseline="A").outcomes[0]
    assert (outcome.na.candidate, outcome.na.forced, outcome.na.unforced) == (1, 1, 0)
    assert not outcome.na.failed
    # the rule still fails on launch, 0.50 against 1.00, as the seed's table says
    assert [case for case, _, _ in outcome.failures] == ["launch"]


def test_answered_is_a_yes_of_an_answerable_question_with_a_claim(course):
    data = _with(course, "quiet", "B", {"launch"})
    counted = count_dataset(data, engine="reference")
    by_key = dict(zip(counted.keys, counted.values(REGISTRY["answered"], 2)))
    assert [by_key[(case, "quiet")] for case in ("launch", "rollback", "owner", "region")] \
        == [False, True, True, None]  # region is unanswerable: n/a
    columnar = count_dataset(data, engine="columnar")
    assert columnar.values(REGISTRY["answered"], 2) == counted.values(REGISTRY["answered"], 2)


def test_answered_can_be_gated(course, tmp_path):
    data = _with(course, "quiet", "B", {"launch"})
    policy = _policy(tmp_path, """
[[rule]]
name = "answers what it can"
metric = "answered"
check = "min_mean"
threshold = 1.0
""")
    # quiet: launch no, rollback yes, owner yes: mean 2/3 < 1; B answers all three: 1.0
    assert gate(data, policy=policy, candidate="quiet").outcomes[0].value == pytest.approx(2 / 3)
    assert gate(data, policy=policy, candidate="B").passed


@pytest.mark.parametrize("text, message", [
    ("max_na = -1", r"gate.toml, line 7: rule\[0\]\.max_na: must satisfy minimum 0; got -1"),
    ("max_na = 1.5", "max_na"),
    ("max_na_share = 2", "max_na_share"),
    ("max_na = 1\nmax_na_share = 0.1", "give max_na or max_na_share, not both"),
])
def test_a_bad_allowance_is_refused_naming_the_field(course, tmp_path, text, message):
    from ragscore.core.rules import InvalidInputError

    with pytest.raises(InvalidInputError, match=message):
        gate(course, policy=_policy(tmp_path, NO_REGRESSION + text + "\n"), candidate="B",
             baseline="A")
