"""Run logs for the partition tests: a dataset's runs as run records, dealt into
partitions by case, written as Parquet files, or split on purpose."""
import sys
from pathlib import Path

import pandas as pd

from ragscore.io.dataset import Dataset
from ragscore.io.format import dataset_records

ROOT = Path(__file__).resolve().parents[2]


def records_of(dataset):
    """The dataset's runs as run records (one row per run, a trial per row), as a runs
    file holds them."""
    return list(dataset_records(dataset)["runs"])


def synthetic():
    """Two systems' runs on 1,500 generated cases (benchmarks/synthetic.py)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synthetic import make_synthetic

    corpus, cases, runs = make_synthetic(cases=1500, corpus_size=3000, systems=("A", "B"),
                                         seed=5)
    return Dataset(corpus=corpus, cases=cases, runs=runs, ids="open")


def by_case(records, parts):
    """``parts`` lists of records, each case's records in one (cases dealt round)."""
    cases = list(dict.fromkeys(row["case"] for row in records))
    number = {case: position % parts for position, case in enumerate(cases)}
    return [[row for row in records if number[row["case"]] == part] for part in range(parts)]


def split_log(dataset):
    """A Dask frame of two partitions with one question's trials in each."""
    import dask
    import dask.dataframe as dd

    records = records_of(dataset)
    trials = [row for row in records if row["case"] == "sick-note" and row["system"] == "rerank"]
    first, second = by_case([row for row in records if row not in trials], 2)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.concat([dd.from_pandas(pd.DataFrame(part), npartitions=1)
                          for part in (first + trials[:1], second + trials[1:])])


def write_parquet(records, folder, parts, *, dictionary=False):
    """``records`` as ``parts`` Parquet files, partitioned by case (every key a column;
    ``dictionary``: strings dictionary-encoded, as a columnar writer may store IDs)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    keys = list(dict.fromkeys(key for row in records for key in row))
    schema = pa.Table.from_pylist([{key: row.get(key) for key in keys} for row in records]).schema
    if dictionary:
        encoded = pa.dictionary(pa.int32(), pa.string())
        for name, kind in (("case", encoded), ("system", encoded),
                           ("retrieved", pa.list_(encoded))):
            schema = schema.set(schema.get_field_index(name), pa.field(name, kind))
    for number, part in enumerate(by_case(records, parts)):
        table = pa.Table.from_pylist([{key: row.get(key) for key in keys} for row in part],
                                     schema=schema)
        pq.write_table(table, folder / f"part-{number}.parquet")
    return folder
