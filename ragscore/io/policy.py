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

Errors name the file, the line and the field.
"""
import re
import tomllib

from ..core.gate import Rule
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
    errors = schema_errors(policy, "policy")
    if errors:
        field, message = errors[0]
        match = re.match(r"rule\[(\d+)\](?:\.(\w+))?", field)
        key = match.group(2) if match else None
        if match and key is None and "unknown key" in message:
            key = message.split("'")[1]
        line = _line_of_rule(text, int(match.group(1)), key) if match else None
        place = where(path, line) if line else where(path)
        raise DatasetFileError(f"{place}: {field}: {message}")
    rules = []
    for position, item in enumerate(policy["rule"]):
        try:
            metric, k = _measure(item["metric"], item.get("k"))
        except InvalidInputError as error:
            raise DatasetFileError(f"{where(path, _line_of_rule(text, position, 'metric'))}: "
                                   f"{error}") from None
        rules.append(Rule(name=item["name"], metric=metric, check=item["check"],
                          threshold=item.get("threshold"), tolerance=item.get("tolerance", 0.0),
                          slice=item.get("slice"), cases=item.get("cases"), k=k,
                          severity=item.get("severity", "major")))
    names = [rule.name for rule in rules]
    for position, name in enumerate(names):
        if names.index(name) != position:
            raise DatasetFileError(f"{where(path, _line_of_rule(text, position))}: rule name "
                                   f"{show(name)} is used twice")
    return Policy((tuple(rules), policy.get("k", 2), policy.get("description", ""), text))


def _measure(metric, k):
    """A rule's ``metric`` and ``k``: a registry name as it is, or a measure named as
    ir_measures names it (``nDCG@10``, ``P@5``: :mod:`ragscore.core.measures`) read as its
    metric and cutoff."""
    from ..core.measures import parse_measure
    from ..core.metrics import REGISTRY

    if metric in REGISTRY or "@" not in metric:
        return metric, k
    measure = parse_measure(metric)
    if k is not None and k != measure.k:
        raise InvalidInputError(f"metric {show(metric)} names cutoff {measure.k} and k is "
                                f"{k}; give one")
    return measure.metric, measure.k


def check_policy_rules(policy, path, *, has_baseline):
    """Check every rule can be judged; errors name the file and the rule's line."""
    from ..core.gate import check_rule

    for position, rule in enumerate(policy.rules):
        try:
            check_rule(rule, has_baseline=has_baseline)
        except InvalidInputError as error:
            key = "metric" if "metric" in str(error) else "check" if "check" in str(
                error) else None
            line = _line_of_rule(policy.text, position, key)
            place = where(path, line) if line else where(path)
            raise DatasetFileError(f"{place}: {error}") from None
