"""The recorder's promises as docs/record.md states them (issue 35): a deadline per call from
connect to last byte, a response that cannot be read is a failed run with its reason (never
retried, never an internal error), every option checked before the first call, one writer
per journal, a journal entry a recording could not have written refused, every retry
counted, and provenance that says whose revision it names and which recorder wrote it."""
import fcntl
import json
import os
import subprocess
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import metadata
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import capture
from ragscore.recording.journal import journal_path

COURSE = Path(__file__).resolve().parents[2] / "fixtures" / "course"
QUICK = ["--backoff", "0.01", "--max-backoff", "0.02"]


class Server:
    """A local endpoint answering the course's questions: ``bodies[case]`` (bytes) replaces
    the answer of that case; ``drip`` sends every response one byte per ``drip`` seconds."""

    def __init__(self, *, bodies=None, drip=None, fail_first=()):
        self.calls, self.bodies, self.drip = Counter(), bodies or {}, drip
        self.fail_first = set(fail_first)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                case = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["case"]
                server.calls[case] += 1
                status = 200
                if case in server.fail_first and server.calls[case] <= 2:
                    status, body = 500, b"busy"
                else:
                    body = server.bodies.get(case, json.dumps(
                        {"retrieved": ["launch"], "answer": f"About {case}."}).encode())
                head = (f"HTTP/1.1 {status} OK\r\nContent-Length: {len(body)}\r\n\r\n"
                        .encode())
                try:
                    if server.drip is None:
                        self.wfile.write(head + body)
                        return
                    for byte in head + body:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(server.drip)
                except OSError:
                    pass  # the recorder hung up at its deadline

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.http.handle_error = lambda request, address: None
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/ask"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.http.shutdown()
        self.http.server_close()


def _record(url, out, *more):
    return capture(["record", str(COURSE), "--endpoint", url, "--system", "live", "--out",
                    str(out), *QUICK, *more])


def _failures(out):
    recorder = ragscore.load_dataset(out).manifests["live"]["recorder"]
    return recorder, {failure["case"]: failure["reason"] for failure in recorder["failures"]}


def test_a_server_that_drips_its_answer_is_cut_at_the_deadline(tmp_path):
    # 1.5 s per call; the answer (about 100 bytes at one per 0.1 s) would take 10 s: each
    # read gets a byte in time, so only a deadline for the whole call can stop it
    with Server(drip=0.1) as server:
        started = time.monotonic()
        code, _, err = _record(server.url, tmp_path / "out", "--timeout", "1.5",
                               "--retries", "0", "--concurrency", "4")
        took = time.monotonic() - started
    assert code == 1, err
    recorder, reasons = _failures(tmp_path / "out")
    assert recorder["failed"] == 4 and set(reasons.values()) == {
        "no answer within 1.5 s (timeout)"}
    assert took < 6, took  # four calls at once, each cut at 1.5 s


