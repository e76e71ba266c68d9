"""The acceptance gate: rules written before looking at results, checked per question.

A policy is a list of :class:`Rule`. Each names a registry metric, a check, and where it
applies (a question tag, a list of cases, or every question). The checks, declared here once:

- ``min_mean``: the macro mean over the questions in scope where the metric is defined
  (yes counts 1, no 0) is at least ``threshold``;
- ``min_each``: every defined value in scope is at least ``threshold``;
- ``max_count``: the total of a count metric (or of yes answers of a yes/no metric) over the
  questions in scope is at most ``threshold``;
- ``no_regression``: on every question in scope where both are defined, the candidate is
  at least ``baseline - tolerance`` (at most ``baseline + tolerance`` for a metric where lower
  is better); questions where either is n/a are left out and counted
  in the sentence (a correct abstention makes support n/a: that is not a regression).

A rule with no defined value in scope fails: nothing was shown to pass. The questions that
broke a rule are listed worst first. Repeated trials are one question (their combined value,
:mod:`ragscore.core.trials`).

The candidate and the baseline are *views* of one system's counted runs: objects with
``keys`` (``(case, system)`` pairs) and ``values_by_case(metric, k)`` (each engine's
:class:`~ragscore.engine.counted.Counted` has them).
"""
from collections import namedtuple

from .metrics import COUNT, RATE, YES_NO, get
from .rules import InvalidInputError, show

SEVERITIES = ("critical", "major", "minor")


class Check(namedtuple("Check", "name meaning reads needs judge")):
    """One kind of gate rule, defined once: its ``name`` (a policy's ``check``), what it
    means in one sentence (the docs and the policy schema say the same), the metric kinds
    it ``reads``, what it ``needs`` (``"threshold"`` or ``"baseline"``) and ``judge(rule,
    metric, values, where, label, left_out, baseline, k)``, which returns an
    :class:`Outcome`."""

    __slots__ = ()


class Rule(namedtuple("Rule", "name metric check threshold tolerance slice cases k severity",
                      defaults=(None, 0.0, None, None, None, "major"))):
    """One rule of a policy (see the module docstring for what each check means)."""

    __slots__ = ()


class Outcome(namedtuple("Outcome", "rule passed value used left_out failures detail")):
    """How one rule fared: ``value`` is the mean, total or number of regressions it judged;
    ``used`` the questions with a defined value, ``left_out`` those in scope without one;
    ``failures`` ``(case, candidate, baseline)`` for each question that broke it, worst first;
    ``detail`` one sentence saying all of that."""

    __slots__ = ()


def check_rule(rule, *, has_baseline):
    """Raise :class:`~ragscore.core.rules.InvalidInputError` for a rule that cannot be judged:
    an unknown metric or check, a missing threshold, a metric the check cannot read, or a
    ``no_regression`` rule without a baseline."""
    where = f"rule {show(rule.name)}"
    try:
        metric = get(rule.metric)
    except InvalidInputError as error:
        raise InvalidInputError(f"{where}: {error}") from None
    if rule.check not in CHECKS:
        raise InvalidInputError(f"{where}: check must be one of {', '.join(CHECKS)}; got "
                                f"{show(rule.check)}")
    if rule.severity not in SEVERITIES:
        raise InvalidInputError(f"{where}: severity must be one of {', '.join(SEVERITIES)}; "
                                f"got {show(rule.severity)}")
    check = CHECKS[rule.check]
    if check.needs == "baseline":
        if not has_baseline:
            raise InvalidInputError(f"{where}: {check.name} needs a baseline (--baseline SYS "
                                    "or --baseline-file FILE)")
    elif type(rule.threshold) not in (int, float) or type(rule.threshold) is bool:
        raise InvalidInputError(f"{where}: {check.name} needs a numeric threshold; got "
                                f"{show(rule.threshold)}")
    if metric.kind not in check.reads:
        others = [other.name for other in CHECKS.values()
                  if metric.kind in other.reads and other.needs == check.needs]
        raise InvalidInputError(f"{where}: {check.name} reads {_KINDS[check.reads]}; "
                                f"{rule.metric} is a {metric.kind} (use "
                                f"{' or '.join(others)})")
    return metric


_KINDS = {(RATE, YES_NO): "rates and yes/no values", (COUNT, YES_NO): "counts and yes/no values",
          (RATE, YES_NO, COUNT): "every kind of metric"}


def in_scope(rule, cases, tags):
    """The case names a rule applies to, in ``cases`` order: its ``cases`` list, else the
    questions tagged ``slice``, else every question."""
    if rule.cases is not None:
        unknown = [name for name in rule.cases if name not in cases]
        if unknown:
            raise InvalidInputError(f"rule {show(rule.name)}: case {show(unknown[0])} is not "
                                    "in the test set")
        return [name for name in cases if name in set(rule.cases)]
    if rule.slice is not None:
        return [name for name in cases if rule.slice in tags.get(name, ())]
    return list(cases)


def _number(value):
    return None if value is None else float(value)


