"""Real browsers: Voila serves a chapter in present mode, and JupyterLab runs chapters the
way a learner does, both in Debian's Chromium driven by Playwright.

Each test prints how long each update took, from the input event to the changed table and
plot (goal: 100 ms). Without Chromium the tests are skipped with the install command, except
under CI=true, where a missing browser is a failure. On a failure a screenshot is saved and
its path printed.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = ROOT / "share" / "jupyter"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chromium():
    if not os.path.exists(CHROMIUM):
        message = ("Chromium is not installed: run `apt-get install -y chromium` "
                   "(Debian) to enable the browser test")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("playwright.sync_api")
    return CHROMIUM


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(command, cwd, log, env):
    env = dict(os.environ, **env)
    env.pop("MPLBACKEND", None)
    return subprocess.Popen(command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)


def _wait_until_up(url, server, deadline=90):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if server.poll() is not None:
            raise RuntimeError(f"server exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"no answer at {url} within {deadline} s")


@contextmanager
def _server(command, cwd, log_path, url, env=None):
    with open(log_path, "w") as log:
        server = _start(command, cwd, log, env or {})
        try:
            _wait_until_up(url, server)
            yield server
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=15)


@contextmanager
def _browser(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900})
        try:
            yield context
        finally:
            context.close()


@contextmanager
def _screenshot_on_failure(page, path):
    try:
        yield
    except BaseException:
        page.screenshot(path=str(path), full_page=True)
        print(f"\n[browser] screenshot of the failure: {path}")
        raise


# Records, on the page's own clock, when the last input event (a key press or typing)
# happened and when each watched thing last changed: the text of a table cell, the source of
# the plot image.
TIMING_JS = """
([cellSelector, imageSelector]) => {
  const state = {input: null, cell: null, image: null};
  window.__ragscore = state;
  const note = () => { state.input = performance.now(); };
  document.addEventListener('keydown', note, true);
  document.addEventListener('input', note, true);
  const read = () => {
    const cell = document.querySelector(cellSelector);
    const image = imageSelector ? document.querySelector(imageSelector) : null;
    return [cell ? cell.textContent : null, image ? image.src : null];
  };
  let [lastCell, lastImage] = read();
  new MutationObserver(() => {
    const [cell, image] = read();
    if (cell !== lastCell) { lastCell = cell; state.cell = performance.now(); }
    if (image !== lastImage) { lastImage = image; state.image = performance.now(); }
  }).observe(document.body, {subtree: true, childList: true, characterData: true,
                             attributes: true, attributeFilter: ['src']});
}
"""


def _elapsed_ms(page, what):
    timing = page.evaluate("() => window.__ragscore")
    return timing[what] - timing["input"]


OWNER_P = '.widget-html table.ragscore-questions tr[data-case="owner"] td[data-metric="precision"]'
EXPLORER_IMAGE = ".widget-image"
CHUNK_SUPPORT = ('.widget-html table.ragscore-chunk-scores tr[data-case="rollback"] '
                 'td[data-field="support"]')


#: Text that belongs to JupyterLab only: exercises, their scaffolding, navigation, code.
NOT_PRESENTED = ("Exercises", "Replace `None`", "Replace None", "Not answered yet",
                 "answer = None", "check(", "Finding your way", "Next:", "import ragscore")

#: Reads, in the page, the computed style of command output and tables.
STYLE_JS = """
() => {
  const visible = (el) => el.offsetParent !== null;
  const consoles = [...document.querySelectorAll('pre.ragscore-console')].filter(visible);
  const cells = [...document.querySelectorAll('table.ragscore-table td')].filter(visible);
  return {
    consoles: consoles.map((el) => {
      const s = getComputedStyle(el);
      return [parseFloat(s.fontSize), s.whiteSpace, s.overflowX];
    }),
    smallest_table_px: Math.min(...cells.map((el) => parseFloat(getComputedStyle(el).fontSize))),
  };
}
"""


def _presented_text(page):
    text = page.locator("body").inner_text()
    return [words for words in NOT_PRESENTED if words in text]


def _check_projector_style(page, chapter):
    style = page.evaluate(STYLE_JS)
    for size, white_space, overflow in style["consoles"]:
        assert size >= 16 and white_space == "pre" and overflow in ("auto", "scroll"), \
            (chapter, size, white_space, overflow)
    assert style["smallest_table_px"] >= 16, (chapter, style)
    return len(style["consoles"])


#: The chapters whose live page ``make test`` waits for: the two with a browser interaction.
#: ``make test-all`` waits for every chapter's (about half a minute more).
LIVE_IN_MAKE_TEST = ("02", "08")


def test_present_mode_every_chapter(chromium, tmp_path, capsys):
    """`make present` for every chapter: the stored page is on screen within seconds of the
    request (measured and printed; goal < 5 s after the server is up) and shows no exercise,
    scaffolding, navigation or code, with projector-sized command output and tables. For
    chapters 2 and 8 the live page then takes its place and passes the same checks; on
    chapter 2 a slider step updates the table and the projector-sized plot, on chapter 8 a
    review note typed without Enter is kept."""
    _present_mode(chromium, tmp_path, capsys, live=LIVE_IN_MAKE_TEST)


@pytest.mark.exhaustive
def test_present_mode_every_chapter_live(chromium, tmp_path, capsys):
    """As above, waiting for every chapter's live page (``make test-all``)."""
    _present_mode(chromium, tmp_path, capsys, live=None)


