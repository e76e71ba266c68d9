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

>>> from ragscore.io.course import load_course
>>> counted = count_dataset(load_course(), engine="reference")
>>> counted.values(REGISTRY["rr"], 2)[:6]
[1.0, 1.0, 1.0, 1.0, 0.5, 1.0]
"""
from ..core.labels import is_machine
from ..core.metrics import CONTRACT, REGISTRY
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
           "count_runs", "default_metrics"]


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
    does, whichever engine reads the folder.
    """
    check_engine(engine)
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


#: Columns shown by default when the data records what they measure (each metric names
#: the feature that shows it: ``Metric.shown_when``), in report order.
FEATURE_METRICS = tuple((metric.shown_when, name) for name, metric in REGISTRY.items()
                        if metric.shown_when not in (None, "contract"))


def default_metrics(counted):
    """The contract's metrics, less the answer metrics when no run recorded an answer
    (a retrieval-only test set: nothing assessed or awaiting review, so no column for it;
    answers awaiting review keep their columns, n/a), plus stale support,
    disclosures and ``context_differs`` when the data records superseded chunks, access
    groups or delivered contexts, exact match and token F1 when some answer text met a
    reference answer, Judged@k when reviewers judged passages for relevance, the nugget
    scores when some question lists nuggets or some answer's are assigned by a reviewer,
    and the citation measures when some answer's citations are graded."""
    extra = tuple(name for feature, name in FEATURE_METRICS if feature in counted.features)
    if len(counted) and "answers" not in counted.features and not counted.waiting:
        return tuple(name for name in CONTRACT + extra if REGISTRY[name].stage != "answer")
    return CONTRACT + extra