def judge(rule, candidate, *, k, tags, baseline=None):
    """The :class:`Outcome` of ``rule`` for the ``candidate``'s counted runs (``baseline``
    likewise, for ``no_regression``). ``tags`` maps a case to its tags.

    >>> from ragscore.core.counts import count
    >>> from ragscore.engine.reference import ReferenceCounted
    >>> runs = ReferenceCounted([("q1", "S"), ("q2", "S")], [count({"a"}, {}, ("a",), ()),
    ...                                                      count({"a"}, {}, ("b",), ())])
    >>> judge(Rule("recall", "recall", "min_each", 1.0), runs, k=1, tags={}).failures
    [('q2', 0.0, None)]
    """
    metric = check_rule(rule, has_baseline=baseline is not None)
    k = rule.k or k
    found = candidate.values_by_case(metric, k)
    scope = in_scope(rule, found, tags)
    raw = {name: found[name] for name in scope}
    values = {name: _number(value) for name, value in raw.items()}
    defined = {name: value for name, value in values.items() if value is not None}
    left_out = len(scope) - len(defined)
    label = metric.label_at(k)
    where = f"{len(scope)} question{'s' * (len(scope) != 1)}"
    if rule.slice is not None:
        where += f" tagged {rule.slice}"
    return CHECKS[rule.check].judge(rule, metric, raw, where, label, left_out, baseline, k)


def _nothing_defined(rule, label, where, left_out):
    return Outcome(rule, False, None, 0, left_out, [],
                   f"no defined {label} in the {where}: nothing shows it passes")


def _defined(values):
    return {name: float(value) for name, value in values.items() if value is not None}


def _min_mean(rule, metric, values, where, label, left_out, baseline, k):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    mean = sum(defined.values()) / len(defined)
    below = sorted(((name, values[name], None) for name, value in defined.items()
                    if value < rule.threshold), key=lambda item: float(item[1]))
    return Outcome(rule, mean >= rule.threshold, mean, len(defined), left_out, below,
                   f"mean {label} {mean:.2f} over {len(defined)} of the {where} "
                   f"(threshold {rule.threshold:g}; {left_out} n/a left out)")


def _min_each(rule, metric, values, where, label, left_out, baseline, k):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    below = sorted(((name, values[name], None) for name, value in defined.items()
                    if value < rule.threshold), key=lambda item: float(item[1]))
    return Outcome(rule, not below, len(below), len(defined), left_out, below,
                   f"{len(below)} of {len(defined)} defined {label} values below "
                   f"{rule.threshold:g} in the {where} ({left_out} n/a left out)")


def _max_count(rule, metric, values, where, label, left_out, baseline, k):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    total = sum(defined.values())
    having = sorted(((name, values[name], None) for name, value in defined.items() if value),
                    key=lambda item: -float(item[1]))
    return Outcome(rule, total <= rule.threshold, total, len(defined), left_out, having,
                   f"{total:g} {label} in all over the {where}, in {len(having)} question"
                   f"{'s' * (len(having) != 1)} "
                   f"(at most {rule.threshold:g} allowed; {left_out} n/a left out)")


def _no_regression(rule, metric, values, where, label, left_out, baseline, k):
    tolerance = rule.tolerance or 0.0
    failures, compared, left_out = [], 0, 0
    earlier = baseline.values_by_case(metric, k)
    for name, value in values.items():
        before = earlier.get(name)
        if before is None or value is None:
            left_out += 1
            continue
        compared += 1
        worse = (float(value) > float(before) + tolerance if metric.lower_is_better
                 else float(value) < float(before) - tolerance)
        if worse:
            failures.append((name, value, before))
    direction = -1.0 if metric.lower_is_better else 1.0
    failures.sort(key=lambda item: direction * (float(item[1]) - float(item[2])))
    if not compared:
        return Outcome(rule, False, None, 0, left_out, [],
                       f"no question in the {where} has {label} defined for both: nothing "
                       "shows it passes")
    return Outcome(rule, not failures, len(failures), compared, left_out, failures,
                   f"{len(failures)} of {compared} questions fell more than {tolerance:g} below "
                   f"the baseline's {label}, in the {where} ({left_out} with n/a on either "
                   "side left out)")


#: The checks a rule may make, by name (a policy's ``check``).
CHECKS = {check.name: check for check in (
    Check("min_mean", "the macro mean over the questions in scope where the metric is "
                      "defined (yes counts 1, no 0) is at least threshold",
          (RATE, YES_NO), "threshold", _min_mean),
    Check("min_each", "every defined value in scope is at least threshold",
          (RATE, YES_NO), "threshold", _min_each),
    Check("max_count", "the total of a count metric (or of the yes answers of a yes/no "
                       "metric) over the questions in scope is at most threshold",
          (COUNT, YES_NO), "threshold", _max_count),
    Check("no_regression", "on every question in scope where both are defined, the "
                           "candidate is at least the baseline minus tolerance (at most "
                           "plus tolerance where lower is better)",
          (RATE, YES_NO, COUNT), "baseline", _no_regression),
)}


def run_gate(rules, candidate, *, k, tags, baseline=None):
    """Every rule judged, as a list of :class:`Outcome` in policy order; every rule is
    checked before any is judged, so a bad policy fails before it prints a verdict."""
    for rule in rules:
        check_rule(rule, has_baseline=baseline is not None)
    return [judge(rule, candidate, k=k, tags=tags, baseline=baseline) for rule in rules]
