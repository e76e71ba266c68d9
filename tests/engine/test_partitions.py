"""Scoring in partitions (on Dask's local scheduler) gives exactly the aggregates of scoring
in one piece: means, pooled values, counts, what was left out and why."""
import sys
from pathlib import Path

import pandas as pd
import pytest

from ragscore.core.aggregate import aggregates
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.engine.partitions import aggregate_partitions, partition_summaries, score_dask
from ragscore.io.dataset import Dataset
from ragscore.folders import load_dataset

ROOT = Path(__file__).resolve().parents[2]
METRICS = tuple(REGISTRY)


def _records(dataset):
    """The dataset's runs as run records (one row per run, a trial per row)."""
    rows = []
    for case, per_case in dataset.runs.items():
        for system, run in per_case.items():
            for one in (run if type(run) is list else [run]):
                row = {"case": case, "system": system, "retrieved": list(one["retrieved"])}
                if one.get("claims") is not None:
                    row["claims"] = [{"claim": claim, "citations": list(cited)}
                                     for claim, cited in one["claims"]]
                for key in ("trial", "delivered"):
                    if key in one:
                        row[key] = list(one[key]) if key == "delivered" else one[key]
                rows.append(row)
    return rows


def _synthetic():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synthetic import make_synthetic

    corpus, cases, runs = make_synthetic(cases=1500, corpus_size=3000, systems=("A", "B"),
                                         seed=5)
    return Dataset(corpus=corpus, cases=cases, runs=runs, ids="open")


@pytest.fixture(scope="module", params=["practice", "synthetic"])
def dataset(request):
    if request.param == "practice":
        return load_dataset(ROOT / "fixtures" / "practice")
    return _synthetic()


def _whole(dataset, k, na_as_zero):
    counted = count_dataset(dataset)
    return {system: aggregates(view, k=k, metrics=[REGISTRY[name] for name in METRICS],
                               na_as_zero=na_as_zero)
            for system, view in counted.by_system().items()}


@pytest.mark.parametrize("k, na_as_zero", [(1, False), (3, False), (10, True)])
def test_dask_partitions_give_the_aggregates_of_one_piece(dataset, k, na_as_zero):
    dask = pytest.importorskip("dask")
    import dask.dataframe as dd

    frame = pd.DataFrame(_records(dataset)).set_index("case")
    with dask.config.set({"dataframe.convert-string": False}):  # keep lists as lists
        partitioned = dd.from_pandas(frame, npartitions=5, sort=True)
    assert partitioned.npartitions > 1
    found = score_dask(dataset._replace(runs={}), partitioned, k=k, metrics=METRICS,
                       na_as_zero=na_as_zero)
    assert found == _whole(dataset, k, na_as_zero)


def test_partitions_summed_by_hand_give_the_aggregates_of_one_piece(dataset):
    records = _records(dataset)
    cases = list(dict.fromkeys(row["case"] for row in records))
    thirds = [set(cases[start::3]) for start in range(3)]
    parts = [partition_summaries(dataset._replace(runs={}),
                                 [row for row in records if row["case"] in third], k=2,
                                 metrics=METRICS) for third in thirds]
    assert aggregate_partitions(parts, k=2, metrics=METRICS) == _whole(dataset, 2, False)


def test_claims_that_are_not_lists_of_objects_are_a_clear_error():
    from ragscore import InvalidInputError, load_course

    course = load_course()
    records = [{"case": "launch", "system": "A", "retrieved": ["launch"],
                "claims": "[{'claim': 'monday'}]"}]
    with pytest.raises(InvalidInputError, match="case 'launch', system 'A': claims must be a "
                                                "list of objects with 'claim' and 'citations'"):
        partition_summaries(course, records, k=2, metrics=("support",))
