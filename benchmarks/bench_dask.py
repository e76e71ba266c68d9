"""Scoring a run log on Dask's distributed scheduler, beside one process on the same data.

    python benchmarks/bench_dask.py                       # 1,000,000 questions, 16 partitions
    python benchmarks/bench_dask.py --questions 20000 --partitions 4
    taskset -c 0 python benchmarks/bench_dask.py          # every process on one CPU

Data (benchmarks/synthetic.py): one system's run per case, 20 retrieved documents, up to 5
claims with citations, a corpus as large as the number of questions; the run log is
written as Parquet files partitioned by case (each file a contiguous range of cases), with
``retrieved`` a list column and ``claims`` a list of structs, and read back by
``dd.read_parquet`` as an engineer would read it (``--backend pyarrow`` reads pyarrow list
columns instead of numpy object arrays). The test set (corpus and cases) is in memory on
the client, as ``ragscore.load_dataset`` leaves it.

Figures, each for one call on a fresh ``LocalCluster`` (``--workers`` processes, one thread
each; the cluster's start is not counted):

- client before the first task: from the call of ``score_dask`` to the start of the first
  task on any worker (the earliest ``compute`` start in Dask's task stream), and the CPU
  time the client process spent in that span (sampled every 20 ms; on a busy machine the
  wall time is longer than the work);
- Dask total: the call, from start to the aggregates in hand, and the time the tasks
  computed, summed over workers (the first task on each worker rebuilds the test set);
- one process: ``count_dataset`` and ``aggregates`` on the same runs held in memory
  (the generator's dicts, not the Parquet files: a mistake in reading the files shows),
  wall and CPU time;

Each timed line gives the load average (other work on the machine slows every figure).
- agreement: every field of every aggregate of every metric (k = 10) compared, floats by
  their exact bits (``float.hex``); the line says how many fields and how many differ;
- with ``--rows``, the per-question rows (``question_rows``) too: computed, and compared
  with one process's ``question_table`` value by value (exact bits, ``<NA>`` where n/a).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synthetic import make_synthetic  # noqa: E402

K = 10
METRICS = ("precision", "recall", "rr", "ndcg", "ap", "hit", "support", "coverage",
           "unsupported")


def write_log(runs, folder, partitions):
    """The run log as ``partitions`` Parquet files, each a contiguous range of cases."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    claim = pa.struct([("claim", pa.string()), ("citations", pa.list_(pa.string()))])
    schema = pa.schema([("case", pa.string()), ("system", pa.string()),
                        ("retrieved", pa.list_(pa.string())), ("claims", pa.list_(claim))])
    names = list(runs)
    size = -(-len(names) // partitions)
    for number in range(partitions):
        columns = {"case": [], "system": [], "retrieved": [], "claims": []}
        for case in names[number * size:(number + 1) * size]:
            for system, run in runs[case].items():
                columns["case"].append(case)
                columns["system"].append(system)
                columns["retrieved"].append(list(run["retrieved"]))
                columns["claims"].append([{"claim": text, "citations": list(cited)}
                                          for text, cited in run["claims"]])
        pq.write_table(pa.table(columns, schema=schema), folder / f"part-{number:03d}.parquet")


def exact(aggregates):
    """Every field of every aggregate, floats as their exact bits."""
    return [(system, tuple(value.hex() if type(value) is float else value for value in row))
            for system, rows in sorted(aggregates.items()) for row in rows]


def first_task_start(stream):
    """The earliest start of a task's computation in a Dask task stream."""
    return min(part["start"] for task in stream for part in task["startstops"]
               if part["action"] == "compute")


class ClientClock:
    """Samples this process's CPU time (every thread's: the client's event loop runs in one
    of its own) every 20 ms, so that the CPU spent before a given moment can be read."""

    def __init__(self):
        import threading

        self.samples, self._stop = [], threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.samples.append((time.time(), time.process_time()))
            self._stop.wait(0.02)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *problem):
        self._stop.set()
        self._thread.join()

    def cpu_until(self, moment):
        """The CPU seconds from the first sample to the last sample taken by ``moment``."""
        taken = [cpu for at, cpu in self.samples if at <= moment]
        return taken[-1] - self.samples[0][1]


