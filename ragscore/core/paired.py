"""Paired, per-question comparison of two systems: one verdict rule, plain Python rows.

The table form (:func:`ragscore.tables.compare.compare`) and the command line's text both
read these rows, so a verdict is decided in one place.
"""
from itertools import chain, repeat
from operator import itemgetter

from .rules import InvalidInputError, show

#: Verdicts of a paired comparison, in the order a report lists them (regressions first).
VERDICTS = ("regressed", "no longer defined", "newly defined", "improved", "unchanged")


def verdict(before, after, *, lower_is_better=False):
    """The verdict on one question and metric; ``None`` is n/a.

    A fall is a regression, unless lower is better (a count of problems), where a rise is.

    >>> verdict(1.0, 0.5), verdict(None, 0.5), verdict(0.5, None), verdict(2.0, 1.0, lower_is_better=True)
    ('regressed', 'newly defined', 'no longer defined', 'improved')
    """
    if before is None:
        return VERDICTS[4] if after is None else VERDICTS[2]
    if after is None:
        return VERDICTS[1]
    if lower_is_better:
        before, after = after, before
    if after < before:
        return VERDICTS[0]
    return VERDICTS[3] if after > before else VERDICTS[4]


def systems_in(keys, *names):
    """The systems of ``keys`` (``(case, system)`` pairs) in order of appearance; each of
    ``names`` must be among them."""
    present = list(dict.fromkeys(system for _, system in keys))
    for name in names:
        if name not in present:
            raise InvalidInputError(
                f"system must be one of {', '.join(map(show, present)) or '(none: no runs)'}; "
                f"got {show(name)}")
    return present


def paired_rows(keys, columns, *, baseline, candidate, metrics):
    """``(case, metric, before, after, delta, verdict)`` for each question both systems
    ran (in the baseline's order) and each of ``metrics`` (registered metrics).

    ``columns`` maps a metric's name to its value for each of ``keys``. Values are floats
    (yes 1.0, no 0.0) or ``None`` (n/a); ``delta`` = after - before, ``None`` when either
    is n/a. Regressions come first, then the other verdicts in :data:`VERDICTS` order;
    within a verdict, question order, then metric order.

    >>> keys = [("q1", "A"), ("q1", "B")]
    >>> from ragscore.core.metrics import select
    >>> paired_rows(keys, {"rr": [1.0, 0.5]}, baseline="A", candidate="B", metrics=select(("rr",)))
    [('q1', 'rr', 1.0, 0.5, -0.5, 'regressed')]
    """
    systems_in(keys, baseline, candidate)
    before_at, after_at = {}, {}
    for position, (case, system) in enumerate(keys):
        if system == baseline:
            before_at[case] = position
        elif system == candidate:
            after_at[case] = position
    cases = [case for case in before_at if case in after_at]
    firsts = [before_at[case] for case in cases]
    seconds = [after_at[case] for case in cases]
    # Column by column, each distinct (before, after) pair of a metric decided once (a test
    # set repeats a handful of values), then rows put together at C speed.
    suffixes = []
    for metric in metrics:
        values = columns[metric.name]
        pairs = list(zip(map(values.__getitem__, firsts), map(values.__getitem__, seconds)))
        decided = {pair: (metric.name, *_decide(*pair, metric.lower_is_better))
                   for pair in set(pairs)}
        suffixes.append(list(map(decided.__getitem__, pairs)))
    flat = list(chain.from_iterable(zip(*suffixes)))  # question by question, metric order
    heads = chain.from_iterable(map(repeat, [(case,) for case in cases], repeat(len(metrics))))
    rows = list(map(tuple.__add__, heads, flat))
    rank = list(map(_RANK.__getitem__, map(itemgetter(4), flat)))
    return list(map(rows.__getitem__, sorted(range(len(rows)), key=rank.__getitem__)))


_RANK = {name: order for order, name in enumerate(VERDICTS)}


def _decide(before, after, lower_is_better):
    """``(before, after, delta, verdict)`` of one pair: values as floats, ``None`` n/a."""
    before = None if before is None else float(before)
    after = None if after is None else float(after)
    delta = None if before is None or after is None else after - before
    return before, after, delta, verdict(before, after, lower_is_better=lower_is_better)


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
