"""The metric registry: every metric defined once, each in its own module.

Everything that shows or aggregates a metric (``evaluate``, ``score_runs``, tables,
aggregates, comparisons, sweeps, every output format, plots, widgets, CLI headers) iterates
:data:`REGISTRY` or asks it by name; none names a metric by position.

>>> [metric.label_at(2) for metric in REGISTRY.values()]
['P@2', 'R@2', 'RR@2', 'support', 'coverage', 'abstention', 'nDCG@2', 'AP@2', 'Rprec@2', 'ERR@2', 'RBP@2', 'Bpref@2', 'infAP@2', 'Hit@2', 'span R@2', 'chars@2', 'P/ret@2', 'stale', 'unsupported', 'disclosures', 'ctx differs@2', 'EM', 'F1', 'Judged@2', 'V strict', 'A strict', 'V', 'A', 'W', 'cite P', 'cite R', 'ALCE P', 'ALCE R', 'answered']
"""
import importlib
import pkgutil
import re

from ..rules import fail
from ..trials import first_trial, value_of
from ..counts import At
from .base import COUNT, RATE, YES_NO, Metric, Parameter, Pooled


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
           "Metric", "Parameter", "Pooled", "get", "merged_reasons", "na_reason", "parameterised",
           "select", "waiting_reason"]


def get(name):
    """The registered metric called ``name``, or one with parameters
    (``precision(rel=2)``, as :func:`parameterised` names it); an unknown name is a clear
    error naming the closest.

    >>> get("rr").label_at(5)
    'RR@5'
    >>> get("precision(rel=2)").label_at(10)
    'P(rel=2)@10'
    """
    if type(name) is str and name in REGISTRY:
        return REGISTRY[name]
    stem, bracket, rest = name.partition("(") if type(name) is str else ("", "", "")
    if bracket and stem in REGISTRY and rest.endswith(")"):
        values = dict(part.partition("=")[::2] for part in rest[:-1].split(",")) \
            if rest[:-1] else {}
        return parameterised(REGISTRY[stem], values)
    from difflib import get_close_matches

    closest = get_close_matches(str(name), REGISTRY, n=3, cutoff=0) if type(name) is str \
        else list(REGISTRY)[:3]
    fail("metric", f"one of the registered metrics (closest: {', '.join(closest)}; "
                   f"'ragscore measures' lists every one)", name)


def parameterised(metric, texts):
    """``metric`` with its parameters set from ``texts`` (``{"rel": "2"}``, as typed): a
    parameter at its default is left out, so ``P(rel=1)`` is ``P`` on a test set whose
    relevance level is 1 only when said; the result's ``name`` is the registry name with
    the parameters (``precision(rel=2)``) and its ``label`` ir_measures' spelling
    (``P(rel=2)@{k}``). An unknown parameter or a bad value is an
    :class:`~ragscore.core.rules.InvalidInputError` naming the measure and its parameters.

    >>> found = parameterised(REGISTRY["ndcg"], {"dcg": "exp-log2"})
    >>> found.name, found.label_at(10)
    ('ndcg(dcg=exp-log2)', 'nDCG(dcg=exp-log2)@10')
    """
    from ..rules import InvalidInputError, show

    known = {parameter.name: parameter for parameter in metric.parameters}
    shown = metric.ir_name or metric.name
    if not known:
        raise InvalidInputError(f"measure {shown} takes no parameters; got "
                                f"{show(dict(texts))}")
    values = {}
    for name, text in texts.items():
        name, text = name.strip(), text.strip().strip("'\"")
        parameter = known.get(name)
        if parameter is None:
            raise InvalidInputError(
                f"measure {shown} has no parameter {show(name)}; it takes "
                f"{', '.join(known)}: {', '.join(_example(metric, p) for p in known.values())}")
        try:
            values[name] = parameter.read(text)
        except ValueError as error:
            raise InvalidInputError(
                f"measure {shown}: parameter {name} must be {error}; got {show(text)} "
                f"(such as {_example(metric, parameter)})") from None
    values = {name: values[name] for name in known if name in values
              and values[name] != known[name].default}
    if not values:
        return metric
    said = ",".join(f"{name}={value}" for name, value in values.items())
    label = (metric.label.replace("@{k}", f"({said})@{{k}}") if "@{k}" in metric.label
             else f"{metric.label}({said})")
    return metric.derive(metric, values)._replace(name=f"{metric.name}({said})", label=label,
                                                  ir_name=None, trec_name=None,
                                                  trec_uncut=None, shown_when=None,
                                                  parameters=())


def _example(metric, parameter):
    """A valid spelling of ``metric`` with ``parameter`` (``P(rel=2)@10``)."""
    stem = metric.ir_name or metric.label.replace("@{k}", "")
    return f"{stem}({parameter.name}={parameter.example})" + ("@10" if "{k}" in metric.label else "")


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
