"""``ragscore record`` on the command line: settings from TOML and flags, one-line errors."""
from pathlib import Path

import pytest

import ragscore
from fake_system import FakeSystem
from ragscore.cli import capture

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"


@pytest.fixture(scope="module")
def practice():
    return ragscore.load_dataset(PRACTICE)


def test_two_commands_from_a_running_system_to_a_report(practice, tmp_path):
    out = tmp_path / "tests"
    ragscore.save_dataset(practice, out)
    with FakeSystem(practice) as system:
        code, stdout, err = capture(["record", str(out), "--endpoint", system.url,
                                     "--system", "live"])
    assert code == 0, err
    assert stdout.splitlines() == [f"recorded live: 46 calls, 0 failed, 0 retries; wrote {out}",
                                   f"next: ragscore report {out}"]
    code, report, _ = capture(["report", str(out), "--k", "3"])
    assert code == 0 and "live" in report


def test_settings_from_a_toml_file_and_custom_response_paths(practice, tmp_path):
    class Nested(FakeSystem):
        def _send(self, handler, status, data, headers=()):
            import json

            if status == 200:  # the same answer, in another shape
                answer = json.loads(data)
                data = json.dumps({"result": {"text": answer["answer"], "hits": [
                    {"doc": doc, "score": 7 + rank}
                    for rank, doc in enumerate(reversed(answer["retrieved"]))]},
                    "usage": {"total_tokens": 7}}).encode()
            super()._send(handler, status, data, headers)

    config = tmp_path / "record.toml"
    config.write_text('system = "nested"\nconcurrency = 2\nbody = \'{"case": "{case}", '
                      '"q": "{question}"}\'\n[response]\nanswer = "result.text"\n'
                      'retrieved = "result.hits[*].doc"\nscores = "result.hits[*].score"\n'
                      'tokens = "usage.total_tokens"\ndelivered = ""\n[settings]\ntop_k = 4\n'
                      '[manifest]\nmodel = "tiny-1"\n')
    out = tmp_path / "nested"
    with Nested(practice) as system:
        code, _, err = capture(["record", str(PRACTICE), "--config", str(config),
                                "--endpoint", system.url, "--out", str(out),
                                "--set", "reranker=none"])
    assert code == 0, err
    recorded = ragscore.load_dataset(out)
    first = next(iter(practice.cases))
    run = recorded.runs[first]["nested"]
    # the hits came reversed (last document first) with scores 7, 8, 9, 10: sorted by
    # score, highest first, they are the system's order again
    assert list(run["retrieved"]) == system.answers[first] and run["tokens"] == 7
    assert "delivered" not in run and "cost" not in run
    manifest = recorded.manifests["nested"]
    assert manifest["model"] == "tiny-1"
    assert manifest["settings"] == {"top_k": 4, "reranker": "none"}
    assert manifest["recorder"]["concurrency"] == 2


@pytest.mark.parametrize("argv, message", [
    (["--endpoint", "ftp://x", "--system", "s"], "--endpoint must be an http"),
    (["--endpoint", "http://127.0.0.1:9/", "--system", "baseline"], "already has runs"),
    (["--endpoint", "http://127.0.0.1:9/", "--system", "s", "--retrieved", "a..b"],
     "the retrieved path"),
    (["--endpoint", "http://127.0.0.1:9/", "--system", "s", "--body", "{no"],
     "body template must be JSON"),
    (["--endpoint", "http://127.0.0.1:9/", "--system", "s", "--header", "nocolon"],
     "--header must be NAME:VALUE"),
    (["--system", "s"], "--endpoint is required"),
    (["--endpoint", "http://127.0.0.1:9/", "--system", "s", "--trials", "0"],
     "trials must be a whole number"),
])
def test_bad_settings_are_one_line_errors(argv, message, tmp_path):
    code, _, err = capture(["record", str(PRACTICE), "--out", str(tmp_path / "o"), *argv])
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_an_unknown_toml_key_is_named(tmp_path):
    config = tmp_path / "record.toml"
    config.write_text('endpoint = "http://127.0.0.1:9/"\nsystem = "s"\nconcurency = 3\n')
    code, _, err = capture(["record", str(PRACTICE), "--config", str(config)])
    assert code == 2 and "unknown key 'concurency'" in err


def test_a_leftover_journal_needs_resume_or_deleting(practice, tmp_path):
    out = tmp_path / "o"
    (tmp_path / "o.s.journal.jsonl").write_text("{}\n")
    code, _, err = capture(["record", str(PRACTICE), "--endpoint", "http://127.0.0.1:9/",
                            "--system", "s", "--out", str(out)])
    assert code == 2 and "--resume" in err
    code, _, err = capture(["record", str(PRACTICE), "--endpoint", "http://127.0.0.1:9/",
                            "--system", "s", "--out", str(out), "--resume"])
    assert code == 2 and "not a ragscore record journal" in err


def test_a_system_that_is_not_running_leaves_no_journal(tmp_path):
    out = tmp_path / "o"
    with FakeSystem(ragscore.load_dataset(PRACTICE)) as system:
        url = system.url
    code, _, err = capture(["record", str(PRACTICE), "--endpoint", url, "--system", "s",
                            "--out", str(out), "--backoff", "0.001", "--stop-after", "2"])
    assert code == 1 and "is the system running at that address?" in err
    assert list(tmp_path.iterdir()) == []
