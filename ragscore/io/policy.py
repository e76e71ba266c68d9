"""Acceptance policies as TOML files, checked against ``ragscore/schemas/policy.schema.json``.

A policy is written before anyone looks at results::

    k = 2
    description = "release gate for the course system"

    [[rule]]
    name = "no support regression"
    metric = "support"
    check = "no_regression"
    tolerance = 0.0
    severity = "critical"

    [[rule]]
    name = "mean coverage"
    metric = "coverage"
    check = "min_mean"
    threshold = 0.8

Every number is checked as data before anything is judged: finite (TOML can write ``nan``
and ``inf``), a ``min_mean``/``min_each`` threshold from 0 to 1, a ``max_count`` threshold
whole and at least 0, a tolerance at least 0, ``k`` from 1 to what ``report`` accepts for the
test set's IDs. ``missing = "fail"`` (the default) or ``"error"``, at the top or in a rule,
says what a question in scope without a run does. ``max_na = N`` (or ``max_na_share =
0.1``), at the top or in a rule, allows the candidate N more n/a questions in a rule's scope
than the baseline has (without a baseline: than the test set's labels force); by default a
candidate n/a where the baseline is not fails the rule. Errors name the file, the line and the
field.
"""
import math
import re
import tomllib

from ..core.gate import CHECKS, MAX_K, Rule, RuleError, check_numbers
from ..core.rules import InvalidInputError, show
from .jsonl import DatasetFileError, open_regular, where

_RULE_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*rule[ \t]*\]\]", re.MULTILINE)


class Policy(tuple):
    """``(rules, k, description, text)`` of a policy file (``text``, the file as read, lets
    a later error name a rule's line)."""

    __slots__ = ()

    @property
    def rules(self):
        return self[0]

    @property
    def k(self):
        return self[1]

    @property
    def description(self):
        return self[2]

    @property
    def text(self):
        return self[3]


def _line_of_rule(text, position, key=None):
    """The 1-based line of ``key`` in the ``position``-th ``[[rule]]`` table (of its header
    when ``key`` is not written there), or ``None``."""
    headers = list(_RULE_HEADER.finditer(text))
    if position >= len(headers):
        return None
    start = headers[position].start()
    stop = headers[position + 1].start() if position + 1 < len(headers) else len(text)
    if key is not None:
        found = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", re.MULTILINE).search(
            text, start, stop)
        if found:
            start = found.start()
    return text.count("\n", 0, start) + 1


def _line_of_top_key(text, key):
    """The 1-based line of the top-level ``key`` (before the first ``[[rule]]``), or None."""
    first = _RULE_HEADER.search(text)
    stop = first.start() if first else len(text)
    found = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", re.MULTILINE).search(
        text, 0, stop)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _place(path, text, position, key):
    """``file, line N`` of ``key`` in the ``position``-th rule (``None``: the top level)."""
    line = (_line_of_top_key(text, key) if position is None
            else _line_of_rule(text, position, key) or _line_of_top_key(text, "rule"))
    return where(path, line) if line else where(path)


def _non_finite(policy):
    """``(rule position or None, key, value)`` of the first nan or inf in a policy."""
    def bad(value):
        if type(value) is float:
            return not math.isfinite(value)
        if type(value) is list:
            return any(map(bad, value))
        if type(value) is dict:
            return any(map(bad, value.values()))
        return False

    for key, value in policy.items():
        if key == "rule" and type(value) is list:
            for position, item in enumerate(value):
                for name, inner in (item.items() if type(item) is dict else ()):
                    if bad(inner):
                        return position, name, inner
        elif bad(value):
            return None, key, value
    return None


