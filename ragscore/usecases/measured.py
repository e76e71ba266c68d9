"""Named measures (``P@10 nDCG@10 AP RR``, ir_measures' spelling) scored in one pass: the
:class:`Measured` result of ``report --measures``, ``report --trec-eval`` and ``eval``.

:func:`measured` scores a test set; :func:`evaluate_files` scores TREC qrels and run files
as they are, with no folder written (``ragscore eval``). A measure named without a cutoff
that needs one (``support``) is read at ``k`` only when ``k`` is given: it is never read at
a default nobody chose.
"""
from collections import namedtuple

from ..core.aggregate import label_notes
from ..core.measures import parse_measures, score_measures
from ..core.rules import InvalidInputError, show
from ..engine import DEFAULT_ENGINE
from ..render import measured as written
from ..render.report import shortened_note
from ..render.writers import Writer, data_writer, writer_table
from .reading import counted_runs, cutoff
from .result import Result, removal_notes

__all__ = ["Measured", "TREC_DEFAULT", "evaluate_files", "measured"]

#: The measures trec_eval's layout prints when none are named.
TREC_DEFAULT = "AP RR P@5 P@10 R@100 nDCG nDCG@10"
#: What ``--na-as-zero`` changes, said beside named measures.
NA_AS_ZERO_NOTE = ("ragscore: note: retrieval measures with nothing relevant are counted as 0 "
                   "(trec_eval's convention)")


class Measured(Result, namedtuple("Measured", "counted scored trec rows na_as_zero notes left_out",
                                   defaults=((),))):
    """Named measures scored: the ``counted`` runs, ``scored``
    (:class:`~ragscore.core.measures.Scored`: per-question values and per-system summaries),
    ``trec`` (trec_eval's conventions and layout: its names, n/a as 0, one system), ``rows``
    (per-question values written too, not only the summaries), ``na_as_zero`` and the
    ``notes`` every output repeats (said on standard error); ``left_out``: what a run lost
    for want of qrels (:func:`evaluate_files`), said on standard error in every layout,
    trec_eval's too."""

    __slots__ = ()

    @property
    def job(self):
        return "trec_eval's layout (--trec-eval)" if self.trec else "named measures"

    @property
    def writers(self):
        return TREC_WRITERS if self.trec else WRITERS

    @property
    def aside(self):
        lines = tuple(f"ragscore: note: {note}" for note in self.left_out)
        if self.trec:
            return lines
        lines += tuple(f"ragscore: note: {shortened_note(note)}" for note in self.notes)
        lines += (NA_AS_ZERO_NOTE,) if self.na_as_zero else ()
        return lines + removal_notes(self.counted)


def _write(function, **options):
    return lambda result, display: function(result.scored, rows=result.rows, **options)


WRITERS = writer_table(
    Writer("text", lambda result, display: written.measures_text(
        result.scored, digits=4 if display.digits is None else display.digits,
        rows=result.rows)),
    Writer("markdown", lambda result, display: written.measures_text(
        result.scored, digits=4 if display.digits is None else display.digits,
        markdown=True, rows=result.rows), fitted=False),
    data_writer("csv", _write(written.measures_csv)),
    data_writer("json", _write(written.measures_json)))
#: trec_eval's conventions: its text layout (each tab-separated field made safe for a
#: terminal), or the same numbers as pytrec_eval's JSON.
TREC_WRITERS = writer_table(
    Writer("text", _write(written.trec_eval_safe_text), escaped=False, fitted=False),
    data_writer("json", _write(written.trec_eval_json)))


def _measures(measures, *, trec, k):
    """The parsed measures; without a cutoff ``k`` given, a measure that needs one (a
    ragscore metric such as ``support``) is refused, naming both ways to give it."""
    from ..core.measures import needs_cutoff

    chosen = parse_measures(measures if measures is not None else TREC_DEFAULT)
    if k is None:
        unread = [measure.label for measure in chosen if needs_cutoff(measure)]
        if unread:
            raise InvalidInputError(f"--measures: {show(unread[0])} is read at a cutoff: name "
                                    f"it ({unread[0]}@10) or give --k")
    if trec:
        written.trec_order(chosen)  # every measure has a trec_eval name, else refused
    return chosen


