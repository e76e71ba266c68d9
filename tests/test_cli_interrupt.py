"""Ctrl-C during the command line's start-up (issue 40): exit 130, one line, never a
traceback.

A SIGINT sent at a moment of the wall clock lands wherever a busy machine happens to have
got the process to, so these tests name their moments by what the process is doing. Each
child is the console script's own two lines (``from ragscore.__main__ import run``,
``sys.exit(run())``), or ``python -m ragscore``, under an audit hook that watches the
imports: the SIGINT is sent by the kernel to the real process when the import of a chosen
module begins (every moment of start-up, read from the command's own list of imports), or,
for the moments of the clock, counted from when the command line began to load. Before the
command line runs, Python is starting (its own ``site``): that moment is the interpreter's,
not ragscore's, and is not tested.
"""
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "fixtures" / "course"
#: The command interrupted: a report, which loads the engine (numpy, pyarrow, DuckDB) too.
COMMAND = ["report", str(COURSE), "--format", "csv"]
#: Seconds a child may take (a busy machine included).
TIMEOUT = 120
#: The child: ``ACTION MODULE FD ENTRY ARGV...``; at the first import of MODULE (``*``: of
#: the package's first module) it sends itself SIGINT (``kill``) or writes one byte to the
#: pipe FD (``mark``); ``list`` writes the name of every module it imports there. ENTRY:
#: ``script`` (the console script's two lines) or ``-m`` (what ``python -m ragscore`` runs).
CHILD = r"""
import os, signal, sys
action, moment, fd, entry = sys.argv[1:5]
fd, done = int(fd), []
def hook(event, args):
    if event != "import":
        return
    if action == "list":
        os.write(fd, args[0].encode() + b"\n")
    elif not done and (args[0] == moment or moment == "*" and args[0].startswith(
            "ragscore.") and args[0] != "ragscore.__main__"):
        done.append(1)
        if action == "kill":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            os.write(fd, b"x")
sys.addaudithook(hook)
sys.argv = ["ragscore", *sys.argv[5:]]
if entry == "script":
    from ragscore.__main__ import run
    sys.exit(run())
import runpy
runpy.run_module("ragscore", run_name="__main__", alter_sys=True)
"""


def _ctrl_c_as_a_terminal_sends_it():
    """In the child: SIGINT's default action, as in a shell (a suite started under ``nohup``
    would have it ignored, and the child's Python would never raise KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(action, moment, entry):
    """``(child, read end of the pipe it writes to)``, the child started."""
    read, write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", CHILD, action, moment, str(write), entry, *COMMAND],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            pass_fds=(write,), preexec_fn=_ctrl_c_as_a_terminal_sends_it)
    finally:
        os.close(write)
    return process, read


def _imports():
    """The modules the command imports, in order (read from its audit hook)."""
    process, read = _start("list", "", "script")
    with os.fdopen(read, "rb") as pipe:
        names = pipe.read().decode().split()
    _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, err
    return names


def test_the_console_script_is_the_entry_point_these_children_copy():
    (script,) = [entry for entry in metadata.entry_points(group="console_scripts")
                 if entry.name == "ragscore"]
    assert script.value == "ragscore.__main__:run"


def test_importing_the_package_runs_none_of_its_modules():
    # what runs before run()'s handler: ragscore/__init__.py alone (its names load on use)
    code = "import sys, ragscore; print(sorted(m for m in sys.modules if m.startswith('ragscore')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    assert result.stdout.strip() == "['ragscore']"


def test_ctrl_c_at_every_moment_of_start_up_exits_130_with_one_line():
    names = _imports()
    later = names[names.index("ragscore") + 1:]  # from the package's first module on
    assert {"numpy", "pyarrow"} <= set(later), later  # the heavy libraries among them
    # twelve moments spread over the start-up, first and last included, and the heavy ones
    picked = sorted({later[round(step * (len(later) - 1) / 11)] for step in range(12)}
                    | {"numpy", "pyarrow", "pyarrow.parquet"} & set(later), key=later.index)

    def interrupted(pair):
        number, moment = pair
        process, read = _start("kill", moment, ("script", "-m")[number % 2])
        os.close(read)
        _, err = process.communicate(timeout=TIMEOUT)
        return moment, process.returncode, err

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(interrupted, enumerate(picked)))
    wrong = [(moment, code, err[-400:]) for moment, code, err in results
             if code != 130 or err != "ragscore: interrupted\n"]
    assert not wrong, wrong
    assert len(results) >= 12


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.5, 1.0])
def test_ctrl_c_at_any_moment_of_the_clock_exits_as_a_shell_reads_130(delay):
    # counted from the moment the package's first module begins to load (``import ragscore``
    # itself runs none); a busy machine decides where
    # that lands, so the property checked is the one every moment keeps: interrupted (exit
    # 130, one line), or, the command done, ended by the signal (a shell reads 130 too), or
    # finished before the signal came; never a traceback, never another code
    process, read = _start("mark", "*", ("script", "-m")[int(delay * 20) % 2])
    with os.fdopen(read, "rb") as pipe:
        assert pipe.read(1) == b"x"
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=TIMEOUT)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    finished = out.startswith("case,system,") and out.count("\n") == 9
    assert (process.returncode == 130 and err == "ragscore: interrupted\n") or (
        process.returncode == -signal.SIGINT and finished and err == "") or (
        process.returncode == 0 and finished and err == ""), (process.returncode, err)
