"""Scoring a run log too large for one machine, partition by partition.

Each question is scored on its own, and every declared aggregate is made of sums (how many
questions, how many defined, the exact sum of their values, pooled numerators and
denominators: :class:`~ragscore.core.aggregate.Summary`), so a partitioned run log is
scored one partition at a time, anywhere, and the partitions' summaries added up: the
aggregates are exactly those of the whole log scored in one piece. On Dask, each partition
of a Dask DataFrame of run records is one task (:func:`score_dask`); see ``docs/scale.md``.

A run record is a row with ``case``, ``system``, ``retrieved`` (a list of IDs) and,
optionally, ``claims`` (a list of ``{"claim", "citations"}``), ``trial``, ``delivered``;
a question's runs and trials must sit in one partition (partition by case).
"""
from ..core.aggregate import aggregates_of, merged, summaries
from ..core.metrics import select
from ..core.rules import InvalidInputError, show
from . import DEFAULT_ENGINE, default_metrics

__all__ = ["aggregate_partitions", "partition_summaries", "score_dask"]

_OPTIONAL = ("claims", "trial", "delivered", "answer", "latency_ms", "tokens", "cost",
             "retries", "failed")


def _runs_of(records):
    """``runs[case][system]`` from run records (a pandas DataFrame or a list of dicts)."""
    if hasattr(records, "to_dict"):  # a pandas DataFrame, perhaps indexed by case
        if "case" not in records.columns and records.index.name == "case":
            records = records.reset_index()
        records = records.to_dict("records")
    runs = {}
    for position, record in enumerate(records):
        try:
            case, system = record["case"], record["system"]
        except (KeyError, TypeError):
            raise InvalidInputError(f"run record {position} must have 'case' and 'system'; "
                                    f"got {show(record)}") from None
        run = {"retrieved": _ids(record.get("retrieved"))}
        for key in _OPTIONAL:
            value = record.get(key)
            if value is None or value != value:  # absent, or a missing value of a frame
                continue
            if key == "claims":
                value = _claims(value, case, system)
            elif key == "delivered":
                value = _ids(value)
            run[key] = value
        per_case = runs.setdefault(case, {})
        if "trial" in run:
            per_case.setdefault(system, []).append(run)
        elif system in per_case:
            raise InvalidInputError(f"case {show(case)}, system {show(system)}: two run "
                                    "records without trial numbers")
        else:
            per_case[system] = run
    for per_case in runs.values():
        for system, trials in per_case.items():
            if type(trials) is list:
                trials.sort(key=lambda run: run["trial"])
    return runs


def _claims(value, case, system):
    """A record's claims (a list of ``{"claim", "citations"}`` mappings) as the rules expect
    them: ``((claim, citations), ...)``."""
    try:
        return tuple((claim["claim"], _ids(claim["citations"])) for claim in value)
    except (KeyError, TypeError, IndexError):
        raise InvalidInputError(
            f"case {show(case)}, system {show(system)}: claims must be a list of objects with "
            f"'claim' and 'citations'; got {show(value)} (a Dask frame made with from_pandas "
            "turns lists into strings unless dataframe.convert-string is off)") from None


def _ids(value):
    """A list or array of IDs as the tuple the rules expect (other values left for the
    rules to refuse)."""
    if value is None:
        return ()
    if type(value) is tuple or isinstance(value, str):
        return value
    try:
        return tuple(value)
    except TypeError:
        return value


def partition_summaries(test_set, records, *, k, metrics=None, engine=DEFAULT_ENGINE,
                        na_as_zero=False):
    """``{system: {(metric, slice): Summary}}`` of one partition of run records scored
    against ``test_set`` (a :class:`~ragscore.io.format.Dataset`; its runs are not read)."""
    runs = _runs_of(records)
    dataset = test_set._replace(runs=runs)
    from . import count_dataset

    counted = count_dataset(dataset, engine=engine)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    return {system: summaries(view, k=k, metrics=chosen, na_as_zero=na_as_zero)
            for system, view in counted.by_system().items()}


def aggregate_partitions(parts, *, k, metrics, na_as_zero=False):
    """The declared aggregates (as :func:`ragscore.core.aggregate.aggregates` gives them)
    of every system over all partitions, from each partition's
    :func:`partition_summaries`: ``{system: [Aggregate, ...]}``."""
    chosen = select(metrics)
    by_system = {}
    for part in parts:
        for system, found in part.items():
            by_system.setdefault(system, []).append(found)
    return {system: aggregates_of(
        {key: merged(found[key] for found in founds) for key in founds[0]}, k=k,
        metrics=chosen, na_as_zero=na_as_zero) for system, founds in by_system.items()}


def score_dask(test_set, frame, *, k, metrics, engine=DEFAULT_ENGINE, na_as_zero=False):
    """The declared aggregates of a Dask DataFrame of run records, each partition scored as
    one task (:func:`partition_summaries`) and the summaries added up on the caller's side:
    ``{system: [Aggregate, ...]}``, exactly what scoring every record in one piece gives.

    ``metrics`` must be given (every partition reads the same ones). The partitions must
    keep each question's runs together (``frame.shuffle("case")`` or reading files
    partitioned by case).
    """
    import dask

    chosen = tuple(metric.name for metric in select(metrics))
    tasks = [dask.delayed(partition_summaries)(test_set, part, k=k, metrics=chosen,
                                               engine=engine, na_as_zero=na_as_zero)
             for part in frame.to_delayed()]
    parts = dask.compute(*tasks)
    return aggregate_partitions(parts, k=k, metrics=chosen, na_as_zero=na_as_zero)

