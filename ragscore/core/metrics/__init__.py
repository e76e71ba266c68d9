"""The metric registry: every metric defined once, each in its own module.

Everything that shows or aggregates a metric (``evaluate``, ``score_runs``, tables,
aggregates, comparisons, sweeps, every output format, plots, widgets, CLI headers) iterates
:data:`REGISTRY` or asks it by name; none names a metric by position.

>>> [metric.label_at(2) for metric in REGISTRY.values()]
['P@2', 'R@2', 'RR@2', 'support', 'coverage', 'abstention', 'nDCG@2', 'AP@2', 'Hit@2', 'P/ret@2', 'stale', 'unsupported', 'disclosures', 'ctx differs@2', 'EM', 'F1', 'Judged@2', 'V strict', 'A strict', 'V', 'A', 'W', 'cite P', 'cite R', 'ALCE P', 'ALCE R', 'answered']
"""
import importlib
import pkgutil
import re

from ..rules import fail
from ..trials import first_trial, value_of
from ..counts import At
from .base import COUNT, RATE, YES_NO, Metric, Pooled


def _registered():
    """Every metric module of this package (each holds one ``METRIC``), in report order
    (each metric's ``order``): a new metric is a new module here, nothing else to list."""
    found = [importlib.import_module(f"{__name__}.{info.name}").METRIC
             for info in pkgutil.iter_modules(__path__) if info.name != "base"]
    return {metric.name: metric for metric in sorted(found, key=lambda metric: metric.order)}


#: Every registered metric by name, in report order.
REGISTRY = _registered()
#: The nugget scores (TREC RAG's, and W), in report order.
NUGGET_METRICS = tuple(name for name, metric in REGISTRY.items() if metric.group == "nugget")
#: The measures of graded citation support (TREC RAG's and ALCE's), in report order.
CITATION_METRICS = tuple(name for name, metric in REGISTRY.items()
                         if metric.group == "citation")

#: The six metrics of the course contract, in the order :func:`ragscore.evaluate` returns them.
CONTRACT = ("precision", "recall", "rr", "support", "coverage", "abstention_correct")

__all__ = ["CITATION_METRICS", "CONTRACT", "COUNT", "NOT_ASSESSED", "NOT_LABELLED",
           "NUGGET_METRICS", "RATE", "REGISTRY", "YES_NO",
           "Metric", "Pooled", "get", "merged_reasons", "na_reason", "select", "waiting_reason"]


def get(name):
    """The registered metric called ``name``; an unknown name is a clear error.

    >>> get("rr").label_at(5)
    'RR@5'
    """
    if type(name) is not str or name not in REGISTRY:
        fail("metric", f"one of {', '.join(REGISTRY)}", name)
    return REGISTRY[name]


def select(names=CONTRACT):
    """The metrics called ``names``, in the order given, each at most once.

    >>> [metric.name for metric in select(("rr", "precision"))]
    ['rr', 'precision']
    """
    if isinstance(names, str) or not hasattr(type(names), "__iter__"):
        fail("metrics", "a tuple of metric names", names)
    metrics = [get(name) for name in names]
    if len({metric.name for metric in metrics}) != len(metrics):
        fail("metrics", "distinct metric names", tuple(names))
    if not metrics:
        fail("metrics", "at least one metric name", tuple(names))
    return tuple(metrics)


NOT_ASSESSED = "answer not assessed"
#: Why a metric reading the question's labels is n/a on a question nobody has labelled.
NOT_LABELLED = "not labelled yet"
_WAITING = re.compile(r"not assessed: (\d+) claims? awaits? review")


def waiting_reason(claims):
    """Why an answer's support and coverage are n/a while ``claims`` of its claims await a
    person's review.

    >>> waiting_reason(2), waiting_reason(1)
    ('not assessed: 2 claims await review', 'not assessed: 1 claim awaits review')
    """
    return (f"not assessed: {claims} claim awaits review" if claims == 1 else
            f"not assessed: {claims} claims await review")


def merged_reasons(reasons):
    """The distinct reasons of several values, sorted, the claims awaiting review added up
    into one sentence (``None`` skipped).

    >>> merged_reasons([None, "no relevant ID", waiting_reason(2), waiting_reason(1)])
    ('no relevant ID', 'not assessed: 3 claims await review')
    """
    waiting, others = 0, set()
    for reason in reasons:
        found = _WAITING.fullmatch(reason) if reason is not None else None
        if found:
            waiting += int(found.group(1))
        elif reason is not None:
            others.add(reason)
    if waiting:
        others.add(waiting_reason(waiting))
    return tuple(sorted(others))


def na_reason(metric, counts, k):
    """Why ``metric`` is n/a for ``counts``, or ``None`` when it is defined.

    >>> from ragscore.core.counts import count
    >>> na_reason(REGISTRY["support"], count({"a"}, None, ("a",), None), 2)
    'answer not assessed'
    """
    if value_of(metric, counts, k) is not None:
        return None
    counts = first_trial(counts)
    if metric.stage == "answer" and counts.n_claims is None:
        return NOT_ASSESSED
    if metric.needs_labels and counts.answerability == -1:
        return NOT_LABELLED
    if metric.stage == "answer" and counts.n_expected is None:
        return "answer not labelled"
    if metric.waiting is not None and metric.waiting(At(counts, k)):
        return metric.waiting_reason
    return metric.undefined
