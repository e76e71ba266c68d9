"""``sweep``: every metric's macro mean at every cutoff from 1 to ``max_k``, per system, in
one pass of the counts: a :class:`Sweep`."""
from collections import namedtuple

from ..core.aggregate import label_notes
from ..engine import DEFAULT_ENGINE
from ..render import sweep as written
from ..render.writers import Writer, data_writer, writer_table
from .reading import counted_runs, cutoff
from .result import Result

__all__ = ["Sweep", "sweep"]


class Sweep(Result, namedtuple("Sweep", "counted max_k table")):
    """The macro means of each metric for k = 1 .. ``max_k``: ``table`` indexed by
    ``(system, k)`` (:func:`ragscore.tables.summary.sweep`)."""

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
          dedupe=False, split=None, system=None):
    """The macro means of ``metrics`` (default: the report's) for every k from 1 to
    ``max_k`` over ``dataset``, read once."""
    from ..tables.summary import sweep as swept

    counted = counted_runs(dataset, engine=engine, unit=unit, dedupe=dedupe, split=split,
                           system=system)
    max_k = cutoff(max_k, counted.rules, option="max-k")
    return Sweep(counted, max_k, swept(counted, max_k=max_k, metrics=metrics))
