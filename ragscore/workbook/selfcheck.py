"""Run the contract tests from a notebook, with or without one of the workbook's defects.

Needs a checkout of the repository (``tests/`` beside ``ragscore/``), as ``make lab`` has.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The workbook's three defects: name -> (file, original code, defective code, the test
#: that chapter 5 says must catch it).
MUTATIONS = {
    "short-list denominator": (
        "ragscore/core/metrics/precision.py", "return at.hits / k",
        "return at.hits / max(1, min(k, at.n_retrieved))",
        "test_short_list_keeps_cutoff_denominator"),
    "any citation suffices": (
        "ragscore/core/counts.py",
        "    if not citations or not labelled.issuperset(citations):\n"
        "        return None\n"
        "    ranks = [rank_of.get(doc) for doc in citations]\n"
        "    if None in ranks:\n"
        "        return None\n"
        "    return max(ranks)\n",
        "    ranks = [rank_of[doc] for doc in citations if doc in labelled and doc in rank_of]\n"
        "    return min(ranks) if ranks else None\n",
        "test_missing_unknown_or_mixed_citations_do_not_count"),
    "no visible-context check": (
        "ragscore/core/counts.py",
        "    ranks = [rank_of.get(doc) for doc in citations]\n"
        "    if None in ranks:\n"
        "        return None\n"
        "    return max(ranks)\n",
        "    return 1  # every labelled citation counts, retrieved or not\n",
        "test_citation_outside_visible_context_is_unsupported"),
}


def scratch_copy(destination, *, source=ROOT):
    """Copy the package, tests and fixtures of the checkout at ``source`` into
    ``destination``; return it as a Path."""
    destination, source = Path(destination), Path(source)
    for name in ("ragscore", "tests", "fixtures"):
        shutil.copytree(source / name, destination / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "conftest.py"):
        shutil.copy(source / name, destination / name)
    return destination


def apply_mutation(scratch, name):
    """Write the defect ``name`` into the scratch copy (the original must occur once)."""
    path, original, replacement, _ = MUTATIONS[name]
    source = (Path(scratch) / path).read_text()
    if source.count(original) != 1:
        raise ValueError(f"mutation {name!r}: the code to change moved: {original!r}")
    (Path(scratch) / path).write_text(source.replace(original, replacement))


def run_tests(scratch, *tests, deselect_slow=False):
    """Run pytest on ``tests`` inside ``scratch``; return a summary dict.

    Keys: ``returncode``, ``passed``, ``failed``, ``errors`` (counts), ``failed_tests``
    (names), ``output`` (pytest's text). Deterministic apart from ``output``.
    """
    scratch = Path(scratch)
    report = scratch / "report.xml"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
               "-o", "addopts=", f"--junitxml={report}", *tests]
    if deselect_slow:
        command += ["-m", "not slow"]
    env = dict(os.environ, PYTHONPATH=str(scratch), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True,
                            timeout=600)
    if result.returncode not in (0, 1):  # not a verdict: no tests ran, or pytest broke
        raise ValueError(f"tests must run and pass or fail; pytest exited with "
                         f"{result.returncode} on {', '.join(tests)}:\n{result.stdout[-2000:]}"
                         f"{result.stderr[-2000:]}")
    suite = ElementTree.parse(report).getroot().find("testsuite")
    failed = [case.get("name") for case in suite.iter("testcase")
              if case.find("failure") is not None]
    total = int(suite.get("tests")) - int(suite.get("skipped"))
    return {"returncode": result.returncode, "passed": total - len(failed)
            - int(suite.get("errors")), "failed": len(failed), "errors": int(suite.get("errors")),
            "failed_tests": failed, "output": result.stdout}


CONTRACT_TESTS = ("tests/core/test_contract.py",)
CROSSCHECK_TESTS = ("tests/core/test_crosscheck.py",)


def contract_check(mutation=None, *, tests=CONTRACT_TESTS):
    """Run the contract tests on a scratch copy, with the named defect applied if given."""
    with tempfile.TemporaryDirectory(prefix="ragscore-check-") as folder:
        scratch = scratch_copy(folder)
        if mutation is not None:
            apply_mutation(scratch, mutation)
        return run_tests(scratch, *tests, deselect_slow=True)


def contract_checks(mutations, *, tests=CONTRACT_TESTS, jobs=2, progress=None):
    """:func:`contract_check` for each of ``mutations`` (``None``: no defect), ``jobs`` at a
    time; returns ``{mutation: result}`` in the order given. ``progress(name)``, if given,
    is called as each check finishes."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(contract_check, name, tests=tests): name for name in mutations}
        results = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(futures[future])
    return {name: results[name] for name in mutations}


def progress_bar(total, what):
    """Display a progress bar for ``total`` steps and return it; ``bar.step(_)`` advances it.

    Its plain-text form is fixed (``0 of 4 test runs finished``, as when it was displayed),
    so a stored notebook does not depend on timing.
    """
    import ipywidgets as widgets
    from IPython.display import display

    label = f"0 of {total} {what}"

    class Progress(widgets.IntProgress):
        def __repr__(self):
            return label

        def step(self, _name=None):
            self.value += 1
            self.description = f"{self.value} of {total}"

    bar = Progress(value=0, min=0, max=total, description=f"0 of {total}",
                   style={"description_width": "initial"})
    display(bar)
    return bar
