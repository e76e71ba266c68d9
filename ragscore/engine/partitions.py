"""Scoring a run log too large for one machine, partition by partition.

Each question is scored on its own, and every declared aggregate is made of sums (how many
questions, how many defined, the exact sum of their values, pooled numerators and
denominators: :class:`~ragscore.core.aggregate.Summary`), so a partitioned run log is
scored one partition at a time, anywhere, and the partitions' summaries added up: the
aggregates are exactly those of the whole log scored in one piece. On Dask, each partition
of a Dask DataFrame of run records is one task (:func:`score_dask`, :func:`map_counted`);
see ``docs/scale.md``.

A run record is a row with ``case``, ``system``, ``retrieved`` (a list of IDs) and,
optionally, ``claims`` (a list of ``{"claim", "citations"}``), ``trial``, ``delivered``,
``answer`` and the operation fields, read by the rules of a folder's runs file
(:mod:`ragscore.engine.run_log`). A question's runs and trials must sit in one partition:
a case found in two partitions is refused, naming it (:func:`check_disjoint`).
"""
from collections import namedtuple

from ..core.aggregate import aggregates_of, merged, summaries
from ..core.metrics import select
from ..core.rules import InvalidInputError, check_k, show
from ..io.format import Dataset
from . import DEFAULT_ENGINE, check_engine, count_dataset, default_metrics
from .run_log import runs_of
from .transport import shipped

__all__ = ["Part", "aggregate_partitions", "check_disjoint", "check_inputs", "map_counted",
           "partition_counted", "partition_summaries", "score_dask"]


class Part(namedtuple("Part", "questions summaries")):
    """What one partition of a run log adds to the aggregates: the questions it holds runs
    of, ``{system: (case, ...)}``, and ``summaries``, ``{system: {(metric, slice):
    Summary}}``."""

    __slots__ = ()


def partition_counted(test_set, records, *, engine=DEFAULT_ENGINE, where="run log"):
    """The counted runs (a :class:`~ragscore.engine.counted.Counted`) of one partition of
    run records (a pandas DataFrame or a list of dicts) against ``test_set`` (a
    :class:`~ragscore.io.format.Dataset`; its own runs are not read, nor the cases no
    record names, so a partition's work does not grow with the test set). An error names
    ``where`` the records are."""
    cases = test_set.cases
    runs = runs_of(records, rules=test_set.rules, cases=cases, where=where)
    own = test_set._replace(cases={case: cases[case] for case in runs}, runs=runs)
    try:
        return count_dataset(own, engine=engine)
    except InvalidInputError as error:
        raise InvalidInputError(f"{where}: {error}") from None


def partition_summaries(test_set, records, *, k, metrics=None, engine=DEFAULT_ENGINE,
                        na_as_zero=False, where="run log"):
    """The :class:`Part` of one partition of run records scored against ``test_set``: its
    questions and ``{system: {(metric, slice): Summary}}``."""
    counted = partition_counted(test_set, records, engine=engine, where=where)
    chosen = select(default_metrics(counted) if metrics is None else metrics)
    views = counted.by_system()
    return Part(questions={system: tuple(case for case, _ in view.keys)
                           for system, view in views.items()},
                summaries={system: summaries(view, k=k, metrics=chosen, na_as_zero=na_as_zero)
                           for system, view in views.items()})


def check_disjoint(questions):
    """Refuse a question (a case and a system) found in two of ``questions`` (one
    ``{system: cases}`` per partition): scored apart, a question split across partitions
    would count twice, and a run record repeated in another partition would escape the
    duplicate-run rule. A case whose systems sit in different partitions is fine."""
    first = {}
    for number, found in enumerate(questions):
        for system, cases in found.items():
            seen = first.setdefault(system, {})
            for case in cases:
                earlier = seen.setdefault(case, number)
                if earlier != number:
                    raise InvalidInputError(
                        f"case {show(case)}, system {show(system)}: run records in partitions "
                        f"{earlier} and {number}; a question's runs and trials must sit in one "
                        "partition (scored apart, it would count as two questions, and a "
                        "repeated run record would go unnoticed): partition the run log by "
                        "case, e.g. log.shuffle('case')")


def aggregate_partitions(parts, *, k, metrics, na_as_zero=False):
    """The declared aggregates (as :func:`ragscore.core.aggregate.aggregates` gives them)
    of every system over all partitions, from each partition's :class:`Part`
    (:func:`partition_summaries`): ``{system: [Aggregate, ...]}``. A question found in
    two parts is refused (:func:`check_disjoint`)."""
    parts = list(parts)
    check_disjoint(part.questions for part in parts)
    chosen = select(metrics)
    by_system = {}
    for part in parts:
        for system, found in part.summaries.items():
            by_system.setdefault(system, []).append(found)
    return {system: aggregates_of(
        {key: merged(found[key] for found in founds) for key in founds[0]}, k=k,
        metrics=chosen, na_as_zero=na_as_zero) for system, founds in by_system.items()}