def _present_mode(chromium, tmp_path, capsys, *, live):
    from playwright.sync_api import expect

    started = time.monotonic()
    port = _free_port()
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--template=present"]
    timings = []
    with _server(command, NOTEBOOKS, tmp_path / "voila.log",
                 f"http://127.0.0.1:{port}/voila/static/voila.js",
                 env={"JUPYTER_PATH": str(TEMPLATES)}), _browser(chromium, tmp_path) as context:
        up = time.monotonic() - started
        for notebook in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
            chapter = notebook.name[:2]
            page = context.new_page()
            with _screenshot_on_failure(page, tmp_path / f"present-{chapter}-failure.png"):
                asked = time.monotonic()
                page.goto(f"http://127.0.0.1:{port}/voila/render/{notebook.name}",
                          wait_until="commit", timeout=90_000)
                title = page.locator("h1").filter(has_text=f"Chapter {int(chapter)} ")
                expect(title.first).to_be_visible(timeout=90_000)
                expect(page.locator(".jp-OutputArea-output").first).to_be_visible()
                first = time.monotonic() - asked
                # the status line follows the whole stored page in the streamed HTML
                expect(page.locator("#ragscore-status")).to_be_attached(timeout=90_000)
                assert page.locator("#ragscore-stored").count() == 1, "not the stored page"
                assert not _presented_text(page), (chapter, "stored", _presented_text(page))
                consoles = _check_projector_style(page, chapter)
                if live is not None and chapter not in live:
                    timings.append((chapter, first, None, consoles))
                    page.close()
                    continue
                expect(page.locator("#ragscore-stored")).to_have_count(0, timeout=120_000)
                expect(page.locator("#rendered_cells")).to_be_visible()
                live_after = time.monotonic() - asked
                expect(title.first).to_be_visible()
                assert "Recap" in page.locator("body").inner_text(), chapter
                assert not _presented_text(page), (chapter, "live", _presented_text(page))
                assert _check_projector_style(page, chapter) == consoles
                timings.append((chapter, first, live_after, consoles))
                if chapter == "02":
                    slider = _slide_in_present_mode(page)
                if chapter == "08":
                    _note_without_enter(page)
            page.close()
    with capsys.disabled():
        print(f"\n[browser] present mode (Voila, --template=present), server up after {up:.1f} s;"
              " per chapter, from the request: first screen (stored page) / live page")
        for chapter, first, live_time, consoles in timings:
            shown = ("live page not awaited" if live_time is None
                     else f"live {live_time:.1f} s")
            print(f"[browser]   chapter {chapter}: first screen {first:.2f} s (goal < 5 s), "
                  f"{shown}" + (f"; {consoles} command outputs at >= 16 px" if consoles else ""))
        print(f"[browser] present mode, chapter 2, k slider 2 -> 1: table {slider[0]:.0f} ms, "
              f"plot {slider[1]:.0f} ms after the key press (goal < 100 ms); plot "
              f"{slider[2]:.0f} px wide; whole test {time.monotonic() - started:.1f} s")
    assert len(timings) == len(list(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")))


def _note_without_enter(page):
    """Chapter 8's review editor: a decision, then a note typed without Enter or a click
    elsewhere, reaches the judgement the editor shows (it used to be lost)."""
    from playwright.sync_api import expect

    page.locator(".widget-toggle-button", has_text="unsupported").first.click()
    note = page.locator(".widget-text", has=page.locator("label", has_text="note")).locator(
        "input").first
    note.click()
    note.press_sequentially("typed without Enter")
    claims = page.locator('.widget-html tr[data-claim="17-day-before"]').first
    expect(claims).to_contain_text("typed without Enter", timeout=15_000)
    expect(claims).to_contain_text("unsupported")


def _slide_in_present_mode(page):
    """Chapter 2's live page: no stale snapshot beside the live k explorer, a 900 px plot, and
    a slider step that updates the table and the plot. Returns (table ms, plot ms, width)."""
    from playwright.sync_api import expect

    cell = page.locator(OWNER_P)
    expect(cell).to_have_text("0.50", timeout=30_000)       # owner A at k = 2
    expect(page.locator(".ragscore-snapshot").first).to_be_hidden()  # live, not stale
    image = page.locator(EXPLORER_IMAGE).first
    expect(image).to_be_visible()
    width = image.evaluate("img => img.getBoundingClientRect().width")
    assert width >= 800, width
    page.evaluate(TIMING_JS, [OWNER_P, EXPLORER_IMAGE])
    handle = page.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("ArrowLeft")                                # k: 2 -> 1
    expect(cell).to_have_text("0.00", timeout=15_000)        # archive ranked first
    expect(page.locator(".widget-html table.ragscore-questions").first).to_have_attribute(
        "data-k", "1")
    page.wait_for_function("() => window.__ragscore.image !== null", timeout=15_000)
    return _elapsed_ms(page, "cell"), _elapsed_ms(page, "image"), width


OPEN_JS = """
async (path) => {
  await window.jupyterapp.restored;
  const widget = await window.jupyterapp.commands.execute('docmanager:open', {path});
  await widget.context.ready;
  await widget.sessionContext.ready;
}
"""
READY_JS = """
(path) => {
  const widget = window.jupyterapp.shell.currentWidget;
  const kernel = widget && widget.sessionContext && widget.sessionContext.session
    && widget.sessionContext.session.kernel;
  return widget.context && widget.context.path === path && kernel
    && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}
"""


def _run_all(page, name):
    """Open ``name`` in Lab, wait for its kernel, then Run > Run All Cells."""
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
    page.evaluate(OPEN_JS, name)
    page.wait_for_function(READY_JS, arg=name, timeout=60_000)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


def test_jupyterlab_runs_a_chapter_and_its_widgets_follow(chromium, tmp_path, capsys):
    """The learner's own environment: run chapters 2, 3 and 10 in JupyterLab (on a scratch
    copy, since Lab saves, with the fixtures chapter 10 reads beside it), move the k slider,
    edit a citation, move the chunk size."""
    from playwright.sync_api import expect

    started = time.monotonic()
    scratch = tmp_path / "notebooks"
    scratch.mkdir()
    for name in ("02", "03", "10"):
        shutil.copy(next(NOTEBOOKS.glob(f"{name}_*.ipynb")), scratch)
    shutil.copytree(ROOT / "fixtures" / "spans", tmp_path / "fixtures" / "spans")
    port, token = _free_port(), "ragscore-browser-test"
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
               "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", "--allow-root",
               "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
               "--ServerApp.disable_check_xsrf=False"]
    dirs = {key: str(tmp_path / key.lower()) for key in
            ("JUPYTER_CONFIG_DIR", "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR",
             "JUPYTER_RUNTIME_DIR")}
    url = f"http://127.0.0.1:{port}/lab?token={token}"
    with _server(command, scratch, tmp_path / "lab.log", f"http://127.0.0.1:{port}/api",
                 env=dirs), _browser(chromium, tmp_path) as context:
        page = context.new_page()
        page.goto(url, timeout=90_000)
        with _screenshot_on_failure(page, tmp_path / "lab-failure.png"):
            _run_all(page, next(scratch.glob("02_*.ipynb")).name)
            cell = page.locator(OWNER_P)
            expect(cell).to_have_text("0.50", timeout=90_000)
            expect(page.locator(EXPLORER_IMAGE).first).to_be_visible()
            page.evaluate(TIMING_JS, [OWNER_P, EXPLORER_IMAGE])
            handle = page.locator(".widget-slider .noUi-handle").first
            handle.focus()
            handle.press("ArrowRight")                              # k: 2 -> 3
            expect(page.locator('.widget-html table.ragscore-questions tr[data-case="launch"] '
                                'td[data-metric="precision"]').first).to_have_text("0.33")
            expect(cell).to_have_text("0.33")
            page.wait_for_function("() => window.__ragscore.image !== null", timeout=15_000)
            slider = (_elapsed_ms(page, "cell"), _elapsed_ms(page, "image"))

            _run_all(page, next(scratch.glob("03_*.ipynb")).name)
            support = page.locator('.widget-html table.ragscore-scores td[data-metric="support"]').first
            expect(support).to_have_text("0.00", timeout=90_000)    # owner A as recorded
            page.evaluate(TIMING_JS, ['.widget-html table.ragscore-scores td[data-metric="support"]', None])
            page.locator(".widget-textarea textarea").first.fill("aurora: owners")
            expect(support).to_have_text("1.00", timeout=15_000)
            expect(page.locator('.widget-html table.ragscore-scores td[data-metric="coverage"]').first
                   ).to_have_text("1.00")
            expect(page.locator('.widget-html li[data-claim="aurora"]').first).to_have_attribute(
                "data-supported", "true")
            edit_ms = _elapsed_ms(page, "cell")

            _run_all(page, next(scratch.glob("10_*.ipynb")).name)
            rollback = page.locator(CHUNK_SUPPORT).first
            expect(rollback).to_have_text("0.00", timeout=90_000)   # 60 characters: both cut
            page.evaluate(TIMING_JS, [CHUNK_SUPPORT, None])
            handle = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-slider "
                                  ".noUi-handle").first             # chapter 10's, not 2's
            handle.focus()
            handle.press("ArrowRight")                              # chunk size: 60 -> 70
            expect(rollback).to_have_text("0.50", timeout=15_000)   # smoke whole again
            expect(page.locator('.widget-html table.ragscore-chunk-labels '
                                'tr[data-case="rollback"][data-claim="smoke"] '
                                'td[data-field="full"]').first).to_have_text("release-notes@70")
            chunk_ms = _elapsed_ms(page, "cell")
    with capsys.disabled():
        print(f"\n[browser] JupyterLab, k slider 2 -> 3: table {slider[0]:.0f} ms, plot "
              f"{slider[1]:.0f} ms; citation edit archive -> owners: support {edit_ms:.0f} ms; "
              f"chunk size 60 -> 70: labels and scores {chunk_ms:.0f} ms (goal < 100 ms); "
              f"whole test {time.monotonic() - started:.1f} s")
    assert min(*slider, edit_ms, chunk_ms) >= 0
