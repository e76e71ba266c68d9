"""Shared fixtures: the course dataset, loaded fresh for each test so no test can leak edits,
and devices of a test's own (never the machine's) to name where a command must refuse one."""
import copy
import os
import stat
from pathlib import Path

import pytest

import ragscore
from ragscore.importers.spans import import_spans
from ragscore.io.jsonl import MAX_FILE_BYTES

SPANS = Path(__file__).resolve().parents[1] / "fixtures" / "spans"


@pytest.fixture(scope="session")
def _course_once():
    return ragscore.load_course()


@pytest.fixture
def course(_course_once):
    return copy.deepcopy(_course_once)


@pytest.fixture
def corpus(course):
    return course.corpus


@pytest.fixture
def cases(course):
    return course.cases


@pytest.fixture
def runs(course):
    return course.runs


@pytest.fixture
def score(course):
    """score(case, system, k=2): evaluate one recorded course run."""
    def _score(case, system, **options):
        return ragscore.evaluate(course.corpus, course.cases[case], course.runs[case][system],
                                 **options)
    return _score


@pytest.fixture
def device(tmp_path):
    """``device("zero")`` or ``device("null")``: a character device like /dev/zero or
    /dev/null made in the test's folder (it needs root; ``None`` otherwise). A test that
    hands a command a device hands it this one: a command that wrongly replaced or read it
    to the end would harm only the test."""
    def make(kind):
        path = tmp_path / f"{kind}-device"
        try:
            os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, {"null": 3, "zero": 5}[kind]))
        except OSError:
            return None
        return path
    return make


def pytest_terminal_summary(terminalreporter):
    """Print what passing tests measured (their ``measured`` property: the browser tests'
    timings), which pytest-xdist carries back from its workers where printed output is lost."""
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if name == "measured":
                terminalreporter.write_line(value)


@pytest.fixture(scope="module")
def sentences():
    """fixtures/spans (chapter 10's release and team notes) chunked by sentence, with the
    sentence chunking's runs: one copy per test module."""
    dataset, _ = import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl",
                              SPANS / "chunks-sentences.jsonl",
                              runs=SPANS / "runs-sentences.jsonl", reviewer="ana",
                              date="2026-12-04", max_bytes=MAX_FILE_BYTES)
    return dataset
