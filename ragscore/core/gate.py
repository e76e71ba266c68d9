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

The questions in a rule's scope are the *test set's* (``cases``), not the candidate's: a
question in scope that the candidate (or, for ``no_regression``, the baseline) has no run
for is listed as "no run" and fails the rule (``missing = "fail"``, the default), or stops
the gate with an error (``missing = "error"``). Every number of a rule is checked as data
before anything is judged (:func:`check_rule`): finite, a rate threshold in [0, 1], a count
threshold whole and at least 0, a tolerance at least 0, a cutoff from 1 to ``max_k``.

The candidate and the baseline are *views* of one system's counted runs: objects with
``keys`` (``(case, system)`` pairs) and ``values_by_case(metric, k)`` (each engine's
:class:`~ragscore.engine.counted.Counted` has them).
"""
from collections import namedtuple
from math import fsum, isfinite

from .metrics import COUNT, RATE, YES_NO, get
from .rules import InvalidInputError, show

SEVERITIES = ("critical", "major", "minor")
#: What a question in scope without a run does: fail the rule, or stop the gate (exit 2).
MISSING = ("fail", "error")
#: The largest cutoff any ID rules accept (:data:`ragscore.core.rules.OPEN`'s ``max_k``).
MAX_K = 10_000


class Check(namedtuple("Check", "name meaning reads needs judge")):
    """One kind of gate rule, defined once: its ``name`` (a policy's ``check``), what it
    means in one sentence (the docs and the policy schema say the same), the metric kinds
    it ``reads``, what it ``needs`` (``"threshold"`` or ``"baseline"``) and ``judge(rule,
    metric, values, where, label, left_out, baseline, k)`` (``values`` and ``baseline``:
    ``{case: value}`` of the questions in scope that have a run), which returns an
    :class:`Outcome`."""

    __slots__ = ()


class Rule(namedtuple("Rule", "name metric check threshold tolerance slice cases k severity "
                              "missing max_na max_na_share estimate audit_share audit_seed",
                      defaults=(None, 0.0, None, None, None, "major", "fail", None, None,
                                None, None, None))):
    """One rule of a policy (see the module docstring for what each check means);
    ``max_na`` (a whole number) or ``max_na_share`` (a share of the questions in scope)
    allows the candidate that many n/a questions more than the baseline has, or than the
    labels force (none allowed by default). ``estimate = "ppi"`` judges a ``min_mean`` of an
    answer metric by the prediction-powered estimate from a judge's drafts and people's
    audit sample (``audit_share``, ``audit_seed``; :mod:`ragscore.core.ppi`) instead of
    people's judgements alone."""

    __slots__ = ()


class Outcome(namedtuple("Outcome", "rule passed value used left_out failures detail no_run "
                                    "na", defaults=((), None))):
    """How one rule fared: ``value`` is the mean, total or number of regressions it judged;
    ``used`` the questions with a defined value, ``left_out`` those in scope without one;
    ``failures`` ``(case, candidate, baseline)`` for each question that broke it, worst first;
    ``detail`` one sentence saying all of that; ``no_run`` ``(case, side)`` for each question
    in scope that the ``"candidate"`` or the ``"baseline"`` has no run for (any fails the
    rule); ``na`` the :class:`NA` counts of the questions in scope (each side's n/a, why, and
    how many the rule allows)."""

    __slots__ = ()


class NA(namedtuple("NA", "candidate baseline forced unforced baseline_unforced allowed "
                          "reasons failed questions", defaults=((),))):
    """The n/a of one rule's questions, counted on each side: ``candidate`` (n/a questions
    with a candidate run), ``baseline`` (the same of the baseline's, ``None`` without a
    baseline), ``forced`` (the candidate's n/a that the test set's labels make so: a
    question outside the metric's slice, not labelled yet, or undefined by its labels),
    ``unforced`` (the others: the candidate's doing, or not assessed),
    ``baseline_unforced`` (the baseline's, ``None`` without one), ``allowed`` (how many
    unforced n/a more than the baseline's, or than none, the rule allows: ``max_na``),
    ``reasons`` (``(reason, questions)`` of the candidate's n/a, most first),
    ``failed`` (the candidate is n/a on more questions than that) and ``questions`` (the
    candidate's unforced n/a questions, in scope order)."""

    __slots__ = ()


class RuleError(InvalidInputError):
    """A rule that cannot be judged; ``field`` names the policy key at fault (or ``None``)."""

    def __init__(self, message, *, field=None):
        super().__init__(message)
        self.field = field


def _is_number(value):
    return type(value) in (int, float)


def check_numbers(rule, *, max_k=MAX_K):
    """Raise :class:`RuleError` for a number of ``rule`` outside what its check reads: not
    finite, a ``min_mean``/``min_each`` threshold outside [0, 1], a ``max_count`` threshold
    not a whole number at least 0, a tolerance below 0, ``k`` not a whole number from 1 to
    ``max_k``, ``missing`` not one of :data:`MISSING`.

    >>> check_numbers(Rule("x", "recall", "min_mean", float("nan")))
    Traceback (most recent call last):
    ...
    ragscore.core.gate.RuleError: rule 'x': threshold must be a finite number; got nan
    """
    where = f"rule {show(rule.name)}"
    for field in ("threshold", "tolerance"):
        value = getattr(rule, field)
        if value is None:
            continue
        if not _is_number(value) or not isfinite(value):
            raise RuleError(f"{where}: {field} must be a finite number; got {show(value)}",
                            field=field)
    threshold = rule.threshold
    if rule.check in ("min_mean", "min_each") and _is_number(threshold) and not (
            0 <= threshold <= 1):
        raise RuleError(f"{where}: {rule.check} reads rates and yes/no values, so its "
                        f"threshold must be from 0 to 1; got {show(threshold)}",
                        field="threshold")
    if rule.check == "max_count" and _is_number(threshold) and not (
            threshold >= 0 and float(threshold).is_integer()):
        raise RuleError(f"{where}: max_count totals counts, so its threshold must be a "
                        f"whole number at least 0; got {show(threshold)}", field="threshold")
    if rule.tolerance is not None and rule.tolerance < 0:
        raise RuleError(f"{where}: tolerance must be at least 0; got {show(rule.tolerance)}",
                        field="tolerance")
    if rule.k is not None and (type(rule.k) is not int or not 1 <= rule.k <= max_k):
        raise RuleError(f"{where}: k must be a whole number from 1 to {max_k}; got "
                        f"{show(rule.k)}", field="k")
    if rule.missing not in MISSING:
        raise RuleError(f"{where}: missing must be one of {', '.join(MISSING)}; got "
                        f"{show(rule.missing)}", field="missing")
    if rule.max_na is not None and (type(rule.max_na) is not int or rule.max_na < 0):
        raise RuleError(f"{where}: max_na must be a whole number at least 0; got "
                        f"{show(rule.max_na)}", field="max_na")
    share = rule.max_na_share
    if share is not None and (not _is_number(share) or not isfinite(share)
                              or not 0 <= share <= 1):
        raise RuleError(f"{where}: max_na_share must be a number from 0 to 1; got "
                        f"{show(share)}", field="max_na_share")
    if rule.max_na is not None and share is not None:
        raise RuleError(f"{where}: give max_na or max_na_share, not both",
                        field="max_na_share")


def check_rule(rule, *, has_baseline, max_k=MAX_K):
    """Raise :class:`RuleError` (an :class:`~ragscore.core.rules.InvalidInputError`) for a
    rule that cannot be judged: an unknown metric or check, a missing threshold, a metric
    the check cannot read, a ``no_regression`` rule without a baseline, or a number outside
    its range (:func:`check_numbers`)."""
    where = f"rule {show(rule.name)}"
    if type(rule.name) is not str:
        raise RuleError(f"rule name must be a str; got {show(rule.name)}", field="name")
    try:
        metric = get(rule.metric)
    except InvalidInputError as error:
        raise RuleError(f"{where}: {error}", field="metric") from None
    if rule.check not in CHECKS:
        raise RuleError(f"{where}: check must be one of {', '.join(CHECKS)}; got "
                        f"{show(rule.check)}", field="check")
    if rule.severity not in SEVERITIES:
        raise RuleError(f"{where}: severity must be one of {', '.join(SEVERITIES)}; "
                        f"got {show(rule.severity)}", field="severity")
    check = CHECKS[rule.check]
    if check.needs == "baseline":
        if not has_baseline:
            raise RuleError(f"{where}: {check.name} needs a baseline (--baseline SYS "
                            "or --baseline-file FILE)", field="check")
    elif not _is_number(rule.threshold):
        raise RuleError(f"{where}: {check.name} needs a numeric threshold; got "
                        f"{show(rule.threshold)}", field="threshold")
    if metric.kind not in check.reads:
        others = [other.name for other in CHECKS.values()
                  if metric.kind in other.reads and other.needs == check.needs]
        raise RuleError(f"{where}: {check.name} reads {_KINDS[check.reads]}; "
                        f"{rule.metric} is a {metric.kind} (use "
                        f"{' or '.join(others)})", field="metric")
    check_numbers(rule, max_k=max_k)
    if rule.estimate is not None or rule.audit_share is not None or rule.audit_seed is not None:
        from .ppi import estimate_problem

        problem = estimate_problem(rule, metric)
        if problem is not None:
            raise RuleError(f"{where}: {problem[0]}", field=problem[1])
    if metric.kind != COUNT and rule.tolerance is not None and rule.tolerance > 1:
        raise RuleError(f"{where}: {rule.metric} is a {metric.kind} from 0 to 1, so a "
                        f"tolerance above 1 allows every change; got {show(rule.tolerance)}",
                        field="tolerance")
    if rule.slice is not None and rule.cases is not None:
        raise RuleError(f"{where}: give slice or cases, not both (a rule's scope is one of "
                        "them)", field="cases")
    if rule.cases is not None and len(set(rule.cases)) != len(rule.cases):
        twice = next(name for position, name in enumerate(rule.cases)
                     if name in rule.cases[:position])
        raise RuleError(f"{where}: case {show(twice)} is listed twice", field="cases")
    return metric


_KINDS = {(RATE, YES_NO): "rates and yes/no values", (COUNT, YES_NO): "counts and yes/no values",
          (RATE, YES_NO, COUNT): "every kind of metric"}


def in_scope(rule, cases, tags):
    """The case names a rule applies to, in ``cases`` order (the test set's questions): its
    ``cases`` list, else the questions tagged ``slice``, else every question."""
    if rule.cases is not None:
        unknown = [name for name in rule.cases if name not in cases]
        if unknown:
            raise RuleError(f"rule {show(rule.name)}: case {show(unknown[0])} is not "
                            "in the test set", field="cases")
        chosen = set(rule.cases)
        return [name for name in cases if name in chosen]
    if rule.slice is not None:
        return [name for name in cases if rule.slice in tags.get(name, ())]
    return list(cases)


def judge(rule, candidate, *, k, tags, baseline=None, cases=None, max_k=MAX_K, digits=2):
    """The :class:`Outcome` of ``rule`` for the ``candidate``'s counted runs (``baseline``
    likewise, for ``no_regression`` and for the n/a count) over the test set's questions
    ``cases`` (in order; ``None`` reads the candidate's own, for a candidate known to answer
    every question). ``tags`` maps a case to its tags. A question in scope without a run
    fails the rule (listed in ``no_run``), or raises :class:`RuleError` under ``missing =
    "error"``. A candidate n/a on more questions than the baseline (without one: than the
    labels force), beyond ``max_na``, fails the rule too (:func:`count_na`).

    >>> from ragscore.core.counts import count
    >>> from ragscore.engine.reference import ReferenceCounted
    >>> runs = ReferenceCounted([("q1", "S"), ("q2", "S")], [count({"a"}, {}, ("a",), ()),
    ...                                                      count({"a"}, {}, ("b",), ())])
    >>> judge(Rule("recall", "recall", "min_each", 1.0), runs, k=1, tags={}).failures
    [('q2', 0.0, None)]
    >>> judge(Rule("recall", "recall", "min_each", 0.0), runs, k=1, tags={},
    ...       cases=["q1", "q2", "q3"]).no_run
    (('q3', 'candidate'),)
    """
    metric = check_rule(rule, has_baseline=baseline is not None, max_k=max_k)
    k = rule.k or k
    found = candidate.values_by_case(metric, k)
    scope = in_scope(rule, list(found) if cases is None else cases, tags)
    no_run = [(name, "candidate") for name in scope if name not in found]
    earlier = None
    if CHECKS[rule.check].needs == "baseline":
        earlier = baseline.values_by_case(metric, k)
        no_run += [(name, "baseline") for name in scope if name not in earlier]
    if no_run and rule.missing == "error":
        name, side = no_run[0]
        raise RuleError(f"rule {show(rule.name)}: question {show(name)} is in scope but the "
                        f"{side} has no run for it (missing = \"error\")", field="missing")
    raw = {name: found[name] for name in scope if name in found}
    left_out = sum(value is None for value in raw.values())
    label = metric.label_at(k)
    where = f"{len(scope)} question{'s' * (len(scope) != 1)}"
    if rule.slice is not None:
        where += f" tagged {rule.slice}"
    outcome = CHECKS[rule.check].judge(rule, metric, raw, where, label, left_out, earlier, k,
                                       digits=digits)
    na = count_na(rule, metric, k, scope, candidate, baseline)
    outcome = outcome._replace(na=na)
    if na.candidate or na.baseline:
        outcome = outcome._replace(passed=outcome.passed and not na.failed,
                                   detail=f"{outcome.detail} {na_sentence(na)}")
    if na.failed:  # the n/a questions listed with the others that broke the rule
        before = {} if baseline is None else baseline.values_by_case(metric, k)
        listed = {case for case, _, _ in outcome.failures}
        outcome = outcome._replace(failures=list(outcome.failures) + [
            (case, None, before.get(case)) for case in na.questions if case not in listed])
    if not no_run:
        return outcome
    sides = sorted({side for _, side in no_run})
    return outcome._replace(passed=False, no_run=tuple(no_run), detail=(
        f"{outcome.detail} {len(no_run)} in scope with no {' or '.join(sides)} run: "
        "nothing shows they pass."))


def _na_questions(view, metric, k, scope):
    """``(n/a questions, the unforced ones, {reason: questions})`` of one system's
    ``view`` over the questions of ``scope`` it has a run for (see :class:`NA`)."""
    from .metrics import NOT_LABELLED

    chosen = set(scope)
    na, unforced, reasons = [], [], {}
    values = view.values_by_case(metric, k)
    if not any(values[case] is None for case in chosen if case in values):
        return na, unforced, reasons  # nothing n/a: no reason to read
    for (case, _), value, reason, answerable in zip(
            view.keys, view.values(metric, k), view.reasons(metric, k), view.answerable()):
        if case not in chosen or value is not None:
            continue
        na.append(case)
        reasons[reason] = reasons.get(reason, 0) + 1
        outside = (metric.slice == "answerable" and not answerable) or (
            metric.slice == "unanswerable" and answerable)
        if not (outside or reason == NOT_LABELLED
                or (metric.na_by_labels and reason == metric.undefined)):
            unforced.append(case)
    return na, unforced, reasons


def count_na(rule, metric, k, scope, candidate, baseline=None):
    """The :class:`NA` of ``rule`` over ``scope``: the candidate fails it when its unforced
    n/a questions outnumber the baseline's (without a baseline: zero) by more than the rule
    allows (``max_na``, or ``max_na_share`` of the questions in scope, rounded down)."""
    na, unforced, reasons = _na_questions(candidate, metric, k, scope)
    before = before_unforced = None
    if baseline is not None:
        earlier, earlier_unforced, _ = _na_questions(baseline, metric, k, scope)
        before, before_unforced = len(earlier), len(earlier_unforced)
    allowed = rule.max_na if rule.max_na is not None else (
        int(rule.max_na_share * len(scope)) if rule.max_na_share is not None else 0)
    failed = len(unforced) > (before_unforced or 0) + allowed
    ordered = tuple(sorted(reasons.items(), key=lambda item: (-item[1], str(item[0]))))
    return NA(len(na), before, len(na) - len(unforced), len(unforced), before_unforced,
              allowed, ordered, failed, tuple(unforced))


def na_sentence(na):
    """What a rule's n/a questions were, on each side and why, in one sentence (two when
    it failed on them).

    >>> na_sentence(NA(2, 0, 0, 2, 0, 0, (("the answer makes no claims", 2),), True))
    'n/a: candidate 2 (the answer makes no claims: 2), baseline 0. The candidate is n/a on 2 more questions than the baseline (max_na allows 0): nothing shows they pass.'
    >>> na_sentence(NA(3, None, 3, 0, None, 0, (("the question is answerable", 3),), False))
    'n/a: candidate 3 (the question is answerable: 3; all as the labels make it).'
    """
    why = [f"{reason}: {count}" for reason, count in na.reasons]
    if na.forced:
        why.append("all as the labels make it" if na.forced == na.candidate
                   else f"{na.forced} as the labels make it")
    text = f"n/a: candidate {na.candidate}" + (f" ({'; '.join(why)})" if why else "")
    if na.baseline is not None:
        text += f", baseline {na.baseline}"
    text += "."
    if na.failed:
        against = "the baseline" if na.baseline is not None else "the labels make it"
        extra = na.unforced - (na.baseline_unforced or 0)
        text += (f" The candidate is n/a on {extra} more question{'s' * (extra != 1)} than "
                 f"{against} (max_na allows {na.allowed}): nothing shows they pass.")
    return text


def _nothing_defined(rule, label, where, left_out):
    return Outcome(rule, False, None, 0, left_out, [],
                   f"no defined {label} in the {where}: nothing shows it passes.")


def _defined(values):
    return {name: float(value) for name, value in values.items() if value is not None}


def _min_mean(rule, metric, values, where, label, left_out, baseline, k, *, digits=2):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    mean = fsum(defined.values()) / len(defined)  # exactly rounded: no order can tip it
    below = sorted(((name, values[name], None) for name, value in defined.items()
                    if value < rule.threshold), key=lambda item: float(item[1]))
    return Outcome(rule, mean >= rule.threshold, mean, len(defined), left_out, below,
                   f"mean {label} {mean:.{digits}f} over {len(defined)} of the {where}; "
                   f"threshold {rule.threshold:g}. {left_out} n/a left out.")


def _min_each(rule, metric, values, where, label, left_out, baseline, k, *, digits=2):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    below = sorted(((name, values[name], None) for name, value in defined.items()
                    if value < rule.threshold), key=lambda item: float(item[1]))
    return Outcome(rule, not below, len(below), len(defined), left_out, below,
                   f"{len(below)} of {len(defined)} defined {label} values below "
                   f"{rule.threshold:g}, in the {where}. {left_out} n/a left out.")


def _max_count(rule, metric, values, where, label, left_out, baseline, k, *, digits=2):
    defined = _defined(values)
    if not defined:
        return _nothing_defined(rule, label, where, left_out)
    total = fsum(defined.values())
    having = sorted(((name, values[name], None) for name, value in defined.items() if value),
                    key=lambda item: -float(item[1]))
    return Outcome(rule, total <= rule.threshold, total, len(defined), left_out, having,
                   f"{total:g} {label} in all, in {len(having)} question"
                   f"{'s' * (len(having) != 1)}; at most {rule.threshold:g} allowed. "
                   f"In the {where}, {left_out} n/a left out.")


def _no_regression(rule, metric, values, where, label, left_out, baseline, k, *, digits=2):
    tolerance = rule.tolerance or 0.0
    failures, compared, left_out = [], 0, 0
    earlier = baseline
    for name, value in values.items():
        if name not in earlier:
            continue  # no baseline run: the judge lists it under no_run
        before = earlier[name]
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
                       "shows it passes.")
    return Outcome(rule, not failures, len(failures), compared, left_out, failures,
                   f"{len(failures)} of {compared} questions fell below the baseline's "
                   f"{label}" + (f" by more than {tolerance:g}" if tolerance else "")
                   + f". In the {where}, {left_out} with n/a on either side left out.")


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


