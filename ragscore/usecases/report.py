"""``report``: a test set's runs scored question by question, and the jobs beside it.

- :func:`report`: one row per (case, system) with the chosen metrics at k, and for people
  the declared aggregates, repeated trials, operations and the diagnosis: a :class:`Report`;
- :func:`sliced_report`: the declared aggregates per tag, per split, or over disputed and
  undisputed questions: a :class:`Sliced`;
- :func:`failures_report`: the questions a stage failed, with their text: a :class:`Failures`;
- :func:`demo`: the seed workbook's table of the course: a :class:`Demo`;
- :func:`report_job`: which of these (or :func:`ragscore.usecases.measured.measured`) the
  options of ``ragscore report`` ask for, refusing options that cannot combine, naming both.

Each reads the test set once and returns one result; its writers are its ``writers`` table.
"""
from collections import namedtuple

from ..core.aggregate import label_notes
from ..core.rules import InvalidInputError
from ..engine import DEFAULT_ENGINE, Counted
from ..render import report as written
from ..render.writers import Writer, data_writer, writer_table
from .reading import counted_runs, cutoff, is_path, loaded
from .result import Result, removal_notes, removed_runs

__all__ = ["Demo", "Failures", "Report", "Sliced", "demo", "failures_report", "report",
           "report_job", "sliced_report"]


class Report(Result, namedtuple("Report", "counted k metrics na_as_zero runs")):
    """A per-question report: the ``counted`` runs, the cutoff ``k``, the ``metrics``
    (registry :class:`~ragscore.core.metrics.Metric` objects, in column order),
    ``na_as_zero`` (trec_eval's and nuggetizer's convention asked for) and ``runs`` (the
    recorded runs, where a delivered context that is not a prefix of the ranking needs them
    for the diagnosis; else ``{}``)."""

    __slots__ = ()
    job = "a per-question report"

    @property
    def metric_names(self):
        return tuple(metric.name for metric in self.metrics)

    @property
    def notes(self):
        """The dataset's notes, then what the labels leave open at k (unlabelled questions,
        unjudged passages)."""
        return self.counted.notes + tuple(label_notes(self.counted, self.k))

    @property
    def said(self):
        return tuple(map(written.shortened_note, self.notes)) + (
            (written.NA_AS_ZERO_NOTE,) if self.na_as_zero else ())

    @property
    def aside(self):
        return removal_notes(self.counted)

    @property
    def removed(self):
        return removed_runs(self.counted)


Report.writers = writer_table(
    Writer("text", written.report_text),
    Writer("markdown", written.report_markdown, fitted=False),
    data_writer("csv", written.report_csv),
    Writer("html", written.report_html, escaped=False, fitted=False, notes_inside=False),
    data_writer("json", written.report_json))


def report(dataset, *, k=2, metrics=None, na_as_zero=False, engine=DEFAULT_ENGINE,
           unit="chunk", dedupe=False, split=None, system=None, drafts=False):
    """Score ``dataset`` (a folder's path, a Dataset or counted runs) once and return its
    :class:`Report`: ``metrics`` (registry names) at ``k`` for every (case, system), or for
    one ``system`` or ``split``; by default the contract's metrics and those the data
    records (:func:`~ragscore.engine.default_metrics`).

    >>> from ragscore.io.course import load_course
    >>> found = report(load_course(), k=2, metrics=("rr",), system="A")
    >>> found.counted.column(found.metrics[0], found.k)[:3]
    [1.0, 1.0, 0.5]
    """
    from ..core.metrics import select

    counted = counted_runs(dataset, engine=engine, unit=unit, dedupe=dedupe, drafts=drafts,
                           split=split, system=system)
    k = counted.cutoff(k)
    chosen = select(counted.default_metrics() if metrics is None else metrics)
    runs = {}
    if "delivered" in counted.features and not isinstance(dataset, Counted):
        from ..folders import load_dataset  # a delivered context that is not a prefix: its IDs

        runs = dataset.runs if hasattr(dataset, "runs") else load_dataset(dataset).runs
    return Report(counted, k, chosen, na_as_zero, runs)


class Sliced(Result, namedtuple("Sliced", "counted k by frame")):
    """The declared aggregates per slice: ``by`` (``tag``, ``split`` or ``disputed``) and the
    ``frame`` of rows (each with its method, denominator, questions used and left out)."""

    __slots__ = ()
    job = "a report by slice"

    @property
    def said(self):
        return tuple(label_notes(self.counted, self.k))


def _frame_writer(fmt, **options):
    return Writer(fmt, lambda result, display: written.sliced_text(result, display, fmt=fmt),
                  **options)


Sliced.writers = writer_table(
    _frame_writer("text"), _frame_writer("markdown", fitted=False),
    _frame_writer("csv", escaped=False, fitted=False),
    _frame_writer("html", escaped=False, fitted=False),
    _frame_writer("json", escaped=False, fitted=False))
# a slice table always says its notes out of band (before the table, on standard error)
Sliced.writers = {name: writer._replace(notes_inside=False)
                  for name, writer in Sliced.writers.items()}


