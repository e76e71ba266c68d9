"""Run the contract tests from a notebook, with or without one of the workbook's defects.

Needs a checkout of the repository (``tests/`` beside ``ragscore/``), as ``make lab`` has.
With ``reuse=True`` a result is kept under a hash of everything the run reads (the files it
copies, the defect, the tests named, Python's and pytest's versions) and read back when
exactly that is run again: the same code gives the same verdict, so a live page need not
wait for pytest four times to show it.
"""
import hashlib
import json
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


#: The ten behaviours the workbook's own test file checks, in its order, each with the
#: contract tests that pin it (tests/core/test_contract.py). Chapter 5 shows them first.
BEHAVIOURS = (
    ("a short list keeps k as the denominator of P@k",
     ("test_short_list_keeps_cutoff_denominator",)),
    ("good retrieval does not hide an unsupported extra claim",
     ("test_good_retrieval_does_not_hide_extra_claim",)),
    ("a complete, supported answer scores 1 on support and coverage",
     ("test_complete_supported_answer",)),
    ("a wrong citation is not support, even when the right note was retrieved",
     ("test_existing_but_wrong_citation_is_not_support",)),
    ("a citation to a note outside the top k does not count",
     ("test_citation_outside_visible_context_is_unsupported",)),
    ("a missing, unknown or partly wrong citation does not count",
     ("test_missing_unknown_or_mixed_citations_do_not_count",)),
    ("abstention is scored apart from the values that are n/a",
     ("test_abstention_is_separate_from_missing_metrics",)),
    ("declining an answerable question scores coverage 0",
     ("test_answerable_abstention_has_zero_coverage",)),
    ("a note retrieved twice, or a claim made twice, is refused",
     ("test_duplicate_documents_are_rejected", "test_duplicate_claims_are_rejected")),
    ("a label outside the relevant notes, or a bad cutoff, is refused",
     ("test_support_label_outside_relevant_is_rejected", "test_invalid_cutoffs_are_rejected")),
)

#: What the contract file's other tests add beyond the ten behaviours.
OTHER_TESTS = {
    "test_workbook_table_at_k2": "the workbook's eight rows at k = 2, value by value",
    "test_result_keys_are_in_contract_order": "the six results, named and in order",
    "test_the_right_citation_alone_counts": "the right citation on its own is supported",
    "test_k_equal_1_scores_only_the_first_slot": "k = 1 scores the first note only",
    "test_k_equal_100_keeps_100_as_denominator": "k = 100 keeps 100 as P@k's denominator",
    "test_lists_of_exactly_100_ids_are_accepted": "lists of exactly 100 IDs are accepted",
    "test_lists_of_101_ids_are_refused": "lists of 101 IDs are refused, in each field",
    "test_101_claims_are_refused": "an answer of 101 claims is refused",
    "test_100_claims_are_accepted": "an answer of 100 claims is accepted",
    "test_a_million_document_corpus_is_accepted": "a corpus of a million notes is accepted",
    "test_evaluate_does_not_change_its_inputs": "evaluate never changes what it is given",
    "test_k_is_keyword_only": "k must be passed by name",
}


def test_function(name):
    """The test function of a test's name: ``test_x[3]`` -> ``test_x``."""
    return name.split("[")[0]


def behaviour_rows(results):
    """The ten behaviours as plain rows: each behaviour, how many tests pin it, and for each
    scorer in ``results`` (``{name: run_tests summary}``, ``None`` for the scorer as
    shipped) ``pass`` or ``FAIL`` (FAIL when any of its tests failed)."""
    rows = []
    for behaviour, functions in BEHAVIOURS:
        row = {"behaviour": behaviour}
        for name, result in results.items():
            ran = [test for test in result["tests"] if test_function(test) in functions]
            failed = [test for test in result["failed_tests"] if test_function(test) in functions]
            row.setdefault("tests", len(ran))
            row[name or "as shipped"] = "FAIL" if failed else ("pass" if ran else "not run")
        rows.append(row)
    return rows


