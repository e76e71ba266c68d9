"""What the pending judgements can still change: a gate rule's outcome (or the sign of a
paired comparison) over every way the items awaiting review may be decided.

Judgements are about one question each, so the ways to finish a review are the product,
over the questions, of each question's **options** (every combination of decisions of its
pending items; a question with none has one option, as it stands). A rule's outcome is a
function of per-question numbers (:class:`Contribution`): the candidate's value, the
baseline's, and whether each is n/a for a reason the rule holds against it (unforced,
:func:`ragscore.core.gate.count_na`). Each check is a few **conditions**, each of one of
three shapes over the questions in scope:

- a sum: ``sum of c_q >= bound`` (``min_mean``: c = value - threshold, n/a counts 0; the
  n/a count of every rule: c = baseline's unforced - candidate's, bound = -allowed;
  ``max_count``: c = -value, bound = -threshold);
- every question ok (``min_each``: no defined value below the threshold;
  ``no_regression``: no question regressed);
- some question has something (a defined value; for ``no_regression``, a question
  defined on both sides).

A rule passes when all its conditions hold (and it has a run for every question in scope).
Over the product of option sets each condition's extremes are exact: the least sum takes
each question's least c, every question is ok unless one question's options are all not
ok, and so on. So :func:`rule_status` says ``pass`` (passes however the items are decided),
``fail`` (fails however they are decided) or ``open``, with the completion that comes
closest to the other outcome (:class:`Status`'s ``witness``, one option per question, for
the caller to check with the gate itself). A sum within :data:`MARGIN` of its bound is
never called settled: rounding could tip it.

:func:`movers` says which items (each a set of pairs of options of its question
that differ only in that item) can change a condition for some completion of the others: the
others' sum ranges between its least and its greatest value, which may admit more than the
sums reachable, so an item said to move a rule may not; an item said not to move it cannot.

Standard library only.
"""
from collections import namedtuple

#: A sum this close to its bound is not called settled either way.
MARGIN = 1e-9
#: What a rule does whatever the pending items say, or ``open``.
PASS, FAIL, OPEN = "pass", "fail", "open"


class Contribution(namedtuple("Contribution", "value baseline unforced baseline_unforced")):
    """One question's part in one rule under one option: the candidate's ``value`` and the
    ``baseline``'s (``None``: n/a, or no baseline), and whether each side's n/a is held
    against it (``unforced``, ``baseline_unforced``: 0 or 1)."""

    __slots__ = ()


class Space(namedtuple("Space", "check threshold tolerance lower_is_better allowed no_run "
                                "options")):
    """A rule over the pending items: its ``check`` (a gate check's name, or ``sign`` for
    the sign of a paired comparison's mean delta), ``threshold``, ``tolerance``,
    ``lower_is_better`` (the metric's), how many unforced n/a more than the baseline it
    ``allowed``, ``no_run`` (a question in scope without a run: it fails whatever is
    decided) and ``options``: ``{question in scope: [Contribution per option]}``."""

    __slots__ = ()


class Status(namedtuple("Status", "outcome witnesses")):
    """A rule's ``outcome`` over every completion (:data:`PASS`, :data:`FAIL` or
    :data:`OPEN`) and ``witnesses``: completions (``{question: option}``) closest to the
    other outcome, one per condition that settles it (empty when open)."""

    __slots__ = ()


def _regressed(space, contribution):
    value, before = contribution.value, contribution.baseline
    if value is None or before is None:
        return False
    tolerance = space.tolerance or 0.0
    if space.lower_is_better:
        return float(value) > float(before) + tolerance
    return float(value) < float(before) - tolerance