def run_gate(rules, candidate, *, k, tags, baseline=None, cases=None, max_k=MAX_K, digits=2):
    """Every rule judged, as a list of :class:`Outcome` in policy order, over the test set's
    questions ``cases`` (see :func:`judge`); every rule is checked before any is judged, so a
    bad policy fails before it prints a verdict. A mean in a rule's detail has ``digits``
    decimals."""
    if type(k) is not int or not 1 <= k <= max_k:
        raise RuleError(f"k must be a whole number from 1 to {max_k}; got {show(k)}",
                        field="k")
    for rule in rules:
        check_rule(rule, has_baseline=baseline is not None, max_k=max_k)
        if cases is not None:
            in_scope(rule, cases, tags)
    return [judge(rule, candidate, k=k, tags=tags, baseline=baseline, cases=cases,
                  max_k=max_k, digits=digits) for rule in rules]


class Verdict(namedtuple("Verdict", "outcomes passed failed")):
    """The gate's verdict, one object for the verdict line and the exit code: ``passed`` is
    True only when there is at least one rule and every rule passed; ``failed`` the
    outcomes that did not pass, in policy order. Severity orders the output; a failed rule
    of any severity, ``minor`` included, fails the gate."""

    __slots__ = ()


def verdict_of(outcomes):
    """The :class:`Verdict` of a list of :class:`Outcome`.

    >>> verdict_of([]).passed
    False
    """
    outcomes = tuple(outcomes)
    failed = tuple(outcome for outcome in outcomes if outcome.passed is not True)
    return Verdict(outcomes, bool(outcomes) and not failed, failed)
