"""Present mode's live page: how long a chapter takes from the request to its last output.

    python benchmarks/bench_present.py --chapters 02 04 05 06 11 --when cold warm

Starts Voila for each chapter as `make present CHAPTER=NN` does (the Makefile's
PRESENT_OPTIONS and template), opens the page in headless Chromium at 1280x720 and times,
from the request: the first screen (the stored page), the end of the server's response
(performance's responseEnd: every cell has run) and the live page shown (the stored page
gone). ``cold`` requests the page as soon as the server answers; ``warm`` waits until the
chapter's address is printed (tools/present.py prints it when the preheated kernel has run
every cell; for a tree without it, until the server and its kernels have been idle for a
second). The server's log says whether the request took the preheated kernel. Each line
gives the 1-minute load average (``os.getloadavg``) when the live page came.

    python benchmarks/bench_present.py --chapters 02 --cells

runs each chapter with nbclient instead (no server, no browser) and prints the kernel's
start and each code cell's execution time (execute_input to execute_reply), the slowest
first: where the live page's time goes inside the kernel.
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def present_options(root=ROOT):
    """The options `make present` gives Voila (the Makefile's PRESENT_OPTIONS)."""
    makefile = (root / "Makefile").read_text()
    return re.search(r"^PRESENT_OPTIONS := (.*)$", makefile, re.M).group(1).split()


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _cpu_ticks(pid):
    """CPU ticks used so far by ``pid`` and its descendants (the server and its kernels,
    which jupyter_client starts in sessions of their own)."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    family, grew = {pid}, True
    while grew:
        more = {child for child, (parent, _) in stats.items() if parent in family}
        grew = not more <= family
        family |= more
    return sum(stats[member][1] for member in family if member in stats)


def _wait_idle(pid, *, quiet=1.0, deadline=120):
    """Wait until the process group ``pid`` used under 5% of a core for ``quiet`` seconds."""
    end = time.monotonic() + deadline
    last = _cpu_ticks(pid)
    while time.monotonic() < end:
        time.sleep(quiet)
        now = _cpu_ticks(pid)
        if now - last <= 0.05 * quiet * os.sysconf("SC_CLK_TCK"):
            return
        last = now


def one(context, chapter, when, log_dir, root=ROOT):
    """Time one request of ``chapter``'s page served from the tree ``root`` (its notebooks,
    template, Makefile options and ragscore package); returns seconds and the load."""
    notebook = next((root / "notebooks").glob(f"{chapter}_*.ipynb"))
    port = _free_port()
    launcher = root / "tools" / "present.py"   # `make present`'s; older trees ran voila itself
    command = [sys.executable, *([str(launcher)] if launcher.exists() else ["-m", "voila"]),
               notebook.name, "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--template=present",
               *present_options(root)]
    env = dict(os.environ, JUPYTER_PATH=str(root / "share" / "jupyter"), PYTHONPATH=str(root))
    env.pop("MPLBACKEND", None)
    log_path = Path(log_dir) / f"voila-{chapter}-{when}-{abs(hash(root))}.log"
    begun = time.monotonic()
    with open(log_path, "w") as log:
        server = subprocess.Popen(command, cwd=notebook.parent, stdout=log, stderr=subprocess.STDOUT,
                                  env=env, start_new_session=True)
        try:
            while True:
                try:
                    with urllib.request.urlopen(
                            f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() - begun > 90:
                        raise RuntimeError(f"server did not start: see {log_path}")
                    time.sleep(0.1)
            timing = {"up": time.monotonic() - begun}
            if when == "warm" and launcher.exists():   # the address is given when live
                while "The chapter is live" not in log_path.read_text():
                    if server.poll() is not None or time.monotonic() - begun > 120:
                        raise RuntimeError(f"the chapter never became live: see {log_path}")
                    time.sleep(0.05)
                timing["waited"] = time.monotonic() - begun
            elif when == "warm":
                _wait_idle(server.pid)
                timing["waited"] = time.monotonic() - begun
            page = context.new_page()
            asked = time.monotonic()
            page.goto(f"http://127.0.0.1:{port}/", wait_until="commit", timeout=90_000)
            page.locator(".jp-OutputArea-output").first.wait_for(timeout=90_000)
            timing["first"] = time.monotonic() - asked
            page.wait_for_function(
                "() => !document.getElementById('ragscore-stored')"
                " && document.getElementById('rendered_cells')"
                " && document.getElementById('rendered_cells').style.display !== 'none'",
                timeout=120_000, polling=50)
            timing["live"] = time.monotonic() - asked
            timing["load"] = os.getloadavg()[0]
            navigation = page.evaluate(
                "() => performance.getEntriesByType('navigation')[0].toJSON()")
            timing["response"] = (navigation["responseEnd"] - navigation["requestStart"]) / 1000
            timing["html_start"] = (navigation["responseStart"]
                                    - navigation["requestStart"]) / 1000
            page.close()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
    timing["preheated"] = "Using pre-heated kernel" in log_path.read_text()
    return timing


def browse(chapters, whens, repeat, roots):
    from playwright.sync_api import sync_playwright

    for root in roots:
        print(f"{root}: Voila {' '.join(present_options(root))}")
    print("seconds from the request: first screen / HTML response complete (all cells run) / "
          "live page shown; load = 1-min average")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(Path(folder) / "profile"), executable_path="/usr/bin/chromium",
            headless=True, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 720})
        try:
            for chapter in chapters:
                for when in whens:
                    for _, root in ((_, root) for _ in range(repeat) for root in roots):
                        t = one(context, chapter, when, folder, root)
                        waited = f", waited {t['waited']:.1f} s" if "waited" in t else ""
                        tree = f" [{root.name}]" if len(roots) > 1 else ""
                        print(f"chapter {chapter} {when:4}{tree}: server up {t['up']:.1f} s{waited}; "
                              f"first {t['first']:.2f} s, response {t['response']:.2f} s, "
                              f"live {t['live']:.2f} s (load {t['load']:.1f}); preheated "
                              f"kernel {'used' if t['preheated'] else 'NOT used'}",
                              flush=True)
        finally:
            context.close()


def cells(chapters):
    """Each chapter run by nbclient: kernel start and each code cell's execution time."""
    import nbformat
    from nbclient import NotebookClient

    for chapter in chapters:
        path = next(NOTEBOOKS.glob(f"{chapter}_*.ipynb"))
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(notebook, kernel_name="python3", record_timing=True,
                                resources={"metadata": {"path": str(NOTEBOOKS)}})
        begun = time.monotonic()
        with client.setup_kernel():
            started = time.monotonic() - begun
            for index, cell in enumerate(notebook.cells):
                client.execute_cell(cell, index)
        total = time.monotonic() - begun
        spans = []
        for index, cell in enumerate(notebook.cells):
            stamps = cell.metadata.get("execution", {})
            if "iopub.execute_input" in stamps and "shell.execute_reply" in stamps:
                from datetime import datetime
                seconds = (datetime.fromisoformat(stamps["shell.execute_reply"].rstrip("Z"))
                           - datetime.fromisoformat(stamps["iopub.execute_input"].rstrip("Z"))
                           ).total_seconds()
                first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
                spans.append((seconds, index, first))
        ran = sum(seconds for seconds, _, _ in spans)
        print(f"chapter {chapter}: kernel started in {started:.2f} s; {len(spans)} code cells "
              f"ran in {ran:.2f} s; {total:.2f} s in all (load {os.getloadavg()[0]:.1f})")
        for seconds, index, first in sorted(spans, reverse=True)[:8]:
            print(f"   {seconds:6.3f} s  cell {index:3}: {first}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", nargs="+", default=["02", "04", "05", "06", "11"])
    parser.add_argument("--when", nargs="+", choices=("cold", "warm"), default=["cold", "warm"])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--trees", nargs="+", type=Path, default=[ROOT],
                        help="source trees to compare, alternately under the same load (a "
                             "copy of an older commit: git archive COMMIT | tar -x -C DIR)")
    parser.add_argument("--cells", action="store_true",
                        help="time the kernel and each cell with nbclient instead")
    args = parser.parse_args()
    if "05" in args.chapters:   # chapter 5 reads its test runs back once kept, as in the test
        sys.path.insert(0, str(ROOT))
        from ragscore.workbook.selfcheck import MUTATIONS, contract_checks
        contract_checks([None, *MUTATIONS], reuse=True)
    if args.cells:
        cells(args.chapters)
    else:
        browse(args.chapters, args.when, args.repeat, [tree.resolve() for tree in args.trees])


if __name__ == "__main__":
    main()
