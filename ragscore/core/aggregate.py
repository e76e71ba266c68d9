"""Declared aggregates over per-question values: every one names its method, denominator,
how many questions it used and how many it left out as n/a.

- **macro**: the mean of a metric over the questions of a slice where it is defined (each
  question weighs the same; n/a is left out, never averaged in as 0);
- **pooled**: summed numerators over summed denominators of the same counts (a question
  with more claims weighs more);
- **count**: for a yes/no metric, how many defined values are yes, out of how many;
- **total**: for a count metric (unsupported claims, disclosures), the sum over questions
  and how many questions have any.

A question with repeated trials is one question: its value is its trials' combined value
(:mod:`ragscore.core.trials`); pooled sums take every trial's numerator and denominator.

Answerable questions (something labelled relevant or some claim expected, or judged
answerable) and unanswerable ones are separate slices: an abstention is never counted as a
retrieval success. A question nobody has labelled yet sits with the answerable ones, its
values that need labels n/a ("not labelled yet").

The functions read a *view* of counted runs: any object with the methods ``values(metric,
k)``, ``pooled_parts(metric, k)``, ``reasons(metric, k)``, ``answerable()`` and
``take(positions)`` (each engine's :class:`~ragscore.engine.counted.Counted` has them), so
both engines are aggregated by this one code.
"""
from collections import Counter, namedtuple
from fractions import Fraction
from itertools import compress, repeat
from functools import partial
from operator import eq, is_not, itemgetter, not_

from .metrics import COUNT, RATE, merged_reasons

ANSWERABLE = "answerable"
UNANSWERABLE = "unanswerable"
ALL = "all"


class Aggregate(namedtuple("Aggregate", "metric slice method value numerator denominator used "
                                      "left_out description")):
    """One declared aggregate of one metric over one slice of questions."""

    __slots__ = ()


def is_answerable(counts):
    """True when something is labelled relevant or some claim is expected, when a reviewer
    judged the question answerable, or when nobody has labelled it yet (a question not
    labelled is never counted unanswerable: its values that need labels are n/a, "not
    labelled yet"); False when it is labelled unanswerable.

    >>> from ragscore.core.counts import count
    >>> is_answerable(count(set(), {}, ("archive",), ()))
    False
    >>> is_answerable(count(set(), None, ("archive",), None, answerability=-1))
    True
    """
    if counts.answerability is not None:
        return counts.answerability != 0
    return bool(counts.n_relevant or counts.n_expected)


def split_slices(view):
    """``{"answerable": view, "unanswerable": view, "all": view}``: the rows of each slice,
    each keeping the input order."""
    flags = view.answerable()
    return {ANSWERABLE: view.take(list(compress(range(len(flags)), flags))),
            UNANSWERABLE: view.take(list(compress(range(len(flags)), map(not_, flags)))),
            ALL: view}


NA_AS_ZERO = "n/a counted as 0 ({}'s convention)"


class Summary(namedtuple("Summary", "questions defined total having numerator denominator "
                                    "reasons")):
    """What an aggregate of one metric over some questions needs, in a form that adds up:
    two summaries of disjoint questions merge into the summary of all of them
    (:func:`merged`), so a run log scored in partitions aggregates exactly as in one piece.

    ``questions``: how many; ``defined``: how many have a value; ``total``: the exact sum
    of those values, as an integer count of 2**-1074 (every float is a whole multiple of it,
    so the sum loses nothing); ``having``: how many values are not 0 (yes, or a count above
    0); ``numerator``, ``denominator``: a pooling rate's summed parts (0 otherwise);
    ``reasons``: the sorted reasons of the values left out as n/a.
    """

    __slots__ = ()

    @property
    def sum(self):
        """The sum of the defined values, correctly rounded (what ``math.fsum`` gives)."""
        return float(Fraction(self.total, _UNIT))


_UNIT = 1 << 1074  # 2**1074: every float times this is a whole number


