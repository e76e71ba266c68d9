"""The policy schema (ragscore/schemas/policy.schema.json) and the policy checker
(ragscore.io.policy with ragscore.core.gate.check_rule) say the same thing.

Over generated policies (metrics the check reads; numbers in range, out of range, whole,
fractional, bools), a policy the schema accepts is one the checker accepts, and the other
way round. Three things only the checker can judge are kept out of the generated space and
tested on their own: nan and inf (JSON cannot write them; TOML can), which metrics exist
and which checks read them, and a tolerance above 1 on a rate or yes/no metric (the metric
registry says which metric is a rate).
"""
import json
import math
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ragscore.core.gate import CHECKS, MAX_K, MISSING, RuleError, check_rule
from ragscore.core.metrics import COUNT, REGISTRY
from ragscore.io.jsonl import DatasetFileError
from ragscore.io.policy import check_policy_rules, load_policy, rules_of
from ragscore.io.schemas import schema_errors

# mostly valid values (about four in five), so that one bad value decides a policy's fate
def _mostly(valid, invalid):
    return st.sampled_from(valid * (4 * len(invalid) // len(valid) + 1) + invalid)


NUMBERS = _mostly([0, 1, 0.0, 0.5, 1.0], [2, 10_001, -1, 1.5, -0.25, 3.0, 1e300, True, False])
KS = _mostly([None, 1, 2, 100], [0, 10_000, 10_001, -3, 2.0, 2.5, True])


def _toml(value):
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is float:
        return repr(value)
    if type(value) is list:
        return "[" + ", ".join(map(_toml, value)) + "]"
    return json.dumps(value)


@st.composite
def policies(draw):
    top = {}
    if draw(st.booleans()):
        top["k"] = draw(KS.filter(lambda k: k is not None))
    if draw(st.booleans()):
        top["missing"] = draw(st.sampled_from(["fail", "error", "fail", "skip"]))
    rules = []
    for position in range(draw(st.integers(1, 2))):
        check = draw(st.sampled_from(sorted(CHECKS)))
        reads = CHECKS[check].reads
        metric = draw(st.sampled_from(sorted(name for name, m in REGISTRY.items()
                                             if m.kind in reads)))
        rule = {"name": f"rule {position}", "metric": metric, "check": check}
        tolerances = NUMBERS if REGISTRY[metric].kind == COUNT else NUMBERS.filter(
            lambda value: type(value) is bool or value <= 1)
        for key, values in (("threshold", NUMBERS), ("tolerance", tolerances), ("k", KS)):
            value = draw(values)
            if value is not None and draw(st.booleans()):
                rule[key] = value
        if draw(st.booleans()):
            rule["missing"] = draw(st.sampled_from(["fail", "error", "fail", "skip"]))
        rules.append(rule)
    return top, rules


def _write(tmp_path, top, rules):
    lines = [f"{key} = {_toml(value)}" for key, value in top.items()]
    for rule in rules:
        lines += ["", "[[rule]]"] + [f"{key} = {_toml(value)}" for key, value in rule.items()]
    path = tmp_path / "policy.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _checker_accepts(policy):
    """The checker on its own, without the schema: each rule through check_rule, the
    policy's k through run_gate's check."""
    try:
        for rule in rules_of(policy):
            check_rule(rule, has_baseline=True)
        k = policy.get("k", 2)
        if type(k) is float and k.is_integer():
            k = int(k)
        if type(k) is not int or not 1 <= k <= MAX_K:
            return False
        if policy.get("missing", "fail") not in MISSING:
            return False
    except RuleError:
        return False
    return True


def _one(**rule):
    return {}, [{"name": "r", "metric": "recall", "check": "min_mean", "threshold": 0.5, **rule}]


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(policies())
@example(_one(k=10_001))
@example(_one(k=10_000))
@example(_one(tolerance=-0.25))
@example(_one(threshold=1.5))
@example(_one(missing="skip"))
@example(({"k": 10_001}, _one()[1]))
@example(({}, [{"name": "r", "metric": "unsupported", "check": "max_count", "threshold": 1.5}]))
def test_the_schema_and_the_checker_accept_the_same_policies(policy):
    top, rules = policy
    data = {**top, "rule": rules}
    errors = schema_errors(data, "policy")
    assert _checker_accepts(data) == (not errors), (data, errors)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(policies())
def test_load_policy_accepts_what_the_schema_accepts(tmp_path_factory, policy):
    top, rules = policy
    path = _write(tmp_path_factory.mktemp("p"), top, rules)
    try:
        check_policy_rules(load_policy(path), path, has_baseline=True)
        accepted = True
    except DatasetFileError as error:
        accepted = False
        assert re.match(rf"{re.escape(str(path))}, line \d+: ", str(error)), str(error)
    assert accepted == (not schema_errors({**top, "rule": rules}, "policy"))


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "+nan"])
@pytest.mark.parametrize("key", ["threshold", "tolerance"])
def test_nan_and_inf_are_refused_by_the_checker_with_file_and_line(tmp_path, key, text):
    path = tmp_path / "p.toml"
    path.write_text(f'[[rule]]\nname = "r"\nmetric = "recall"\ncheck = "min_mean"\n'
                    f'threshold = 0.5\n{key} = {text}\n'.replace("threshold = 0.5\nthreshold",
                                                                  "threshold"))
    with pytest.raises(DatasetFileError, match=rf"p\.toml, line \d: rule\[0\]\.{key}: must be "
                                               r"a finite number; got [-+]?(nan|inf)"):
        load_policy(path)
    assert math.isnan(float(text)) or math.isinf(float(text))


