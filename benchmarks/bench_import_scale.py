"""Real-data scale, end to end: ``ragscore import trec`` then ``ragscore report`` against
pytrec_eval parsing and evaluating the same TREC files.

    python benchmarks/bench_import_scale.py                      # 100,000 questions (minutes)
    python benchmarks/bench_import_scale.py --questions 2000     # a quick look
    python benchmarks/bench_import_scale.py --data /tmp/scale    # keep the files for reruns
    python benchmarks/bench_import_scale.py --repeat 3           # best and median of 3 rounds

Data (seeded, not timed): a universe of 1,000,000 chunk IDs (IDs only, no text); per
question 5 judged chunks graded 0 to 3; two systems, each ranking 100 chunks per question
(its judged chunks among 95 others, scores with two decimals so ties happen), as TREC qrels
and run files. With 100,000 questions the runs hold 20,000,000 lines and the corpus the
imported dataset holds is about 1,000,000 IDs.

Timed as whole processes, each under ``/usr/bin/time`` for its peak memory:
- ragscore: ``ragscore import trec --qrels Q --run A --run B --out DIR`` then
  ``ragscore report DIR --k 10 --format csv --na-as-zero`` (the sum of the two is
  compared; --na-as-zero so a question with nothing relevant reads 0 on both sides);
- the peer: ``benchmarks/trec_peer.py`` (pytrec_eval parses both runs, cuts them to 10,
  evaluates P_10, recall_10 and recip_rank, writes one CSV line per question and system);
- a floor: DuckDB parsing the two run files and nothing else, the least any import can do;
  with the report's time it bounds from below what import plus report can reach.
The two CSV files are compared value by value. Goal: ragscore's import plus report at most
0.5x the peer's time (best against best, median against median), the peak memory of each
ragscore step at most the peer's. Run it as ``taskset -c 0 python ...`` for the one-CPU
figures; the CPUs the process may use are printed in the heading.

With ``--repeat N`` the three steps run N times in rounds (import, report, peer; then again),
so a slow spell of the machine falls on both sides; the ratio is given for the best and for
the median of each side.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_end_to_end import (_has_gnu_time, largest_difference, measure_with_time,  # noqa
                              measure_with_wrapper)

#: A lower bound for any import: the run files parsed by DuckDB's CSV reader (the fastest
#: reader measured here: 2.1 s for the two files on one CPU, pyarrow's about 6 s), nothing
#: checked, ordered or written. An import must at least parse its input, and the report must
#: read the folder the import writes, so this plus the report is the least the pair can take.
FLOOR = "floor: DuckDB only parses the run files"
PARSE_ONLY = """
import os, sys, duckdb
connection = duckdb.connect()
connection.execute(f"SET threads={len(os.sched_getaffinity(0))}")
connection.execute("SET enable_progress_bar=false")
columns = {"qid": "VARCHAR", "q0": "VARCHAR", "docno": "VARCHAR", "rank": "VARCHAR",
           "score": "DOUBLE", "tag": "VARCHAR"}
print(connection.sql(
    "SELECT count(*), sum(score) FROM read_csv($files, delim=' ', "
    "header=false, quote='', escape='', auto_detect=false, columns=$columns)",
    params={"files": sys.argv[1:], "columns": columns}).fetchall())
