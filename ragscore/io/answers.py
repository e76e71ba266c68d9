"""Runs that record only their ``answer``: claims derived for a whole dataset.

:func:`derive_dataset` gives every run that records ``answer`` and no ``claims`` the pairs
:func:`ragscore.core.answers.derive_run` derives (or ``None``, not assessed, while any claim
awaits review) and adds one note per system saying how many answers wait and for how many
claims, so every report and the gate say why support and coverage are n/a. Recorded claims
are left as they are. :func:`derived_claims` lists the claims themselves (``ragscore
claims``).
"""
import json
import os
import stat

from ..core.answers import derive_run, judgements_of, pooled_labels
from ..core.rules import InvalidInputError, show
from ..core.trials import trial_runs
from .jsonl import as_path
from .store import INDEX

__all__ = ["answer_only", "derive_dataset", "derived_claims", "folder_has_answers",
           "derive_with_waiting", "has_answer_only", "labelled_by_reviews", "waiting_note"]


def answer_only(run):
    """True when ``run`` (one trial) records ``answer`` and no ``claims``."""
    return type(run) is dict and "answer" in run and run.get("claims") is None


def has_answer_only(dataset):
    """True when some run (or trial) of ``dataset`` records ``answer`` and no ``claims``."""
    runs = getattr(dataset, "runs", None)
    return type(runs) is dict and any(
        answer_only(run) for per_case in runs.values() if type(per_case) is dict
        for trials in per_case.values()
        for run in (trials if type(trials) is list else (trials,)))


def waiting_note(system, answers, claims):
    """The sentence a report repeats for one system's answers awaiting review.

    >>> waiting_note("A", 2, 5)
    'system A: support and coverage n/a for 2 answers (not assessed: 5 claims await review)'
    """
    from ..core.metrics import waiting_reason

    noun = "answer" if answers == 1 else "answers"
    return (f"system {system}: support and coverage n/a for {answers} {noun} "
            f"({waiting_reason(claims)})")


def _derive(dataset, case_name, system, run, judgements, options):
    case = dataset.cases[case_name]
    try:
        return derive_run(case.get("question", ""), case.get("support"), run, judgements,
                          known=dataset.corpus.keys(), **options)
    except InvalidInputError as error:
        raise InvalidInputError(f"case {show(case_name)}, system {show(system)}: "
                                f"{error}") from None


def labelled_by_reviews(dataset, judgements):
    """``{case: case}`` for the cases whose answer is not labelled (no ``support``) and whose
    reviews pool labels (:func:`ragscore.core.answers.pooled_labels`): each with those
    expected claims as its ``support`` and their sources added to ``relevant`` (a grade
    list gives them ``min_relevance``)."""
    labelled = {}
    for name, case in dataset.cases.items():
        if case.get("support") is not None:
            continue
        pooled = pooled_labels(case.get("question", ""), judgements)
        if not pooled:
            continue
        docs = [doc for sources in pooled.values() for doc in sources]
        relevant = case.get("relevant") or ()
        if isinstance(relevant, dict):
            grade = getattr(dataset, "min_relevance", 1)
            relevant = {**relevant, **{doc: grade for doc in docs
                                       if relevant.get(doc, 0) < grade}}
        else:
            relevant = tuple(relevant) + tuple(dict.fromkeys(
                doc for doc in docs if doc not in relevant))
        labelled[name] = {**case, "support": pooled, "relevant": relevant}
    return labelled


def _pooled(dataset, judgements):
    """``dataset`` with the cases its reviews label (:func:`labelled_by_reviews`), and a note
    saying how many."""
    labelled = labelled_by_reviews(dataset, judgements)
    if not labelled:
        return dataset
    noun = "question" if len(labelled) == 1 else "questions"
    note = (f"{len(labelled)} {noun} labelled by their reviews (expected claims and sources "
            "pooled from claims judged supported: docs/answers.md)")
    return dataset._replace(cases={**dataset.cases, **labelled},
                            notes=tuple(getattr(dataset, "notes", ()) or ()) + (note,))


