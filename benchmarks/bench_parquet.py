"""Which library writes and reads the runs of format version 5 fastest here: pyarrow, DuckDB
or Polars (each if installed), on the same table, rounds interleaved, best and median.

    taskset -c 0 python benchmarks/bench_parquet.py                # 200,000 runs x 100
    python benchmarks/bench_parquet.py --rows 20000 --repeat 5

The table is what ``ragscore import trec`` writes for 100,000 questions and two systems: one
row per run (case and system as strings, the ranking as list<int32> codes into a corpus of
1,000,000 documents). Each library writes it to a Parquet file (zstd) and reads it back into
the arrays the columnar engine counts (the codes and their offsets as numpy arrays); the
times are seconds for the write and for the read, and the file size. The codec ragscore uses
is the one this measures fastest (see docs/dataset-format.md for the figures and why).
"""
import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def table(rows, depth, seed=7):
    import pyarrow as pa

    generator = np.random.default_rng(seed)
    codes = generator.integers(0, 1_000_000, rows * depth, dtype=np.int32)
    offsets = np.arange(0, rows * depth + 1, depth, dtype=np.int32)
    cases = [f"q{n // 2}" for n in range(rows)]
    systems = ["bm25" if n % 2 else "dense" for n in range(rows)]
    return pa.table({"case": pa.array(cases), "system": pa.array(systems),
                     "retrieved": pa.ListArray.from_arrays(pa.array(offsets), pa.array(codes))})


def pyarrow_write(data, path):
    import pyarrow.parquet as pq

    pq.write_table(data, path, compression="zstd", write_statistics=False,
                   use_dictionary=["case", "system"])


def pyarrow_read(path):
    import pyarrow.parquet as pq

    column = pq.read_table(path).column("retrieved").combine_chunks()
    return column.offsets.to_numpy(), column.values.to_numpy()


def duckdb_write(data, path):
    import duckdb

    connection = duckdb.connect()
    connection.register("runs", data)
    connection.execute(f"COPY runs TO '{path}' (FORMAT parquet, COMPRESSION zstd)")
    connection.close()


def duckdb_read(path):
    import duckdb

    connection = duckdb.connect()
    column = connection.sql(f"SELECT retrieved FROM read_parquet('{path}')").to_arrow_table() \
        .column("retrieved").combine_chunks()
    connection.close()
    return column.offsets.to_numpy(), column.values.to_numpy()


def polars_write(data, path):
    import polars as pl

    pl.from_arrow(data).write_parquet(path, compression="zstd", statistics=False)


def polars_read(path):
    import polars as pl

    column = pl.read_parquet(path, columns=["retrieved"]).to_arrow().column(
        "retrieved").combine_chunks()
    return column.offsets.to_numpy(), column.values.to_numpy()


LIBRARIES = {"pyarrow": (pyarrow_write, pyarrow_read), "duckdb": (duckdb_write, duckdb_read),
             "polars": (polars_write, polars_read)}


def available():
    """The libraries installed here, each imported before any timing (so no round pays an
    import)."""
    found = {}
    for name in LIBRARIES:
        try:
            __import__(name)
            if name == "pyarrow":
                __import__("pyarrow.parquet")
        except ImportError:
            continue
        found[name] = LIBRARIES[name]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = table(args.rows, args.depth)
    libraries = available()
    times = {name: {"write": [], "read": []} for name in libraries}
    sizes = {}
    print(f"{args.rows:,} runs x {args.depth}; CPUs {sorted(os.sched_getaffinity(0))}; "
          f"load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        expected = None
        for _ in range(args.repeat):
            for name, (write, read) in libraries.items():
                path = str(Path(folder) / f"{name}.parquet")
                start = time.perf_counter()
                write(data, path)
                times[name]["write"].append(time.perf_counter() - start)
                start = time.perf_counter()
                offsets, codes = read(path)
                times[name]["read"].append(time.perf_counter() - start)
                sizes[name] = os.path.getsize(path)
                found = (offsets.tolist()[-1], int(codes.sum()))
                expected = expected or found
                assert found == expected, (name, found, expected)
    for name, measured in times.items():
        print(f"{name:8} write best {min(measured['write']):.3f} s median "
              f"{statistics.median(measured['write']):.3f} s; read best "
              f"{min(measured['read']):.3f} s median {statistics.median(measured['read']):.3f} s;"
              f" {sizes[name] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
