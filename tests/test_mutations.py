"""The workbook's three deliberate defects, applied to a scratch copy of the package.

Each must make the suite fail with assertion failures (not an import error or a crash),
and each must be caught by the test chapter 5 says should catch it.
"""
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MUTATIONS = {
    # Precision over returned items instead of the k fixed slots.
    "short-list denominator": (
        "ragscore/scoring.py", "precision = hits / k",
        "precision = hits / max(1, len(top))",
        "test_short_list_keeps_cutoff_denominator"),
    # Any one permitted citation is enough, instead of all of them.
    "any citation suffices": (
        "ragscore/scoring.py",
        "if visible.issuperset(citations) and labelled.issuperset(citations):",
        "if any(doc in visible and doc in labelled for doc in citations):",
        "test_missing_unknown_or_mixed_citations_do_not_count"),
    # Citations need not be in the visible top-k context.
    "no visible-context check": (
        "ragscore/scoring.py",
        "if visible.issuperset(citations) and labelled.issuperset(citations):",
        "if labelled.issuperset(citations):",
        "test_citation_outside_visible_context_is_unsupported"),
}


def _scratch_copy(tmp_path):
    for name in ("ragscore", "tests", "fixtures"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "conftest.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def _run(scratch, *tests):
    report = scratch / "report.xml"
    env = dict(os.environ, PYTHONPATH=str(scratch), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         f"--junitxml={report}", *tests],
        cwd=scratch, env=env, capture_output=True, text=True, timeout=300)
    suite = ElementTree.parse(report).getroot().find("testsuite")
    failed = [case.get("name") for case in suite.iter("testcase")
              if case.find("failure") is not None]
    return result, int(suite.get("errors")), failed


def test_the_scratch_copy_is_what_the_suite_imports(tmp_path):
    scratch = _scratch_copy(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(scratch))
    found = subprocess.run([sys.executable, "-c", "import ragscore; print(ragscore.__file__)"],
                           cwd=scratch, env=env, capture_output=True, text=True, check=True)
    assert Path(found.stdout.strip()).parent == scratch / "ragscore"


@pytest.mark.parametrize("name", MUTATIONS)
def test_each_workbook_mutation_fails_the_suite(tmp_path, name):
    path, original, replacement, catcher = MUTATIONS[name]
    scratch = _scratch_copy(tmp_path)
    source = (scratch / path).read_text()
    assert source.count(original) == 1, f"the code to mutate moved: {original!r}"
    (scratch / path).write_text(source.replace(original, replacement))
    result, errors, failed = _run(scratch, "tests/test_contract.py", "tests/test_crosscheck.py")
    assert result.returncode == 1, result.stdout[-2000:]
    assert errors == 0, "an import error or crash is not evidence the rule was tested"
    assert any(test.startswith(catcher) for test in failed), failed
    assert "AssertionError" in result.stdout or "assert " in result.stdout


def test_the_unmutated_copy_passes(tmp_path):
    scratch = _scratch_copy(tmp_path)
    result, errors, failed = _run(scratch, "tests/test_contract.py", "tests/test_crosscheck.py")
    assert (result.returncode, errors, failed) == (0, 0, []), result.stdout[-2000:]