def _exact(value):
    """``value`` (a float, int or bool) as a whole number of 2**-1074."""
    numerator, denominator = float(value).as_integer_ratio()
    return numerator * (_UNIT // denominator)


#: True for a value that is not n/a (``None``).
_PRESENT = partial(is_not, None)


def summarize(metric, view, *, k, na_as_zero=False):
    """The :class:`Summary` of ``metric`` at ``k`` over every question of ``view``; with
    ``na_as_zero``, n/a counts as 0.0 (a retrieval rate, trec_eval's convention; a nugget
    score, nuggetizer's)."""
    values = view.values(metric, k)
    if na_as_zero:
        values = list(map({None: 0.0}.get, values, values))
    defined = list(filter(_PRESENT, values))
    reasons = ()
    if len(defined) < len(values):
        reasons = merged_reasons(view.reasons(metric, k))
    numerator = denominator = 0
    if metric.pooled is not None and metric.kind == RATE:
        numerators, denominators = view.pooled_parts(metric, k)
        numerator, denominator = sum(numerators), sum(denominators)
    counted = Counter(defined)  # a metric repeats few values: each made exact once
    return Summary(questions=len(values), defined=len(defined),
                   total=sum(_exact(value) * times for value, times in counted.items()),
                   having=len(defined) - counted.get(0, 0),
                   numerator=numerator, denominator=denominator, reasons=reasons)


def merged(summaries):
    """The :class:`Summary` of the questions of all ``summaries`` (disjoint sets)."""
    summaries = list(summaries)
    return Summary(
        questions=sum(one.questions for one in summaries),
        defined=sum(one.defined for one in summaries),
        total=sum(one.total for one in summaries),
        having=sum(one.having for one in summaries),
        numerator=sum(one.numerator for one in summaries),
        denominator=sum(one.denominator for one in summaries),
        reasons=merged_reasons(reason for one in summaries for reason in one.reasons))


def macro(metric, view, *, k, slice_name, na_as_zero=False):
    """The mean of ``metric`` over the questions of ``view`` where it is defined (the sum
    correctly rounded).

    >>> from ragscore.core.counts import retrieval_counts
    >>> from ragscore.core.metrics import REGISTRY
    >>> from ragscore.engine.reference import ReferenceCounted
    >>> rows = ReferenceCounted([("q1", "A"), ("q2", "A")], [retrieval_counts(("a",), {"a"}),
    ...                          retrieval_counts(("b",), {"a", "c"})])
    >>> macro(REGISTRY["recall"], rows, k=2, slice_name="answerable").value
    0.5
    """
    return macro_of(metric, summarize(metric, view, k=k, na_as_zero=na_as_zero), k=k,
                    slice_name=slice_name, na_as_zero=na_as_zero)


def macro_of(metric, summary, *, k, slice_name, na_as_zero=False):
    """The macro :class:`Aggregate` a :class:`Summary` gives."""
    used, left_out = summary.defined, summary.questions - summary.defined
    description = (f"mean {metric.label_at(k)} over the {used} "
                   f"{'' if slice_name == ALL else slice_name + ' '}"
                   f"questions where it is defined; {left_out} left out as n/a")
    if na_as_zero:
        description = (f"mean {metric.label_at(k)} over all {used} questions; "
                       f"{NA_AS_ZERO.format(metric.zero_by or 'trec_eval')}")
    elif left_out:
        description += f" ({'; '.join(summary.reasons)})"
    return Aggregate(
        metric=metric.name, slice=slice_name, method="macro",
        value=summary.sum / used if used else None, numerator=None, denominator=used,
        used=used, left_out=left_out, description=description)


def pooled(metric, view, *, k, slice_name):
    """Summed numerators over summed denominators of ``metric``'s pooling counts."""
    return pooled_of(metric, summarize(metric, view, k=k), slice_name=slice_name)


def pooled_of(metric, summary, *, slice_name):
    """The pooled :class:`Aggregate` a :class:`Summary` gives."""
    rule = metric.pooled
    numerator, denominator = summary.numerator, summary.denominator
    return Aggregate(
        metric=metric.name, slice=slice_name, method="pooled",
        value=numerator / denominator if denominator else None, numerator=numerator,
        denominator=denominator, used=summary.questions, left_out=0,
        description=(f"{numerator} {rule.numerator_name} of {denominator} "
                     f"{rule.denominator_name}, summed over {summary.questions} "
                     f"{'' if slice_name == ALL else slice_name + ' '}questions"))


def count_yes(metric, view, *, k, slice_name):
    """How many defined values of a yes/no ``metric`` are yes, out of how many."""
    return count_yes_of(metric, summarize(metric, view, k=k), slice_name=slice_name)


def count_yes_of(metric, summary, *, slice_name):
    """The count :class:`Aggregate` a :class:`Summary` of a yes/no metric gives."""
    yes, used = summary.having, summary.defined
    left_out = summary.questions - used
    note = f"; {left_out} left out as n/a" if left_out else ""
    return Aggregate(
        metric=metric.name, slice=slice_name, method="count",
        value=yes / used if used else None, numerator=yes, denominator=used, used=used,
        left_out=left_out,
        description=(f"{yes} of {used} {'' if slice_name == ALL else slice_name + ' '}"
                     f"questions {metric.yes_means}{note}"))


def total(metric, view, *, k, slice_name):
    """The sum of a count ``metric`` over the questions where it is defined, and how many
    questions have any."""
    return total_of(metric, summarize(metric, view, k=k), k=k, slice_name=slice_name)


def total_of(metric, summary, *, k, slice_name):
    """The total :class:`Aggregate` a :class:`Summary` of a count metric gives."""
    summed, having, used = int(summary.sum), summary.having, summary.defined
    left_out = summary.questions - used
    note = f"; {left_out} left out as n/a" if left_out else ""
    if not used and left_out:  # n/a on every question: no total, not 0
        return Aggregate(
            metric=metric.name, slice=slice_name, method="total", value=None, numerator=0,
            denominator=0, used=0, left_out=left_out,
            description=f"{metric.label_at(k)} is n/a on all {left_out} questions: no total")
    return Aggregate(
        metric=metric.name, slice=slice_name, method="total", value=summed, numerator=having,
        denominator=used, used=used, left_out=left_out,
        description=(f"{summed} {metric.label_at(k)} in all, in {having} of {used} "
                     f"questions{note}"))


def zeroed(metric, na_as_zero):
    """True when ``metric`` reads n/a as 0 under ``na_as_zero``: a retrieval rate (trec_eval's
    convention) or a metric naming the tool whose convention it is (``zero_by``: the nugget
    scores, as nuggetizer writes 0.0 for a question without a (vital) nugget)."""
    return na_as_zero and (metric.stage == "retrieval" and metric.kind == RATE
                           or metric.zero_by is not None)


def summaries(view, *, k, metrics, na_as_zero=False, slices=None):
    """``{(metric name, slice): Summary}``: everything :func:`aggregates_of` needs, for one
    system's questions (partitions' summaries merge with :func:`merged`). ``slices``:
    :func:`split_slices` of ``view``, when the caller has them already."""
    slices = split_slices(view) if slices is None else slices
    found = {}
    for metric in metrics:
        found[metric.name, metric.slice] = summarize(metric, slices[metric.slice], k=k)
        if zeroed(metric, na_as_zero):
            found[metric.name, ALL] = summarize(metric, view, k=k, na_as_zero=True)
        elif metric.slice != ALL:  # how many questions are outside the slice
            found[metric.name, ALL] = Summary(len(view), 0, 0, 0, 0, 0, ())
    return found


def aggregates(view, *, k, metrics, na_as_zero=False, slices=None):
    """Every declared aggregate of ``metrics`` over one system's rows, slice by slice
    (``slices``: :func:`split_slices` of ``view``, when the caller has them already).

    Rates over the answerable slice: macro, then pooled where the metric pools. Yes/no
    metrics over their own slice: a count. With ``na_as_zero``, retrieval rates are
    averaged over every question with n/a counted as 0, as trec_eval's means are.
    """
    return aggregates_of(summaries(view, k=k, metrics=metrics, na_as_zero=na_as_zero,
                                   slices=slices), k=k, metrics=metrics, na_as_zero=na_as_zero)


def aggregates_of(found, *, k, metrics, na_as_zero=False):
    """The declared aggregates :func:`aggregates` lists, from :func:`summaries` (of one
    system, or merged over partitions of it)."""
    rows = []
    for metric in metrics:
        if zeroed(metric, na_as_zero):
            rows.append(macro_of(metric, found[metric.name, ALL], k=k, slice_name="all",
                                 na_as_zero=True))
        elif metric.kind == RATE:
            summary = found[metric.name, metric.slice]
            row = macro_of(metric, summary, k=k, slice_name=metric.slice)
            outside = (found[metric.name, ALL].questions - summary.questions
                       if metric.slice == ANSWERABLE else 0)
            if outside:
                row = row._replace(description=(
                    f"{row.description}; {outside} question{'s' * (outside != 1)} with nothing "
                    "labelled relevant or expected not in this slice"))
            rows.append(row)
    for metric in metrics:
        if metric.kind == RATE and metric.pooled is not None:
            rows.append(pooled_of(metric, found[metric.name, metric.slice],
                                  slice_name=metric.slice))
    for metric in metrics:
        if metric.kind == COUNT:
            rows.append(total_of(metric, found[metric.name, metric.slice], k=k,
                                 slice_name=metric.slice))
        elif metric.kind != RATE:
            rows.append(count_yes_of(metric, found[metric.name, metric.slice],
                                     slice_name=metric.slice))
    return rows


def sweep_means(view, *, max_k, metrics, na_as_zero=False):
    """For k = 1 .. ``max_k``: ``{metric: mean over its slice where defined}``, the same
    counts read at every k (a yes/no metric's mean is its share of yes)."""
    slices = split_slices(view)
    table = []
    for k in range(1, max_k + 1):
        row = {}
        for metric in metrics:
            if zeroed(metric, na_as_zero):
                values = [value or 0.0 for value in view.values(metric, k)]
            else:
                values = slices[metric.slice].values(metric, k)
            defined = [float(value) for value in values if value is not None]
            row[metric.name] = sum(defined) / len(defined) if defined else None
        table.append(row)
    return table


def label_notes(view, k, *, systems=None):
    """The sentences every output printing an aggregate repeats about the labels, per
    system (each of ``systems``, else all): how many of its questions nobody has labelled
    yet, and how many passages in its top ``k`` nobody judged (they count as not relevant,
    as in trec_eval). Nothing to say, no sentence.

    >>> from ragscore.core.counts import count
    >>> from ragscore.engine.reference import ReferenceCounted
    >>> rows = ReferenceCounted([("q1", "A"), ("q2", "A")], [
    ...     count({"a"}, None, ("a", "b"), None, judged={"a"}, answerability=1),
    ...     count(set(), None, ("c",), None, judged=set(), answerability=-1)])
    >>> label_notes(rows, 2)
    ['system A: 1 of 2 questions not labelled yet (values that need labels are n/a)', 'system A: 2 of 3 passages in the top 2 unjudged (counted as not relevant, as trec_eval does)']
    """
    from .metrics import REGISTRY

    judged, returned = view.pooled_parts(REGISTRY["judged"], k)
    names = list(map(itemgetter(1), view.keys))
    states = view.labelling()
    found = {}
    for system in dict.fromkeys(names):  # each system's rows picked out in C
        if systems is None or system in systems:
            mine = list(map(eq, names, repeat(system)))
            shown = sum(compress(returned, mine))
            found[system] = [list(compress(states, mine)).count(-1), sum(mine),
                             shown - sum(compress(judged, mine)), shown]
    notes = []
    for system, (unlabelled, questions, unjudged, passages) in found.items():
        if unlabelled:
            notes.append(f"system {system}: {unlabelled} of {questions} question"
                         f"{'s' * (questions != 1)} not labelled yet (values that need "
                         "labels are n/a)")
        if unjudged:
            notes.append(f"system {system}: {unjudged} of {passages} passage"
                         f"{'s' * (passages != 1)} in the top {k} unjudged (counted as not "
                         "relevant, as trec_eval does)")
    return notes