def measured(dataset, *, measures=None, trec_eval=False, k=None, na_as_zero=False,
             engine=DEFAULT_ENGINE, unit="chunk", dedupe=False, split=None, system=None,
             drafts=False, rows=True):
    """Score ``measures`` (text such as ``"P@10 nDCG@10 AP"``; trec_eval's default set with
    ``trec_eval``) over ``dataset`` in one pass; return a :class:`Measured`. ``k`` is the
    cutoff of a ragscore metric named without one (``support``); ``trec_eval`` reads n/a as
    0 and writes trec_eval's names and layout, for one system."""
    chosen = _measures(measures, trec=trec_eval, k=k)
    counted = counted_runs(dataset, engine=engine, unit=unit, dedupe=dedupe, drafts=drafts,
                           split=split, system=system)
    return _scored(counted, chosen, k=k, trec=trec_eval, rows=rows, na_as_zero=na_as_zero)


def _scored(counted, chosen, *, k, trec, rows, na_as_zero):
    default_k = None if k is None else cutoff(k, counted.rules)
    if trec and len(counted.systems) > 1:
        raise InvalidInputError(
            "--trec-eval scores one system as trec_eval scores one run; the dataset holds "
            f"{len(counted.systems)} ({', '.join(sorted(counted.systems))}): pass --system "
            "NAME")
    scored = score_measures(counted, chosen, default_k=default_k or 10,
                            na_as_zero=na_as_zero or trec)
    notes = counted.notes + tuple(label_notes(counted, default_k or 10))
    return Measured(counted, scored, trec, rows, na_as_zero and not trec, notes)


def evaluate_files(qrels, runs, *, measures=None, trec_eval=False, k=None,
                   min_relevance=1, complete=False, max_depth=None, system=None,
                   na_as_zero=False, rows=False):
    """Score TREC ``qrels`` and ``runs`` files as they are (no folder written), as
    ``ragscore import trec`` followed by :func:`measured` would: ``complete`` gives a judged
    question a run lacks an empty ranking (trec_eval ``-c``), ``max_depth`` keeps each
    ranking's best N (``-M``), ``min_relevance`` is the lowest grade judged relevant
    (``-l``); ``rows``: per-question values too (``-q``).

    A run's questions without a qrels line are left out, as trec_eval leaves them out, and
    a note says how many each run lost; a run none of whose questions has a qrels line is
    named (it has no row), and is refused where it would leave the table silent or make
    ``--trec-eval`` print another run as if it were alone."""
    from ..importers.trec import count_trec_noted
    from ..render.progress import Progress

    chosen = _measures(measures, trec=trec_eval, k=k if k is not None else 10)
    # only on a terminal; the line shows the time elapsed: the files are read straight into
    # columns and counted in one pass (engine.columnar.trec_columns), not case by case
    with Progress("reading and counting the runs"):
        counted, left_out = count_trec_noted(qrels, runs, min_relevance=min_relevance,
                                             missing_run="zero" if complete else "skip",
                                             max_depth=max_depth)
    notes = _left_out(counted, left_out, system=system, trec=trec_eval)
    counted = counted.scoped(system=system)
    result = _scored(counted, chosen, k=k if k is not None else 10, trec=trec_eval,
                     rows=rows, na_as_zero=na_as_zero)
    return result._replace(left_out=notes)


def _left_out(counted, left_out, *, system, trec):
    """The notes on the questions each run lost for want of qrels; a clear error where a
    run that matched no qrels line would go unseen (alone, chosen, or beside the one run
    ``--trec-eval`` prints)."""
    scored = set(counted.systems)
    unmatched = {name: count for name, count in left_out.items() if name not in scored}

    def named(names):
        return ", ".join(f"{show(name)} ({unmatched[name]:,} question"
                         f"{'s' * (unmatched[name] != 1)})" for name in sorted(names))

    if system is not None and system in unmatched:
        raise InvalidInputError(f"--system {show(system)}: none of its run's questions has a "
                                f"qrels line ({named([system])}): nothing to score")
    if not scored:
        raise InvalidInputError(f"no run matched a qrels line: every question of {named(unmatched)} "
                                "has no qrels line (are the qrels for these runs' topics?): "
                                "nothing to score")
    if trec and system is None and unmatched:
        raise InvalidInputError(
            f"--trec-eval prints one run as trec_eval does, and the files hold more: "
            f"{named(unmatched)} matched no qrels line beside {', '.join(sorted(scored))}; "
            "pass --system NAME, or leave the unmatched runs out")
    chosen = left_out if system is None else {system: left_out.get(system, 0)}
    notes = tuple(f"run {show(name)}: {count:,} of its questions "
                  f"{'has' if count == 1 else 'have'} no qrels line, left out (as trec_eval "
                  "leaves them out)" for name, count in sorted(chosen.items())
                  if count and name in scored)
    if system is None and unmatched:
        notes += (f"matched no qrels line, so not in the table: {named(unmatched)}",)
    return notes