def derived_claims(dataset, *, systems=None, split="sentence", pattern=None, judges=False):
    """Yield ``(case, system, trial, DerivedRun)`` for every answer-only run, in the
    dataset's order (``trial`` is ``None`` for a single run)."""
    judgements = judgements_of(dataset.cases, judges=judges)
    dataset = _pooled(dataset, judgements)
    options = {"split": split, "pattern": pattern}
    for case_name, per_case in dataset.runs.items():
        for system, trials in per_case.items():
            if systems and system not in systems:
                continue
            for run in trial_runs(trials):
                if answer_only(run):
                    yield case_name, system, run.get("trial"), _derive(
                        dataset, case_name, system, run, judgements, options)


def derive_dataset(dataset, *, split="sentence", pattern=None, judges=False):
    """``dataset`` with claims derived for its answer-only runs (see the module doc), and
    the cases whose reviews label them (:func:`labelled_by_reviews`)."""
    return derive_with_waiting(dataset, split=split, pattern=pattern, judges=judges)[0]


def derive_with_waiting(dataset, *, split="sentence", pattern=None, judges=False):
    """``(dataset, waiting)``: :func:`derive_dataset`'s dataset, and ``{(case, system):
    claims awaiting review}`` for each answer not assessed yet (trials added up)."""
    judgements = judgements_of(dataset.cases, judges=judges)
    dataset = _pooled(dataset, judgements)
    options = {"split": split, "pattern": pattern}
    runs, waiting, by_system = {}, {}, {}
    for case_name, per_case in dataset.runs.items():
        runs[case_name] = {}
        for system, trials in per_case.items():
            changed = []
            for run in trial_runs(trials):
                if answer_only(run):
                    derived = _derive(dataset, case_name, system, run, judgements, options)
                    run = dict(run)
                    run.pop("claims", None)
                    if derived.pairs is not None:
                        run["claims"] = derived.pairs
                    else:
                        answers, claims = by_system.get(system, (0, 0))
                        by_system[system] = (answers + 1, claims + derived.waiting)
                        key = (case_name, system)
                        waiting[key] = waiting.get(key, 0) + derived.waiting
                changed.append(run)
            runs[case_name][system] = changed if type(trials) is list else changed[0]
    notes = tuple(dataset.notes) + tuple(waiting_note(system, *found)
                                         for system, found in by_system.items())
    return dataset._replace(runs=runs, notes=notes), waiting


def _open_regular(path, limit):
    """A binary handle on ``path`` if it is a regular file within ``limit`` bytes, else
    ``None`` (opened without blocking: a FIFO or a device is never waited on)."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_size > limit:
        os.close(descriptor)
        return None
    return os.fdopen(descriptor, "rb")


def _mentions(handle, needle):
    """True when the file behind ``handle`` holds ``needle`` (a memory map searched in C;
    the handle is left at its start)."""
    import mmap

    if os.fstat(handle.fileno()).st_size == 0:
        return False
    with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        return mapped.find(needle) >= 0


def folder_has_answers(path, *, max_bytes=None):
    """True when some line of the folder's runs file records ``answer`` without
    ``claims`` (a byte search, no parsing: the folder is read properly afterwards); ``None``
    when the runs are a Parquet file (format version 5), which this layer does not read.
    Only regular files within ``max_bytes`` are read; anything else is left to the reader,
    which names the problem."""
    from .jsonl import MAX_FILE_BYTES

    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    folder = as_path(path)
    try:
        handle = _open_regular(folder / INDEX, limit)
        if handle is None:
            return False
        with handle:
            index = json.loads(handle.read().decode("utf-8"))
        name = (index.get("files") or {}).get("runs", "runs.jsonl")
        if type(name) is not str or "/" in name or "\\" in name:
            return False
        if not name.endswith(".jsonl"):
            return None  # a Parquet file: the engine reads its columns (see count_folder)
        handle = _open_regular(folder / name, limit)
        if handle is None:
            return False
        with handle:
            if not _mentions(handle, b'"answer"'):
                return False  # one search in C: most folders record no answer text
            for line in handle:
                if b'"answer"' in line and b'"claims"' not in line:
                    return True
    except (OSError, ValueError, AttributeError, TypeError):
        return False
    return False
