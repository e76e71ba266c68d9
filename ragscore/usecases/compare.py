"""``compare``: two systems of one test set (or two chunkings of one span test set), question
by question: a :class:`Comparison`.

The comparison pairs each question both systems ran; for every metric it gives the
baseline's value, the candidate's, the delta and the verdict (regressed, improved, no
longer defined, newly defined, changed, unchanged); ``stats`` adds paired statistics per
metric; ``measures`` compares named measures (``nDCG@10 AP``) instead of metrics at k.
Systems judged under different rubrics are refused unless ``allow_mismatch``; then, as for
a comparison that mixes splits, the result warns first.
"""
from collections import namedtuple

from ..core.aggregate import label_notes
from ..core.rules import InvalidInputError
from ..engine import DEFAULT_ENGINE
from ..render import compare as written
from ..render.writers import Writer, data_writer, writer_table
from .reading import counted_runs, cutoff, is_path
from .result import Result, removal_notes

__all__ = ["Comparison", "compare"]


class Comparison(Result, namedtuple(
        "Comparison", "counted k baseline candidate metrics measures stats confidence seed "
                      "na_as_zero warnings with_stats")):
    """Two systems compared: the ``counted`` runs, the cutoff ``k``, the ``baseline`` and
    ``candidate`` names, the ``metrics`` compared (registry names, or ``None``: the
    defaults), the named ``measures`` (text, or ``None``), the ``stats`` table (paired
    statistics per metric, or ``None``), their ``confidence`` and ``seed``, ``na_as_zero``,
    the ``warnings`` said first (a rubric mismatch allowed, mixed splits) and ``with_stats``
    (statistics asked for: with named measures they are in the summary of csv and json)."""

    __slots__ = ()
    job = "a comparison"

    @property
    def notes(self):
        return tuple(label_notes(self.counted, self.k,
                                 systems={self.baseline, self.candidate}))

    @property
    def warned(self):
        return self.warnings

    @property
    def said(self):
        return self.notes

    @property
    def aside(self):
        na = (("ragscore: note: --na-as-zero: retrieval metrics with nothing relevant count "
               "0 on both sides (trec_eval's convention), and nugget scores that are n/a "
               "too (nuggetizer's)"),) if self.na_as_zero else ()
        return na + removal_notes(self.counted)

    writers = writer_table(Writer("text", written.comparison_text_of),
                           data_writer("csv", written.comparison_csv),
                           data_writer("json", written.comparison_json))


def _read(dataset, *, baseline, candidate, engine, unit, dedupe, split, allow_mismatch):
    """``(counted, problem)``: the counted runs and why the two may not be compared (or
    ``None``)."""
    if dataset is None:  # baseline DIR:SYSTEM, candidate DIR:SYSTEM: two chunkings
        from ..engine.pairs import pair_folders
        from ..io.manifest import rubric_conflict
        from ..render.progress import Progress

        with Progress("reading and counting the two folders"):
            pair = pair_folders(baseline, candidate, engine=engine, unit=unit, dedupe=dedupe,
                                allow_mismatch=allow_mismatch)
        counted = counted_runs(pair.counted, split=split)
        problem = pair.mismatch or rubric_conflict(pair.view.manifests, pair.view.rubric,
                                                   baseline, candidate)
        return counted, problem
    from ..io.manifest import rubric_mismatch

    counted = counted_runs(dataset, engine=engine, unit=unit, dedupe=dedupe, split=split)
    if is_path(dataset):
        return counted, rubric_mismatch(dataset, baseline, candidate)
    from ..io.manifest import rubric_conflict

    return counted, rubric_conflict(getattr(dataset, "manifests", None),
                                    getattr(dataset, "rubric", None), baseline, candidate)


def compare(dataset, *, baseline, candidate, k=2, metrics=None, measures=None, stats=False,
            confidence=0.95, seed=0, na_as_zero=False, allow_mismatch=False,
            engine=DEFAULT_ENGINE, unit="chunk", dedupe=False, split=None):
    """Compare system ``candidate`` with ``baseline`` over ``dataset`` (a folder's path, a
    Dataset, or ``None`` with ``baseline`` and ``candidate`` as ``DIR:SYSTEM`` of two
    chunkings of one span test set); return a :class:`Comparison`."""
    from ..core.paired import split_mix

    if measures is not None and metrics is not None:
        raise InvalidInputError("--metrics and --measures both name what to compare; give "
                                "one of them")
    counted, problem = _read(dataset, baseline=baseline, candidate=candidate, engine=engine,
                             unit=unit, dedupe=dedupe, split=split,
                             allow_mismatch=allow_mismatch)
    k = cutoff(k, counted.rules)
    warnings = []
    if problem and not allow_mismatch:
        raise InvalidInputError(f"{problem}; refusing to compare (pass --allow-mismatch to "
                                "compare anyway)")
    if problem:
        warnings.append(f"--allow-mismatch: {problem}")
    if measures is not None:
        from .measured import _measures

        _measures(measures, trec=False, k=k)
    mixed = split_mix(counted)
    if mixed:
        warnings.append("this comparison mixes splits ("
                        + ", ".join(f"{count} {name}" for name, count in mixed.items())
                        + " questions); a decision belongs on held-out questions: "
                          "--split heldout")
    table = None
    if stats and measures is None:  # named measures: their summary holds the statistics
        from ..tables.scores import question_table
        from ..tables.stats import stats_table

        table = question_table(counted, k=k, metrics=metrics, na_as_zero=na_as_zero)
        table = stats_table(table, baseline=baseline, candidate=candidate,
                            confidence=confidence, seed=seed)
    return Comparison(counted, k, baseline, candidate, metrics, measures, table, confidence,
                      seed, na_as_zero, tuple(warnings), stats)
