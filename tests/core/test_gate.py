"""The gate's checks on the course data, with expectations worked from the workbook's table
at k=2 (support, coverage and abstention per question):

    case      A: support coverage abstention   B: support coverage abstention
    launch       1.00    1.00     n/a             0.50    1.00     n/a
    rollback     1.00    0.50     n/a             1.00    1.00     n/a
    owner        0.00    0.00     n/a             1.00    1.00     n/a
    region       0.00    n/a      no              n/a     n/a      yes
"""
import pytest

from ragscore.core.counts import retrieval_counts
from ragscore.core.gate import Rule, judge, run_gate
from ragscore.core.rules import InvalidInputError
from ragscore.core.trials import Trials
from ragscore.engine import count_folder, count_runs
from ragscore.engine.reference import ReferenceCounted
from ragscore.io.course import load_course


def one_system(runs):
    """``{case: counts}`` as the engine's view of one system's runs."""
    return ReferenceCounted([(case, "S") for case in runs], list(runs.values()))


@pytest.fixture(scope="module")
def systems():
    course = load_course()
    return count_runs(course.corpus, course.cases, course.runs).by_system()


NO_SUPPORT_REGRESSION = Rule("no support regression", "support", "no_regression")
MEAN_COVERAGE = Rule("mean coverage", "coverage", "min_mean", threshold=0.8)
ABSTAINS = Rule("abstains", "abstention_correct", "min_each", threshold=1)


def test_no_support_regression_fails_b_against_a_because_of_launch(systems):
    outcome = judge(NO_SUPPORT_REGRESSION, systems["B"], k=2, tags={}, baseline=systems["A"])
    # launch 1.00 -> 0.50 fails; rollback and owner do not fall; region: B abstained, so
    # its support is n/a and the pair is left out, not passed and not failed
    assert not outcome.passed
    assert outcome.failures == [("launch", 0.5, 1.0)]
    assert (outcome.used, outcome.left_out) == (3, 1)


def test_no_support_regression_fails_a_against_b_because_of_owner(systems):
    outcome = judge(NO_SUPPORT_REGRESSION, systems["A"], k=2, tags={}, baseline=systems["B"])
    assert outcome.failures == [("owner", 0.0, 1.0)]


def test_mean_coverage_passes_b_and_fails_a(systems):
    passed = judge(MEAN_COVERAGE, systems["B"], k=2, tags={})
    failed = judge(MEAN_COVERAGE, systems["A"], k=2, tags={})
    assert passed.passed and passed.value == 1.0  # (1 + 1 + 1) / 3
    assert not failed.passed and failed.value == pytest.approx(0.5)  # (1 + 0.5 + 0) / 3
    assert [case for case, *_ in failed.failures] == ["owner", "rollback"]  # worst first
    assert failed.left_out == 1  # region: nothing expected, coverage n/a


def test_abstention_on_every_unanswerable_question_passes_b_and_fails_a(systems):
    assert judge(ABSTAINS, systems["B"], k=2, tags={}).passed
    failed = judge(ABSTAINS, systems["A"], k=2, tags={})
    assert failed.failures == [("region", False, None)]


def test_tolerance_lets_a_small_drop_through(systems):
    lenient = NO_SUPPORT_REGRESSION._replace(tolerance=0.5)
    assert judge(lenient, systems["B"], k=2, tags={}, baseline=systems["A"]).passed


def test_slices_and_cases_narrow_the_scope(systems):
    tags = {"launch": ("critical",), "owner": ("critical",)}
    critical = MEAN_COVERAGE._replace(slice="critical")
    assert judge(critical, systems["A"], k=2, tags=tags).value == 0.5  # (1 + 0) / 2
    only_rollback = MEAN_COVERAGE._replace(cases=["rollback"])
    assert judge(only_rollback, systems["A"], k=2, tags={}).value == 0.5


def test_max_count_totals_a_count_metric(systems):
    # unsupported claims at k=2: A launch 0, rollback 0, owner 1, region 1 = 2 in all
    rule = Rule("few unsupported", "unsupported", "max_count", threshold=1)
    outcome = judge(rule, systems["A"], k=2, tags={})
    assert (outcome.passed, outcome.value) == (False, 2)
    assert sorted(case for case, *_ in outcome.failures) == ["owner", "region"]
    # B: launch has one unsupported claim (bonus), nothing else
    assert judge(rule, systems["B"], k=2, tags={}).value == 1


def test_a_rule_without_defined_values_fails():
    runs = one_system({"q": retrieval_counts(("a",), set())})  # nothing relevant: recall n/a
    outcome = judge(Rule("recall", "recall", "min_mean", threshold=0.1), runs, k=1, tags={})
    assert not outcome.passed and outcome.used == 0


def test_trials_are_judged_as_one_question():
    # two trials, recall@1 1 and 0: the question's value is 0.5, once
    runs = one_system({"q": Trials((retrieval_counts(("a",), {"a"}),
                                    retrieval_counts(("b",), {"a"})))})
    outcome = judge(Rule("recall", "recall", "min_mean", threshold=0.5), runs, k=1, tags={})
    assert (outcome.passed, outcome.value, outcome.used) == (True, 0.5, 1)


@pytest.mark.parametrize("rule, message", [
    (Rule("x", "nope", "min_mean", 1), r"rule 'x': metric must be one of"),
    (Rule("x", "recall", "at_least", 1), r"rule 'x': check must be one of min_mean"),
    (Rule("x", "recall", "min_mean"), r"rule 'x': min_mean needs a numeric threshold"),
    (Rule("x", "recall", "no_regression"), r"no_regression needs a baseline"),
    (Rule("x", "recall", "max_count", 1), r"max_count reads counts and yes/no values; recall "
                                          r"is a rate \(use min_mean or min_each\)"),
    (Rule("x", "disclosures", "min_each", 0), r"disclosures is a count \(use max_count\)"),
    (Rule("x", "recall", "min_mean", 1, severity="urgent"), r"severity must be one of"),
])
def test_rules_that_cannot_be_judged_are_refused(systems, rule, message):
    with pytest.raises(InvalidInputError, match=message):
        run_gate([rule], systems["A"], k=2, tags={})


def test_max_count_on_disclosures_forbids_any_on_the_practice_collection():
    from pathlib import Path

    counted = count_folder(Path(__file__).resolve().parents[2] / "fixtures" / "practice")
    by_system = counted.by_system()
    rule = Rule("no disclosures", "disclosures", "max_count", threshold=0)
    # totals worked by the collection's author (tests/io/test_practice.py): rerank-guarded
    # filters restricted chunks (0); rerank discloses 8 times in 6 questions
    assert judge(rule, by_system["rerank-guarded"], k=3, tags={}).passed
    failed = judge(rule, by_system["rerank"], k=3, tags={})
    assert (failed.passed, failed.value, len(failed.failures)) == (False, 8, 6)
    assert failed.failures[0] == ("headcount-2027", 3, None)  # the worst first
