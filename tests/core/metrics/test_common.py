"""Properties every registered metric must have, checked by walking the registry.

scikit-learn's ``metrics/tests/test_common.py`` is the model: a new metric module is picked
up here without editing this file, and must pass every check.
"""
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ragscore.core.metrics as metrics_package
from ragscore.core.counts import count
from ragscore.core.metrics import COUNT, RATE, REGISTRY, YES_NO, Metric, na_reason

METRICS_DOC = Path(__file__).resolve().parents[3] / "docs" / "metrics.md"
DOCS = [f"d{n}" for n in range(8)]
METRICS = list(REGISTRY.values())
#: Metrics that can only grow as more of the ranking becomes visible.
NEVER_FALL = [name for name in ("recall", "hit", "support", "coverage", "ap", "disclosures",
                                "stale_support") if name in REGISTRY]


@st.composite
def question_and_run(draw):
    """Valid ``count`` arguments: up to 8 documents and 4 claims, binary or graded labels
    (grades -1 to 3), answer labels and answers sometimes absent."""
    graded = draw(st.booleans())
    grades = None
    if graded:
        grades = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 3), max_size=5))
        minimum = draw(st.integers(1, 3))
        relevant = [doc for doc, grade in grades.items() if grade >= minimum]
    else:
        relevant = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=4))
    support = {}
    if relevant:
        for claim in range(draw(st.integers(1, 3))):
            support[f"c{claim}"] = set(draw(st.lists(st.sampled_from(relevant), unique=True,
                                                     min_size=1, max_size=2)))
    retrieved = tuple(draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=8)))
    names = draw(st.lists(st.sampled_from(["c0", "c1", "c2", "extra"]), unique=True,
                          max_size=4))
    claims = tuple((name, tuple(draw(st.lists(st.sampled_from(DOCS + ["ghost"]), unique=True,
                                              max_size=3))))
                   for name in names)
    if draw(st.booleans()) and draw(st.booleans()):
        claims = None  # the answer stage was not recorded
    if not support and draw(st.booleans()) and draw(st.booleans()):
        support = None  # no answer labels
    options = {"grades": grades}
    if draw(st.booleans()):  # the delivered context, restricted, outdated and losing chunks
        options["delivered"] = tuple(draw(st.lists(st.sampled_from(DOCS), unique=True,
                                                   max_size=4)))
    for option in ("restricted", "superseded", "losers"):
        if draw(st.booleans()):
            options[option] = frozenset(draw(st.lists(st.sampled_from(DOCS), max_size=3)))
    return (frozenset(relevant), support, retrieved, claims), options


GENERATED = settings(max_examples=400, deadline=None, derandomize=True)


def _modules():
    return [importlib.import_module(f"{metrics_package.__name__}.{info.name}")
            for info in pkgutil.iter_modules(metrics_package.__path__)]


def test_the_registry_covers_every_metric_module():
    defined = {module.METRIC.name for module in _modules() if hasattr(module, "METRIC")}
    assert defined == set(REGISTRY)
    assert all(isinstance(metric, Metric) for metric in METRICS)


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_each_metric_is_declared_completely(metric):
    assert metric.kind in (RATE, YES_NO, COUNT)
    assert metric.stage in ("retrieval", "answer", "reference")
    assert metric.slice in ("answerable", "unanswerable", "all")
    assert metric.undefined
    assert metric.label_at(7) and metric.label_at("k")
    if metric.kind == YES_NO:
        assert metric.yes_means and metric.pooled is None


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_each_metric_has_a_docstring_with_a_doctest(metric):
    docstring = metric.formula.__doc__ or ""
    assert doctest.DocTestParser().get_examples(docstring), metric.name


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_each_metric_is_in_the_contract_table(metric):
    """docs/metrics.md's table (it was README's until the README became a front door)."""
    rows = re.findall(r"^\| `([a-z0-9_]+)`", METRICS_DOC.read_text(), re.MULTILINE)
    assert metric.name in rows


@GENERATED
@given(data=question_and_run(), k=st.integers(1, 10))
def test_every_metric_is_in_the_unit_interval_or_na(data, k):
    counts = count(*data[0], **data[1])
    for metric in METRICS:
        value = metric.value(counts, k)
        if value is None:
            continue
        if metric.kind == RATE:
            assert type(value) is float and 0.0 <= value <= 1.0, (metric.name, value)
        elif metric.kind == COUNT:
            assert type(value) is int and value >= 0, (metric.name, value)
        else:
            assert type(value) is bool, (metric.name, value)


@GENERATED
@given(data=question_and_run())
def test_some_metrics_never_fall_as_k_grows(data):
    counts = count(*data[0], **data[1])
    for name in NEVER_FALL:
        values = [REGISTRY[name].value(counts, k) for k in range(1, 11)]
        defined = [value for value in values if value is not None]
        assert defined == sorted(defined), (name, values)


@GENERATED
@given(data=question_and_run(), k=st.integers(1, 10), seed=st.randoms(use_true_random=False))
def test_the_order_of_claims_never_matters(data, k, seed):
    (relevant, support, retrieved, claims), options = data
    shuffled = list(claims or ())
    seed.shuffle(shuffled)
    before = count(*data[0], **options)
    after = count(relevant, support, retrieved, None if claims is None else tuple(shuffled),
                  **options)
    for metric in METRICS:
        assert metric.value(before, k) == metric.value(after, k), metric.name


@GENERATED
@given(data=question_and_run(), k=st.integers(1, 10))
def test_undefined_means_none_and_only_none(data, k):
    counts = count(*data[0], **data[1])
    for metric in METRICS:
        value = metric.value(counts, k)
        assert value is None or value == value  # never NaN
        if counts.n_claims is None and metric.stage == "answer":
            assert value is None and na_reason(metric, counts, k) == "answer not assessed"
