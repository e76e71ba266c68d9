"""The shareable report in a real Chromium, opened from file:// as a reviewer would: no
console errors, sorting and filtering work, a row opens to its details; a generated report
of 2,000 questions (10,000 under make test-all) stays small and opens cleanly.

Open times are printed, not asserted (speed is measured in benchmarks/bench_share_report.py).
"""
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ragscore.cli import capture
from ragscore.core.diagnosis import FAILURES, question_diagnoses
from ragscore.engine import count_dataset
from ragscore.folders import load_dataset

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BENCH = Path(__file__).resolve().parents[2] / "benchmarks"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1280, "height": 900})
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
    start = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector("#questions-body tr.q")
    return page, errors, time.perf_counter() - start


@pytest.fixture(scope="module")
def practice_page(browser, tmp_path_factory):
    target = tmp_path_factory.mktemp("share") / "report.html"
    code, _, err = capture(["html", "fixtures/practice", "--baseline", "baseline",
                            "--candidate", "rerank", "--k", "3", "--policy",
                            "fixtures/policies/practice.toml", "--out", str(target)])
    assert code == 0, err
    page, errors, _ = _open(browser, target)
    yield page, errors
    page.close()


def _cells(page, column):
    return page.eval_on_selector_all(
        f"#questions-body tr.q td:nth-child({column})", "cells => cells.map(c => c.textContent)")


def _number(text):
    return None if text == "n/a" else float(text.replace("\u2212", "-").replace("\u00b1", ""))


def test_opens_with_no_console_errors(practice_page):
    page, errors = practice_page
    assert errors == []
    assert page.locator("#verdict").inner_text().startswith("FAIL: 2 of 4 rules")
    assert page.locator("#questions-body tr.q").count() == 46


def test_sorting_a_delta_column_orders_numbers_and_keeps_na_last(practice_page):
    page, _ = practice_page
    headers = page.locator("#questions th[data-key]")
    support = next(i for i in range(headers.count())
                   if headers.nth(i).inner_text() == "\u0394 support")
    headers.nth(support).click()
    values = [_number(text) for text in _cells(page, support + 1)]
    defined = [value for value in values if value is not None]
    assert defined == sorted(defined) and defined[0] < 0
    assert values[len(defined):] == [None] * (len(values) - len(defined))
    headers.nth(support).click()  # again: descending, n/a still last
    values = [_number(text) for text in _cells(page, support + 1)]
    defined = [value for value in values if value is not None]
    assert defined == sorted(defined, reverse=True) and values[-1] is None
    assert headers.nth(support).get_attribute("aria-sort") == "descending"


def test_filters_match_the_diagnoses_worked_out_in_python(practice_page):
    page, _ = practice_page
    dataset = load_dataset("fixtures/practice")
    counted = count_dataset(dataset)
    codes = dict(zip(counted.keys, question_diagnoses(counted, dataset.runs, k=3)))
    new = [case for case in dataset.cases
           if codes[(case, "rerank")] in FAILURES and codes[(case, "baseline")] not in FAILURES]
    page.select_option("#filter-show", "new")
    assert sorted(_cells(page, 1)) == sorted(new)  # (the order is the sort left by a test before)
    page.select_option("#filter-show", "all")
    page.fill("#filter-text", "wi-fi")
    wifi = [case for case, record in dataset.cases.items()
            if "wi-fi" in record["question"].lower() or "wi-fi" in case]
    assert sorted(_cells(page, 1)) == sorted(wifi) and wifi
    page.fill("#filter-text", "")
    assert page.locator("#questions-body tr.q").count() == 46


def test_a_row_opens_to_ids_claims_and_counts(practice_page):
    page, _ = practice_page
    page.select_option("#filter-show", "all")
    page.fill("#filter-text", "sick-note")
    page.locator("#questions-body tr.q").first.click()
    detail = page.locator("#questions-body tr.detail").inner_text()
    assert "relevant IDs: leave@2026#sick" in detail
    assert "diagnosis: delivered but the answer's claims unsupported" in detail
    assert "3 trials" in detail and "retrieved" in detail and "numerator / denominator" in detail
    page.locator("#questions-body tr.q").first.click()
    assert page.locator("#questions-body tr.detail").count() == 0


def _generated(browser, tmp_path, questions):
    sys.path.insert(0, str(BENCH))
    try:
        from bench_share_report import build
    finally:
        sys.path.remove(str(BENCH))
    path = tmp_path / "big.html"
    path.write_text(build(questions), encoding="utf-8")
    page, errors, seconds = _open(browser, path)
    size = path.stat().st_size
    print(f"\n[share] {questions:,} questions: {size / 1e6:.2f} MB, opened in {seconds:.2f} s")
    page.close()
    return size, errors


def test_a_generated_report_stays_small(browser, tmp_path):
    size, errors = _generated(browser, tmp_path, 2000)
    assert errors == []
    assert size < 10e6 * 2000 / 10_000  # on course for under 10 MB at 10,000 questions


@pytest.mark.exhaustive
def test_ten_thousand_questions_under_ten_megabytes(browser, tmp_path):
    size, errors = _generated(browser, tmp_path, 10_000)
    assert errors == [] and size < 10e6


def _without_context(run):
    if isinstance(run, list):  # repeated trials
        return [_without_context(trial) for trial in run]
    return {key: value for key, value in run.items() if key != "delivered"}


def _page_source(kind, folder):
    """``(dataset folder, baseline, candidate, questions)`` of each kind of data the page
    must render (issue 35): the course, an imported answers log, a baseline that recorded no
    delivered context, and a recording of a live system (the practice collection is the
    page the tests above open)."""
    import ragscore

    if kind == "course":
        return "fixtures/course", "A", "B", 4
    if kind == "answers log":
        code, _, err = capture(["import", "log", "fixtures/import/log/answers.jsonl",
                                "--out", str(folder)])
        assert code == 0, err
        return str(folder), "bm25", "dense", 3
    practice = ragscore.load_dataset("fixtures/practice")
    if kind == "baseline without context":
        runs = {case: {system: _without_context(run) if system == "baseline" else run
                       for system, run in per_case.items()}
                for case, per_case in practice.runs.items()}
        ragscore.save_dataset(practice._replace(runs=runs), folder)
        return str(folder), "baseline", "rerank", 46
    answers = {case: [doc for doc, grade in labels["relevant"].items() if grade > 0][:1]
               if isinstance(labels["relevant"], dict) else list(labels["relevant"])[:1]
               for case, labels in practice.cases.items()}
    by_text = {labels["question"]: case for case, labels in practice.cases.items()}
    ragscore.record(practice, lambda question: {"retrieved": answers[by_text[question]]},
                    system="live", out=folder)
    return str(folder), "baseline", "live", 46


@pytest.mark.parametrize("kind", ["course", "answers log", "baseline without context",
                                  "recording"])
def test_the_page_renders_for_every_kind_of_data(browser, tmp_path, kind):
    folder, baseline, candidate, questions = _page_source(kind, tmp_path / "data")
    target = tmp_path / "report.html"
    code, _, err = capture(["html", folder, "--baseline", baseline, "--candidate",
                            candidate, "--out", str(target)])
    assert code == 0, err
    page, errors, _ = _open(browser, target)
    try:
        assert errors == []
        assert page.locator("#questions-body tr.q").count() == questions
        assert page.locator("#plot-sweep svg").count() == 1
        page.locator("#questions-body tr.q").first.click()  # a row opens to its details
        assert page.locator("#questions-body tr.detail").count() == 1
        assert errors == []
    finally:
        page.close()
