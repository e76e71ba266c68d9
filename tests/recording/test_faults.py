"""The recorder against a real local HTTP server that answers, fails and dies: every
finished call is kept, a resume repeats none of them, and the folder scores exactly as a
recording without faults."""
import json
from pathlib import Path

import pytest
from fake_system import FakeSystem

import ragscore
from ragscore.cli import capture
from ragscore.recording import RecordingStopped, record_endpoint
from ragscore.recording.journal import journal_path

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"
#: Quick retries for tests: waits of 10, 20, 40 ms.
QUICK = {"backoff": 0.01, "max_backoff": 0.05, "timeout": 2.0}


@pytest.fixture(scope="module")
def practice():
    return ragscore.load_dataset(PRACTICE)


def table(folder):
    dataset = ragscore.load_dataset(folder)
    return ragscore.score_runs(dataset.corpus, dataset.cases, dataset.runs, k=3,
                               ids=dataset.ids, metrics=("recall", "precision", "rr"))


@pytest.fixture(scope="module")
def clean(practice, tmp_path_factory):
    """A recording of the practice questions without any fault."""
    out = tmp_path_factory.mktemp("clean") / "clean"
    with FakeSystem(practice) as system:
        record_endpoint(PRACTICE, system.url, system="live", out=out, **QUICK)
    assert sum(system.calls.values()) == len(practice.cases)  # 46 questions, one call each
    return out


def test_a_clean_recording_is_a_normal_dataset_folder(clean, practice):
    recorded = ragscore.load_dataset(clean)
    assert set(recorded.systems) == set(practice.systems) | {"live"}
    run = recorded.runs["pto-carryover"]["live"] if "pto-carryover" in recorded.runs else \
        next(iter(recorded.runs.values()))["live"]
    assert run["failed"] is False and run["retries"] == 0 and run["latency_ms"] >= 0
    assert run["answer"].startswith("The answer to ") and len(run["retrieved"]) == 4
    assert run["delivered"] == run["retrieved"][:2] and run["cost"] == 0.001
    manifest = recorded.manifests["live"]
    assert manifest["fingerprint"]["questions_sha256"] == \
        ragscore.io.manifest.fingerprint(practice)["questions_sha256"]
    assert manifest["recorder"]["calls"] == 46 and manifest["recorder"]["failed"] == 0
    assert "?" not in manifest["recorder"]["endpoint"]
    assert not journal_path(clean, "live").exists()  # folded into the folder
    assert capture(["validate", str(clean)])[0] == 0
    code, out, _ = capture(["report", str(clean), "--k", "3"])
    assert code == 0 and "live" in out


def test_the_recorded_rankings_are_what_the_system_sent(clean, practice):
    from fake_system import ranking

    recorded = ragscore.load_dataset(clean)
    for case, labels in practice.cases.items():
        assert list(recorded.runs[case]["live"]["retrieved"]) == ranking(
            case, labels, list(practice.corpus))


def test_transient_faults_are_retried_counted_and_score_as_without_them(
        clean, practice, tmp_path):
    cases = list(practice.cases)
    faults = {cases[0]: ["500", "500"], cases[1]: ["429"], cases[2]: ["slow"],
              cases[3]: ["drop"], cases[4]: ["500", "429", "500"]}
    out = tmp_path / "faulty"
    # the timeout leaves a clean call 2 s: with 1 s, a clean call at load 5 timed out once
    # and was counted as a retry (a clean clone's .ci/run on 0fa61d7)
    with FakeSystem(practice, faults=faults, slow_s=3.0) as system:
        record_endpoint(PRACTICE, system.url, system="live", out=out,
                        **{**QUICK, "timeout": 2.0})
    recorded = ragscore.load_dataset(out)
    retries = {case: recorded.runs[case]["live"]["retries"] for case in cases[:6]}
    # one retry per fault before the answer; the slow call times out once; the dropped
    # connection on a fresh connection is a retry too (a kept-alive one is reopened free)
    assert retries[cases[0]] == 2 and retries[cases[1]] == 1 and retries[cases[2]] == 1
    assert retries[cases[4]] == 3 and retries[cases[5]] == 0
    assert retries[cases[3]] in (0, 1)
    assert recorded.manifests["live"]["recorder"]["failed"] == 0
    assert table(out).equals(table(clean))


