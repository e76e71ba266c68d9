"""Real browsers: Voila serves a chapter in present mode, and JupyterLab runs chapters the
way a learner does, both in Debian's Chromium driven by Playwright.

Each test measures how long each update took, from the input event to the changed table and
plot (goal: 100 ms), and the present-mode test how long each chapter's pages took; the
figures are recorded as the test's ``measured`` property, which ``tests/conftest.py`` prints
at the end of the run (pytest-xdist's workers keep a test's own output to themselves). Without Chromium the tests are skipped with the install command, except
under CI=true, where a missing browser is a failure. On a failure a screenshot is saved and
its path printed.
"""
import math
import os
import re
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
def _browser(chromium, tmp_path, *, height=900):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1280, "height": height})
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
                 "answer = None", "check(", "Finding your way", "Next:", "import ragscore",
                 "In the cell below", "attempt(", "reuse=True", "contract_checks")

#: The smallest text a room can read at 1280x720, in CSS pixels: prose, tables, widgets and
#: command output alike.
ROOM_PX = 18

#: Reads, in the page, the computed size of every kind of visible text, the style of command
#: output, and any output wider than its box.
STYLE_JS = """
() => {
  const visible = (el) => el.offsetParent !== null && el.getClientRects().length > 0
    && (el.textContent || '').trim() !== '';
  const sizes = (selector) => [...document.querySelectorAll(selector)].filter(visible)
    .map((el) => parseFloat(getComputedStyle(el).fontSize));
  const smallest = (selector) => Math.min(Infinity, ...sizes(selector));
  const consoles = [...document.querySelectorAll('pre.ragscore-console')].filter(visible);
  const outputs = [...document.querySelectorAll('.jp-OutputArea-output, pre.ragscore-console')]
    .filter(visible);
  return {
    consoles: consoles.map((el) => {
      const s = getComputedStyle(el);
      return [parseFloat(s.fontSize), s.whiteSpace];
    }),
    prose: smallest('.jp-RenderedMarkdown p, .jp-RenderedMarkdown li'),
    tables: smallest('table.ragscore-table td, table.ragscore-table th'),
    widgets: smallest('.widget-label, .widget-readout, .jupyter-button, .widget-dropdown select, '
                      + '.widget-html-content p, .widget-html-content li'),
    too_wide: outputs.filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => (el.textContent || '').trim().slice(0, 60)),
    off_page: [...document.querySelectorAll('.jupyter-widgets')].filter(visible)
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((el) => (el.textContent || '').trim().slice(0, 60)),
  };
}
"""


def _presented_text(page):
    text = page.locator("body").inner_text()
    return [words for words in NOT_PRESENTED if words in text]


#: Text that only a drawn widget has (every chapter's live page has its quick check's
#: buttons at least); the stored page, drawn before the kernel runs, has none.
WIDGET_TEXT = ".widget-label, .widget-toggle-button, .jupyter-button"


def _check_room_style(page, chapter, *, live, wait_ms=30_000):
    """Room-sized text everywhere, command output wrapped to its box, nothing wider than its
    box; returns the number of command outputs. On the live page the widgets are waited for
    and measured: none drawn is a failure, not a pass (the smallest size of nothing is
    Infinity, which would pass any "at least" check)."""
    from playwright.sync_api import expect

    kinds = ("prose", "tables")
    if live:
        expect(page.locator(WIDGET_TEXT).locator("visible=true").first).to_be_visible(
            timeout=wait_ms)
        kinds += ("widgets",)
    style = page.evaluate(STYLE_JS)
    settle = time.monotonic() + 5
    while live and style["off_page"] and time.monotonic() < settle:
        page.wait_for_timeout(250)  # widgets lay themselves out again after a zoom
        style = page.evaluate(STYLE_JS)
    for size, white_space in style["consoles"]:
        assert size >= ROOM_PX and white_space == "pre-wrap", (chapter, size, white_space)
    for kind in kinds:
        assert math.isfinite(style[kind]), (chapter, kind, "no visible text to measure")
        assert style[kind] >= ROOM_PX, (chapter, kind, style[kind])
    assert not style["too_wide"], (chapter, style["too_wide"])
    if live:  # a widget row that runs past the page's right edge (a zoomed projector)
        assert not style["off_page"], (chapter, "off the page", style["off_page"])
    return len(style["consoles"])


ROOM_PAGE = """<div class="jp-RenderedMarkdown"><p style="font-size: 18px">A step.</p></div>
<table class="ragscore-table"><tr><td style="font-size: 18px">0.50</td></tr></table>
%s"""


ROOM_WIDGETS = {
    "room-sized": '<div class="widget-label" style="font-size: 18px">k</div>',
    "small": '<div class="widget-label" style="font-size: 13px">k</div>',
    "hidden": '<div class="widget-label" style="display: none">k</div>',
    "off the page": '<div class="jupyter-widgets widget-label" style="font-size: 18px; '
                    'margin-left: 4000px; width: 200px">trial</div>',
    "absent": ""}


