"""Two processes: the child's counts come back exactly, and errors keep their order."""
import json

import pytest

from ragscore.core import parallel, scoring
from ragscore.core.counts import Counts, count
from ragscore.core.metrics import CONTRACT, select
from ragscore.core.rules import InvalidInputError
from ragscore.core.scoring import count_runs
from ragscore.core.trials import Trials
from ragscore.io.course import load_course


def _through_json(counted):
    return parallel.counts_from_columns(json.loads(json.dumps(parallel.counts_columns(counted))))


def test_counts_of_every_shape_survive_the_trip():
    plain = count({"a", "b"}, {"x": {"a"}}, ("b", "c", "a"), (("x", ("a",)),))
    graded = count({"a"}, None, ("a", "b"), None, grades={"a": 2, "b": 0})
    delivered = count({"a"}, {"x": {"a"}}, ("a",), (("x", ("a",)),), delivered=("a",))
    trials = Trials([plain, plain._replace(claim_cutoffs=())])
    counted = [plain, graded, trials, delivered]
    back = _through_json(counted)
    assert back == counted
    assert [type(one) for one in back] == [Counts, Counts, Trials, Counts]
    # by hand: relevant b at rank 1 and a at rank 3; the claim cites a, supported from k=3
    assert back[0][:6] == ((1, 3), 2, (3,), 1, 1, 3)
    assert back[1].gains == ((1, 2),) and back[1].ideal == (2,) and back[1].n_claims is None
    assert back[3].delivered_span == (1, -1)
    assert _through_json([]) == []


def test_metric_values_of_every_kind_survive_the_trip():
    columns = {"recall": [0.5, None, 1 / 3, 0.0], "abstention_correct": [True, None, False, None],
               "disclosures": [0, 3, None, 1]}
    kinds = {"recall": "rate", "abstention_correct": "yes/no", "disclosures": "count"}
    back = parallel.unpacked_values(json.loads(json.dumps(
        parallel.packed_values(columns, kinds=kinds))))
    assert back == columns  # 1/3 exactly: doubles go through as their eight bytes
    none = type(None)
    assert [type(value) for value in back["recall"]] == [float, none, float, float]
    assert [type(value) for value in back["abstention_correct"]] == [bool, none, bool, none]
    assert [type(value) for value in back["disclosures"]] == [int, int, none, int]


def _course_times(copies):
    """The course's runs under ``copies`` system names per case (4 cases x 2 x copies runs)."""
    course = load_course()
    runs = {case: {f"{system}{n}": run for n in range(copies)
                   for system, run in systems.items()}
            for case, systems in course.runs.items()}
    return course.corpus, course.cases, runs


@pytest.fixture
def spy(monkeypatch):
    """Count the calls of ``in_two`` and make every batch large enough to split."""
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return parallel.in_two(*args, **kwargs)
    monkeypatch.setattr(scoring, "in_two", counting)
    monkeypatch.setattr(scoring, "PARALLEL_RUNS", 2)
    return calls


def test_two_processes_count_what_one_does(spy):
    corpus, cases, runs = _course_times(5)
    one = count_runs(corpus, cases, runs, jobs=1)
    two = count_runs(corpus, cases, runs, jobs=2)
    assert spy == [1]
    assert two == one and len(two.keys) == 4 * 2 * 5


def test_a_progress_callback_keeps_one_process(spy):
    corpus, cases, runs = _course_times(2)
    seen = []
    count_runs(corpus, cases, runs, jobs=2, progress=lambda done, total: seen.append(done))
    assert spy == [] and seen == list(range(1, 5))


def _break(runs, case, system):
    runs[case][system] = dict(runs[case][system], retrieved=("ghost",))


def test_an_error_in_the_second_half_is_raised_as_in_one_process(spy):
    corpus, cases, runs = _course_times(2)
    last = list(runs)[-1]
    _break(runs, last, "B1")
    with pytest.raises(InvalidInputError) as single:
        count_runs(corpus, cases, runs, jobs=1)
    with pytest.raises(InvalidInputError) as double:
        count_runs(corpus, cases, runs, jobs=2)
    assert spy == [1] and str(double.value) == str(single.value)
    assert str(double.value).startswith(f"case '{last}', system 'B1': run['retrieved'][0]")


def test_the_first_error_in_input_order_wins(spy):
    corpus, cases, runs = _course_times(2)
    first, last = list(runs)[0], list(runs)[-1]
    _break(runs, last, "A0")
    _break(runs, first, "B0")
    with pytest.raises(InvalidInputError, match=f"^case '{first}', system 'B0'"):
        count_runs(corpus, cases, runs, jobs=2)


