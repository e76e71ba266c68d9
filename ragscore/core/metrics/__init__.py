"""The metric registry: every metric defined once, each in its own module.

Everything that shows or aggregates a metric (``evaluate``, ``score_runs``, tables,
aggregates, comparisons, sweeps, every output format, plots, widgets, CLI headers) iterates
:data:`REGISTRY` or asks it by name; none names a metric by position.

>>> [metric.label_at(2) for metric in REGISTRY.values()]
['P@2', 'R@2', 'RR@2', 'support', 'coverage', 'abstention', 'nDCG@2', 'AP@2', 'Hit@2', 'P/ret@2', 'stale', 'unsupported', 'disclosures', 'ctx differs@2', 'EM', 'F1', 'Judged@2', 'V strict', 'A strict', 'V', 'A', 'W', 'cite P', 'cite R', 'ALCE P', 'ALCE R']
"""
import re

from ..rules import fail
from . import abstention, alce_precision, alce_recall, ap, citation_precision, citation_recall, \
    context_differs, coverage, disclosures, exact_match, hit, judged, ndcg, nugget_all, \
    nugget_strict_all, nugget_strict_vital, nugget_vital, nugget_weighted, precision, recall, \
    returned_precision, rr, stale_support, support, token_f1, unsupported
from ..trials import first_trial, value_of
from ..counts import At
from .base import COUNT, RATE, YES_NO, Metric, Pooled

#: Every registered metric by name, in report order.
REGISTRY = {module.METRIC.name: module.METRIC
            for module in (precision, recall, rr, support, coverage, abstention, ndcg, ap, hit,
                           returned_precision, stale_support, unsupported, disclosures,
                           context_differs, exact_match, token_f1, judged, nugget_strict_vital,
                           nugget_strict_all, nugget_vital, nugget_all, nugget_weighted,
                           citation_precision, citation_recall, alce_precision, alce_recall)}
#: The nugget scores (TREC RAG's, and W), in report order.
NUGGET_METRICS = ("nugget_strict_vital", "nugget_strict_all", "nugget_vital", "nugget_all",
                  "nugget_weighted")
#: The measures of graded citation support (TREC RAG's and ALCE's), in report order.
CITATION_METRICS = ("citation_precision", "citation_recall", "alce_precision", "alce_recall")

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