def conditions(space):
    """The conditions of a rule's check: ``(shape, f, bound, exact)`` with shape ``sum``
    (``f`` gives c per contribution; holds when the sum is at least ``bound``; ``exact``:
    whole numbers, no rounding to fear), ``all`` (``f`` true where the question is ok) or
    ``any`` (``f`` true where it has something)."""
    threshold = space.threshold
    na = ("sum", lambda c: c.baseline_unforced - c.unforced, -space.allowed, True)
    defined = ("any", lambda c: c.value is not None, None, True)
    if space.check == "min_mean":
        return [("sum", lambda c: 0.0 if c.value is None else float(c.value) - threshold, 0.0,
                 False), defined, na]
    if space.check == "min_each":
        return [("all", lambda c: c.value is None or float(c.value) >= threshold, None, True),
                defined, na]
    if space.check == "max_count":  # whole numbers (yes counts 1): exact sums
        return [("sum", lambda c: 0.0 if c.value is None else -float(c.value), -threshold,
                 True), defined, na]
    if space.check == "no_regression":
        return [("all", lambda c: not _regressed(space, c), None, True),
                ("any", lambda c: c.value is not None and c.baseline is not None, None, True),
                na]
    raise ValueError(f"no conditions for check {space.check!r}")


def _delta(contribution):
    if contribution.value is None or contribution.baseline is None:
        return None
    return float(contribution.value) - float(contribution.baseline)


def _extremes(options, f):
    """Per question: (least c, its option, greatest c, its option)."""
    found = {}
    for question, listed in options.items():
        values = [f(contribution) for contribution in listed]
        low = min(range(len(values)), key=values.__getitem__)
        high = max(range(len(values)), key=values.__getitem__)
        found[question] = (values[low], low, values[high], high)
    return found


def _condition_status(shape, f, bound, exact, options):
    """``(always, never, witness of the worst, witness of the best)`` of one condition."""
    if shape == "sum":
        ends = _extremes(options, f)
        least = sum(end[0] for end in ends.values())
        most = sum(end[2] for end in ends.values())
        worst = {question: end[1] for question, end in ends.items()}
        best = {question: end[3] for question, end in ends.items()}
        if exact:
            return least >= bound, most < bound, worst, best
        return least - bound > MARGIN, bound - most > MARGIN, worst, best
    if shape == "all":
        bad = {question: [position for position, c in enumerate(listed) if not f(c)]
               for question, listed in options.items()}
        good = {question: [position for position, c in enumerate(listed) if f(c)]
                for question, listed in options.items()}
        worst = {question: (bad[question] or [0])[0] for question in options}
        best = {question: (good[question] or [0])[0] for question in options}
        return (not any(bad.values()), any(not found for found in good.values()), worst,
                best)
    has = {question: [position for position, c in enumerate(listed) if f(c)]
           for question, listed in options.items()}
    lacks = {question: [position for position, c in enumerate(listed) if not f(c)]
             for question, listed in options.items()}
    worst = {question: (lacks[question] or [0])[0] for question in options}
    best = {question: (has[question] or [0])[0] for question in options}
    return (any(not found for found in lacks.values()), not any(has.values()), worst, best)


def rule_status(space):
    """The :class:`Status` of a rule (see the module docstring).

    Two questions, one settled at 1.0 and one pending between 0.0 and 1.0, mean at least
    0.4: the least mean is (1 + 0) / 2 = 0.5, so it passes whatever is decided.

    >>> pending = [Contribution(0.0, None, 0, 0), Contribution(1.0, None, 0, 0)]
    >>> space = Space("min_mean", 0.4, None, False, 0, (), {"a": [Contribution(1.0, None,
    ...     0, 0)], "b": pending})
    >>> rule_status(space).outcome
    'pass'
    >>> rule_status(space._replace(threshold=0.6)).outcome
    'open'
    """
    if space.check == "sign":
        return _sign_status(space)
    if space.no_run:
        return Status(FAIL, ({question: 0 for question in space.options},))
    found = [_condition_status(shape, f, bound, exact, space.options)
             for shape, f, bound, exact in conditions(space)]
    for always, never, worst, best in found:
        if never:
            return Status(FAIL, (best,))
    if all(always for always, _, _, _ in found):
        return Status(PASS, tuple(worst for _, _, worst, _ in found))
    return Status(OPEN, ())