@pytest.mark.parametrize("jobs", [0, "2", 1.5])
def test_jobs_must_be_a_positive_int(jobs):
    corpus, cases, runs = _course_times(1)
    with pytest.raises(InvalidInputError, match=r"jobs must be an int of at least 1, or None"):
        count_runs(corpus, cases, runs, jobs=jobs)


def test_a_crash_in_the_child_is_named():
    with pytest.raises(RuntimeError, match=r"second process failed: KeyError: 'lost'"):
        parallel.in_two(lambda: 1, lambda: {}["lost"], encode=list, decode=list)


def test_the_child_error_keeps_its_class_and_message():
    class Bad(InvalidInputError):
        pass

    def second():
        raise InvalidInputError("line 9: broken")
    with pytest.raises(Bad, match=r"^line 9: broken$"):
        parallel.in_two(lambda: 1, second, encode=list, decode=list, error=Bad)


def test_an_error_in_the_first_half_stops_the_child():
    def first():
        raise InvalidInputError("first")
    with pytest.raises(InvalidInputError, match="^first$"):
        parallel.in_two(first, lambda: [1], encode=list, decode=list)
    assert parallel.in_two(lambda: [0], lambda: [1, 2], encode=list, decode=tuple) == ([0], (1, 2))


def test_by_default_two_processes_on_linux_with_two_cpus(monkeypatch, spy):
    monkeypatch.setattr(parallel.sys, "platform", "linux")
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert parallel.default_jobs() == 2
    corpus, cases, runs = _course_times(2)
    count_runs(corpus, cases, runs)
    assert spy == [1]
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert parallel.default_jobs() == 1
    monkeypatch.setattr(parallel.sys, "platform", "darwin")
    assert parallel.default_jobs() == 1


def test_operations_and_trials_are_kept_by_two_processes(spy):
    corpus, cases, runs = _course_times(2)
    first, last = list(runs)[0], list(runs)[-1]
    runs[first]["A0"] = dict(runs[first]["A0"], latency_ms=120)
    runs[last]["T"] = [dict(runs[last]["A0"], tokens=7), runs[last]["B0"]]
    one = count_runs(corpus, cases, runs, jobs=1)
    two = count_runs(corpus, cases, runs, jobs=2)
    assert spy == [1] and two == one
    assert two.ops == {(first, "A0"): [{"latency_ms": 120}], (last, "T"): [{"tokens": 7}]}
    assert "trials" in two.features and type(two.counts[-1]) is Trials


def test_score_columns_in_two_processes_give_what_one_does(spy):
    corpus, cases, runs = _course_times(3)
    last = list(runs)[-1]
    runs[last]["T"] = [runs[last]["A0"], runs[last]["B0"]]  # trials: values combined
    chosen = select(CONTRACT)
    keys, two = scoring.score_columns(corpus, cases, runs, k=2, metrics=chosen, jobs=2)
    assert spy == [1]
    counted = count_runs(corpus, cases, runs, jobs=1)
    assert keys == counted.keys
    assert two == scoring.metric_columns(counted, k=2, metrics=chosen)
    assert scoring.score_columns(corpus, cases, runs, k=2, metrics=chosen, jobs=1) == (keys, two)
    # by hand (the seed's table): rollback by A finds 1 of its 2 relevant documents in the
    # top 2; on the unanswerable "region" A answers (wrong) and B abstains (right)
    row = keys.index(("rollback", "A0"))
    assert two["recall"][row] == 0.5 and two["abstention_correct"][row] is None
    assert two["abstention_correct"][keys.index(("region", "A0"))] is False
    assert two["abstention_correct"][keys.index(("region", "B0"))] is True
    assert two["precision"][keys.index(("region", "B0"))] is None


def test_score_columns_report_the_first_error_as_one_process(spy):
    corpus, cases, runs = _course_times(2)
    last = list(runs)[-1]
    _break(runs, last, "B1")
    with pytest.raises(InvalidInputError) as single:
        scoring.score_columns(corpus, cases, runs, k=2, metrics=select(CONTRACT), jobs=1)
    with pytest.raises(InvalidInputError) as double:
        scoring.score_columns(corpus, cases, runs, k=2, metrics=select(CONTRACT), jobs=2)
    assert spy == [1] and str(double.value) == str(single.value)