def sliced_report(dataset, *, by, k=2, metrics=None, na_as_zero=False,
                  engine=DEFAULT_ENGINE, unit="chunk", dedupe=False, split=None, system=None,
                  drafts=False):
    """The declared aggregates of ``metrics`` at ``k`` per tag (``by="tag"``; a question
    with several tags counts in each), per split (``"split"``), or over all, undisputed
    and disputed questions (``"disputed"``: the reviews and judgements say which)."""
    source = loaded(dataset) if by == "disputed" else dataset
    counted = counted_runs(source, engine=engine, unit=unit, dedupe=dedupe, drafts=drafts,
                           split=split, system=system)
    k = cutoff(k, counted.rules)
    if by == "disputed":
        from ..tables.reviews import disputed_slice

        if na_as_zero:
            raise InvalidInputError("--by disputed reports ragscore's aggregates (n/a left "
                                    "out); it does not combine with --na-as-zero")
        frame = disputed_slice(source, k=k, metrics=metrics, engine=engine, counted=counted)
    else:
        from ..tables.summary import sliced_aggregates

        frame = sliced_aggregates(counted, by=by, k=k, metrics=metrics,
                                  na_as_zero=na_as_zero)
    return Sliced(counted, k, by, frame)


class Failures(Result, namedtuple("Failures", "k rows")):
    """The questions a stage failed at ``k`` (:mod:`ragscore.core.diagnosis`): ``rows``, one
    per failing (case, system), with the question, the answer, the claims and the IDs."""

    __slots__ = ()
    job = "the list of failures (--failures)"

    def refuse_format(self, fmt):
        return f"--failures prints text or json; got --format {fmt}"


Failures.writers = writer_table(Writer("text", written.failures_text),
                                data_writer("json", written.failures_json))


def failures_report(dataset, *, k=2, engine=DEFAULT_ENGINE, unit="chunk", dedupe=False,
                    split=None, system=None, drafts=False):
    """The failing questions of ``dataset`` at ``k`` with their text side by side."""
    from ..render.failures import failure_rows

    source = loaded(dataset)
    counted = counted_runs(source, engine=engine, unit=unit, dedupe=dedupe, drafts=drafts,
                           split=split, system=system)
    k = cutoff(k, counted.rules)
    return Failures(k, failure_rows(source, counted, k=k))


class Demo(Result, namedtuple("Demo", "k rows")):
    """The seed workbook's table: ``rows`` of ``(case, system, scores)`` at ``k``."""

    __slots__ = ()
    job = "the course table"


Demo.writers = writer_table(Writer("text", written.demo_text))


def demo(dataset, *, k=2):
    """The contract's six values of every run of ``dataset`` at ``k``, counted by the
    reference scorer (the course's own path, :func:`ragscore.core.scoring.iter_scores`)."""
    from ..core.scoring import iter_scores
    from ..engine import count_scope

    source = loaded(dataset)
    if not source.runs:  # refused, saying there is nothing to score and where
        count_scope(dataset if is_path(dataset) else source, engine="reference")
    try:
        return Demo(k, list(iter_scores(source.corpus, source.cases, source.runs, k=k)))
    except InvalidInputError as error:
        raise InvalidInputError(
            f"demo prints the course contract's table, which this dataset does not fit "
            f"({error}); 'ragscore report {dataset}' scores any dataset") from None


def _measured(dataset, **options):
    from .measured import measured

    return measured(dataset, **options)


#: The jobs of ``ragscore report``, by the option that asks for each.
JOBS = {"--failures": failures_report, "--by": sliced_report, "--measures": _measured,
        "report": report}


def job_of(*, failures=False, by=None, measures=None, trec_eval=False, **options):
    """``(job, its options)``: which of :data:`JOBS` the options of ``ragscore report`` ask
    for and what it takes; options that cannot combine are refused, naming both."""
    asked = [name for name, given in (("--failures", failures), ("--by", by is not None),
                                      ("--measures", measures is not None),
                                      ("--trec-eval", trec_eval)) if given]
    if len(asked) > 1 and asked[-2:] != ["--measures", "--trec-eval"]:
        raise InvalidInputError(f"{asked[0]} and {asked[1]} ask for different reports; "
                                "give one of them")
    if failures:
        for option, value in (("--metrics", options.pop("metrics", None)),
                              ("--na-as-zero", options.pop("na_as_zero", False) or None)):
            if value is not None:
                raise InvalidInputError(f"--failures lists the failing questions with their "
                                        f"text; it does not combine with {option}")
        return "--failures", options
    if by is not None:
        return "--by", {**options, "by": by}
    if measures is not None or trec_eval:
        if options.pop("metrics", None) is not None:
            raise InvalidInputError("--metrics and --measures both name what to score; "
                                    "give one of them")
        return "--measures", {**options, "measures": measures, "trec_eval": trec_eval}
    return "report", options


def report_job(dataset, **options):
    """The result ``ragscore report`` prints for these options (:func:`job_of` says which
    job: :func:`failures_report`, :func:`sliced_report`, the named measures of
    :func:`~ragscore.usecases.measured.measured`, else :func:`report`)."""
    job, chosen = job_of(**options)
    return JOBS[job](dataset, **chosen)
