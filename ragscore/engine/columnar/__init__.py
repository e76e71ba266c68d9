"""The columnar engine: a test set as arrays, the count primitives as array kernels.

The package is the engine's columnar wing, everything that works on arrays:
:mod:`~ragscore.engine.columnar.batch` (a test set in columns),
:mod:`~ragscore.engine.columnar.kernels` (the count primitives),
:mod:`~ragscore.engine.columnar.reader` and :mod:`~ragscore.engine.columnar.screens` (a
dataset folder read in bulk, every rule screened on whole columns),
:mod:`~ragscore.engine.columnar.trec` (TREC files read in columns, for the importer) and
:mod:`~ragscore.engine.columnar.arrow` (Arrow buffers as numpy arrays).

IDs are encoded to integers and lists laid out flat
(:class:`~ragscore.engine.columnar.batch.Batch`);
:func:`~ragscore.engine.columnar.kernels.count_columns` counts every run at once, and a
metric is its registry formula read over
:class:`~ragscore.engine.columnar.kernels.ArrayAt` (the primitives at k, one value per
run). Every rule is the reference's: a batch is built by the checks the reference engine
applies, so both refuse the same input with the same message, and ``tests/engine/`` holds the two engines to the same values, bit for bit.
"""
import numpy as np

from ...core.metrics import COUNT, NOT_ASSESSED, NOT_LABELLED, RATE
from ...core.trials import Trials
from ..counted import Counted
from ..pages import ordinary_pages
from .kernels import ArrayAt, count_columns
from .layout import counts_of, take_rows

__all__ = ["ColumnarCounted", "count_batch", "count_folder", "count_runs"]