@pytest.mark.parametrize("body, fragment", [
    (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
    (b'{"retrieved": ["launch"], "tokens": ' + b"7" * 5000 + b"}", "4300 digits"),
    (b'{"retrieved": ["launch"], "retrieved": ["archive"]}', "duplicate key"),
    (b'{"retrieved": ["launch"], "cost": NaN}', "NaN"),
])
def test_a_response_that_cannot_be_read_is_a_failed_run_never_retried(tmp_path, body,
                                                                      fragment):
    with Server(bodies={"owner": body}) as server:
        code, _, err = _record(server.url, tmp_path / "out", "--retries", "3")
    assert code == 1, err  # failed calls, not an internal error
    assert server.calls["owner"] == 1  # not tried again
    recorder, reasons = _failures(tmp_path / "out")
    assert recorder["failed"] == 1 and fragment in reasons["owner"], reasons
    assert recorder["retries"] == 0


def test_an_answer_holding_a_lone_surrogate_is_a_failed_run_and_a_resume_moves_on(tmp_path):
    out = tmp_path / "out"
    with Server(bodies={"owner": b'{"retrieved": ["launch"], "answer": "x \\ud800 y"}'}) \
            as server:
        code, _, err = _record(server.url, out)
        assert code == 1, err
        _, reasons = _failures(out)
        assert "lone surrogate" in reasons["owner"]
        server.bodies.clear()  # fixed: the resume makes only that call, and finishes
        code, _, err = _record(server.url, out, "--resume")
    assert code == 0, err
    assert server.calls == Counter({"launch": 1, "rollback": 1, "owner": 2, "region": 1})
    assert not [name for name in os.listdir(tmp_path) if "tmp" in name]


def test_a_python_pipeline_answering_a_lone_surrogate_records_a_failed_run(tmp_path):
    def pipeline(question):
        return {"retrieved": ["launch"], "answer": "bad \udc00" if "alert" in question
                else "fine"}

    recorded = ragscore.record(ragscore.load_course(), pipeline, system="live",
                               out=tmp_path / "out", retries=0)
    failures = recorded.manifests["live"]["recorder"]["failures"]
    assert [f["case"] for f in failures] == ["owner"] and "lone surrogate" in \
        failures[0]["reason"]
    assert ragscore.load_dataset(tmp_path / "out").runs["owner"]["live"]["failed"] is True
    assert not [name for name in os.listdir(tmp_path / "out") if "tmp" in name]


@pytest.mark.parametrize("argv, fragment", [
    (["--endpoint", "http://127.0.0.1:99999/ask"], "--endpoint must be"),
    (["--endpoint", "http://[::1/ask"], "--endpoint must be"),
    (["--rate", "1e-300"], "rate must be"),
    (["--rate", "nan"], "rate must be"),
    (["--backoff", "1e300"], "backoff must be"),
    (["--max-backoff", "inf"], "max_backoff must be"),
    (["--trials", "1000000000"], "trials must be"),
    (["--concurrency", "100000"], "concurrency must be"),
    (["--retries", "100000"], "retries must be"),
    (["--timeout", "inf"], "timeout must be"),
    (["--timeout", "0"], "timeout must be"),
    (["--stop-after", "-1"], "stop_after must be"),
    (["--body", "9" * 5000], "body template must be JSON"),  # was an internal error
    (["--header", "X-Key: a\nb"], "a value must be one line"),  # http.client refused it at
    (["--header", "X Key: b"], "a name must be"),               # every call: all failed
])
def test_every_option_is_checked_before_the_first_call(tmp_path, argv, fragment):
    with Server() as server:
        options = ["--endpoint", server.url] + argv if argv[0] != "--endpoint" else argv
        code, _, err = capture(["record", str(COURSE), "--system", "live", "--out",
                                str(tmp_path / "out"), *options])
    assert code == 2 and fragment in err and len(err.splitlines()) == 1, (code, err)
    assert sum(server.calls.values()) == 0 and not (tmp_path / "out").exists()


def test_a_journal_that_is_a_device_is_refused_before_any_call(tmp_path, device):
    zero = device("zero")
    if zero is None:
        pytest.skip("making a device node needs root")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with Server() as server:
        for journal in (zero, fifo):
            code, _, err = _record(server.url, tmp_path / "out", "--journal", str(journal),
                                   "--resume")
            assert code == 2 and "--journal" in err and "not a regular file" in err, err
    assert sum(server.calls.values()) == 0


def test_an_out_that_is_a_foreign_folder_is_refused_before_any_call(tmp_path):
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"\xff\xd8")
    with Server() as server:
        code, _, err = _record(server.url, foreign)
    assert code == 2 and "not a ragscore dataset" in err, err
    assert sum(server.calls.values()) == 0 and os.listdir(foreign) == ["cat.jpg"]


