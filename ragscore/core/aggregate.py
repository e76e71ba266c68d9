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

Answerable questions (something labelled relevant or some claim expected) and unanswerable
ones are separate slices: an abstention is never counted as a retrieval success.

The functions read a *view* of counted runs: any object with the methods ``values(metric,
k)``, ``pooled_parts(metric, k)``, ``reasons(metric, k)``, ``answerable()`` and
``take(positions)`` (each engine's :class:`~ragscore.engine.counted.Counted` has them), so
both engines are aggregated by this one code.
"""
from collections import namedtuple

from .metrics import COUNT, RATE

ANSWERABLE = "answerable"
UNANSWERABLE = "unanswerable"
ALL = "all"


class Aggregate(namedtuple("Aggregate", "metric slice method value numerator denominator used "
                                      "left_out description")):
    """One declared aggregate of one metric over one slice of questions."""

    __slots__ = ()


def is_answerable(counts):
    """True when something is labelled relevant or some claim is expected.

    >>> from ragscore.core.counts import count
    >>> is_answerable(count(set(), {}, ("archive",), ()))
    False
    """
    return bool(counts.n_relevant or counts.n_expected)


def split_slices(view):
    """``{"answerable": view, "unanswerable": view, "all": view}``: the rows of each slice,
    each keeping the input order."""
    flags = view.answerable()
    return {ANSWERABLE: view.take([p for p, flag in enumerate(flags) if flag]),
            UNANSWERABLE: view.take([p for p, flag in enumerate(flags) if not flag]),
            ALL: view}


NA_AS_ZERO = "n/a counted as 0 (trec_eval's convention)"


def macro(metric, view, *, k, slice_name, na_as_zero=False):
    """The mean of ``metric`` over the questions of ``view`` where it is defined.

    >>> from ragscore.core.counts import retrieval_counts
    >>> from ragscore.core.metrics import REGISTRY
    >>> from ragscore.engine.reference import ReferenceCounted
    >>> rows = ReferenceCounted([("q1", "A"), ("q2", "A")], [retrieval_counts(("a",), {"a"}),
    ...                          retrieval_counts(("b",), {"a", "c"})])
    >>> macro(REGISTRY["recall"], rows, k=2, slice_name="answerable").value
    0.5
    """
    values = view.values(metric, k)
    if na_as_zero:
        values = [0.0 if value is None else value for value in values]
    defined = [value for value in values if value is not None]
    left_out = len(values) - len(defined)
    description = (f"mean {metric.label_at(k)} over the {len(defined)} {slice_name} "
                   f"questions where it is defined; {left_out} left out as n/a")
    if na_as_zero:
        description = (f"mean {metric.label_at(k)} over all {len(defined)} questions; "
                       f"{NA_AS_ZERO}")
    elif left_out:
        reasons = sorted({reason for reason in view.reasons(metric, k) if reason is not None})
        description += f" ({'; '.join(reasons)})"
    return Aggregate(
        metric=metric.name, slice=slice_name, method="macro",
        value=sum(defined) / len(defined) if defined else None, numerator=None,
        denominator=len(defined), used=len(defined), left_out=left_out,
        description=description)


def pooled(metric, view, *, k, slice_name):
    """Summed numerators over summed denominators of ``metric``'s pooling counts."""
    rule = metric.pooled
    numerators, denominators = view.pooled_parts(metric, k)
    numerator, denominator = sum(numerators), sum(denominators)
    return Aggregate(
        metric=metric.name, slice=slice_name, method="pooled",
        value=numerator / denominator if denominator else None, numerator=numerator,
        denominator=denominator, used=len(numerators), left_out=0,
        description=(f"{numerator} {rule.numerator_name} of {denominator} "
                     f"{rule.denominator_name}, summed over {len(numerators)} {slice_name} "
                     "questions"))


def count_yes(metric, view, *, k, slice_name):
    """How many defined values of a yes/no ``metric`` are yes, out of how many."""
    values = view.values(metric, k)
    defined = [value for value in values if value is not None]
    yes = sum(1 for value in defined if value)
    left_out = len(values) - len(defined)
    note = f"; {left_out} left out as n/a" if left_out else ""
    return Aggregate(
        metric=metric.name, slice=slice_name, method="count",
        value=yes / len(defined) if defined else None, numerator=yes,
        denominator=len(defined), used=len(defined), left_out=left_out,
        description=(f"{yes} of {len(defined)} "
                     f"{'' if slice_name == ALL else slice_name + ' '}questions "
                     f"{metric.yes_means}{note}"))


def total(metric, view, *, k, slice_name):
    """The sum of a count ``metric`` over the questions where it is defined, and how many
    questions have any."""
    values = view.values(metric, k)
    defined = [value for value in values if value is not None]
    summed, having = sum(defined), sum(1 for value in defined if value)
    left_out = len(values) - len(defined)
    note = f"; {left_out} left out as n/a" if left_out else ""
    return Aggregate(
        metric=metric.name, slice=slice_name, method="total", value=summed, numerator=having,
        denominator=len(defined), used=len(defined), left_out=left_out,
        description=(f"{summed} {metric.label_at(k)} in all, in {having} of {len(defined)} "
                     f"questions{note}"))


def zeroed(metric, na_as_zero):
    """True when ``metric`` reads n/a as 0 under ``na_as_zero`` (retrieval metrics only)."""
    return na_as_zero and metric.stage == "retrieval" and metric.kind == RATE


def aggregates(view, *, k, metrics, na_as_zero=False):
    """Every declared aggregate of ``metrics`` over one system's rows, slice by slice.

    Rates over the answerable slice: macro, then pooled where the metric pools. Yes/no
    metrics over their own slice: a count. With ``na_as_zero``, retrieval rates are
    averaged over every question with n/a counted as 0, as trec_eval's means are.
    """
    slices = split_slices(view)
    rows = []
    for metric in metrics:
        if zeroed(metric, na_as_zero):
            rows.append(macro(metric, view, k=k, slice_name="all", na_as_zero=True))
        elif metric.kind == RATE:
            row = macro(metric, slices[metric.slice], k=k, slice_name=metric.slice)
            outside = len(view) - len(slices[metric.slice])
            if outside and metric.slice == ANSWERABLE:
                row = row._replace(description=(
                    f"{row.description}; {outside} question{'s' * (outside != 1)} with nothing "
                    "labelled relevant or expected not in this slice"))
            rows.append(row)
    for metric in metrics:
        if metric.kind == RATE and metric.pooled is not None:
            rows.append(pooled(metric, slices[metric.slice], k=k, slice_name=metric.slice))
    for metric in metrics:
        if metric.kind == COUNT:
            rows.append(total(metric, slices[metric.slice], k=k, slice_name=metric.slice))
        elif metric.kind != RATE:
            rows.append(count_yes(metric, slices[metric.slice], k=k, slice_name=metric.slice))
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