class ColumnarCounted(Counted):
    """:class:`~ragscore.engine.counted.Counted` over count columns
    (:class:`~ragscore.engine.columnar.kernels.CountColumns`), one row per run, each question's
    trials combined as :mod:`ragscore.core.trials` declares."""

    engine = "columnar"

    def __init__(self, keys, columns, question, **meta):
        super().__init__(keys, **meta)
        self.columns, self.question = columns, question
        self._at = {}
        self._plain = len(question) == len(keys) and bool(
            (question == np.arange(len(keys))).all())

    def at(self, k):
        """The primitives at ``k`` (kept, so every metric at one k reads them once)."""
        found = self._at.get(k)
        if found is None:
            if len(self._at) > 8:
                self._at.clear()
            found = self._at[k] = ArrayAt(self.columns, k)
        return found

    def _per_row(self, metric, k):
        """``(values, defined)`` of ``metric`` for every run (trials not combined)."""
        at = self.at(k)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = metric.formula(at, k)
            defined = (np.ones(self.columns.rows, dtype=bool) if metric.defined is None
                       else np.asarray(metric.defined(at), dtype=bool))
        values = np.broadcast_to(values, (self.columns.rows,))
        return values, defined

    def values(self, metric, k):
        values, defined = self._per_row(metric, k)
        if not self._plain:
            values, defined = self._combined(metric.kind, values, defined)
        return _listed(values, defined)

    def _combined(self, kind, values, defined):
        """One value per question from its trials' (see :func:`ragscore.core.trials.combine`):
        a rate's mean over defined trials, a yes/no's all, a count's largest."""
        questions = len(self.keys)
        found = np.bincount(self.question[defined], minlength=questions)
        if kind == RATE:
            sums = np.bincount(self.question[defined], weights=values[defined].astype(float),
                               minlength=questions)
            with np.errstate(divide="ignore", invalid="ignore"):
                return sums / found, found > 0
        if kind == COUNT:
            largest = np.full(questions, np.iinfo(np.int64).min, dtype=np.int64)
            np.maximum.at(largest, self.question[defined], values[defined].astype(np.int64))
            return largest, found > 0
        noes = np.bincount(self.question[defined & ~values.astype(bool)], minlength=questions)
        return noes == 0, found > 0

    def pooled_parts(self, metric, k):
        at = self.at(k)
        parts = []
        for part in (metric.pooled.numerator, metric.pooled.denominator):
            per_row = np.broadcast_to(part(at, k), (self.columns.rows,)).astype(np.int64)
            if not self._plain:
                per_row = np.bincount(self.question, weights=per_row,
                                      minlength=len(self.keys)).astype(np.int64)
            parts.append(per_row.tolist())
        return tuple(parts)

    def _first_rows(self):
        """The first run (trial) of each question."""
        if self._plain:
            return np.arange(len(self.keys))
        first = np.full(len(self.keys), -1)
        rows = np.arange(len(self.question))[::-1]
        first[self.question[::-1]] = rows
        return first

    def _reasons(self, metric, k):
        values = self.values(metric, k)
        first = self._first_rows()
        assessed = self.columns.assessed[first].tolist()
        labelled = self.columns.labelled[first].tolist()
        unlabelled = (metric.needs_labels & (self.columns.answerability[first] == -1)).tolist()
        answer = metric.stage == "answer"
        waiting = [False] * len(first)
        if metric.waiting is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                waiting = np.broadcast_to(np.asarray(metric.waiting(self.at(k))),
                                          (self.columns.rows,))[first].tolist()
        return [None if value is not None else
                NOT_ASSESSED if answer and not was_assessed else
                NOT_LABELLED if not_yet else
                "answer not labelled" if answer and not was_labelled else
                metric.waiting_reason if wait else metric.undefined
                for value, was_assessed, not_yet, was_labelled, wait in zip(
                    values, assessed, unlabelled, labelled, waiting)]

    def answerable(self):
        return (self.columns.answerability[self._first_rows()] != 0).tolist()

    def labelling(self):
        return self.columns.answerability[self._first_rows()].tolist()

    def field(self, name):
        columns, first = self.columns, self._first_rows()
        if name in ("dropped", "collapsed"):
            per_row = getattr(columns, name)
            return (per_row if self._plain else np.bincount(
                self.question, weights=per_row, minlength=len(self.keys)).astype(np.int64)
            ).tolist()
        if name == "trials":
            return np.bincount(self.question, minlength=len(self.keys)).tolist()
        if name == "n_relevant":
            return columns.n_relevant[first].tolist()
        if name == "n_expected":
            return _listed(columns.n_expected[first], columns.labelled[first])
        if name == "n_claims":
            assessed = columns.assessed[first]
            if self._plain:
                return _listed(columns.n_claims, assessed)
            questions = len(self.keys)
            sizes = np.bincount(self.question, minlength=questions)
            counted = np.bincount(self.question[columns.assessed], minlength=questions)
            sums = np.bincount(self.question[columns.assessed],
                               weights=columns.n_claims[columns.assessed], minlength=questions)
            with np.errstate(divide="ignore", invalid="ignore"):
                means = sums / counted
            return [None if not found else value if trials > 1 else int(value)
                    for value, found, trials in zip(means.tolist(), counted.tolist(),
                                                    sizes.tolist())]
        raise ValueError(f"no count field called {name!r}")

    def trial_values(self, metric, k):
        if self._plain:
            return {}
        values, defined = self._per_row(metric, k)
        listed = _listed(values, defined)
        found = {}
        sizes = np.bincount(self.question, minlength=len(self.keys))
        for row, question in enumerate(self.question.tolist()):
            if sizes[question] > 1:
                found.setdefault(question, []).append(listed[row])
        return found

    def take(self, positions, **meta):
        positions = np.asarray(list(positions), dtype=np.int64)
        rows = np.flatnonzero(np.isin(self.question, positions))
        renumber = np.full(len(self.keys), -1)
        renumber[positions] = np.arange(len(positions))
        if not self._plain:  # each question's trials in the new question order
            rows = rows[np.argsort(renumber[self.question[rows]], kind="stable")]
        else:
            rows = positions
        columns = take_rows(self.columns, rows)
        question = renumber[self.question[rows]]
        keys = [self.keys[p] for p in positions.tolist()]
        meta = self._meta(**meta)
        if meta["ops"]:
            kept = set(keys)
            meta["ops"] = {key: records for key, records in meta["ops"].items()
                           if key in kept} or None
        return ColumnarCounted(keys, columns, question, **meta)

    def counts_at(self, position):
        rows = np.flatnonzero(self.question == position).tolist()
        found = [counts_of(self.columns, row) for row in rows]
        return found[0] if self._plain or len(found) == 1 and not self._trials(position) \
            else Trials(found)

    def _trials(self, position):
        return "trials" in self.features and int(np.count_nonzero(self.question == position)) > 1


