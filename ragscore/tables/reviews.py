"""Reviewers' disputes and agreement as pandas tables, and the declared aggregates with and
without the disputed questions (:mod:`ragscore.core.reviews` does the counting).

A question is **disputed** when any item reviewed on it (a document, or a system's claim)
was given two different decisions. Its labels are uncertain, so a report can show each
system's figures over all questions, over the questions without a dispute, and over the
disputed ones alone, and say how many questions each uses: the dispute stays visible
instead of being settled by a vote.
"""
import pandas as pd

from ..core import aggregate as core
from ..core.metrics import select
from ..core.reviews import agreement, alpha, disputed
from ..core.rules import check_k
from ..engine import DEFAULT_ENGINE
from .scores import count_dataset, default_metrics
from .summary import AGGREGATE_COLUMNS

#: The three sets of questions :func:`disputed_slice` reports, in order.
ALL_QUESTIONS, UNDISPUTED, DISPUTED = "all", "undisputed", "disputed"
SLICE_COLUMNS = ["system", "questions", "n_questions"] + AGGREGATE_COLUMNS[1:]
AGREEMENT_COLUMNS = ["kind", "first", "second", "items", "agreed", "disagreed", "po", "pe",
                     "kappa", "reason"]
ALPHA_COLUMNS = ["kind", "level", "items", "reviewers", "values", "alpha", "reason"]


def disputed_slice(dataset, *, k=2, metrics=None, engine=DEFAULT_ENGINE, counted=None):
    """Each system's declared aggregates over all its questions, over its questions without
    a disputed review, and over the disputed ones.

    One row per (system, questions, aggregate): ``questions`` is ``all``, ``undisputed`` or
    ``disputed``; ``n_questions`` how many of the system's questions that set holds; the
    other columns are those of ``ragscore.reports.aggregates`` (macro means over the
    answerable questions of the set where defined, pooled values, counts), computed by
    :func:`ragscore.core.aggregate.aggregates` on the set's questions. A set with no
    questions gives n/a values over 0 questions, never 0. ``dataset`` must be a Dataset
    (the reviews live in its cases); ``counted``, when given, its counted runs (the rows to
    report: a split's or a system's).
    """
    counted = count_dataset(dataset, engine=engine) if counted is None else counted
    check_k(k, rules=counted.rules)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    held = frozenset(disputed(dataset.cases, dataset.judgements).cases)
    per_system = {}
    for system, view in counted.by_system().items():
        cases = [case for case, _ in view.keys]
        per_system[system] = {
            ALL_QUESTIONS: view,
            UNDISPUTED: view.take([p for p, case in enumerate(cases) if case not in held]),
            DISPUTED: view.take([p for p, case in enumerate(cases) if case in held])}
    rows = [{"system": system, "questions": name, "n_questions": len(view),
             **{key: value for key, value in row._asdict().items()}}
            for system, sets in per_system.items()
            for name, view in sets.items()
            for row in core.aggregates(view, k=k, metrics=chosen)]
    frame = pd.DataFrame.from_records(rows, columns=SLICE_COLUMNS)
    frame["value"] = pd.array(frame["value"].tolist(), dtype="Float64")
    for column in ("n_questions", "numerator", "denominator", "used", "left_out"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    return frame


def agreement_table(dataset):
    """One row per kind of item and pair of reviewers (:func:`ragscore.core.reviews.agreement`:
    kinds in order of first review, names sorted): items of that kind both judged, how many
    they agreed on and disagreed on, percent agreement ``po``, chance agreement ``pe`` and
    Cohen's kappa, as ``Float64`` (``<NA>`` when undefined, with ``reason``). Decisions are
    compared as they are on their kind's own scale (a grade with a grade, ``partial_support``
    a decision of its own); kappa is never pooled across kinds.
    """
    records = [{"kind": row.kind, "first": row.first, "second": row.second,
                "items": row.items, "agreed": row.agreed, "disagreed": row.items - row.agreed,
                "po": row.po, "pe": row.pe, "kappa": row.kappa, "reason": row.reason}
               for row in agreement(dataset.cases, dataset.judgements)]
    frame = pd.DataFrame.from_records(records, columns=AGREEMENT_COLUMNS)
    for column in ("po", "pe", "kappa"):
        frame[column] = pd.array([None if value is None else float(value)
                                  for value in frame[column].tolist()], dtype="Float64")
    for column in ("items", "agreed", "disagreed"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    return frame


def alpha_table(dataset):
    """One row per kind of item (:func:`ragscore.core.reviews.alpha`): its scale's level
    (``ordinal`` for relevance grades, ``nominal`` otherwise), the items people judged,
    how many people, the decisions on items judged twice or more, and Krippendorff's alpha
    as ``Float64`` (``<NA>`` when undefined, with ``reason``); machine drafts left out."""
    frame = pd.DataFrame.from_records([row._asdict() for row in alpha(dataset.cases,
                                                                      dataset.judgements)],
                                      columns=ALPHA_COLUMNS)
    frame["alpha"] = pd.array([None if value is None else float(value)
                               for value in frame["alpha"].tolist()], dtype="Float64")
    for column in ("items", "reviewers", "values"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    return frame
