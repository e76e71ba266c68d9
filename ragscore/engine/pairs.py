"""Two chunkings compared fairly: one system of each of two folders cut from one span test
set, counted on its own chunking and paired question by question.

``compare``, ``gate`` and ``html`` take ``--baseline DIR:SYSTEM --candidate DIR:SYSTEM``
(no DATASET): :func:`pair_folders` loads both folders, refuses them unless they hold the
same span test set (:func:`~ragscore.io.manifest.span_fingerprint`: the same documents,
questions and span labels; only the chunking and the runs differ), derives each folder's
labels on its own chunking and counts each system there, then joins the two as one
:class:`~ragscore.engine.reference.ReferenceCounted` whose two systems are named as given
(``DIR:SYSTEM``), so every table, statistic and gate reads them as two systems of one test
set.
"""
from collections import namedtuple
from pathlib import Path

from ..core.rules import InvalidInputError, show

__all__ = ["FolderPair", "pair_folders", "split_side"]


class FolderPair(namedtuple("FolderPair", "counted view cases baseline candidate "
                                          "fingerprint mismatch", defaults=(None,))):
    """Two folders' systems joined: ``counted`` (their rows, each system named as given),
    ``view`` (a :class:`~ragscore.io.format.Dataset` holding the baseline folder's
    questions and, per system, its folder's runs and manifest: what the gate and the shared
    page read), ``cases`` (``{name: cases}``: each side's questions with the labels derived
    on its own chunking), ``baseline`` and ``candidate`` (the names), and the span test
    set's ``fingerprint`` (the baseline's), and ``mismatch``: why the two may not be compared
    (their span test sets differ: a document edited, a question or a label changed), when
    that was allowed, else ``None``."""

    __slots__ = ()


def split_side(text, role):
    """``(folder, system)`` of ``DIR:SYSTEM`` (the last ``:`` whose left side is a folder).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     split_side(folder + ":bm25", "baseline") == (folder, "bm25")
    True
    """
    for position in range(len(text) - 1, 0, -1):
        if text[position] == ":" and Path(text[:position]).is_dir():
            return text[:position], text[position + 1:]
    raise InvalidInputError(f"--{role} must be DIR:SYSTEM (a dataset folder, a colon and a "
                            f"system of it) when no DATASET is given; got {show(text)}")


def _side(text, role, engine, unit, dedupe):
    from ..io.answers import derive_with_waiting
    from ..io.read import load_dataset
    from ..io.manifest import span_fingerprint
    from . import count_dataset
    from .parquet import CODEC

    folder, system = split_side(text, role)
    dataset = load_dataset(folder, codec=CODEC)
    if not dataset.documents:
        raise InvalidInputError(f"--{role} {show(text)}: {show(folder)} is not a span test "
                                "set (it holds no source documents); two folders are "
                                "compared only when cut from one span test set")
    if system not in dataset.systems:
        raise InvalidInputError(f"--{role} {show(text)}: system {show(system)} has no runs "
                                f"in {show(folder)}; systems: "
                                f"{', '.join(map(show, dataset.systems)) or 'none'}")
    derived, _ = derive_with_waiting(dataset, unit=unit)
    counted = count_dataset(dataset, engine=engine, unit=unit, dedupe=dedupe)
    return dataset, derived, counted.by_system()[system], system, span_fingerprint(dataset)


def _side_notes(notes, system, name):
    """A folder's notes about its side, said of it (``system NAME: ...``, as the gate
    repeats them): the system's own, and how many span labels its chunking lost."""
    from ..io.spans import LOST_NOTE

    prefix = f"system {system}: "
    return [f"system {name}: {note[len(prefix):] if note.startswith(prefix) else note}"
            for note in notes if note.startswith((prefix, LOST_NOTE))]


def pair_folders(baseline, candidate, *, engine="columnar", unit="chunk", dedupe=False,
                 allow_mismatch=False):
    """The :class:`FolderPair` of ``baseline`` and ``candidate`` (each ``DIR:SYSTEM``);
    refused when they name the same side twice, or when the two folders do not hold the
    same span test set (a document edited between them, say) unless ``allow_mismatch``:
    then the pair says why in its ``mismatch``, for the output's first line."""
    from ..io.format import Dataset
    from .reference import ReferenceCounted

    if baseline == candidate:
        raise InvalidInputError(f"--baseline and --candidate must differ; both are "
                                f"{show(baseline)}")
    sides = [_side(text, role, engine, unit, dedupe)
             for text, role in ((baseline, "baseline"), (candidate, "candidate"))]
    (first, _, _, _, printed), (second, _, _, _, other) = sides
    mismatch = None
    if printed != other:
        mismatch = (f"the two folders hold different span test sets (fingerprints "
                    f"{printed[:12]} and {other[:12]}: their documents, questions or span "
                    "labels differ)")
        if not allow_mismatch:
            raise InvalidInputError(
                f"{mismatch}; two chunkings are compared only on one span test set (ragscore "
                "rechunk cuts a new chunking of it; --allow-mismatch compares them anyway)")
    keys, counts, notes, ops, waiting = [], [], [], {}, {}
    runs, manifests, cases = {}, {}, {}
    features = set()
    for name, (dataset, derived, rows, system, _) in zip((baseline, candidate), sides):
        for position, (case, _) in enumerate(rows.keys):
            keys.append((case, name))
            counts.append(rows.counts_at(position))
            runs.setdefault(case, {})[name] = derived.runs[case][system]
        notes += _side_notes(rows.notes, system, name)
        ops.update({(case, name): found for (case, who), found in (rows.ops or {}).items()
                    if who == system})
        waiting.update({(case, name): found for (case, who), found in rows.waiting.items()})
        features |= rows.features
        if (dataset.manifests or {}).get(system) is not None:
            manifests[name] = dataset.manifests[system]
        cases[name] = derived.cases
    counted = ReferenceCounted(keys, counts, rules=sides[0][2].rules, notes=tuple(notes),
                               features=frozenset(features), ops=ops or None,
                               attributes=sides[0][2].attributes, waiting=waiting)
    view = Dataset(corpus=first.corpus, cases=sides[0][1].cases, runs=runs,
                   name=f"{first.name} and {second.name}", ids="open",
                   rubric=first.rubric, manifests=manifests or None)
    return FolderPair(counted, view, cases, baseline, candidate, printed, mismatch)