def _listed(values, defined):
    """``values`` as a list of Python values, ``None`` where not ``defined``."""
    listed = np.asarray(values).tolist()
    for row in np.flatnonzero(~np.asarray(defined)).tolist():
        listed[row] = None
    return listed


def count_batch(batch):
    """The :class:`ColumnarCounted` of a :class:`~ragscore.engine.columnar.batch.Batch`
    (every rule already applied as it was made)."""
    with ordinary_pages():
        columns = count_columns(batch)
    return ColumnarCounted(batch.keys, columns, batch.question, rules=batch.rules,
                           notes=batch.notes, features=batch.features, ops=batch.ops,
                           attributes=batch.attributes)


def count_runs(corpus, cases, runs, *, rules, progress=None, **options):
    """The columnar counts of in-memory runs: read in columns, every rule screened on whole
    columns (:func:`ragscore.engine.columnar.memory.encode_memory`), or, where a screen fails
    or the input holds what only the record path reads (and whenever ``progress`` is
    given, or a grade is negative), each run validated as the reference engine validates it
    (:func:`ragscore.engine.columnar.batch.encode_runs`, which names any problem); then
    counted in arrays."""
    from .batch import encode_runs
    from .memory import encode_memory
    from .screens import Unclean

    batch = None
    with ordinary_pages():
        if progress is None and not _negative_grades(cases):
            try:
                batch = encode_memory(corpus, cases, runs, rules=rules, **options)
            except Unclean:
                batch = None
        if batch is None:
            batch = encode_runs(corpus, cases, runs, rules=rules, progress=progress, **options)
    return count_batch(batch)


def _negative_grades(cases):
    """True when a case lists an ID with a negative grade (trec_eval's pooled but unjudged,
    :func:`ragscore.core.counts.pool_unjudged`): such runs are counted record by record, the
    path that carries them (malformed cases are left to the checks)."""
    try:
        return any(min(relevant.values()) < 0 for relevant in (
            case.get("relevant") for case in cases.values())
            if type(relevant) is dict and relevant)
    except (TypeError, AttributeError):
        return False


def count_bulk(path, *, unit="chunk", dedupe=False, max_bytes, progress=None):
    """The columnar counts of the dataset folder at ``path`` read in bulk
    (:func:`ragscore.engine.columnar.reader.read_batch`), or ``None`` when it must be read record by
    record. A folder read in bulk holds only the fields the bulk reader reads (no answer
    text: see :mod:`ragscore.engine.columnar.reader`)."""
    from .reader import read_batch

    with ordinary_pages():
        batch = read_batch(path, unit=unit, dedupe=dedupe, max_bytes=max_bytes)
    if batch is None:
        return None
    if progress is not None:
        progress(len(batch.keys), len(batch.keys))
    return count_batch(batch)


def count_folder(path, *, unit="chunk", dedupe=False, max_bytes, progress=None, bulk=True):
    """The columnar counts of the dataset folder at ``path``: read in bulk
    (:func:`count_bulk`) when it can be (and ``bulk``), else record by record
    (:func:`ragscore.engine.columnar.batch.encode`, which names any problem)."""
    from .batch import encode

    counted = count_bulk(path, unit=unit, dedupe=dedupe, max_bytes=max_bytes,
                         progress=progress) if bulk else None
    if counted is not None:
        return counted
    batch = encode(path, unit=unit, dedupe=dedupe, max_bytes=max_bytes, progress=progress)
    return count_batch(batch)