def test_room_style_check_fails_on_small_or_absent_widgets(chromium, tmp_path):
    """The present-mode test's style check on pages made for it: 18 px widgets pass; 13 px
    widgets fail, a widget past the page's right edge fails, and so does a live page whose
    widgets are hidden or were never drawn (the
    check once measured nothing there, found Infinity and passed). The stored page, drawn
    before any widget exists, is checked without them."""
    with _browser(chromium, tmp_path, height=720) as context:
        page = context.new_page()
        for case, widgets in ROOM_WIDGETS.items():
            page.set_content(ROOM_PAGE % widgets)
            assert _check_room_style(page, case, live=False) == 0
            if case == "room-sized":
                assert _check_room_style(page, case, live=True, wait_ms=500) == 0
                continue
            with pytest.raises(AssertionError):
                _check_room_style(page, case, live=True, wait_ms=500)


#: The zooms docs/instructor.md advises for a large room: at 1280x720, 125% and 150% leave
#: a page of 1024x576 and 853x480 CSS pixels.
ZOOMS = (1.25, 1.5)


@contextmanager
def _zoomed(page, zoom):
    """Lay ``page`` out as Chromium does at ``zoom`` on a 1280x720 screen: a viewport of
    1280/zoom by 720/zoom CSS pixels, drawn at ``zoom`` device pixels per CSS pixel."""
    size = [int(1280 / zoom), int(720 / zoom)]
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": zoom, "mobile": False})
    try:
        page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=size)
        yield
    finally:
        session.send("Emulation.clearDeviceMetricsOverride")
        session.detach()


def present_options():
    """The options ``make present`` gives Voila (the Makefile's PRESENT_OPTIONS)."""
    makefile = (ROOT / "Makefile").read_text()
    return re.search(r"^PRESENT_OPTIONS := (.*)$", makefile, re.M).group(1).split()


