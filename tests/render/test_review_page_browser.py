"""The review page in a real Chromium, opened from file:// as a reviewer would: decided by
keyboard, reloaded (nothing lost), exported, imported by ``ragscore review import``, and
the scores then those of the same decisions imported from the CSV queue (worked by hand in
tests/io/test_answer_fixture.py). A page of hostile text runs none of it."""
import csv
import shutil
import tempfile
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.core.labels import content_key
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.folders import load_dataset, save_dataset
from ragscore.io.dataset import Dataset
from ragscore.io.page_export import export_text, page_identity
from ragscore.io.queue_file import add_judgements, read_decisions
from ragscore.io.review_queue import review_queue
from ragscore.render.review_page import shortcuts

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
ANSWERS = ROOT / "fixtures" / "answers"
DECISIONS = ROOT / "fixtures" / "answers-decisions.csv"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=ARGS,
            accept_downloads=True, viewport={"width": 1100, "height": 900})
        try:
            yield context
        finally:
            context.close()


def _open(browser, path):
    page = browser.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready=true]")
    return page, errors


def _frozen():
    """The frozen reviewer's decisions of chapter 9, by (kind, case, key)."""
    with open(DECISIONS, newline="", encoding="utf-8") as handle:
        return {(row["kind"], row["case"], row["key"]): (row["decision"], row["states"])
                for row in csv.DictReader(handle)}


def _key_for(row, decision, states):
    wanted = int(decision) if row["kind"] == "relevance" else decision
    return next(key for _, chosen, named, key in shortcuts(row)
                if chosen == wanted and (named or "") == (states or ""))


def test_decide_by_keyboard_reload_export_import_and_the_scores(browser, tmp_path):
    folder = tmp_path / "answers"
    shutil.copytree(ANSWERS, folder)
    target = tmp_path / "review.html"
    code, out, err = capture(["review", "page", str(folder), "--out", str(target),
                              "--reviewer", "ana", "--date", "2026-12-04"])
    assert code == 0, err
    assert out == f"wrote {target}: 19 items await review (5 passages, 0 questions, 14 claims)\n"
    rows = review_queue(load_dataset(folder))
    frozen = _frozen()
    keys = [_key_for(row, *frozen[row["kind"], row["case"], row["key"]]) for row in rows]
    page, errors = _open(browser, target)
    assert page.locator("#progress-text").inner_text() == "0 of 19 decided"
    for key in keys[:8]:
        page.keyboard.press(key)
    page.keyboard.press("e")  # a note on the ninth item, typed where keys do not decide
    page.keyboard.type("checked twice: 0 1 2 u n")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#progress-text").inner_text() == "8 of 19 decided"
    assert page.locator("#item .head").text_content().startswith("support item 9 of 19")
    assert page.locator("#note").input_value() == "checked twice: 0 1 2 u n"
    page.keyboard.press("k")  # back one: item 8's decision is shown pressed
    assert page.locator("#choices button[aria-pressed=true]").count() == 1
    page.keyboard.press("j")
    for key in keys[8:]:
        page.keyboard.press(key)
    assert page.locator("#progress-text").inner_text() == "19 of 19 decided"
    with page.expect_download() as download:
        page.click("#export")
    exported = tmp_path / "decisions.jsonl"
    download.value.save_as(exported)
    assert errors == []
    page.close()
    # the page's bytes are the format's: the Python writer gives the same file
    decided = {position: ((int(d) if row["kind"] == "relevance" else d), s or None)
               for position, row in enumerate(rows)
               for d, s in [frozen[row["kind"], row["case"], row["key"]]]}
    identity = page_identity(load_dataset(folder), rows, "ana")
    assert exported.read_text(encoding="utf-8") == export_text(
        identity, rows, decided, reviewer="ana", date="2026-12-04",
        notes={8: "checked twice: 0 1 2 u n"})
    code, out, err = capture(["review", "import", str(folder), str(exported)])
    assert (code, err) == (0, ""), err
    assert out == f"{folder}: 19 judgements added\n"
    # the same decisions from the CSV queue, imported into the fixture in memory: the scores
    # agree on every question and system (and equal the hand-worked ones of the fixture test)
    answers = load_dataset(ANSWERS)
    expected = count_dataset(add_judgements(answers, read_decisions(
        DECISIONS.read_text(encoding="utf-8"), answers, kind="csv")))
    counted = count_dataset(load_dataset(folder))
    for name in ("support", "coverage", "precision", "judged"):
        assert counted.values(REGISTRY[name], 2) == expected.values(REGISTRY[name], 2), name
    support = dict(zip(counted.keys, counted.values(REGISTRY["support"], 2)))
    assert [support[case, "draft"] for case in ("launch", "rollback", "owner")] == \
        [0.5, 0.5, 0.0]
    notes = [record["note"] for record in load_dataset(folder).judgements if "note" in record]
    assert notes == ["checked twice: 0 1 2 u n"]


HOSTILE = "</script><script>window.pwned = 1</script><img src=x onerror=\"window.pwned=2\">"


def test_hostile_text_is_shown_never_run(browser, tmp_path):
    dataset = Dataset(
        ids="open", name="<b>x</b>",
        corpus={"p1": HOSTILE + " \u202e\u2028 and more", "p2": "Plain text."},
        cases={"q1": {"question": "Why? " + HOSTILE, "relevant": ()}},
        runs={"q1": {"A": {"retrieved": ("p1", "p2"), "answer": "Because [1]. " + HOSTILE}}})
    folder = save_dataset(dataset, tmp_path / "d")
    target = tmp_path / "hostile.html"
    assert capture(["review", "page", str(folder), "--out", str(target)])[0] == 0
    text = target.read_text(encoding="utf-8")
    assert text.count("<script") == 2  # the data's and the page's own, nothing from the data
    page, errors = _open(browser, target)
    assert page.evaluate("window.pwned") is None
    assert HOSTILE in page.locator("#item").inner_text()
    assert page.locator("#item img").count() == 0
    # the page's content key is Python's, byte for byte, on text any reviewer may type
    parts = ["review page line", "e" * 16, "support", "q1", "0" * 16, "supported", "",
             "note \u202e\u2028 \"quoted\" \\ \t\n\u00e9\u4e2d\U0001f600", "ana", "2026-12-04"]
    assert page.evaluate("parts => window.ragscoreContentKey(parts)", parts) == \
        content_key(*parts)
    assert errors == []
    page.close()
