"""A dataset written as TREC files, for trec_eval, pytrec_eval, ir_measures or ranx.

``{prefix}.qrels`` holds one ``qid 0 docno grade`` line per judged document;
``{prefix}.{system}.run`` one ``qid Q0 docno rank score system`` line per retrieved
document. The score is ``n - rank + 1`` for a ranking of ``n`` documents: strictly
decreasing, so every tool, whatever its tie-breaking, sees the dataset's order. Each file is
written under a temporary name beside it and renamed into place (``os.replace``), so a
reader never sees half a file.

What TREC files cannot say is left out: corpus text, expected claims and recorded
answers, chunk sources and versions, ``min_relevance`` (pass it again on import), and a
case with nothing judged (no qrels line can carry it: it disappears on re-import, as its
runs then have no qrels).
"""
import os
import re
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..io.check import check_dataset
from ..io.store import write_file_atomically

__all__ = ["export_trec"]

_SPACE = re.compile(r"\s").search
_PATH_SEPARATORS = {"/", "\\"} | {os.sep} | ({os.altsep} if os.altsep else set())


def export_trec(dataset, prefix):
    """Write ``dataset`` as ``{prefix}.qrels`` and one ``{prefix}.{system}.run`` per system;
    return the paths written, qrels first.

    Graded relevance is written grade by grade (zero and negative grades included); binary
    relevance as grade 1, or as the dataset's ``min_relevance`` when that is higher, so a
    re-import with the same ``min_relevance`` judges the same IDs relevant. Raises
    :class:`~ragscore.core.rules.InvalidInputError` for a dataset that is not valid or an ID
    a TREC file cannot hold (one with whitespace; a question starting with ``#``, which
    readers take for a comment), before anything is written.

    >>> import pathlib, shutil, tempfile
    >>> from ragscore.io.course import load_course
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> [path.name for path in export_trec(load_course(), folder / "course")]
    ['course.qrels', 'course.A.run', 'course.B.run']
    >>> print((folder / "course.B.run").read_text().splitlines()[0])
    launch Q0 launch 1 2 B
    >>> shutil.rmtree(folder)
    """
    check_dataset(dataset)
    prefix = os.fspath(prefix)
    systems = dataset.systems
    _check_names(dataset, systems)
    binary_grade = max(1, dataset.min_relevance)
    qrels_path = Path(f"{prefix}.qrels")
    run_paths = [Path(f"{prefix}.{system}.run") for system in systems]
    qrels_path.parent.mkdir(parents=True, exist_ok=True)
    write_file_atomically(qrels_path, _qrels_lines(dataset, binary_grade))
    for system, path in zip(systems, run_paths):
        write_file_atomically(path, _run_lines(dataset, system))
    return [qrels_path, *run_paths]


def _judged(case, binary_grade):
    relevant = case["relevant"]
    if type(relevant) is dict:
        return relevant.items()
    return ((doc, binary_grade) for doc in relevant)


def _check_names(dataset, systems):
    """Refuse, before writing, any ID a TREC line or a file name cannot hold."""
    checked = set()

    def check(value, what):
        if value not in checked:
            if _SPACE(value):
                raise InvalidInputError(f"{what} {show(value)} cannot be written to a TREC "
                                        "file: it holds whitespace")
            checked.add(value)

    folded = {}
    for system in systems:
        check(system, "system")
        if any(separator in system for separator in _PATH_SEPARATORS) or system in (".", ".."):
            raise InvalidInputError(f"system {show(system)} cannot name a run file")
        other = folded.setdefault(system.casefold(), system)
        if other != system:
            raise InvalidInputError(f"systems {show(other)} and {show(system)} would share a "
                                    "run file on a case-insensitive file system")
    for name, case in dataset.cases.items():
        check(name, "case")
        if name.startswith("#"):
            raise InvalidInputError(f"case {show(name)} cannot be written to a TREC file: "
                                    "a line starting with '#' is read as a comment")
        for doc, _ in _judged(case, 1):
            check(doc, "document")
    for name, per_case in dataset.runs.items():
        for system, run in per_case.items():
            if type(run) is not dict:  # repeated trials: several rankings of one question
                raise InvalidInputError(
                    f"case {show(name)}, system {show(system)}: {len(run)} trials recorded; a "
                    "TREC run holds one ranking per question, so runs with repeated trials "
                    "are not exported (keep one trial per question first)")
            for doc in run["retrieved"]:
                check(doc, "document")


def _qrels_lines(dataset, binary_grade):
    for name, case in dataset.cases.items():
        yield "".join(f"{name} 0 {doc} {grade}\n" for doc, grade in _judged(case, binary_grade))


def _run_lines(dataset, system):
    for name, per_case in dataset.runs.items():
        run = per_case.get(system)
        if run is not None:
            ranked = run["retrieved"]
            top = len(ranked) + 1
            yield "".join(f"{name} Q0 {doc} {rank} {top - rank} {system}\n"
                          for rank, doc in enumerate(ranked, 1))
