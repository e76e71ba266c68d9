"""Declared aggregates, cutoff sweeps and the counts behind the rates, as pandas tables.

Everything here reads the core's per-question counts (:mod:`ragscore.core.aggregate`): n/a
is never averaged in and never counted as a success, and every aggregate states its method,
its denominator, how many questions it used and how many it left out.
"""
import pandas as pd

from ..core import aggregate as core
from ..core.metrics import REGISTRY, select
from ..core.rules import check_k
from .scores import count_dataset, default_metrics, key_index

AGGREGATE_COLUMNS = ["system", "slice", "metric", "method", "value", "numerator",
                     "denominator", "used", "left_out", "description"]


def answerable(dataset):
    """The names of the cases with something labelled relevant or some claim expected."""
    return [name for name, case in dataset.cases.items()
            if case.get("relevant") or case.get("support")]


def aggregates(dataset, *, k=2, metrics=None, na_as_zero=False):
    """Declared aggregates per system, answerable and unanswerable questions kept apart.

    Answerable slice: the macro mean of every rate (each question weighs the same; n/a left
    out) and, for rates that pool, the pooled value (summed numerators over summed
    denominators). Unanswerable slice: correct abstentions as a count out of its questions,
    never as a retrieval success. ``dataset`` may be a Dataset or its counted runs.

    Columns: system, slice, metric, method, value, numerator, denominator, used, left_out
    and a sentence saying all of that.
    """
    counted = count_dataset(dataset)
    check_k(k, rules=counted.rules)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    rows = [{"system": system, **row._asdict()}
            for system, view in counted.by_system().items()
            for row in core.aggregates(view, k=k, metrics=chosen, na_as_zero=na_as_zero)]
    frame = pd.DataFrame.from_records(rows, columns=AGGREGATE_COLUMNS)
    frame["value"] = pd.array(frame["value"].tolist(), dtype="Float64")
    for column in ("numerator", "denominator", "used", "left_out"):
        frame[column] = pd.array(frame[column].tolist(), dtype="Int64")
    return frame


def sweep(dataset, *, max_k, metrics=None, na_as_zero=False):
    """Macro means for every k from 1 to ``max_k``, per system, from one pass of counts.

    Index ``(system, k)``; one ``Float64`` column per metric: rates are averaged over the
    answerable questions where defined, a yes/no metric gives its share of yes over its own
    slice (correct abstention: over unanswerable questions; it does not depend on k).
    ``questions`` counts the answerable questions.
    """
    counted = count_dataset(dataset)
    check_k(max_k, rules=counted.rules)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    keys, records = [], []
    for system, view in counted.by_system().items():
        answerable_count = sum(view.answerable())
        for k, means in enumerate(core.sweep_means(view, max_k=max_k, metrics=chosen,
                                                   na_as_zero=na_as_zero), start=1):
            keys.append((system, k))
            records.append({**means, "questions": answerable_count})
    index = pd.MultiIndex.from_arrays([[system for system, _ in keys], [k for _, k in keys]],
                                      names=["system", "k"])
    frame = pd.DataFrame(records, index=index,  # (from_records drops an empty index's names)
                         columns=[m.name for m in chosen] + ["questions"])
    for metric in chosen:
        frame[metric.name] = pd.array(frame[metric.name].tolist(), dtype="Float64")
    return frame


def claim_counts(dataset, *, k=2):
    """Per-question counts behind the rates at ``k``: hits, relevant, supported, claims,
    expected (one row per case and system; repeated trials: the mean over them)."""
    counted = count_dataset(dataset)
    check_k(k, rules=counted.rules)
    trials = "trials" in counted.features
    dtype = "Float64" if trials else "Int64"
    numerators = {name: counted.pooled_parts(REGISTRY[name], k)[0]
                  for name in ("recall", "support")}
    sizes = counted.field("trials")
    return pd.DataFrame({
        "hits": pd.array([hits / size for hits, size in zip(numerators["recall"], sizes)]
                         if trials else numerators["recall"], dtype=dtype),
        "relevant": counted.field("n_relevant"),
        "supported": pd.array([found / size for found, size in zip(numerators["support"], sizes)]
                              if trials else numerators["support"], dtype=dtype),
        "claims": pd.array(counted.field("n_claims"), dtype=dtype),
        "expected": pd.array(counted.field("n_expected"), dtype="Int64"),
    }, index=key_index(counted.keys))


SLICE_KINDS = ("tag", "split")


def slice_members(counted, by):
    """``{slice value: set of case names}`` for ``by`` = ``"tag"`` (a case with several tags
    is in each) or ``"split"`` (``dev`` / ``heldout``), in order of first appearance
    (:meth:`~ragscore.engine.counted.Counted.members`)."""
    return counted.members(by)


def restrict(counted, cases):
    """The counted runs of the questions in ``cases`` only (a set of case names)."""
    return counted.restrict(cases)


def sliced_aggregates(dataset, *, by, k=2, metrics=None, na_as_zero=False):
    """The declared aggregates of :func:`aggregates`, once per slice: per tag (``by="tag"``;
    a question with several tags counts in each) or per split (``by="split"``). The first
    column names the slice; each row keeps its method, denominator, questions used and
    left out, and its sentence.
    """
    counted = count_dataset(dataset)
    members = slice_members(counted, by)
    frames = []
    for value, cases in members.items():
        frame = aggregates(restrict(counted, cases), k=k, metrics=metrics,
                           na_as_zero=na_as_zero)
        frame.insert(0, by, value)
        frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=[by] + AGGREGATE_COLUMNS)
    return pd.concat(frames, ignore_index=True)