"""
UNIVERSE = 1_000_000
DEPTH = 100
GOAL_RATIO = 0.5


def generate(folder, questions):
    """Write ``qrels.txt``, ``A.run`` and ``B.run`` in ``folder`` unless already there."""
    stamp = folder / "sizes.json"
    if stamp.exists() and json.loads(stamp.read_text()) == {"questions": questions}:
        return
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(91)
    ids = [f"chunk-{n:07d}#{n % 13}" for n in range(UNIVERSE)]
    with open(folder / "qrels.txt", "w") as qrels, open(folder / "A.run", "w") as run_a, \
            open(folder / "B.run", "w") as run_b:
        for number in range(questions):
            qid = f"q{number}"
            judged = rng.sample(ids, 5)
            qrels.writelines(f"{qid} 0 {doc} {rng.randint(0, 3)}\n" for doc in judged)
            for system, handle in (("A", run_a), ("B", run_b)):
                ranked = list(dict.fromkeys(judged[: rng.randint(0, 5)]
                                            + rng.sample(ids, DEPTH)))[:DEPTH]
                handle.writelines(f"{qid} Q0 {doc} {rank} {round(rng.random() * 20, 2)} "
                                  f"{system}\n" for rank, doc in enumerate(ranked, 1))
    stamp.write_text(json.dumps({"questions": questions}))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--data", type=Path, help="keep the generated files in this folder")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the three steps")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    scratch = Path(tempfile.mkdtemp(prefix="ragscore-scale-"))
    data = args.data or scratch / "data"
    try:
        generate(data, args.questions)
        measure = measure_with_time if _has_gnu_time() else measure_with_wrapper
        out = scratch / "dataset"
        ours_csv, peer_csv = scratch / "ours.csv", scratch / "peer.csv"
        runs = [str(data / "A.run"), str(data / "B.run")]
        steps = {
            "ragscore import trec": ([sys.executable, "-m", "ragscore", "import", "trec",
                                      "--qrels", str(data / "qrels.txt"), "--run", runs[0],
                                      "--run", runs[1], "--out", str(out)],
                                     scratch / "import.txt"),
            "ragscore report --k 10 --format csv": ([sys.executable, "-m", "ragscore",
                                                     "report", str(out), "--k", "10",
                                                     "--format", "csv", "--na-as-zero"],
                                                    ours_csv),
            "pytrec_eval (trec_peer.py)": ([sys.executable, str(HERE / "trec_peer.py"),
                                            str(data / "qrels.txt"), *runs, "--k", "10"],
                                           peer_csv),
            FLOOR: ([sys.executable, "-c", PARSE_ONLY, *runs], scratch / "parsed.txt"),
        }
        seconds = {label: [] for label in steps}
        peaks = dict.fromkeys(steps, 0)
        for _ in range(args.repeat):
            shutil.rmtree(out, ignore_errors=True)  # each round imports into a new folder
            for label, (command, stdout_path) in steps.items():
                took, peak = measure(command, stdout_path, scratch)
                seconds[label].append(took)
                peaks[label] = max(peaks[label], peak)
        lines = sum(1 for _ in open(data / "A.run")) * 2
        print(f"{args.questions:,} questions, 2 runs of {DEPTH} ({lines:,} run lines), "
              f"universe of {UNIVERSE:,} chunk IDs; Python {sys.version.split()[0]}; "
              f"{args.repeat} round{'s' * (args.repeat != 1)}; CPUs {sorted(os.sched_getaffinity(0))}")
        print(f"{'step':<40} {'best s':>8} {'median s':>9} {'peak MiB':>9}")
        for label, taken in seconds.items():
            print(f"{label:<40} {min(taken):>8.2f} {statistics.median(taken):>9.2f} "
                  f"{peaks[label] / 2**20:>9.1f}")
        ours_steps, peer_label = list(steps)[:2], "pytrec_eval (trec_peer.py)"
        peak = max(peaks[label] for label in ours_steps)
        for kind, pick in (("best", min), ("median", statistics.median)):
            ours = sum(pick(seconds[label]) for label in ours_steps)
            peer = pick(seconds[peer_label])
            print(f"import + report, {kind}: {ours:.2f} s = {ours / peer:.2f}x the peer's "
                  f"{peer:.2f} s (goal <= {GOAL_RATIO}x: "
                  f"{'met' if ours <= GOAL_RATIO * peer else 'not met'})")
        print(f"peak {peak / 2**20:.0f} MiB, the peer's {peaks[peer_label] / 2**20:.0f} MiB "
              f"(goal <= the peer's: {'met' if peak <= peaks[peer_label] else 'not met'})")
        for kind, pick in (("best", min), ("median", statistics.median)):
            floor = pick(seconds[FLOOR]) + pick(seconds[ours_steps[1]])
            peer = pick(seconds[peer_label])
            print(f"the least import + report could take, {kind}: an import that only parsed "
                  f"the runs, then this report: {floor:.2f} s = {floor / peer:.2f}x the peer")
        worst, rows = largest_difference(ours_csv, peer_csv)
        print(f"largest |difference| in P@10, R@10, RR@10, ragscore (--na-as-zero) vs "
              f"pytrec_eval, {rows:,} rows: {worst:.1e}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
