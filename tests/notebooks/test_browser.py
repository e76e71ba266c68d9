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


def test_a_font_draws_the_full_width_brackets(chromium):
    """Chapter 9's marker 【1】 (U+3010, U+3011) needs a font that has those characters, or
    the browser draws two boxes: .ci/run installs one (fonts-wqy-microhei) where the browser
    tests run. Without it the test is skipped with the install command (failed under CI)."""
    fonts = subprocess.run(["fc-list", ":charset=3010 3011"], capture_output=True,
                           text=True, check=False).stdout if shutil.which("fc-list") else ""
    if not fonts.strip():
        message = ("no font has U+3010 and U+3011: run `apt-get install -y "
                   "fonts-wqy-microhei` (Debian) so that 【1】 is drawn, not two boxes")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


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


#: Text that belongs to JupyterLab only: exercises, their scaffolding, navigation, code, and
#: the folded Going further part past a chapter's core path.
NOT_PRESENTED = ("Exercises", "Replace `None`", "Replace None", "Not answered yet",
                 "answer = None", "check(", "Finding your way", "Next:", "import ragscore",
                 "In the cell below", "attempt(", "reuse=True", "contract_checks",
                 "Not needed for ", "Where next")

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
      .map((el) => `${el.scrollWidth} > ${el.clientWidth} px: `
        + ([...el.querySelectorAll('th')].map((th) => th.textContent).join(' | ')
           || (el.textContent || '').trim()).slice(0, 80)),
    scrolled: [...document.querySelectorAll('table')].filter(visible)
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.scrollWidth} > ${el.clientWidth} px: `
        + (el.querySelector('caption, tr') || el).textContent.trim().slice(0, 80)),
    off_page: [...document.querySelectorAll('.jupyter-widgets, table')].filter(visible)
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .map((el) => (el.textContent || '').trim().slice(0, 60)),
  };
}
"""


#: Reads, in the page, how every line of command output is shown: for each of the command's
#: own lines (CommandOutput's span.rs-line), its shown lines (the characters grouped by where
#: they sit), and each place where a shown line ends although the next word would have fit
#: in the room left on it: a line wrapped twice (once at 80 columns, again by the box) leaves
#: such a place, a line wrapped once to its box never does.
WRAP_JS = """
() => {
  const shownLines = [], early = [];
  const lines = [...document.querySelectorAll('pre.ragscore-console .rs-line')]
    .filter((el) => el.getClientRects().length > 0);
  for (const line of lines) {
    const chars = [];
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.getClientRects().length === 0) { continue; }   // hidden
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = [...range.getClientRects()].pop();
        chars.push({c: node.data[i], top: rect ? rect.top : null,
                    left: rect ? rect.left : null, right: rect ? rect.right : null});
      }
    }
    const rows = [];
    for (const ch of chars) {
      const row = rows[rows.length - 1];
      if (ch.top === null || (row && Math.abs(ch.top - row.top) < 2)
          || (row && ch.c === ' ' )) { if (row) { row.chars.push(ch); } continue; }
      rows.push({top: ch.top, chars: [ch]});
    }
    const style = getComputedStyle(line);
    const room = line.getBoundingClientRect().right - parseFloat(style.paddingRight);
    shownLines.push(rows.map((row) => row.chars.map((ch) => ch.c).join('')));
    for (let r = 0; r + 1 < rows.length; r++) {
      const ink = rows[r].chars.filter((ch) => ch.c !== ' ' && ch.right !== null);
      const next = rows[r + 1].chars;
      const firstWord = [];
      for (const ch of next) { if (ch.c === ' ' && firstWord.length) { break; }
                               if (ch.c !== ' ') { firstWord.push(ch); } }
      if (!ink.length || !firstWord.length) { continue; }
      const space = (ink[ink.length - 1].right - ink[0].left) / Math.max(1, ink.length);
      const word = firstWord.reduce((sum, ch) => sum + (ch.right - ch.left), 0);
      if (ink[ink.length - 1].right + space + word <= room + 1) {
        early.push(rows[r].chars.map((ch) => ch.c).join('').trim().slice(-40) + ' | '
                   + firstWord.map((ch) => ch.c).join(''));
      }
    }
  }
  const unmarked = [...document.querySelectorAll('pre.ragscore-console')]
    .filter((el) => el.getClientRects().length > 0 && !el.querySelector('.rs-line')).length;
  return {lines: lines.length, shown: shownLines, early, unmarked,
          breaks: document.querySelectorAll('pre.ragscore-console .rs-brk').length
            - [...document.querySelectorAll('pre.ragscore-console .rs-brk')]
              .filter((el) => el.getClientRects().length === 0).length};
}
"""


#: The longest row label (a table's first cell) that must not wrap; the present template's
#: LABEL, as long as the longest name the workbook's tables show whole (explore.py's _cell).
LABEL_CHARS = 24

#: Reads, in the page, where table cells break their text: for every shown td and th, each
#: word (the characters between two spaces, within one block of the cell) whose characters do
#: not all sit on one line, shown with a "|" where its line ends ("rollb|ack"), and each first
#: cell of a row (a row's label: a case, a system, a metric) of at most LABEL_CHARS characters
#: whose text takes more than one line (a longer first cell is a sentence, and may wrap at
#: its spaces). The characters' lines
#: come from a Range over each character: two characters are on one line when their boxes
#: overlap by more than half the smaller one's height.
BROKEN_WORDS_JS = r"""
(labelChars) => {
  const broken = [], wrapped = [];
  const shown = (el) => el.getClientRects().length > 0;
  const sameLine = (a, b) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)
    > 0.5 * Math.min(a.bottom - a.top, b.bottom - b.top);
  const blockOf = (el, cell) => {
    for (; el && el !== cell; el = el.parentElement) {
      if (getComputedStyle(el).display !== 'inline') { return el; }
    }
    return cell;
  };
  const cells = [...document.querySelectorAll('td, th')].filter(shown);
  let words = 0;
  for (const cell of cells) {
    const units = [];   // characters with their box, null between words
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    let block = cell;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (node.tagName === 'BR' || node.tagName === 'WBR') { units.push(null); }
        continue;
      }
      const parent = node.parentElement;
      if (!shown(parent) || parent.closest('td, th') !== cell) { continue; }
      const here = blockOf(parent, cell);
      if (here !== block) { units.push(null); block = here; }
      for (let i = 0; i < node.data.length; i++) {
        const c = node.data[i];
        if (/[ \t\n\r\f]/.test(c)) { units.push(null); continue; }
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = [...range.getClientRects()].find((r) => r.height > 0);
        if (rect) { units.push({c, top: rect.top, bottom: rect.bottom}); }
      }
    }
    let word = [];
    const check = () => {
      if (word.length) { words += 1; }
      for (let i = 1; i < word.length; i++) {
        if (!sameLine(word[i - 1], word[i])) {
          broken.push(word.slice(0, i).map((u) => u.c).join('') + '|'
            + word.slice(i).map((u) => u.c).join('') + '  in: '
            + (cell.textContent || '').trim().slice(0, 60));
          break;
        }
      }
      word = [];
    };
    for (const unit of units) { if (unit) { word.push(unit); } else { check(); } }
    check();
    const shownUnits = units.filter((u) => u);
    if (cell === cell.parentElement.firstElementChild
        && (cell.textContent || '').trim().length <= labelChars && shownUnits.some((u) => !sameLine(shownUnits[0], u))) {
      wrapped.push((cell.textContent || '').trim().slice(0, 60));
    }
  }
  return {cells: cells.length, words, broken, wrapped};
}
"""


def _check_words_whole(page, where):
    """No table cell on the page breaks a word inside itself, and no row's label (its first
    cell) wraps: a cell wraps only at spaces. Returns the number of words checked."""
    found = page.evaluate(BROKEN_WORDS_JS, LABEL_CHARS)
    assert not found["broken"], (where, "a word broken inside a table cell", found["broken"])
    assert not found["wrapped"], (where, "a row's label wrapped", found["wrapped"])
    return found["words"]


def _check_wrapped_once(page, where):
    """Every line of command output on the page is wrapped once, to its box: no stored
    80-column break is shown, and no shown line ends where the next word would have fit.
    Returns the number of the command's own lines checked."""
    found = page.evaluate(WRAP_JS)
    assert found["unmarked"] == 0, (where, "command output without its own lines marked")
    assert found["breaks"] == 0, (where, "stored 80-column breaks shown", found["breaks"])
    assert not found["early"], (where, "a line wrapped twice", found["early"])
    return found["lines"]


def _present_css():
    """The rules of the present template that lay out command output."""
    template = (TEMPLATES / "voila" / "templates" / "present" / "index.html.j2").read_text()
    rules = re.findall(r"(pre\.ragscore-console[^{]*\{[^}]*\})", template)
    assert len(rules) >= 3, rules
    return "<style>pre.ragscore-console{white-space:pre-wrap;font:18px monospace}" \
        + "".join(rules) + "</style>"


def wrap_check_fails_on_output_wrapped_twice(planted):
    """Present mode's wrap check on pages made for it, 640 CSS pixels wide (200% zoom):
    command output laid out by the present template passes, with as many lines as the
    command printed; the same output with its stored 80-column breaks shown fails, as do
    output with no lines marked (the old page) and a line broken where its next word fit
    (the "assessed: 3" fragment of a double wrap)."""
    from ragscore.workbook.explore import CommandOutput

    text = ("gate: candidate B against baseline A, policy fixtures/policies/course.toml, 4 "
            "questions assessed: 3 answerable, 1 unanswerable\n  FAIL  no support "
            "regression: 1 of 3 questions fell below the baseline (launch)\nexit code 1")
    marked = CommandOutput(text)._repr_html_()
    plain = f'<pre class="ragscore-console">{CommandOutput(text).text}</pre>'
    broken = marked.replace("3 answerable", "3\nanswerable", 1)
    assert broken != marked
    page = planted
    page.set_viewport_size({"width": 640, "height": 360})
    page.set_content(_present_css() + marked)
    assert _check_wrapped_once(page, "present") == 3
    for case, content in (("no present style", marked), ("old page", plain),
                          ("broken early", _present_css() + broken)):
        page.set_content(content)
        with pytest.raises(AssertionError):
            _check_wrapped_once(page, case)


def _present_tables():
    """The present template's style and its script that keeps table words whole, to lay out
    a page made for the word check as present mode does."""
    template = (TEMPLATES / "voila" / "templates" / "present" / "index.html.j2").read_text()
    style = re.search(r"<style>.*?</style>", template, re.S).group(0)
    script = next(found for found in re.findall(r"<script>.*?</script>", template, re.S)
                  if "ragscoreWholeWords =" in found)
    return style, script


#: A table made to be squeezed at 640 CSS pixels (200% of 1280): short names, a hyphenated
#: name, a hash, a long name after an explicit <wbr>, and a long answer beside them.
SQUEEZED = """<table class="ragscore-table">
<tr><th>case</th><th>full</th><th>version</th><th>test</th><th>answer</th></tr>
<tr><td>rollback</td><td>release-notes@54, release-notes@112</td><td>48aef8f3e0bf27e9</td>
<td>test_short_<wbr>list_keeps_<wbr>cutoff</td>
<td>To roll back, switch traffic to the previous version [1]. Then run the smoke test [3].
After that, check the dashboards and tell the team on call that the rollback is done.</td></tr>
<tr><td>hits in top 2</td><td>n/a</td><td>248e57d419e0eec9</td><td>none</td><td>0.50</td></tr>
</table>"""


def words_check_fails_on_words_broken_in_cells(planted):
    """Present mode's word check on a table made for it at 640 CSS pixels (200% zoom): laid
    out by the present template (its style and its script), every word is whole, the short
    labels do not wrap, and the table scrolls inside its box instead of running off the page.
    The same table fails the check laid out by the template's old rules (a cell broke any
    word where its column needed it: "rollb|ack"), with the template's style but not its
    script (a hyphenated name breaks after its hyphen, even at 100%). A <wbr> (which the
    package puts after _ and / in a long name) is a place a name may break: its parts count
    as words of their own."""
    style, script = _present_tables()
    page = planted
    page.set_viewport_size({"width": 640, "height": 360})
    page.set_content(f'{style}<div id="ragscore-stored"><div>{SQUEEZED}</div></div>{script}')
    # words between spaces, counted by hand: 5 headers; rollback, 2 names, the hash, the
    # test's 3 parts between its <wbr>s, 16 + 16 in the answer; "hits in top 2" 4, then 4
    # single words
    assert _check_words_whole(page, "present") == 5 + (1 + 2 + 1 + 3 + 32) + (4 + 4)
    box = page.evaluate("""() => { const t = document.querySelector('table');
        return [t.getBoundingClientRect().right, innerWidth, t.scrollWidth, t.clientWidth]; }""")
    assert box[0] <= box[1] and box[2] > box[3], ("the table scrolls in its box", box)
    old = ("<style>table.ragscore-table { max-width: 100%; } td, th { font: 18px sans-serif; "
           "padding: 2px; } td { overflow-wrap: anywhere; }</style>")
    no_script = f'{style}<div id="ragscore-stored"><div>{SQUEEZED}</div></div>'
    for case, content, why in (("old rules", old + SQUEEZED, "rollb"),
                               ("no script", no_script, "release-|")):
        page.set_content(content)
        with pytest.raises(AssertionError, match=re.escape(why)):
            _check_words_whole(page, case)


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
    while live and (style["off_page"] or style["too_wide"] or style["scrolled"]) \
            and time.monotonic() < settle:
        page.wait_for_timeout(250)  # widgets lay themselves out again after a zoom
        style = page.evaluate(STYLE_JS)
    for size, white_space in style["consoles"]:
        assert size >= ROOM_PX and white_space == "pre-wrap", (chapter, size, white_space)
    for kind in kinds:
        assert math.isfinite(style[kind]), (chapter, kind, "no visible text to measure")
        assert style[kind] >= ROOM_PX, (chapter, kind, style[kind])
    assert not style["too_wide"], (chapter, style["too_wide"])
    # a table wider than its box scrolls sideways in it: nothing is lost, but the first view
    # is cut (chapter 10's labels at 200% hid their "partial" column)
    assert not style["scrolled"], (chapter, "a table scrolls sideways", style["scrolled"])
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
    "absent": "",
    "a table scrolling in its box": '<div class="widget-label" style="font-size: 18px">k</div>'
                                    '<table class="ragscore-table" style="display: block; '
                                    'max-width: 100px; overflow-x: auto"><tr><td style="'
                                    'font-size: 18px; white-space: nowrap">release-notes@0, '
                                    'release-notes@54</td></tr></table>'}


def test_the_page_checks_fail_on_pages_made_for_them(chromium, tmp_path):
    """The style check, the wrap check and the word check, each on pages made to pass and to
    fail it, in one browser (a browser kept open across tests would hold Playwright's loop
    for the others)."""
    with _browser(chromium, tmp_path, height=720) as context:
        page = context.new_page()
        room_style_check_fails_on_small_or_absent_widgets(page)
        wrap_check_fails_on_output_wrapped_twice(page)
        words_check_fails_on_words_broken_in_cells(page)


def room_style_check_fails_on_small_or_absent_widgets(planted):
    """The present-mode test's style check on pages made for it: 18 px widgets pass; 13 px
    widgets fail, a widget past the page's right edge fails, a table that scrolls sideways
    in its box fails, and so does a live page whose
    widgets are hidden or were never drawn (the check once measured nothing there, found
    Infinity and passed). The stored page, drawn before any widget exists, is checked
    without them."""
    page = planted
    page.set_viewport_size({"width": 1280, "height": 720})
    for case, widgets in ROOM_WIDGETS.items():
        page.set_content(ROOM_PAGE % widgets)
        if case == "a table scrolling in its box":
            with pytest.raises(AssertionError, match="a table scrolls sideways"):
                _check_room_style(page, case, live=False)
            continue
        assert _check_room_style(page, case, live=False) == 0
        if case == "room-sized":
            assert _check_room_style(page, case, live=True, wait_ms=500) == 0
            continue
        with pytest.raises(AssertionError):
            _check_room_style(page, case, live=True, wait_ms=500)


#: The zooms docs/instructor.md advises for a large room: at 1280x720, 125%, 150% and 200%
#: leave a page of 1024x576, 853x480 and 640x360 CSS pixels. `make test` checks every
#: chapter at the first two, and chapter 6 (the most command output) and chapter 10 (its
#: chunk panel's five-column table) at 200%; the exhaustive
#: sweep checks every chapter at 200%.
ZOOMS = (1.25, 1.5)
LARGEST = 2.0
LARGEST_IN_MAKE_TEST = ("06", "10")
#: The chapter whose page is requested when `make present` prints its address (the
#: preheated kernel has run it); every other chapter's as soon as its server answers.
WARM_IN_MAKE_TEST = "03"
#: What tools/present.py prints with the address once the chapter has run.
LIVE_LINE = "The chapter is live"


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


def lab_options():
    """The options ``make lab`` gives JupyterLab (the Makefile's LAB_OPTIONS)."""
    makefile = (ROOT / "Makefile").read_text()
    return re.search(r"^LAB_OPTIONS := (.*)$", makefile, re.M).group(1).split()


def present_options():
    """The options ``make present`` gives Voila (the Makefile's PRESENT_OPTIONS)."""
    makefile = (ROOT / "Makefile").read_text()
    return re.search(r"^PRESENT_OPTIONS := (.*)$", makefile, re.M).group(1).split()


#: The chapters `make test` presents; `make test-all` presents every chapter. These are
#: chapter 2 (its slider), chapter 3 (a quick check followed by a heading: nothing held back),
#: chapters 4, 6, 8 and 10 (a quick check followed by the paragraph explaining it, held back),
#: chapter 8's review note, and chapters 6 and 10 at 200%. All eleven took 102 s of a
#: 5 min 28 s `make test` on 32bad61; eight took 74 s of 4 min 59 s on e4ae131, still at the
#: 5-minute budget, so chapters 5 and 9 (held back as 4, 6, 8 and 10 are) are left to
#: `make test-all`.
PRESENT_IN_MAKE_TEST = ("02", "03", "04", "06", "08", "10")


def test_present_mode_the_chapters_with_widgets(chromium, tmp_path, record_property):
    _present_chapters(chromium, tmp_path, record_property, PRESENT_IN_MAKE_TEST)


@pytest.mark.exhaustive
def test_present_mode_every_chapter(chromium, tmp_path, record_property):
    _present_chapters(chromium, tmp_path, record_property,
                      [path.name[:2] for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")])


def _present_chapters(chromium, tmp_path, record_property, chapters):
    """`make present CHAPTER=NN` for each of ``chapters``, started as an instructor starts it (one
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
            if notebook.name[:2] not in chapters:
                continue
            timings.append(_present_one(context, notebook, tmp_path,
                                        warm=notebook.name.startswith(WARM_IN_MAKE_TEST)))
    slider = next(timing["slider"] for timing in timings if "slider" in timing)
    lines = [f"[browser] present mode, per chapter as `make present` starts it "
             f"(tools/present.py {' '.join(present_options())}): server up after the command; "
             "from the request, made as soon as the server answered (chapter "
             f"{WARM_IN_MAKE_TEST}: when it printed the address): first screen (stored page) / "
             "live page (goal < 5 s); load average (1 min) when the live page came; chapter "
             f"5's test runs kept first ({kept:.1f} s)"]
    lines += [f"[browser]   chapter {timing['chapter']}: server {timing['up']:.1f} s"
              + (f", address printed {timing['ready']:.1f} s" if "ready" in timing else "")
              + f", first screen {timing['first']:.2f} s, live {timing['live']:.1f} s "
              f"(load {timing['load']:.1f}); {timing['consoles']} command outputs "
              f"({timing['lines']} lines, each wrapped once), text >= {ROOM_PX} px; quick "
              f"check's first click {timing['quick']:.0f} ms (goal < 100 ms)"
              for timing in timings]
    lines.append(f"[browser] present mode, chapter 2, k slider 2 -> 1: table {slider[0]:.0f} "
                 f"ms, plot {slider[1]:.0f} ms after the key press (goal < 100 ms); plot "
                 f"{slider[2]:.0f} px wide; whole test {time.monotonic() - started:.1f} s")
    record_property("measured", "\n".join(lines))   # printed at the end of the run
    assert len(timings) == len(chapters)


def _wait_for_line(path, line, server, deadline=120):
    """Wait until the server's log at ``path`` holds ``line``."""
    end = time.monotonic() + deadline
    while line not in path.read_text():
        if server.poll() is not None or time.monotonic() > end:
            raise AssertionError(f"{line!r} never came: {path.read_text()[-2000:]}")
        time.sleep(0.1)


def _present_one(context, notebook, tmp_path, zooms=None, interact=True, warm=False):
    """One chapter's present-mode page, requested as soon as its server answers, or with
    ``warm`` when the server prints its address (its preheated kernel has run it)."""
    from playwright.sync_api import expect

    chapter = notebook.name[:2]
    if zooms is None:
        zooms = ZOOMS + ((LARGEST,) if chapter in LARGEST_IN_MAKE_TEST else ())
    port = _free_port()
    command = [sys.executable, str(ROOT / "tools" / "present.py"), notebook.name, "--no-browser",
               f"--port={port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--template=present",
               *present_options()]
    begun, log = time.monotonic(), tmp_path / f"voila-{chapter}.log"
    with _server(command, NOTEBOOKS, log, f"http://127.0.0.1:{port}/voila/static/voila.js",
                 env={"JUPYTER_PATH": str(TEMPLATES)}) as server:
        timing = {"chapter": chapter, "up": time.monotonic() - begun}
        assert LIVE_LINE not in log.read_text(), (chapter, "live before it could have run")
        if warm:
            _wait_for_line(log, LIVE_LINE, server)
            timing["ready"] = time.monotonic() - begun
        page = context.new_page()
        with _screenshot_on_failure(page, tmp_path / f"present-{chapter}-failure.png"):
            asked = time.monotonic()
            page.goto(f"http://127.0.0.1:{port}/", wait_until="commit", timeout=90_000)
            title = page.locator("h1").filter(has_text=f"Chapter {int(chapter)} ")
            expect(title.first).to_be_visible(timeout=90_000)
            expect(page.locator(".jp-OutputArea-output").first).to_be_visible()
            timing["first"] = time.monotonic() - asked
            if not warm and page.locator("#ragscore-stored").count():   # the stored page
                expect(page.locator("#ragscore-stored-end")).to_be_attached(timeout=90_000)
                assert not _presented_text(page), (chapter, "stored", _presented_text(page))
                timing["consoles"] = _check_room_style(page, chapter, live=False)
                _check_wrapped_once(page, f"{chapter}, stored page")
                _check_words_whole(page, f"{chapter}, stored page")
                held = page.evaluate(HELD_JS.replace("#rendered_cells", "#ragscore-stored"))
                assert bool(held) == (chapter in HELD_AFTER_QUICK), (chapter, "stored page", held)
            expect(page.locator("#ragscore-stored")).to_have_count(0, timeout=120_000)
            expect(page.locator("#rendered_cells")).to_be_visible()
            timing["live"] = time.monotonic() - asked
            timing["load"] = os.getloadavg()[0]
            # the page ran in the kernel Voila preheated, even requested the moment the
            # server answered (it used to get a second kernel when it came too soon)
            assert "Using pre-heated kernel" in log.read_text(), (chapter, "not preheated")
            expect(title.first).to_be_visible()
            assert "Recap" in page.locator("body").inner_text(), chapter
            assert not _presented_text(page), (chapter, "live", _presented_text(page))
            consoles = _check_room_style(page, chapter, live=True)
            assert timing.setdefault("consoles", consoles) == consoles
            timing["lines"] = _check_wrapped_once(page, chapter)
            timing["words"] = _check_words_whole(page, chapter)
            for zoom in zooms:
                with _zoomed(page, zoom):
                    where = f"{chapter} at {zoom:.0%}"
                    assert _check_room_style(page, where, live=True) == consoles
                    assert _check_wrapped_once(page, where) == timing["lines"]
                    assert _check_words_whole(page, where) == timing["words"]
            if interact:
                timing["quick"] = _quick_check_ms(page, chapter)
            if chapter == "02" and interact:
                timing["slider"] = _slide_in_present_mode(page)
            if chapter == "08" and interact:
                _note_without_enter(page)
        page.close()
    return timing


@pytest.mark.exhaustive
def test_present_mode_every_chapter_at_200_percent(chromium, tmp_path):
    """The slow zoom sweep: every chapter's live page at 200% (640x360 CSS pixels on a
    1280x720 screen), text room-sized, nothing wider than its box, command output wrapped
    once to its box (`make test` does this for chapter 6 only)."""
    from ragscore.workbook.selfcheck import MUTATIONS, contract_checks

    contract_checks([None, *MUTATIONS], reuse=True)
    with _browser(chromium, tmp_path, height=720) as context:
        for notebook in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
            _present_one(context, notebook, tmp_path, zooms=(LARGEST,), interact=False)


#: Records, on the page's clock, the first pointer press and the moment a quick check's
#: feedback first becomes visible after it.
QUICK_JS = """
() => {
  const state = {press: null, shown: null};
  window.__quick = state;
  document.addEventListener('pointerdown', () => { if (state.press === null) {
    state.press = performance.now(); } }, true);
  const seen = () => [...document.querySelectorAll('.ragscore-feedback')]
    .some((el) => el.getClientRects().length > 0);
  new MutationObserver(() => {
    if (state.press !== null && state.shown === null && seen()) {
      state.shown = performance.now(); }
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}
"""


#: Chapters whose quick check is followed by the rest of its step (not by the next step's
#: heading), read from the notebooks: present mode holds that rest back until a letter is
#: clicked (the walkthrough on d909627 saw chapter 4's "Every average can improve", chapter
#: 6's "the gate still refuses it" under the buttons; the one on 25ac52f saw chapters 1, 5,
#: 8, 9 and 11 state the answer just above the check, the one on 763f462 chapter 7, which
#: now comes before that sentence, and chapters 9's and 11's tables under the buttons).
HELD_AFTER_QUICK = {"01", "04", "05", "06", "07", "08", "09", "10", "11"}
HELD_JS = "() => document.querySelectorAll('#rendered_cells .rs-held').length"
#: The cells shown between the first quick check and the next step's heading: before a
#: click, none may be (chapter 9's and 11's tables under the buttons showed the answer, the
#: walkthrough on 763f462).
SHOWN_AFTER_QUICK_JS = """() => {
  const cells = [...document.querySelectorAll('#rendered_cells .jp-Cell')];
  const quick = cells.findIndex((cell) => cell.querySelector('.ragscore-quick'));
  const shown = [];
  for (const cell of cells.slice(quick + 1)) {
    if (cell.querySelector('h1, h2')) { break; }
    if (cell.getClientRects().length) { shown.push((cell.textContent || '').trim().slice(0, 60)); }
  }
  return shown;
}"""


def _quick_check_ms(page, chapter):
    """The chapter's quick check: the paragraph explaining its answer is held back until a
    letter is clicked; a first click on a letter shows that letter's feedback (and the
    paragraph); returns the milliseconds from the press to the feedback on screen."""
    from playwright.sync_api import expect

    held = page.evaluate(HELD_JS)
    assert bool(held) == (chapter in HELD_AFTER_QUICK), (chapter, "cells held", held)
    assert page.evaluate(SHOWN_AFTER_QUICK_JS) == [], (chapter, "shown before a click")
    page.evaluate(QUICK_JS)
    button = page.locator(".widget-toggle-button", has_text="A").first
    button.scroll_into_view_if_needed()
    button.click()
    expect(page.locator(".ragscore-feedback").locator("visible=true").first).to_be_visible(
        timeout=15_000)
    page.wait_for_function("() => window.__quick.shown !== null", timeout=15_000)
    timing = page.evaluate("() => window.__quick")
    assert page.evaluate(HELD_JS) == 0, (chapter, "a paragraph still held after a click")
    return timing["shown"] - timing["press"]


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
    # the editor as used still fits a page at 200% (its claims table scrolled once a note
    # was typed: the walkthrough on 25ac52f, +25 px)
    with _zoomed(page, LARGEST):
        _check_room_style(page, "08's editor in use, at 200%", live=True)


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
    """The learner's own environment: `make lab`'s address opens chapter 1; run chapters 2,
    3 and 10 in JupyterLab (on a scratch copy of the repository's layout, since Lab saves,
    with the fixtures chapter 10 reads),
    move the k slider, edit a citation, move the chunk size, and follow a term's link: the
    glossary opens at that term's entry, not at its top."""
    from playwright.sync_api import expect

    started = time.monotonic()
    root = tmp_path / "root"
    scratch = root / "notebooks"
    scratch.mkdir(parents=True)
    for name in ("01", "02", "03", "10"):
        shutil.copy(next(NOTEBOOKS.glob(f"{name}_*.ipynb")), scratch)
    (root / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "glossary.md", root / "docs")
    shutil.copytree(ROOT / "fixtures" / "spans", root / "fixtures" / "spans")
    port, token = _free_port(), "ragscore-browser-test"
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
               "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", "--allow-root",
               "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
               "--ServerApp.disable_check_xsrf=False", *lab_options()]
    dirs = {key: str(tmp_path / key.lower()) for key in
            ("JUPYTER_CONFIG_DIR", "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR",
             "JUPYTER_RUNTIME_DIR")}
    url = f"http://127.0.0.1:{port}/?token={token}"   # the server's root, as make lab prints
    with _server(command, root, tmp_path / "lab.log", f"http://127.0.0.1:{port}/api",
                 env=dirs), _browser(chromium, tmp_path) as context:
        page = context.new_page()
        page.goto(url, timeout=90_000)
        with _screenshot_on_failure(page, tmp_path / "lab-failure.png"):
            # make lab's address opens chapter 1 itself, not the Launcher
            expect(page.locator(".jp-NotebookPanel .jp-RenderedMarkdown h1",
                                has_text="Chapter 1 ").first).to_be_visible(timeout=90_000)
            assert "/lab/tree/notebooks/01_test_set.ipynb" in page.url, page.url
            assert not page.locator(".jp-Launcher").locator("visible=true").count()
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
                                'td[data-field="chunks (full or partial)"]').first
                   ).to_have_text("release-notes@70 (full)")
            chunk_ms = _elapsed_ms(page, "cell")
    record_property("measured", f"[browser] JupyterLab, k slider 2 -> 3: table "
                                f"{slider[0]:.0f} ms, plot {slider[1]:.0f} ms; citation edit "
                                f"archive -> owners: support {edit_ms:.0f} ms; chunk size 60 "
                                f"-> 70: labels and scores {chunk_ms:.0f} ms (goal < 100 ms); "
                                f"whole test {time.monotonic() - started:.1f} s")
    assert min(*slider, edit_ms, chunk_ms) >= 0