def test_present_mode_every_chapter(chromium, tmp_path, record_property):
    """`make present CHAPTER=NN` for every chapter, started as an instructor starts it (one
    server per chapter, the Makefile's options) under whatever load the rest of the suite
    puts on the machine. From the request, made as soon as the server answers, the first
    screen (the stored page) and the live page are measured and printed with the load (goal:
    the live page within 5 s). Both show no exercise, scaffolding, navigation or code; prose,
    tables, widgets and command output are at least 18 px, and no output is wider than its
    box, at 1280x720 and on the live page zoomed to 125% and 150%. On chapter 2 a slider
    step updates the table and the projector-sized plot; on chapter 8 a review note typed
    without Enter is kept."""
    from ragscore.workbook.selfcheck import MUTATIONS, contract_checks

    started = time.monotonic()
    # Chapter 5 reads its four test runs back once they have run on this code (reuse=True):
    # as after `make test`, or a first `make present CHAPTER=05`. Here they run now, unless
    # the notebook test of chapter 5 kept them already; they would run there otherwise.
    contract_checks([None, *MUTATIONS], reuse=True)
    kept = time.monotonic() - started
    timings = []
    with _browser(chromium, tmp_path, height=720) as context:
        for notebook in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
            timings.append(_present_one(context, notebook, tmp_path))
    slider = next(timing["slider"] for timing in timings if "slider" in timing)
    lines = [f"[browser] present mode, per chapter as `make present` starts it (Voila "
             f"{' '.join(present_options())}): server up after the command; from the "
             "request: first screen (stored page) / live page (goal < 5 s); load average "
             f"(1 min) when the live page came; chapter 5's test runs kept first ({kept:.1f} s)"]
    lines += [f"[browser]   chapter {timing['chapter']}: server {timing['up']:.1f} s, "
              f"first screen {timing['first']:.2f} s, live {timing['live']:.1f} s "
              f"(load {timing['load']:.1f}); {timing['consoles']} command outputs, "
              f"text >= {ROOM_PX} px" for timing in timings]
    lines.append(f"[browser] present mode, chapter 2, k slider 2 -> 1: table {slider[0]:.0f} "
                 f"ms, plot {slider[1]:.0f} ms after the key press (goal < 100 ms); plot "
                 f"{slider[2]:.0f} px wide; whole test {time.monotonic() - started:.1f} s")
    record_property("measured", "\n".join(lines))   # printed at the end of the run
    assert len(timings) == len(list(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")))


def _present_one(context, notebook, tmp_path):
    from playwright.sync_api import expect

    chapter = notebook.name[:2]
    port = _free_port()
    command = [sys.executable, "-m", "voila", notebook.name, "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--template=present",
               *present_options()]
    begun = time.monotonic()
    with _server(command, NOTEBOOKS, tmp_path / f"voila-{chapter}.log",
                 f"http://127.0.0.1:{port}/voila/static/voila.js",
                 env={"JUPYTER_PATH": str(TEMPLATES)}):
        timing = {"chapter": chapter, "up": time.monotonic() - begun}
        page = context.new_page()
        with _screenshot_on_failure(page, tmp_path / f"present-{chapter}-failure.png"):
            asked = time.monotonic()
            page.goto(f"http://127.0.0.1:{port}/", wait_until="commit", timeout=90_000)
            title = page.locator("h1").filter(has_text=f"Chapter {int(chapter)} ")
            expect(title.first).to_be_visible(timeout=90_000)
            expect(page.locator(".jp-OutputArea-output").first).to_be_visible()
            timing["first"] = time.monotonic() - asked
            if page.locator("#ragscore-stored").count():   # the stored page, if still there
                expect(page.locator("#ragscore-stored-end")).to_be_attached(timeout=90_000)
                assert not _presented_text(page), (chapter, "stored", _presented_text(page))
                timing["consoles"] = _check_room_style(page, chapter, live=False)
            expect(page.locator("#ragscore-stored")).to_have_count(0, timeout=120_000)
            expect(page.locator("#rendered_cells")).to_be_visible()
            timing["live"] = time.monotonic() - asked
            timing["load"] = os.getloadavg()[0]
            expect(title.first).to_be_visible()
            assert "Recap" in page.locator("body").inner_text(), chapter
            assert not _presented_text(page), (chapter, "live", _presented_text(page))
            consoles = _check_room_style(page, chapter, live=True)
            assert timing.setdefault("consoles", consoles) == consoles
            for zoom in ZOOMS:
                with _zoomed(page, zoom):
                    assert _check_room_style(page, f"{chapter} at {zoom:.0%}", live=True) == consoles
            if chapter == "02":
                timing["slider"] = _slide_in_present_mode(page)
            if chapter == "08":
                _note_without_enter(page)
        page.close()
    return timing


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


def _open_a_term(page):
    """Chapter 2's link to RR@k opens the glossary in Lab's Markdown viewer with that entry's
    heading at the top of the view."""
    from playwright.sync_api import expect

    page.locator(".jp-RenderedMarkdown a", has_text="RR@k").first.click()
    heading = page.locator(".jp-MarkdownViewer h3", has_text="reciprocal rank, RR@k").first
    expect(heading).to_be_visible(timeout=30_000)
    page.wait_for_function(
        """() => { const h = [...document.querySelectorAll('.jp-MarkdownViewer h3')]
             .find((e) => e.textContent.startsWith('reciprocal rank, RR@k'));
           const box = h && h.getBoundingClientRect();
           return box && box.top >= 0 && box.top < 200; }""", timeout=15_000)


def test_jupyterlab_runs_a_chapter_and_its_widgets_follow(chromium, tmp_path,
                                                         record_property):
    """The learner's own environment: run chapters 2, 3 and 10 in JupyterLab (on a scratch
    copy of the repository's layout, since Lab saves, with the fixtures chapter 10 reads),
    move the k slider, edit a citation, move the chunk size, and follow a term's link: the
    glossary opens at that term's entry, not at its top."""
    from playwright.sync_api import expect

    started = time.monotonic()
    root = tmp_path / "root"
    scratch = root / "notebooks"
    scratch.mkdir(parents=True)
    for name in ("02", "03", "10"):
        shutil.copy(next(NOTEBOOKS.glob(f"{name}_*.ipynb")), scratch)
    (root / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "glossary.md", root / "docs")
    shutil.copytree(ROOT / "fixtures" / "spans", root / "fixtures" / "spans")
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
    with _server(command, root, tmp_path / "lab.log", f"http://127.0.0.1:{port}/api",
                 env=dirs), _browser(chromium, tmp_path) as context:
        page = context.new_page()
        page.goto(url, timeout=90_000)
        with _screenshot_on_failure(page, tmp_path / "lab-failure.png"):
            _run_all(page, f"notebooks/{next(scratch.glob('02_*.ipynb')).name}")
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

            _open_a_term(page)
            _run_all(page, f"notebooks/{next(scratch.glob('03_*.ipynb')).name}")
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

            _run_all(page, f"notebooks/{next(scratch.glob('10_*.ipynb')).name}")
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
    record_property("measured", f"[browser] JupyterLab, k slider 2 -> 3: table "
                                f"{slider[0]:.0f} ms, plot {slider[1]:.0f} ms; citation edit "
                                f"archive -> owners: support {edit_ms:.0f} ms; chunk size 60 "
                                f"-> 70: labels and scores {chunk_ms:.0f} ms (goal < 100 ms); "
                                f"whole test {time.monotonic() - started:.1f} s")
    assert min(*slider, edit_ms, chunk_ms) >= 0