# ---- on Dask ---------------------------------------------------------------------------

def check_inputs(test_set, frame, *, engine, k=None):
    """Refuse, before anything is sent, a test set that is not a
    :class:`~ragscore.io.format.Dataset`, a run log that is not a Dask DataFrame, an
    unknown engine or a cutoff the test set's ID rules refuse."""
    if not isinstance(test_set, Dataset):
        raise InvalidInputError(f"test_set must be a ragscore Dataset (ragscore.load_dataset); "
                                f"got {show(test_set)}")
    if not hasattr(frame, "map_partitions") or not hasattr(frame, "npartitions"):
        raise InvalidInputError(f"the run log must be a Dask DataFrame (dd.read_parquet); got "
                                f"{show(frame)} (score one piece in memory with "
                                "partition_summaries)")
    check_engine(engine)
    if k is not None:
        check_k(k, rules=test_set.rules)


def _where(partition_info):
    return f"run log partition {partition_info['number']}"


def _single(value):
    """A pandas Series holding ``value`` alone (what a task returns to Dask)."""
    import numpy as np
    import pandas as pd

    holder = np.empty(1, dtype=object)
    holder[0] = value
    return pd.Series(holder)


def _score_partition(records, packed, *, partition_info, **options):
    return _single(partition_summaries(packed.dataset(), records,
                                       where=_where(partition_info), **options))


def score_dask(test_set, frame, *, k, metrics, engine=DEFAULT_ENGINE, na_as_zero=False):
    """The declared aggregates of a Dask DataFrame of run records, each partition scored by
    a task of its own (:func:`partition_summaries`), which returns only its summaries, and
    the summaries added up on the caller's side: ``{system: [Aggregate, ...]}``, exactly
    what scoring every record in one piece gives.

    ``metrics`` must be given (every partition reads the same ones). ``test_set`` is sent
    to each worker once (:func:`~ragscore.engine.transport.shipped`). Each question's runs
    must sit in one partition (``frame.shuffle("case")``, or files partitioned by case): a
    question found in two is refused (:func:`check_disjoint`).
    """
    import pandas as pd

    check_inputs(test_set, frame, engine=engine, k=k)
    chosen = tuple(metric.name for metric in select(metrics))
    parts = frame.map_partitions(_score_partition, shipped(test_set), k=k, metrics=chosen,
                                 engine=engine, na_as_zero=na_as_zero,
                                 meta=pd.Series([], dtype=object))
    return aggregate_partitions(parts.compute().tolist(), k=k, metrics=chosen,
                                na_as_zero=na_as_zero)


def _key_columns(frame):
    """The run log's ``case`` and ``system`` alone (``case`` a column or the index), so
    reading them reads nothing else."""
    if "system" in frame.columns and ("case" in frame.columns or frame.index.name == "case"):
        return frame[["case", "system"]] if "case" in frame.columns else frame[["system"]]
    raise InvalidInputError(f"a run log needs a 'case' column (or index) and a 'system' "
                            f"column; got the columns {show(list(frame.columns))}")


def _questions_in(keys):
    """``{system: [case, ...]}`` of one partition's case and system columns (each question
    once; a record whose case or system is not a string is left to the scoring, which
    names it)."""
    names = keys["case"] if "case" in keys.columns else keys.index
    found = {}
    for case, system in zip(names.tolist(), keys["system"].tolist()):
        if type(case) is str and type(system) is str:
            found.setdefault(system, {})[case] = None  # a dict: each case once, in order
    return {system: list(cases) for system, cases in found.items()}


def _map_partition(records, packed, checked, *, function, partition_info, engine):
    """``function`` of one partition's counted runs (``checked``: the partitions were found
    disjoint)."""
    return function(partition_counted(packed.dataset(), records, engine=engine,
                                      where=_where(partition_info)))


def map_counted(test_set, frame, function, *, meta, engine=DEFAULT_ENGINE):
    """A Dask DataFrame of ``function(counted)`` (a pandas DataFrame like ``meta``) for
    the counted runs of each partition of ``frame``, each counted by a task of its own,
    lazily: when it is computed, the cases and systems are read first, alone, and a question
    found in two partitions is refused (:func:`check_disjoint`) before any partition is
    counted."""
    import dask

    check_inputs(test_set, frame, engine=engine)
    found = [dask.delayed(_questions_in)(part) for part in _key_columns(frame).to_delayed()]
    checked = dask.delayed(check_disjoint)(found)
    return frame.map_partitions(_map_partition, shipped(test_set), checked,
                                function=function, engine=engine, meta=meta)
