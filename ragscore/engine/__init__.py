"""The engine seam: everything that scores a batch of runs goes through here.

Two engines with one interface, chosen by one keyword (``engine=``, on the command line
``--engine``), the way ir_measures chooses a provider:

- ``reference``: the plain per-record counter (:mod:`ragscore.engine.reference`), the
  specification; ``evaluate``, the course and the equivalence tests read it;
- ``columnar`` (the default for batches): IDs encoded to integers, rankings and claims as
  flat arrays, the count primitives as array kernels (:mod:`ragscore.engine.columnar`).

Both return a :class:`~ragscore.engine.counted.Counted`; tables, aggregates, comparisons,
sweeps, the gate, baselines and the audit read only its methods. Metric formulas live in
their registry modules (:mod:`ragscore.core.metrics`) and are read by both engines.

>>> from ragscore.core.metrics import REGISTRY
>>> from ragscore.io.course import load_course
>>> counted = count_dataset(load_course(), engine="reference")
>>> counted.values(REGISTRY["rr"], 2)[:6]
[1.0, 1.0, 1.0, 1.0, 0.5, 1.0]
"""
from ..core.labels import is_machine
from ..core.rules import COURSE, InvalidInputError, show
from .counted import Counted

#: The engines, by name.
ENGINES = ("reference", "columnar")
#: The engine a batch is scored with unless told otherwise.
DEFAULT_ENGINE = "columnar"
#: The note a count made with machines' drafts carries.
DRAFTS_NOTE = ("machines' drafts count where no person judged an item (--drafts): these "
               "scores are not reviewed")

__all__ = ["Counted", "DEFAULT_ENGINE", "ENGINES", "count_dataset", "count_folder",
           "count_runs", "count_scope", "default_metrics"]


def check_engine(engine):
    """Return ``engine`` if it names an engine, else raise a clear error."""
    if type(engine) is not str or engine not in ENGINES:
        raise InvalidInputError(f"engine must be one of {', '.join(ENGINES)}; got "
                                f"{show(engine)}")
    return engine


def count_runs(corpus, cases, runs, *, engine=DEFAULT_ENGINE, rules=COURSE, progress=None,
               **options):
    """Validate and count every ``runs[case][system]`` once; return a
    :class:`~ragscore.engine.counted.Counted`.

    ``options`` are the dataset's (``min_relevance``, ``unit``, ``dedupe``, ``sources``,
    ``groups``, ``superseded``; see :class:`~ragscore.core.scoring.Counter`); an error names
    the case and the system. ``progress(done, total)``, if given, is called as work is done.
    """
    check_engine(engine)
    if engine == "columnar":
        from .columnar import count_runs as count_columnar

        return count_columnar(corpus, cases, runs, rules=rules, progress=progress, **options)
    from .reference import count_runs as count_reference

    return count_reference(corpus, cases, runs, rules=rules, progress=progress, **options)


def count_dataset(dataset, *, engine=DEFAULT_ENGINE, progress=None, unit="chunk",
                  dedupe=False, drafts=False):
    """The counted runs of a :class:`~ragscore.io.dataset.Dataset`, under the ID rules,
    ``min_relevance``, chunk sources, access groups and superseded chunks it declares; a
    :class:`~ragscore.engine.counted.Counted` is returned as it is. ``drafts``: machines'
    drafts count where no person judged an item (a note says so)."""
    if isinstance(dataset, Counted):
        return dataset
    from ..io.answers import derive_with_waiting, needs_labels

    waiting, judged = None, False
    if needs_labels(dataset):  # judgements applied; claims derived from answer text
        judged = any(record["kind"] == "relevance" for record in dataset.judgements)
        dataset, waiting = derive_with_waiting(dataset, judges=drafts, unit=unit)
        if drafts and any(is_machine(record) for record in dataset.judgements):
            dataset = dataset._replace(notes=tuple(dataset.notes) + (DRAFTS_NOTE,))
    counted = count_runs(dataset.corpus, dataset.cases, dataset.runs, engine=engine,
                         rules=getattr(dataset, "rules", COURSE), progress=progress,
                         min_relevance=getattr(dataset, "min_relevance", 1),
                         sources=getattr(dataset, "sources", None), unit=unit, dedupe=dedupe,
                         groups=getattr(dataset, "groups", None),
                         superseded=getattr(dataset, "superseded", frozenset()))
    notes = getattr(dataset, "notes", ())
    if notes:
        counted = counted.with_notes(notes)
    if judged:  # reviewers judged pools: Judged@k is worth a column
        counted = counted.take(range(len(counted)), features=counted.features | {"judgements"})
    return counted.with_waiting(waiting) if waiting else counted


