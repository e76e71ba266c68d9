"""Repeated trials of a stochastic system: kept apart, read together, never extra questions.

A question a system answered several times has a :class:`Trials` of counts, one per trial,
in trial order. Every table and aggregate reads a metric through :func:`value_of`, which
gives one value per question, declared here once:

- a rate: the mean over the trials where it is defined;
- a yes/no: yes only when every defined trial says yes (the conservative reading);
- a count: the largest over the trials (the worst case).

:func:`spread` reports how the trials differ (min, max, mean, how many agree), so the one
value never hides the variation behind it.
"""
from collections import namedtuple

from .kinds import COUNT, RATE


class Trials(tuple):
    """The :class:`~ragscore.core.counts.Counts` of each trial of one question, in order.

    Label-level fields (``n_relevant``, ``n_expected``) are the same in every trial.
    """

    __slots__ = ()

    @property
    def n_relevant(self):
        return self[0].n_relevant

    @property
    def n_expected(self):
        return self[0].n_expected


def trial_runs(run):
    """The recorded runs of one system on one question: ``run`` itself, or each of its
    repeated trials when ``run`` is a list or tuple of runs.

    >>> trial_runs({"retrieved": ()}), len(trial_runs([{"trial": 1}, {"trial": 2}]))
    (({'retrieved': ()},), 2)
    """
    return tuple(run) if type(run) is list or type(run) is tuple else (run,)


def first_trial(counts):
    """``counts`` itself, or the first trial's counts of a :class:`Trials` (for label-level
    fields, which every trial shares)."""
    return counts[0] if type(counts) is Trials else counts


def combine(kind, values):
    """One value per question from the values of its trials (see the module docstring).

    >>> combine("rate", [1.0, 0.5, None]), combine("yes/no", [True, False]), combine("count", [0, 2])
    (0.75, False, 2)
    """
    defined = [value for value in values if value is not None]
    if not defined:
        return None
    if kind == RATE:
        return sum(defined) / len(defined)
    if kind == COUNT:
        return max(defined)
    return all(defined)


def value_of(metric, counts, k):
    """``metric`` at cutoff ``k`` for one question: its value, or the trials' combined one.

    >>> from ragscore.core.counts import retrieval_counts
    >>> from ragscore.core.metrics import REGISTRY
    >>> twice = Trials((retrieval_counts(("a",), {"a"}), retrieval_counts(("b",), {"a"})))
    >>> value_of(REGISTRY["recall"], twice, 1)
    0.5
    """
    if type(counts) is Trials:
        return combine(metric.kind, [metric.value(one, k) for one in counts])
    return metric.value(counts, k)


class Spread(namedtuple("Spread", "trials defined low high mean agree")):
    """How the trials of one question differ on one metric: ``trials`` recorded,
    ``defined`` of them with a value, the lowest, highest and mean value, and ``agree``:
    how many trials share the most common value."""

    __slots__ = ()


def spread(metric, counts, k):
    """The :class:`Spread` of ``metric`` over the trials of one question (one trial: itself).

    >>> from ragscore.core.counts import retrieval_counts
    >>> from ragscore.core.metrics import REGISTRY
    >>> runs = Trials(retrieval_counts(r, {"a"}) for r in (("a",), ("a",), ("b",)))
    >>> spread(REGISTRY["recall"], runs, 1)
    Spread(trials=3, defined=3, low=0.0, high=1.0, mean=0.6666666666666666, agree=2)
    """
    members = counts if type(counts) is Trials else (counts,)
    return spread_of([metric.value(one, k) for one in members])


def spread_of(values):
    """The :class:`Spread` of one question's trial values (``None`` is n/a).

    >>> spread_of([1.0, None, 0.0, 1.0])
    Spread(trials=4, defined=3, low=0.0, high=1.0, mean=0.6666666666666666, agree=2)
    """
    defined = [float(value) for value in values if value is not None]
    if not defined:
        return Spread(len(values), 0, None, None, None, 0)
    agree = max(defined.count(value) for value in set(defined))
    return Spread(len(values), len(defined), min(defined), max(defined),
                  sum(defined) / len(defined), agree)