def other_rows(result):
    """The contract tests outside the ten behaviours, from one :func:`run_tests` summary:
    what each adds and how many tests (parameters included) it ran."""
    pinned = {function for _, functions in BEHAVIOURS for function in functions}
    counts = {}
    for test in result["tests"]:
        if test_function(test) not in pinned:
            counts[test_function(test)] = counts.get(test_function(test), 0) + 1
    return [{"test": function, "adds": OTHER_TESTS.get(function, "(not described here)"),
             "tests": count} for function, count in counts.items()]


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

    Keys: ``returncode``, ``passed``, ``failed``, ``errors`` (counts), ``tests`` (the name
    of every test that ran, in order), ``failed_tests`` (names), ``output`` (pytest's
    text). Deterministic apart from ``output``.
    """
    scratch = Path(scratch)
    report = scratch / "report.xml"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
               "-o", "addopts=", f"--junitxml={report}", *tests]
    if deselect_slow:
        command += ["-m", "not slow"]
    # No plugins loaded by entry point (hypothesis, xdist, nbval, playwright): the contract
    # tests need none, and loading them took about 3 of a run's 5 seconds here.
    env = dict(os.environ, PYTHONPATH=str(scratch), PYTHONDONTWRITEBYTECODE="1",
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    result = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True,
                            timeout=600)
    if result.returncode not in (0, 1):  # not a verdict: no tests ran, or pytest broke
        raise ValueError(f"tests must run and pass or fail; pytest exited with "
                         f"{result.returncode} on {', '.join(tests)}:\n{result.stdout[-2000:]}"
                         f"{result.stderr[-2000:]}")
    suite = ElementTree.parse(report).getroot().find("testsuite")
    ran = [case for case in suite.iter("testcase") if case.find("skipped") is None]
    failed = [case.get("name") for case in ran if case.find("failure") is not None]
    total = int(suite.get("tests")) - int(suite.get("skipped"))
    return {"returncode": result.returncode, "passed": total - len(failed)
            - int(suite.get("errors")), "failed": len(failed), "errors": int(suite.get("errors")),
            "tests": [case.get("name") for case in ran], "failed_tests": failed,
            "output": result.stdout}


CONTRACT_TESTS = ("tests/core/test_contract.py",)
CROSSCHECK_TESTS = ("tests/core/test_crosscheck.py",)


def run_key(mutation, tests, *, source=ROOT):
    """The hash of everything a :func:`contract_check` reads: the bytes and paths of the
    files :func:`scratch_copy` copies, the defect, the tests named, Python's and pytest's
    versions."""
    from importlib.metadata import version

    digest = hashlib.sha256(json.dumps([mutation, list(tests), sys.version,
                                        version("pytest")]).encode("utf-8"))
    source = Path(source)
    paths = [source / name for name in ("pyproject.toml", "conftest.py")]
    for name in ("ragscore", "tests", "fixtures"):
        paths += sorted(path for path in (source / name).rglob("*")
                        if path.is_file() and "__pycache__" not in path.parts)
    for path in paths:
        digest.update(str(path.relative_to(source)).encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _kept(key):
    """Where the result of the run ``key`` is kept (the user's cache folder)."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home) / "ragscore" / "contract-checks" / f"{key}.json"


def _read_kept(key):
    try:
        return json.loads(_kept(key).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def _keep(key, result):
    """Write ``result`` atomically; a cache that cannot be written is only a slower page."""
    target = _kept(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=target.parent, suffix=".tmp",
                                         delete=False, encoding="utf-8") as handle:
            json.dump(result, handle)
        os.replace(handle.name, target)
    except OSError:
        pass


def contract_check(mutation=None, *, tests=CONTRACT_TESTS, reuse=False):
    """Run the contract tests on a scratch copy, with the named defect applied if given;
    with ``reuse``, read back the kept result of a run of exactly this code and these tests
    (:func:`run_key`) instead, and keep this one for next time."""
    key = run_key(mutation, tests) if reuse else None
    if key is not None:
        found = _read_kept(key)
        if found is not None:
            return found
    with tempfile.TemporaryDirectory(prefix="ragscore-check-") as folder:
        scratch = scratch_copy(folder)
        if mutation is not None:
            apply_mutation(scratch, mutation)
        result = run_tests(scratch, *tests, deselect_slow=True)
    if key is not None:
        _keep(key, result)
    return result


def contract_checks(mutations, *, tests=CONTRACT_TESTS, jobs=2, progress=None, reuse=False):
    """:func:`contract_check` for each of ``mutations`` (``None``: no defect), ``jobs`` at a
    time; returns ``{mutation: result}`` in the order given. ``progress(name)``, if given,
    is called as each check finishes; ``reuse`` as in :func:`contract_check`."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(contract_check, name, tests=tests, reuse=reuse): name
                   for name in mutations}
        results = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(futures[future])
    return {name: results[name] for name in mutations}


def progress_bar(total, what):
    """Display a progress bar for ``total`` steps and return it; ``bar.step(_)`` advances it.

    Its plain-text form, which a stored page shows in place of the bar, is the bar when the
    cell has finished (``4 of 4 test runs finished``): fixed, so a stored notebook does not
    depend on timing, and what the bar reads once the results below it exist.
    """
    import ipywidgets as widgets
    from IPython.display import display

    label = f"{total} of {total} {what}"

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
