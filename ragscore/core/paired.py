"""Paired, per-question comparison of two systems: one verdict rule, plain Python rows.

The table form (:func:`ragscore.tables.compare.compare`) and the command line's text both
read these rows, so a verdict is decided in one place.
"""
from collections import namedtuple
from itertools import chain, compress, repeat
from operator import eq, floordiv, itemgetter

from .rules import InvalidInputError, show

#: Verdicts of a paired comparison, in the order a report lists them (regressions first).
VERDICTS = ("regressed", "no longer defined", "newly defined", "improved", "changed",
            "unchanged")


def verdict(before, after, *, lower_is_better=False, neutral=False):
    """The verdict on one question and metric; ``None`` is n/a.

    A fall is a regression, unless lower is better (a count of problems), where a rise is;
    any change of a ``neutral`` flag (a delivered context that now differs, or no longer
    does) is ``changed``: a different input, neither better nor worse.

    >>> verdict(1.0, 0.5), verdict(None, 0.5), verdict(0.5, None), verdict(2.0, 1.0, lower_is_better=True)
    ('regressed', 'newly defined', 'no longer defined', 'improved')
    >>> verdict(1.0, 0.0, neutral=True)
    'changed'
    """
    if before is None:
        return "unchanged" if after is None else "newly defined"
    if after is None:
        return "no longer defined"
    if after == before:
        return "unchanged"
    if neutral:
        return "changed"
    if lower_is_better:
        before, after = after, before
    return "regressed" if after < before else "improved"


def systems_in(keys, *names):
    """The systems of ``keys`` (``(case, system)`` pairs) in order of appearance; each of
    ``names`` must be among them."""
    present = list(dict.fromkeys(map(_SYSTEM, keys)))
    for name in names:
        if name not in present:
            raise InvalidInputError(
                f"system must be one of {', '.join(map(show, present)) or '(none: no runs)'}; "
                f"got {show(name)}")
    return present


class Paired(namedtuple("Paired", "cases outcomes codes")):
    """A paired comparison in compact form (see :func:`pair_up`).

    ``cases``: the questions both systems ran, in the baseline's order. ``outcomes``: the
    distinct ``(metric, before, after, delta, verdict)`` found. ``codes``: for each case in
    turn and each metric in order, the position of its outcome in ``outcomes``; a test set
    repeats a handful of outcomes, so each is decided once."""

    __slots__ = ()


def pair_up(keys, columns, *, baseline, candidate, metrics):
    """The :class:`Paired` comparison of ``candidate`` against ``baseline``.

    ``columns`` maps a metric's name to its value for each of ``keys`` (``(case, system)``
    pairs); ``metrics`` are registered metrics. Values are floats (yes 1.0, no 0.0) or
    ``None`` (n/a); ``delta`` = after - before, ``None`` when either is n/a.

    >>> from ragscore.core.metrics import select
    >>> pair_up([("q1", "A"), ("q1", "B")], {"rr": [1.0, 0.5]}, baseline="A",
    ...         candidate="B", metrics=select(("rr",)))
    Paired(cases=['q1'], outcomes=[('rr', 1.0, 0.5, -0.5, 'regressed')], codes=[0])
    """
    systems_in(keys, baseline, candidate)
    systems, everywhere = list(map(_SYSTEM, keys)), range(len(keys))
    firsts, seconds = (list(compress(everywhere, map(eq, systems, repeat(name))))
                       for name in (baseline, candidate))
    cases = list(map(_CASE, map(keys.__getitem__, firsts)))
    others = list(map(_CASE, map(keys.__getitem__, seconds)))
    if cases != others:  # not the usual layout (both ran the same questions, in order)
        after_at = dict(zip(others, seconds))
        firsts = [position for case, position in zip(cases, firsts) if case in after_at]
        cases = list(filter(after_at.__contains__, cases))
        seconds = list(map(after_at.__getitem__, cases))
    outcomes, per_metric = [], []
    for metric in metrics:  # column by column, each distinct (before, after) decided once
        values = columns[metric.name]
        pairs = list(zip(map(values.__getitem__, firsts), map(values.__getitem__, seconds)))
        code_of = {}
        for pair in dict.fromkeys(pairs):
            code_of[pair] = len(outcomes)
            outcomes.append((metric.name, *_decide(*pair, metric)))
        per_metric.append(map(code_of.__getitem__, pairs))
    return Paired(cases, outcomes, list(chain.from_iterable(zip(*per_metric))))


def verdict_order(paired):
    """The positions of ``paired.codes`` in report order: regressions first, then the other
    verdicts in :data:`VERDICTS` order; within a verdict, question order, then metric order.

    >>> verdict_order(Paired(["q1"], [("rr", 1.0, 1.0, 0.0, "unchanged"),
    ...                               ("p", 1.0, 0.5, -0.5, "regressed")], [0, 1]))
    [1, 0]
    """
    rank_of = [_RANK[outcome[4]] for outcome in paired.outcomes]
    ranks = list(map(rank_of.__getitem__, paired.codes))
    everywhere = range(len(ranks))
    return list(chain.from_iterable(compress(everywhere, map(eq, ranks, repeat(rank)))
                                    for rank in sorted(set(ranks))))


def case_indices(paired, positions):
    """For each of ``positions`` (positions in ``paired.codes``), the index of its question
    in ``paired.cases``."""
    per_case = len(paired.codes) // len(paired.cases) if paired.cases else 1
    return map(floordiv, positions, repeat(per_case))


def paired_rows(keys, columns, *, baseline, candidate, metrics):
    """``(case, metric, before, after, delta, verdict)`` for each question both systems
    ran and each of ``metrics``, in report order (:func:`verdict_order`); see
    :func:`pair_up`.

    >>> keys = [("q1", "A"), ("q1", "B")]
    >>> from ragscore.core.metrics import select
    >>> paired_rows(keys, {"rr": [1.0, 0.5]}, baseline="A", candidate="B", metrics=select(("rr",)))
    [('q1', 'rr', 1.0, 0.5, -0.5, 'regressed')]
    """
    paired = pair_up(keys, columns, baseline=baseline, candidate=candidate, metrics=metrics)
    order = verdict_order(paired)
    heads = [(paired.cases[index],) for index in case_indices(paired, order)]
    outcomes = map(paired.outcomes.__getitem__, map(paired.codes.__getitem__, order))
    return list(map(tuple.__add__, heads, outcomes))


_RANK = {name: order for order, name in enumerate(VERDICTS)}
_CASE, _SYSTEM = itemgetter(0), itemgetter(1)


def _decide(before, after, metric):
    """``(before, after, delta, verdict)`` of one pair: values as floats, ``None`` n/a."""
    before = None if before is None else float(before)
    after = None if after is None else float(after)
    delta = None if before is None or after is None else after - before
    return before, after, delta, verdict(before, after, lower_is_better=metric.lower_is_better,
                                         neutral=metric.neutral)


def split_mix(counted, cases=None):
    """``{split: number of questions}`` among ``cases`` (default: every counted case) when
    they come from more than one split, else ``{}``: a comparison over them mixes
    development and held-out questions."""
    if not counted.attributes:
        return {}
    listed = dict.fromkeys(case for case, _ in counted.keys)
    chosen = listed if cases is None else [case for case in listed if case in set(cases)]
    tally = {}
    for case in chosen:
        split = counted.attributes.get(case, {}).get("split")
        if split is not None:
            tally[split] = tally.get(split, 0) + 1
    return tally if len(tally) > 1 else {}
