"""Ctrl-C stops a recording cleanly: exit 130, a message that says how to resume, a journal
of whole lines; the resume finishes the job without repeating a finished call."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import ragscore
from fake_system import FakeSystem
from ragscore.recording import record_endpoint
from ragscore.recording.journal import journal_path

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"


def test_ctrl_c_keeps_the_journal_and_says_how_to_resume(tmp_path):
    practice = ragscore.load_dataset(PRACTICE)
    out = tmp_path / "out"
    journal = journal_path(out, "live")
    slow = {case: ["slow"] for case in practice.cases}
    # 0.15 s a call, two at a time: the whole recording would take about 3.5 s, time enough
    # for the interrupt to land mid-way even on a busy machine
    with FakeSystem(practice, faults=slow, slow_s=0.15) as system:
        process = subprocess.Popen(
            [sys.executable, "-m", "ragscore", "record", str(PRACTICE), "--endpoint",
             system.url, "--system", "live", "--out", str(out), "--concurrency", "2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a shell's
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
                not journal.exists() or len(journal.read_text().splitlines()) < 4):
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130, err
        assert "--resume" in err and "interrupted" in err and "Traceback" not in err
        lines = journal.read_text().splitlines()
        finished = {json.loads(line)["case"] for line in lines[1:]}  # every line whole
        assert 3 <= len(finished) < 46 and not out.exists()
        asked = sum(system.calls.values())
        record_endpoint(PRACTICE, system.url, system="live", out=out, resume=True,
                        concurrency=4)
        assert sum(system.calls.values()) - asked == 46 - len(finished)
    recorded = ragscore.load_dataset(out)
    assert all(recorded.runs[case]["live"]["failed"] is False for case in practice.cases)
