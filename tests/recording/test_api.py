"""``ragscore.record`` with a Python pipeline: exceptions retried then recorded as failed runs,
unknown IDs refused per call, trials, the rate limit, the manifest."""
import threading
import time

import pytest

import ragscore
from ragscore.recording.calls import RetryPolicy
from ragscore.recording.provenance import public_url

QUICK = {"backoff": 0.001, "max_backoff": 0.002}


@pytest.fixture(scope="module")
def course():
    return ragscore.load_course()


def test_a_pipeline_that_raises_is_retried_then_recorded_as_failed(course):
    calls = {}
    lock = threading.Lock()

    def flaky(question):
        with lock:
            calls[question] = calls.get(question, 0) + 1
            seen = calls[question]
        if "rollback" in question.lower() and seen == 1:
            raise ConnectionError("first try lost")
        if "owner" in question.lower() or "who" in question.lower():
            raise RuntimeError("the index is missing")
        return {"retrieved": ["launch", "rollback"], "answer": "An answer."}

    recorded = ragscore.record(course, flaky, system="C", retries=2, **QUICK)
    runs = {case: recorded.runs[case]["C"] for case in course.cases}
    failures = recorded.manifests["C"]["recorder"]["failures"]
    failed = {f["case"]: f["reason"] for f in failures}
    assert all(run["failed"] for case, run in runs.items() if case in failed)
    assert all(reason == "RuntimeError: the index is missing" for reason in failed.values())
    # a question that always raises: the first call and 2 retries, all counted
    assert all(runs[case]["retries"] == 2 for case in failed)
    assert recorded.manifests["C"]["recorder"]["failed"] == len(failed) >= 1
    assert any(run["retries"] == 1 and not run["failed"] for run in runs.values())


def test_an_id_outside_the_corpus_fails_that_call_only(course):
    def answer(question):
        return {"retrieved": ["launch", "nowhere-note"]}

    recorded = ragscore.record(course, answer, system="C", **QUICK)
    reasons = [f["reason"] for f in recorded.manifests["C"]["recorder"]["failures"]]
    assert len(reasons) == len(course.cases) and "nowhere-note" in reasons[0]


def test_a_repeated_id_or_a_wrong_type_fails_the_call_with_its_reason(course):
    recorded = ragscore.record(course, lambda q: {"retrieved": ["launch", "launch"]},
                               system="C", **QUICK)
    assert recorded.manifests["C"]["recorder"]["failed"] == len(course.cases)
    recorded = ragscore.record(course, lambda q: {"retrieved": ["launch"], "tokens": -1},
                               system="C", **QUICK)
    assert "tokens must be a whole number" in \
        recorded.manifests["C"]["recorder"]["failures"][0]["reason"]


def test_nothing_is_written_without_a_folder(course, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ragscore.record(course, lambda q: {"retrieved": ["launch"]}, system="C")
    assert list(tmp_path.iterdir()) == []


def test_trials_and_the_manifest(course, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not a git checkout: no code revision
    recorded = ragscore.record(course, lambda q: {"retrieved": ["launch"]}, system="C",
                               trials=3, settings={"top_k": 1}, manifest={"model": "m-1"},
                               out=tmp_path / "out")
    assert [run["trial"] for run in recorded.runs["launch"]["C"]] == [1, 2, 3]
    manifest = ragscore.load_dataset(tmp_path / "out").manifests["C"]
    assert manifest["model"] == "m-1" and manifest["settings"] == {"top_k": 1}
    assert "code_revision" not in manifest and manifest["recorder"]["calls"] == 12  # 4 x 3


def test_the_rate_limit_spaces_the_calls(course):
    started = time.monotonic()
    ragscore.record(course, lambda q: {"retrieved": ["launch"]}, system="C", trials=3,
                    rate=40, concurrency=4)
    # 12 calls at 40 a second: the last starts 11 intervals of 25 ms after the first
    assert time.monotonic() - started >= 11 * 0.025


def test_backoff_doubles_and_honours_retry_after_up_to_the_cap():
    policy = RetryPolicy(retries=3, backoff=0.5, max_backoff=3.0)
    assert [policy.delay(n, None) for n in range(4)] == [0.5, 1.0, 2.0, 3.0]
    assert policy.delay(0, 2.5) == 2.5 and policy.delay(0, 100.0) == 3.0


def test_the_endpoint_is_kept_without_secrets():
    assert public_url("http://u:p@host:81/a/b?token=x") == "http://host:81/a/b"


@pytest.mark.parametrize("options, message", [
    ({"system": "has space"}, "system must be a valid system name"),
    ({"system": "A"}, "already has runs"),
    ({"system": "C", "concurrency": 0}, "concurrency must be"),
    ({"system": "C", "retries": -1}, "retries must be"),
    ({"system": "C", "rate": 0}, "rate must be"),
    ({"system": "C", "paths": {"answr": "x"}}, "unknown field 'answr'"),
])
def test_bad_options_are_refused_before_any_call(course, options, message):
    called = []
    with pytest.raises(ValueError, match=message):
        ragscore.record(course, called.append, **options)
    assert called == []


def test_the_progress_bar_draws_on_a_terminal_only():
    import io

    from ragscore.render.progress import CallProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = CallProgress(2, stream=stream, label="recording C")
        bar.update({"failed": False, "retries": 1})
        bar.update({"failed": True, "retries": 0})
        bar.close()
    assert pipe.getvalue() == ""
    assert "\rragscore: recording C [########################] 100% 2/2 calls, 1 failed, " \
        "1 retries" in terminal.getvalue()
    assert terminal.getvalue().endswith("\n")  # the last line stays
