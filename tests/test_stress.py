"""Every command that reads a dataset folder, run many times two at a time as real
processes (issue 40): each exits as it should, and never aborts.

The abort this guards against: "terminate called without an active exception", exit 134,
in about one run in twenty of a report run beside another one. pyarrow read a folder's
Parquet runs from a Python buffer, and its thread pool dropped the last reference to it
after the command had ended; the thread asked for the GIL while the interpreter was
finalizing, and CPython ended it inside Arrow's C++ code (:mod:`ragscore.engine.native`).
The commands run two at a time because the abort needs a thread that is late, which a
second process on the same cores makes likely.

Each command has the exit code it must give every time (a gate that fails: 1; a refused
queue or journal: 2); a run that gives another, a traceback, or the C++ runtime's message
is a failure. ``make test`` runs each command twice, side by side; ``make test-all`` (the
exhaustive mark) runs each :data:`LONG` times, over 1,000 runs in all.
"""
import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.recording.journal import journal_path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
#: Runs of each command in the exhaustive test (17 commands: 1,020 runs).
LONG = 60
#: Seconds one run may take on a busy machine before it counts as hung.
TIMEOUT = 300
#: What a crash of the C++ runtime, or of Python, writes on its way out.
CRASH_SIGNS = ("terminate called", "Traceback", "Fatal Python error", "Segmentation fault",
               "internal error")


class Endpoint:
    """A local system for ``record``: every call answered (never reached by a refused
    resume, which fails before its first call)."""

    def __init__(self):
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                case = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["case"]
                body = (b"not json" if case == "owner" else
                        b'{"retrieved": ["launch"], "answer": "Monday [1]."}')
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/ask"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self):
        self.http.shutdown()
        self.http.server_close()


def _ok(argv):
    code, out, err = capture([str(part) for part in argv])
    assert code == 0, (argv, err)
    return out


@pytest.fixture(scope="module")
def commands(tmp_path_factory):
    """``[(name, argv, exit code it must give)]``, over version 5 folders (JSON Lines test
    sets, Parquet runs) made in a folder of their own; ``{out}`` in an argv stands for a new
    output path for each run."""
    root = tmp_path_factory.mktemp("stress")
    course, answers = root / "course", root / "answers"
    shutil.copytree(FIXTURES / "course", course)  # the fixture is a link: copied as files
    shutil.copytree(FIXTURES / "answers", answers)
    _ok(["upgrade", course])
    _ok(["upgrade", answers])
    trec = FIXTURES / "import" / "trec"
    _ok(["import", "trec", "--qrels", trec / "qrels.txt", "--run", trec / "bm25.run", "--run",
         trec / "dense.run", "--out", root / "trec"])
    spans = FIXTURES / "spans"
    _ok(["import", "spans", "--documents", spans / "documents.jsonl", "--questions",
         spans / "questions.jsonl", "--chunks", spans / "chunks-sentences.jsonl", "--runs",
         spans / "runs-sentences.jsonl", "--reviewer", "ana", "--date", "2026-01-02",
         "--out", root / "spans"])
    queue = root / "queue.jsonl"  # every row decided, the last with a decision no kind has
    _ok(["review", "export", answers, "--out", queue])
    rows = [json.loads(line) for line in queue.read_text().splitlines()]
    decisions = {"relevance": 1, "support": "supported", "answerability": "answerable"}
    for row in rows:
        row.update(decision=decisions[row["kind"]], reviewer="ana", date="2026-01-02")
    rows[-1]["decision"] = "perhaps"
    queue.write_text("".join(json.dumps(row) + "\n" for row in rows))
    endpoint = Endpoint()
    recorded = root / "recorded"  # owner's call failed: kept in the journal for a resume
    record = ["record", course, "--endpoint", endpoint.url, "--system", "live", "--out",
              recorded, "--retries", "0", "--backoff", "0.01"]
    code, _, err = capture([str(part) for part in record])
    assert code == 1 and "--resume" in err, err
    journal = journal_path(recorded, "live")
    lines = journal.read_text().splitlines()  # owner's failed entry edited into a finished one
    number = next(n for n, line in enumerate(lines) if '"owner"' in line)
    lines[number] = json.dumps({"case": "owner", "trial": 1, "retries": 0,
                                "latency_ms": 3.0, "failed": False})
    journal.write_text("\n".join(lines) + "\n")
    policy = FIXTURES / "policies" / "course.toml"
    pair = ["--baseline", "A", "--candidate", "B"]
    table = [
        ("report", ["report", course, "--format", "csv"], 0),
        ("report trec", ["report", root / "trec", "--k", "20", "--format", "csv"], 0),
        ("compare", ["compare", course, *pair], 0),
        ("audit", ["audit", course], 0),
        ("sweep", ["sweep", course, "--max-k", "3"], 0),
        ("validate", ["validate", course], 0),
        ("manifest", ["manifest", course], 0),
        ("review export", ["review", "export", answers, "--out", "{out}.jsonl"], 0),
        ("review import", ["review", "import", answers, queue], 2),
        ("claims", ["claims", answers], 0),
        ("labels", ["labels", root / "spans"], 0),
        ("gate", ["gate", course, "--policy", policy, *pair], 1),
        ("baseline save", ["baseline", "save", course, "--system", "A", "--out",
                           "{out}.json"], 0),
        ("html", ["html", course, *pair, "--out", "{out}.html"], 0),
        ("export", ["export", "trec", course, "--out-prefix", "{out}"], 0),
        ("eval", ["eval", trec / "qrels.txt", trec / "bm25.run", trec / "dense.run"], 0),
        ("record --resume", [*record, "--resume"], 2),
    ]
    yield [(name, [str(part) for part in argv], code) for name, argv, code in table], root
    endpoint.close()


def _run_all(commands, root, repeats):
    """Each command ``repeats`` times, two processes at a time (a command's runs follow
    one another, so its runs mostly meet each other); ``[(name, expected, code, err)]``."""
    outputs = root / "outputs"
    outputs.mkdir(exist_ok=True)
    numbers = itertools.count()

    def run(item):
        name, argv, expected = item
        out = outputs / f"run-{next(numbers)}"
        argv = [part.replace("{out}", str(out)) for part in argv]
        done = subprocess.run([sys.executable, "-m", "ragscore", *argv], cwd=root,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=TIMEOUT, env={**os.environ, "COLUMNS": "100"})
        for made in outputs.glob(f"{out.name}*"):
            made.unlink()
        return name, expected, done.returncode, done.stderr

    work = [item for item in commands for _ in range(repeats)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(run, work))


def _check(results, record_property):
    codes = Counter(code for _, _, code, _ in results)
    aborts = sum(code not in (0, 1, 2, 130) for _, _, code, _ in results)
    record_property("measured", f"stress: {len(results)} runs, two at a time: exit codes "
                                f"{dict(sorted(codes.items()))}; {aborts} aborts")
    wrong = [(name, code, err[-300:]) for name, expected, code, err in results
             if code != expected or any(sign in err for sign in CRASH_SIGNS)]
    assert not wrong, f"{len(wrong)} of {len(results)} runs went wrong: {wrong[:5]}"


def test_each_command_twice_side_by_side(commands, record_property):
    table, root = commands
    results = _run_all(table, root, 2)
    assert len(results) == 2 * len(table) == 34
    _check(results, record_property)


@pytest.mark.exhaustive
def test_over_a_thousand_runs_two_at_a_time_never_abort(commands, record_property):
    table, root = commands
    results = _run_all(table, root, LONG)
    assert len(results) == LONG * len(table) >= 1000
    _check(results, record_property)
