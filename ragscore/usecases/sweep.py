"""``sweep``: every metric's macro mean at every cutoff from 1 to ``max_k``, per system, in
one pass of the counts: a :class:`Sweep`; with a ``baseline`` and a ``candidate``, the paired
statistics of every metric at every cutoff too, each p-value beside its Holm-adjusted one
(every metric at every cutoff is a test)."""
from collections import namedtuple

from ..core.aggregate import label_notes
from ..core.rules import InvalidInputError
from ..engine import DEFAULT_ENGINE
from ..render import sweep as written
from ..render.writers import Writer, data_writer, writer_table
from .reading import counted_runs, cutoff
from .result import Result

__all__ = ["Sweep", "sweep"]


class Sweep(Result, namedtuple("Sweep", "counted max_k table stats baseline candidate "
                                        "confidence seed", defaults=(None,) * 5)):
    """The macro means of each metric for k = 1 .. ``max_k``: ``table`` indexed by
    ``(system, k)`` (:func:`ragscore.tables.summary.sweep`); ``stats``: ``None``, or the
    paired statistics of ``candidate`` - ``baseline`` per metric and k
    (:func:`ragscore.tables.stats.stats_table` rows with their ``k``, ``p_holm`` adjusted
    over every metric and cutoff tested)."""

    __slots__ = ()
    job = "a sweep over k"

    @property
    def notes(self):
        """Span labels a chunking lost, and what the labels leave open at ``max_k``."""
        from ..io.spans import LOST_NOTE

        lost = [note for note in self.counted.notes if note.startswith(LOST_NOTE)]
        return tuple(lost + label_notes(self.counted, self.max_k))

    @property
    def said(self):
        return self.notes

    writers = writer_table(Writer("text", written.sweep_text),
                           data_writer("csv", written.sweep_csv),
                           data_writer("json", written.sweep_json))


def sweep(dataset, *, max_k, metrics=None, engine=DEFAULT_ENGINE, unit="chunk",
          dedupe=False, split=None, system=None, baseline=None, candidate=None,
          confidence=0.95, seed=0):
    """The macro means of ``metrics`` (default: the report's) for every k from 1 to
    ``max_k`` over ``dataset``, read once; with ``baseline`` and ``candidate`` (two of its
    systems), their paired statistics at every k too."""
    from ..tables.summary import sweep as swept

    if (baseline is None) != (candidate is None):
        raise InvalidInputError("--baseline and --candidate go together: the paired "
                                "statistics of a sweep compare two systems")
    if baseline is not None and system is not None:
        raise InvalidInputError("--system and --baseline/--candidate cannot combine: the "
                                "paired statistics read both systems")
    counted = counted_runs(dataset, engine=engine, unit=unit, dedupe=dedupe, split=split,
                           system=system)
    max_k = cutoff(max_k, counted.rules, option="max-k")
    table = swept(counted, max_k=max_k, metrics=metrics)
    stats = None
    if baseline is not None:
        stats = _paired(counted, max_k, metrics, baseline=baseline, candidate=candidate,
                        confidence=confidence, seed=seed)
    return Sweep(counted, max_k, table, stats, baseline, candidate, confidence, seed)


def _paired(counted, max_k, metrics, *, baseline, candidate, confidence, seed):
    """The paired statistics at every k from 1 to ``max_k``, one row per metric and k, the
    Holm adjustment taken over all of them: every metric at every cutoff is a test, decided
    before the data are read (a metric whose values at k are its values at k - 1 gives the
    same p again and is counted again: conservative; ``same_as_k`` names the first k)."""
    from ..tables.scores import question_table
    from ..tables.stats import stats_table, with_holm
    from ..render.stats import stats_records

    rows, earlier = [], {}
    for k in range(1, max_k + 1):
        table = question_table(counted, k=k, metrics=metrics)
        for row in stats_records(stats_table(table, baseline=baseline, candidate=candidate,
                                              confidence=confidence, seed=seed)):
            values = table[row["metric"]].astype(object).tolist()
            before, first_k = earlier.get(row["metric"], (None, k))
            first_k = first_k if before == values else k
            earlier[row["metric"]] = (values, first_k)
            rows.append({"k": k, **row, "same_as_k": first_k if first_k != k else None})
    return with_holm(rows)