def load_policy(path, *, max_bytes=1 << 20):
    """Read and check the policy file at ``path``; return a :class:`Policy`.

    Raises :class:`~ragscore.io.jsonl.DatasetFileError` (a ``ValueError``) naming the file,
    the line and the field of the first problem.
    """
    from .schemas import schema_errors

    try:
        with open_regular(path, max_bytes) as handle:
            raw = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise DatasetFileError(f"{where(path)}: cannot be read (No such file or directory)"
                               ) from None
    except OSError as error:
        raise DatasetFileError(f"{where(path)}: cannot be read ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
        policy = tomllib.loads(text)
    except UnicodeDecodeError:
        raise DatasetFileError(f"{where(path)}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise DatasetFileError(f"{where(path)}: not valid TOML: {error}") from None
    except RecursionError:
        raise DatasetFileError(f"{where(path)}: not valid TOML: nested too deeply") from None
    found = _non_finite(policy)
    if found:
        position, key, value = found
        field = key if position is None else f"rule[{position}].{key}"
        raise DatasetFileError(f"{_place(path, text, position, key)}: {field}: must be a "
                               f"finite number; got {show(value)}")
    errors = schema_errors(policy, "policy")
    if errors:
        field, message = errors[0]
        match = re.match(r"rule\[(\d+)\](?:\.(\w+))?", field)
        key = match.group(2) if match else None
        if match and key is None and "unknown key" in message:
            key = message.split("'")[1]
        unread = re.match(r"must satisfy not \{'required': \['(\w+)'(, '(\w+)')?\]\}", message)
        if match and unread:
            item = policy["rule"][int(match.group(1))]
            key = unread.group(3) or unread.group(1)
            message = (f"give slice or cases, not both" if unread.group(3) else
                       f"{item.get('check')} does not read {key}; remove it (no_regression "
                       "reads tolerance, the other checks threshold)")
        if match:
            place = _place(path, text, int(match.group(1)), key)
        else:
            top = field.split(".")[0].split("[")[0]
            if "unknown key" in message:
                top = message.split("'")[1]
            place = _place(path, text, None, top)
        raise DatasetFileError(f"{place}: {field}: {message}")
    rules = []
    for position, item in enumerate(policy["rule"]):
        try:
            rule = _rule_of(item, policy)
        except InvalidInputError as error:
            field = getattr(error, "field", None) or "metric"
            raise DatasetFileError(f"{_place(path, text, position, field)}: {error}"
                                   ) from None
        try:
            check_numbers(rule)
        except RuleError as error:
            raise DatasetFileError(f"{_place(path, text, position, error.field)}: {error}"
                                   ) from None
        rules.append(rule)
    names = [rule.name for rule in rules]
    for position, name in enumerate(names):
        if names.index(name) != position:
            raise DatasetFileError(f"{where(path, _line_of_rule(text, position))}: rule name "
                                   f"{show(name)} is used twice")
    return Policy((tuple(rules), _whole(policy.get("k", 2)), policy.get("description", ""),
                   text))


def rules_of(policy):
    """The :class:`~ragscore.core.gate.Rule` of each ``[[rule]]`` of a parsed policy whose
    shape the schema accepted (unchecked: :func:`~ragscore.core.gate.check_rule` judges
    them); a rule without ``missing`` takes the policy's, else ``"fail"``."""
    return [_rule_of(item, policy) for item in policy["rule"]]


def _rule_of(item, policy):
    """One ``[[rule]]`` as a :class:`~ragscore.core.gate.Rule`, its metric named as the
    registry names it or as ir_measures does (:func:`_measure`)."""
    unread = "threshold" if item.get("check") == "no_regression" else "tolerance"
    if unread in item and item.get("check") in CHECKS:
        raise RuleError(f"rule {show(item.get('name'))}: {item['check']} does not read "
                        f"{unread}; remove it (no_regression reads tolerance, the other "
                        "checks threshold)", field=unread)
    metric, k = _measure(item["metric"], _whole(item.get("k")))
    return Rule(name=item["name"], metric=metric, check=item["check"],
                threshold=item.get("threshold"), tolerance=item.get("tolerance", 0.0),
                slice=item.get("slice"), cases=item.get("cases"), k=k,
                severity=item.get("severity", "major"),
                missing=item.get("missing", policy.get("missing", "fail")),
                estimate=item.get("estimate"), audit_share=item.get("audit_share"),
                audit_seed=item.get("audit_seed"), **_na_allowance(item, policy))


def _na_allowance(item, policy):
    """A rule's ``max_na`` or ``max_na_share``: its own, else the policy's (a rule that
    gives one of them gives its whole allowance)."""
    own = {key: item[key] for key in ("max_na", "max_na_share") if key in item}
    chosen = own or {key: policy[key] for key in ("max_na", "max_na_share") if key in policy}
    return {"max_na": _whole(chosen.get("max_na")),
            "max_na_share": chosen.get("max_na_share")}


def _measure(metric, k):
    """A rule's ``metric`` and ``k``: a registry name as it is, or a measure named as
    ir_measures names it (``nDCG@10``, ``P@5``, ``P(rel=2)@10``:
    :mod:`ragscore.core.measures`) read as its metric (with its parameters) and cutoff."""
    from ..core.measures import parse_measure
    from ..core.metrics import REGISTRY

    if type(metric) is not str or metric in REGISTRY or "@" not in metric and (
            "(" not in metric or metric.partition("(")[0] in REGISTRY):
        return metric, k
    measure = parse_measure(metric)
    if k is not None and k != measure.k:
        raise InvalidInputError(f"metric {show(metric)} names cutoff {measure.k} and k is "
                                f"{k}; give one")
    return measure.metric, measure.k


def _whole(k):
    """``k`` as an int when the schema let a whole float through (TOML ``k = 2.0``)."""
    return int(k) if type(k) is float and k.is_integer() else k


def check_policy_rules(policy, path, *, has_baseline, cases=None, tags=None, max_k=MAX_K):
    """Check every rule can be judged on this test set (its ``cases`` and ``tags``, when
    given; ``max_k``: the largest cutoff its IDs allow); errors name the file and the line."""
    from ..core.gate import check_rule, in_scope

    if policy.k > max_k:
        raise DatasetFileError(f"{_place(path, policy.text, None, 'k')}: k must be a whole "
                               f"number from 1 to {max_k} for this test set's IDs; got "
                               f"{show(policy.k)}")
    for position, rule in enumerate(policy.rules):
        try:
            check_rule(rule, has_baseline=has_baseline, max_k=max_k)
            if cases is not None:
                in_scope(rule, cases, tags or {})
        except RuleError as error:
            raise DatasetFileError(f"{_place(path, policy.text, position, error.field)}: "
                                   f"{error}") from None