def test_the_schema_names_every_check_and_the_largest_k():
    from ragscore.core.gate import MAX_K
    from ragscore.core.rules import OPEN
    from ragscore.io.schemas import schema

    policy = schema("policy")
    assert policy["properties"]["rule"]["items"]["properties"]["check"]["enum"] == list(CHECKS)
    assert policy["properties"]["k"]["maximum"] == MAX_K == OPEN.max_k


def test_a_tolerance_above_1_on_a_rate_is_refused_by_the_checker():
    # support is a rate from 0 to 1: a tolerance of 1.5 (or 1e308) lets every fall pass.
    rule = rules_of({"rule": [{"name": "r", "metric": "support", "check": "no_regression",
                               "tolerance": 1.5}]})[0]
    with pytest.raises(RuleError, match=r"rule 'r': support is a rate from 0 to 1, so a "
                                        r"tolerance above 1 allows every change; got 1\.5"):
        check_rule(rule, has_baseline=True)
    counts = rules_of({"rule": [{"name": "c", "metric": "unsupported", "check": "no_regression",
                                 "tolerance": 2}]})[0]
    check_rule(counts, has_baseline=True)  # a count may fall by 2


@pytest.mark.parametrize("extra, message", [
    ({"slice": "critical", "cases": ["owner"]}, r"give slice or cases, not both"),
    ({"cases": ["launch", "launch"]}, r"case 'launch' is listed twice"),
])
def test_slice_with_cases_and_a_case_twice_are_refused_by_both(extra, message):
    data = {"rule": [{"name": "r", "metric": "support", "check": "min_each",
                      "threshold": 1.0, **extra}]}
    assert schema_errors(data, "policy")
    with pytest.raises(RuleError, match=message):
        check_rule(rules_of(data)[0], has_baseline=True)


@pytest.mark.parametrize("rule, unread", [
    ({"check": "min_mean", "threshold": 0.5, "tolerance": 0.5}, "tolerance"),
    ({"check": "no_regression", "threshold": 0.9}, "threshold"),
])
def test_a_key_the_check_does_not_read_is_refused_by_both(tmp_path, rule, unread):
    # someone who writes threshold on a no_regression rule believes it does something
    data = {"rule": [{"name": "r", "metric": "support", **rule}]}
    assert schema_errors(data, "policy")
    path = _write(tmp_path, {}, data["rule"])
    with pytest.raises(DatasetFileError, match=rf"policy\.toml, line \d+: rule\[0\]: "
                                               rf"{rule['check']} does not read {unread}"):
        load_policy(path)