def compare_rows(found, expected):
    """``(values compared, values that differ)`` between two per-question tables, each
    ``(case, system)``-indexed: floats by their bits, ``<NA>`` only against ``<NA>``."""
    import pandas as pd

    found = found.set_index("system", append=True).sort_index()
    expected = expected.sort_index()
    if list(found.index) != list(expected.index) or list(found.columns) != list(expected.columns):
        return 0, 1
    compared = differ = 0
    for name in expected.columns:
        for left, right in zip(found[name].tolist(), expected[name].tolist()):
            compared += 1
            if left is pd.NA or right is pd.NA:
                differ += not (left is pd.NA and right is pd.NA)
            elif type(left) is float or type(right) is float:
                differ += float(left).hex() != float(right).hex()
            else:
                differ += left != right
    return compared, differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", choices=("numpy", "pyarrow"), default="numpy")
    parser.add_argument("--rows", action="store_true", help="also compute and compare the "
                        "per-question rows")
    args = parser.parse_args()

    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster, get_task_stream

    from ragscore.core.aggregate import aggregates
    from ragscore.core.metrics import REGISTRY
    from ragscore.engine import count_dataset
    from ragscore.engine.partitions import score_dask
    from ragscore.io.format import Dataset

    started = time.perf_counter()
    corpus, cases, runs = make_synthetic(cases=args.questions, corpus_size=args.questions,
                                         seed=11)
    whole = Dataset(corpus=corpus, cases=cases, runs=runs, ids="open")
    test_set = whole._replace(runs={})
    folder = Path(tempfile.mkdtemp(prefix="ragscore-bench-dask-"))
    try:
        write_log(runs, folder, args.partitions)
        print(f"{args.questions:,} questions in {args.partitions} Parquet partitions, "
              f"{args.workers} local workers, k={K}, {len(METRICS)} metrics; data made in "
              f"{time.perf_counter() - started:.0f} s", flush=True)

        begin, cpu = time.perf_counter(), time.process_time()
        counted = count_dataset(whole)
        one = {system: aggregates(view, k=K, metrics=[REGISTRY[name] for name in METRICS])
               for system, view in counted.by_system().items()}
        print(f"one process (count_dataset + aggregates): {time.perf_counter() - begin:.1f} s "
              f"({time.process_time() - cpu:.1f} s of CPU); load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        rows_one = None
        if args.rows:
            from ragscore.tables.scores import scores_frame

            rows_one = scores_frame(counted, k=K, metrics=METRICS)
        del counted, whole, runs

        options = {"dtype_backend": "pyarrow"} if args.backend == "pyarrow" else {}
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            log = dd.read_parquet(str(folder), **options)
            with get_task_stream(client) as stream, ClientClock() as clock:
                called = time.time()
                begin = time.perf_counter()
                found = score_dask(test_set, log, k=K, metrics=METRICS)
                total = time.perf_counter() - begin
            started = first_task_start(stream.data)
            working = sum(part["stop"] - part["start"] for task in stream.data
                          for part in task["startstops"] if part["action"] == "compute")
            print(f"client before the first task: {started - called:.2f} s, of which "
                  f"{clock.cpu_until(started):.2f} s of the client's CPU (load average "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
            print(f"Dask total (score_dask): {total:.1f} s; the tasks computed for "
                  f"{working:.1f} s in all", flush=True)
            mine, theirs = exact(found), exact(one)
            fields = sum(len(row) for _, row in theirs)
            differ = (sum(a != b for a, b in zip(mine, theirs)) if len(mine) == len(theirs)
                      else len(theirs))
            print(f"aggregates, Dask vs one process: {len(theirs)} aggregates, {fields} "
                  f"fields compared bit for bit (floats as float.hex), {differ} differ",
                  flush=True)
            if args.rows:
                from ragscore.tables.partitioned import question_rows

                begin = time.perf_counter()
                rows = question_rows(test_set, log, k=K, metrics=METRICS).compute()
                spent = time.perf_counter() - begin
                compared, differ = compare_rows(rows, rows_one)
                print(f"per-question rows (question_rows, computed): {spent:.1f} s; "
                      f"{compared:,} values compared with one process's table, {differ} "
                      "differ", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