def test_an_unreadable_response_becomes_a_failed_run_and_a_resume_retries_only_it(
        clean, practice, tmp_path):
    cases = list(practice.cases)
    out = tmp_path / "unreadable"
    with FakeSystem(practice, faults={cases[7]: ["bad-json"], cases[9]: ["no-retrieved"]}) \
            as system:
        code, stdout, err = capture(["record", str(PRACTICE), "--endpoint", system.url,
                                     "--system", "live", "--out", str(out),
                                     "--backoff", "0.01"])
        assert code == 1 and "2 calls failed" in err and "--resume" in err
        recorded = ragscore.load_dataset(out)  # written, with the two failed runs marked
        broken = recorded.runs[cases[7]]["live"]
        assert broken["failed"] is True and broken["retrieved"] == ()
        reasons = {f["case"]: f["reason"] for f in
                   recorded.manifests["live"]["recorder"]["failures"]}
        assert "not JSON" in reasons[cases[7]] and "no retrieved" in reasons[cases[9]]
        assert system.calls[cases[7]] == 1  # unreadable: not tried again
        assert journal_path(out, "live").exists()  # kept for the resume
        before = sum(system.calls.values())
        code, stdout, err = capture(["record", str(PRACTICE), "--endpoint", system.url,
                                     "--system", "live", "--out", str(out), "--resume"])
        assert code == 0, err
        assert sum(system.calls.values()) - before == 2  # only the two failed calls
    assert table(out).equals(table(clean))
    assert not journal_path(out, "live").exists()


def test_a_system_that_dies_mid_run_keeps_every_finished_call_and_resumes(
        clean, practice, tmp_path):
    out = tmp_path / "died"
    with FakeSystem(practice, die_after=20) as system:
        with pytest.raises(RecordingStopped, match="--resume"):
            record_endpoint(PRACTICE, system.url, system="live", out=out, stop_after=4,
                            **QUICK)
    assert not out.exists()  # nothing half-written
    lines = journal_path(out, "live").read_text().splitlines()
    finished = [json.loads(line) for line in lines[1:]]
    done = {entry["case"] for entry in finished if not entry["failed"]}
    assert len(done) == 20  # every answered call is in the journal
    with FakeSystem(practice) as revived:  # back, on another port
        record_endpoint(PRACTICE, revived.url, system="live", out=out, resume=True, **QUICK)
    assert not set(revived.calls) & done  # no finished question was asked again
    assert sum(revived.calls.values()) == 46 - 20
    assert table(out).equals(table(clean))


def test_a_torn_last_journal_line_is_dropped_and_its_call_made_again(
        clean, practice, tmp_path):
    out = tmp_path / "torn"
    with FakeSystem(practice, die_after=10) as system:
        with pytest.raises(RecordingStopped):
            record_endpoint(PRACTICE, system.url, system="live", out=out, stop_after=2,
                            **QUICK)
    path = journal_path(out, "live")
    lines = path.read_text().splitlines(keepends=True)
    kept = [json.loads(line) for line in lines[1:] if not json.loads(line)["failed"]]
    path.write_text(lines[0] + "".join(line for line in lines[1:]
                                       if not json.loads(line)["failed"])
                    + lines[1][: len(lines[1]) // 2])  # a kill in the middle of a line
    with FakeSystem(practice) as revived:
        record_endpoint(PRACTICE, revived.url, system="live", out=out, resume=True, **QUICK)
    assert sum(revived.calls.values()) == 46 - len(kept)
    assert table(out).equals(table(clean))


def test_trials_are_numbered_runs(practice, tmp_path):
    out = tmp_path / "trials"
    with FakeSystem(practice) as system:
        record_endpoint(PRACTICE, system.url, system="live", out=out, trials=2, **QUICK)
    recorded = ragscore.load_dataset(out)
    first = next(iter(practice.cases))
    assert [run["trial"] for run in recorded.runs[first]["live"]] == [1, 2]
    assert system.calls[first] == 2