def test_a_journal_inside_the_output_folder_is_refused_before_any_call(tmp_path):
    (tmp_path / "out").mkdir()  # empty: a save may write there, a journal may not
    with Server() as server:
        for journal in (tmp_path / "out", tmp_path / "out" / "j.jsonl"):
            code, _, err = _record(server.url, tmp_path / "out", "--journal", str(journal))
            assert code == 2 and "--journal" in err, err
    assert sum(server.calls.values()) == 0 and list((tmp_path / "out").iterdir()) == []


def test_an_out_that_is_a_symbolic_link_is_refused_before_any_call(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with Server() as server:
        code, _, err = _record(server.url, tmp_path / "link")
    assert code == 2 and "is a symbolic link" in err, err
    assert sum(server.calls.values()) == 0 and list((tmp_path / "real").iterdir()) == []


def test_a_journal_has_one_writer_at_a_time(tmp_path):
    out = tmp_path / "out"
    with Server(bodies={"owner": b"not json"}) as server:
        assert _record(server.url, out)[0] == 1  # one call failed: the journal is kept
        journal = journal_path(out, "live")
        with open(journal, "rb") as held:  # another recording holds the journal
            fcntl.flock(held, fcntl.LOCK_EX)
            before = sum(server.calls.values())
            code, _, err = _record(server.url, out, "--resume")
            assert code == 2 and "another 'ragscore record' is writing" in err, err
            assert sum(server.calls.values()) == before  # no call made twice
        server.bodies.clear()
        assert _record(server.url, out, "--resume")[0] == 0  # once it is free


def test_a_hand_edited_finished_entry_without_a_ranking_is_refused(tmp_path):
    out = tmp_path / "out"
    with Server(bodies={"owner": b"not json"}) as server:
        assert _record(server.url, out)[0] == 1
        journal = journal_path(out, "live")
        lines = journal.read_text().splitlines()
        number = next(n for n, line in enumerate(lines, 1) if '"owner"' in line)
        lines[number - 1] = json.dumps({"case": "owner", "trial": 1, "retries": 0,
                                        "latency_ms": 3.0, "failed": False})
        journal.write_text("\n".join(lines) + "\n")
        code, _, err = _record(server.url, out, "--resume")
    assert code == 2 and f"line {number}" in err and "'retrieved'" in err, err


def test_the_retry_total_counts_the_retries_of_calls_made_again(tmp_path):
    out = tmp_path / "out"
    # owner fails twice (HTTP 500): with one retry allowed its call fails after 1 retry;
    # the resume's call answers at once. Retries made: 1 + 0.
    with Server(fail_first=["owner"]) as server:
        assert _record(server.url, out, "--retries", "1")[0] == 1
        code, _, err = _record(server.url, out, "--retries", "1", "--resume")
    assert code == 0, err
    recorder = ragscore.load_dataset(out).manifests["live"]["recorder"]
    assert recorder["retries"] == 1 and server.calls["owner"] == 3


def test_provenance_names_the_systems_revision_or_says_it_is_the_working_directorys(
        tmp_path, monkeypatch):
    checkout = tmp_path / "elsewhere"
    checkout.mkdir()
    git = ["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    here = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()
    monkeypatch.chdir(checkout)
    with Server() as server:
        assert _record(server.url, tmp_path / "a")[0] == 0
        assert _record(server.url, tmp_path / "b", "--code-revision", "v2.3.1")[0] == 0
    plain = ragscore.load_dataset(tmp_path / "a").manifests["live"]
    assert "code_revision" not in plain  # the directory's revision is not the system's
    assert plain["recorder"]["working_directory_revision"] == here
    given = ragscore.load_dataset(tmp_path / "b").manifests["live"]
    assert given["code_revision"] == "v2.3.1"
    assert "working_directory_revision" not in given["recorder"]


def test_the_recorder_names_its_real_version():
    recorded = ragscore.record(ragscore.load_course(), lambda question: {"retrieved":
                                                                         ["launch"]},
                               system="live")
    version = recorded.manifests["live"]["recorder"]["version"]
    assert version == metadata.version("ragscore-workbook") != "unknown"
    assert capture(["--version"])[:2] == (0, f"ragscore {version}\n")
