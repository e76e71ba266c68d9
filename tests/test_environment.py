"""No command or API call fails because of what the parent process left behind (issue 21,
item 7): SIGCHLD ignored (inherited from daemons and some CI runners: before issue 20 a
forked reader then failed with "No child processes" on inputs over ~8 MB), standard input
closed, or other threads running (and the call made from a thread that is not the main one).
"""
import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ragscore import load_course, score_runs
from ragscore.io.course import COURSE_PATH

ROOT = Path(__file__).resolve().parent.parent
POLICY = ROOT / "fixtures" / "policies" / "course.toml"
COURSE_RUNS = ROOT / "fixtures" / "course-runs"


@pytest.fixture(scope="module")
def big_trec(tmp_path_factory):
    """A 9 MB TREC run (over the size at which the old reader forked) and its qrels."""
    folder = tmp_path_factory.mktemp("big")
    rng = random.Random(21)
    lines = [f"q{q} Q0 doc-{rng.randrange(10**6):07d}-{d} {d + 1} {rng.random():.6f} sys\n"
             for q in range(400) for d in range(550)]
    (folder / "run").write_text("".join(lines))
    (folder / "qrels").write_text("".join(f"q{q} 0 doc-0000000-{q % 500} 1\n"
                                          for q in range(400)))
    assert (folder / "run").stat().st_size > 8_500_000
    return folder


def _hostile_parent():
    """In the child, before exec: SIGCHLD ignored and standard input closed."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    os.close(0)


def _commands(big, out):
    course, runs = str(COURSE_PATH), str(COURSE_RUNS)
    return [
        ["import", "trec", "--qrels", str(big / "qrels"), "--run", str(big / "run"), "--out",
         str(out)],
        ["report", str(out), "--format", "csv"],
        ["report", runs], ["compare", runs, "--baseline", "A", "--candidate", "B"],
        ["sweep", course, "--max-k", "3"], ["audit", course], ["validate", runs],
        ["gate", runs, "--policy", str(POLICY), "--candidate", "B", "--baseline", "A"],
        ["baseline", "save", runs, "--system", "A", "--out", str(out) + "-baseline.json"],
        ["manifest", runs], ["demo"],
    ]


# one interpreter runs every command (as ragscore.cli.capture), so the test costs one start
CHILD = """
import json, sys
from ragscore.cli import capture
found = []
for argv in json.loads(sys.argv[1]):
    code, out, err = capture(argv)
    found.append([code, bool(out), err])
import ragscore
course = ragscore.load_course()
scores = ragscore.score_runs(course.corpus, course.cases, course.runs, k=2)
found.append([0, scores is not None, ""])
print(json.dumps(found))
"""


def test_every_command_runs_with_sigchld_ignored_and_stdin_closed(big_trec, tmp_path):
    commands = _commands(big_trec, tmp_path / "imported")
    result = subprocess.run([sys.executable, "-c", CHILD, json.dumps(commands)],
                            capture_output=True, text=True, preexec_fn=_hostile_parent,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert len(found) == len(commands) + 1  # and score_runs, the API
    for argv, (code, wrote, err) in zip(commands + [["score_runs"]], found):
        expected = 1 if argv[0] == "gate" else 0  # the course gate fails B on launch
        assert (code, wrote) == (expected, True), (argv, err)
        assert "No child processes" not in err


def test_the_command_line_itself_starts_with_sigchld_ignored_and_stdin_closed(tmp_path):
    result = subprocess.run([sys.executable, "-m", "ragscore", "gate", str(COURSE_RUNS),
                             "--policy", str(POLICY), "--candidate", "B", "--baseline", "A"],
                            capture_output=True, text=True, preexec_fn=_hostile_parent,
                            timeout=300)
    assert result.returncode == 1 and result.stdout.splitlines()[-1].startswith(
        "verdict: FAIL"), result.stderr


def test_api_calls_from_a_worker_thread_while_others_run(big_trec):
    from ragscore.importers import import_trec

    stop = threading.Event()
    busy = [threading.Thread(target=lambda: stop.wait(30), daemon=True) for _ in range(4)]
    for thread in busy:
        thread.start()
    results, errors = {}, []

    def work():
        try:
            course = load_course()
            results["scores"] = score_runs(course.corpus, course.cases, course.runs, k=2)
            results["trec"] = import_trec(big_trec / "qrels", big_trec / "run")[0]
            from ragscore.cli import capture

            results["gate"] = capture(["gate", str(COURSE_RUNS), "--policy", str(POLICY),
                                       "--candidate", "B", "--baseline", "A"])[0]
        except Exception as error:  # noqa: BLE001 (reported below with its type)
            errors.append(error)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(300)
    stop.set()
    assert not errors, errors
    assert results["gate"] == 1 and len(results["trec"].cases) == 400
    assert results["scores"] is not None