def _sign_status(space):
    """The sign of the mean paired delta (candidate - baseline over questions defined on
    both sides) over every completion: ``pass`` when always above 0, ``fail`` when always
    below, ``open`` otherwise (0, undefined, or either way)."""
    f = (lambda c: _delta(c) or 0.0)
    ends = _extremes(space.options, f)
    least = sum(end[0] for end in ends.values())
    most = sum(end[2] for end in ends.values())
    if least > MARGIN:
        return Status(PASS, ({question: end[1] for question, end in ends.items()},))
    if most < -MARGIN:
        return Status(FAIL, ({question: end[3] for question, end in ends.items()},))
    return Status(OPEN, ())


class _Summary:
    """One condition over every question, reduced so that what the others can do is known
    for any one question in constant time; ``values[question][option]`` is the condition's
    c (a sum) or whether it holds (all, any) under that option."""

    def __init__(self, shape, f, bound, options):
        self.shape, self.bound = shape, bound
        wanted = f if shape != "any" else (lambda c: not f(c))
        self.values = {question: [f(c) for c in listed] for question, listed in options.items()}
        if shape == "sum":
            self.ends = {question: (min(values), max(values))
                         for question, values in self.values.items()}
            self.least = sum(end[0] for end in self.ends.values())
            self.most = sum(end[1] for end in self.ends.values())
        else:  # all: can each question be ok; any: can each question lack it
            self.can = {question: any(bool(wanted(c)) for c in listed)
                        for question, listed in options.items()}
            self.cannot = sum(1 for can in self.can.values() if not can)

    def others(self, question):
        if self.shape == "sum":
            low, high = self.ends[question]
            return self.least - low, self.most - high
        return self.cannot - (0 if self.can[question] else 1) == 0

    def moves(self, question, first, second):
        values = self.values[question]
        a, b = values[first], values[second]
        if self.shape != "sum":
            return bool(a) != bool(b) and self.others(question)
        low, high = min(a, b), max(a, b)
        if high - low <= MARGIN / 2:
            return False
        least, most = self.others(question)  # some S of the others: S + low < bound <= S + high
        return least < self.bound - low + MARGIN and most >= self.bound - high - MARGIN


def movers(space, items):
    """The names of the ``items`` (``{name: (question, pairs)}``, ``pairs`` the options of
    that question that differ only in the item's decision) that can change the rule's
    outcome for some completion of the others (see the module docstring). A rule that
    fails whatever is decided, or lacks a run, is moved by nothing.

    Question b pending between 0.0 and 1.0 beside a at 1.0: a mean of at least 0.6 hangs
    on b (0.5 or 1.0), one of at least 0.4 does not (0.5 at least).

    >>> pending = [Contribution(0.0, None, 0, 0), Contribution(1.0, None, 0, 0)]
    >>> space = Space("min_mean", 0.6, None, False, 0, (), {"a": [Contribution(1.0, None,
    ...     0, 0)], "b": pending})
    >>> movers(space, {"item": ("b", [(0, 1)])}), movers(space._replace(threshold=0.4),
    ...                                                 {"item": ("b", [(0, 1)])})
    ({'item'}, set())
    """
    if space.check == "sign":
        delta = (lambda c: _delta(c) or 0.0)
        summaries = [_Summary("sum", delta, MARGIN, space.options),
                     _Summary("sum", lambda c: -delta(c), MARGIN, space.options),
                     _Summary("any", lambda c: _delta(c) is not None, None, space.options)]
    elif space.no_run or rule_status(space).outcome == FAIL:
        return set()
    else:
        summaries = [_Summary(shape, f, bound, space.options)
                     for shape, f, bound, _ in conditions(space)]
    found = set()
    for name, (question, pairs) in items.items():
        if any(summary.moves(question, first, second)
               for summary in summaries for first, second in pairs):
            found.add(name)
    return found