def count_folder(path, *, engine=DEFAULT_ENGINE, unit="chunk", dedupe=False, max_bytes=None,
                 progress=None, drafts=False):
    """The counted runs of the dataset folder at ``path``: read, checked against every rule
    (each time it is read: nothing is trusted because a file says so) and counted.

    Errors name the file, the line and the field, as :func:`~ragscore.io.dataset.load_dataset`
    does, whichever engine reads the folder. A loaded dataset (or counted runs) instead of a
    path is counted as :func:`count_dataset` counts it.
    """
    check_engine(engine)
    if isinstance(path, Counted) or hasattr(path, "corpus"):
        return count_dataset(path, engine=engine, progress=progress, unit=unit,
                             dedupe=dedupe, drafts=drafts)
    from ..io.answers import folder_needs_labels
    from ..io.jsonl import MAX_FILE_BYTES

    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    if engine == "columnar":  # a folder read in bulk records no answer text
        from .columnar import count_bulk

        counted = count_bulk(path, unit=unit, dedupe=dedupe, max_bytes=limit,
                             progress=progress)
        if counted is not None:
            return counted
    needed = folder_needs_labels(path, max_bytes=limit)
    if needed is None:  # a Parquet runs file: its columns say
        from .parquet import has_answer_only

        needed = has_answer_only(path, max_bytes=limit)
    if needed:  # judgements to apply, claims derived from answer text (ragscore.io.answers)
        from ..io.read import load_dataset
        from .parquet import CODEC

        return count_dataset(load_dataset(path, max_bytes=limit, codec=CODEC), engine=engine,
                             progress=progress, unit=unit, dedupe=dedupe, drafts=drafts)
    if engine == "columnar":
        from .columnar import count_folder as count_columnar

        return count_columnar(path, unit=unit, dedupe=dedupe, max_bytes=limit,
                              progress=progress, bulk=False)
    from .reference import count_folder as count_reference

    return count_reference(path, unit=unit, dedupe=dedupe, max_bytes=limit, progress=progress)


def count_scope(source, *, engine=DEFAULT_ENGINE, unit="chunk", dedupe=False, drafts=False,
                split=None, system=None, progress=None):
    """The counted runs a job reads: of ``source`` (a folder's path, a loaded dataset, or
    counted runs already in hand), counted once by ``engine`` (``progress(done, total)``
    told as a folder is read), refused when it holds no run (nothing to score), restricted
    to ``split``'s questions and to ``system`` when given."""
    counted = count_folder(source, engine=engine, unit=unit, dedupe=dedupe,
                           progress=progress, drafts=drafts)
    if not counted.keys:
        from ..io.jsonl import where

        raise InvalidInputError(
            f"{where(source) if not isinstance(source, Counted) else 'the runs'}: its runs "
            "file holds no runs; nothing to score (add one line per case and system, see "
            "docs/dataset-format.md)")
    return counted.scoped(split=split, system=system)


def default_metrics(counted):
    """The metrics a report of ``counted`` shows by default
    (:meth:`~ragscore.engine.counted.Counted.default_metrics`)."""
    return counted.default_metrics()
