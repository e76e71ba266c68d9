"""ragscore.gate(...): the release gate as a call inside a test suite (course data; numbers
from the seed workbook's chapter 4 tables at k=2)."""
import pytest

import ragscore
from ragscore.core.rules import InvalidInputError

COURSE = "fixtures/course"


def _policy(tmp_path, text):
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_passing_policy_reads_as_passed(tmp_path):
    # B's coverage: launch 1.00, rollback 1.00, owner 1.00 (region n/a): mean 1.00 >= 0.8
    policy = _policy(tmp_path, 'k = 2\n[[rule]]\nname = "mean coverage"\nmetric = "coverage"\n'
                               'check = "min_mean"\nthreshold = 0.8\n')
    result = ragscore.gate(COURSE, policy=policy, candidate="B")
    assert result.passed and result
    assert str(result).startswith("gate PASS: candidate B, k=2: 1 of 1 rules passed")


def test_a_failing_rule_shows_in_the_assert_message(tmp_path):
    # support on launch: A 1/1 = 1.00, B 1/2 = 0.50: a regression; rollback 1.00 -> 1.00,
    # owner 0.00 -> 1.00 (not a regression); region B n/a (left out).
    policy = _policy(tmp_path, 'k = 2\n[[rule]]\nname = "no support regression"\n'
                               'metric = "support"\ncheck = "no_regression"\n')
    result = ragscore.gate(COURSE, policy=policy, candidate="B", baseline="A")
    assert not result.passed and not result
    assert [outcome.rule.name for outcome in result.failed] == ["no support regression"]
    with pytest.raises(AssertionError) as caught:
        assert result.passed, result
    assert ("gate FAIL: candidate B against baseline A, k=2: 0 "
            "of 1 rules passed") in str(caught.value)
    text = str(result)
    assert "FAIL no support regression (support, no_regression, major)" in text
    assert "launch: 0.5000 (baseline 1.0000)" in text  # four decimals, as the CLI gate
    assert "no support regression" in repr(result)


def test_bad_input_fails_closed(tmp_path):
    policy = _policy(tmp_path, 'k = 2\n[[rule]]\nname = "r"\nmetric = "support"\n'
                               'check = "no_regression"\n')
    with pytest.raises(InvalidInputError, match="needs a baseline|baseline"):
        ragscore.gate(COURSE, policy=policy, candidate="B")
    with pytest.raises(InvalidInputError, match="candidate system 'Z'"):
        ragscore.gate(COURSE, policy=policy, candidate="Z", baseline="A")


def test_gate_is_public():
    assert "gate" in ragscore.__all__ and len(ragscore.__all__) <= 14


def _course_without(case, system):
    course = ragscore.load_course()
    runs = {name: {other: run for other, run in by_system.items() if (name, other) != (case,
                                                                                          system)}
            for name, by_system in course.runs.items()}
    return course._replace(runs=runs)


def test_the_call_judges_the_test_sets_questions_not_the_candidates(tmp_path):
    # B without its run on launch: B's coverage is 1.00 wherever it ran, so judged over its
    # own questions the rule would pass; the test set has launch, so it fails as 'no run'
    # (the same rule ragscore gate applies).
    policy = _policy(tmp_path, 'k = 2\n[[rule]]\nname = "mean coverage"\nmetric = "coverage"\n'
                               'check = "min_mean"\nthreshold = 0.8\n')
    result = ragscore.gate(_course_without("launch", "B"), policy=policy, candidate="B")
    assert not result.passed
    assert result.outcomes[0].no_run == (("launch", "candidate"),)


def test_a_run_recorded_as_failed_is_refused(tmp_path):
    course = ragscore.load_course()
    runs = {name: {system: (dict(run, failed=True) if (name, system) == ("owner", "B") else run)
                   for system, run in by_system.items()}
            for name, by_system in course.runs.items()}
    policy = _policy(tmp_path, 'k = 2\n[[rule]]\nname = "mean coverage"\nmetric = "coverage"\n'
                               'check = "min_mean"\nthreshold = 0.8\n')
    with pytest.raises(InvalidInputError, match=r"candidate 'B': 1 run recorded as failed "
                                                r"\(first: case 'owner', trial 1\)"):
        ragscore.gate(course._replace(runs=runs), policy=policy, candidate="B")


def test_a_policy_without_rules_does_not_pass(tmp_path):
    policy = _policy(tmp_path, 'k = 2\n')
    try:
        result = ragscore.gate(COURSE, policy=policy, candidate="B")
    except InvalidInputError:
        return  # refused as bad input: also closed
    assert not result.passed
