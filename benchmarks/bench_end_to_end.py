"""End to end: ragscore's command line against a pytrec_eval script, each as a whole process.

    python benchmarks/bench_end_to_end.py                  # 100,000 questions x 2 systems
    python benchmarks/bench_end_to_end.py --questions 300 --repeat 1
    python benchmarks/bench_end_to_end.py --data /tmp/e2e  # keep the data for the next run
    python benchmarks/bench_end_to_end.py --retrieved 20   # the second shape: depth 20

Data (benchmarks/synthetic.py, seeded): a corpus of 100,000 documents; N questions, each with
a run of systems A and B (100 retrieved, up to 5 claims); k = 10. It is written once as a
ragscore dataset folder (through ``ragscore.save_dataset``) and as TREC files (qrels, one run
file per system, strictly decreasing scores). Generation is not timed; with ``--data DIR``
it is cached in DIR and reused while the sizes match.

Timed, each as a whole process (start-up, imports, parsing, scoring and writing included;
standard output to a file):

- ``ragscore report DIR --k 10 --format csv``
- ``ragscore compare DIR --baseline A --candidate B --k 10``
- ``ragscore eval QRELS RUN.A RUN.B --measures "P@10 R@10 RR@10" -q --format csv``: the
  TREC files scored as they are, no folder written
- ``trec_peer.py`` (the peer): pytrec_eval parses the qrels and both runs, evaluates P_10,
  recall_10 and recip_rank on runs cut to 10 and writes one CSV line per question and system.

The commands run in ``--repeat`` interleaved rounds (report, compare, peer; then again), so a
slow spell of the machine falls on every side: best and median seconds, and the largest peak
resident memory of the process (``/usr/bin/time -f %M`` when it is there, else a small Python
wrapper reading ``RUSAGE_CHILDREN``). Goal: each ragscore command at most 0.35x the peer's
seconds (best against best, median against median) and a peak memory at most the peer's. The
CSVs of ragscore report and of the peer (last round) must agree on P@10, R@10 and RR@10 for
every question and system (and so must ragscore eval's). ``--retrieved 20`` gives a second
shape (depth 20, the same claims and corpus): issue 31 asks the goals of both. Run it as ``taskset -c 0 python ...`` for the one-CPU figures; the
CPUs the process may use are printed in the heading.

Also measured: the wall time of ``python -c "import ragscore; load_course(); evaluate(...)"``
over a bare ``python -c pass`` (best of 20 each); goal at most 20 ms.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synthetic import make_synthetic  # noqa: E402

K = 10
SYSTEMS = ("A", "B")
SEED = 7
CORPUS_SIZE = 100_000
RETRIEVED = 100
MAX_CLAIMS = 5
TIME_GOAL = 0.25           # ragscore seconds / peer seconds (issue 31)
IMPORT_GOAL_MS = 20.0
IMPORT_REPEAT = 20
PEER = "pytrec_eval (trec_peer.py)"
TIME_BINARY = "/usr/bin/time"
IMPORT_SNIPPET = ("import ragscore; c = ragscore.load_course(); "
                  "ragscore.evaluate(c.corpus, c.cases['owner'], c.runs['owner']['A'])")

# Runs one command with the given stdout, prints {"seconds", "peak_kib"} as JSON on stderr.
# Used when /usr/bin/time is missing; ru_maxrss of RUSAGE_CHILDREN is in KiB on Linux.
WRAPPER = """\
import json, resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:])
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "seconds": seconds, "peak_kib": peak}), file=sys.stderr)
"""


# --- data ----------------------------------------------------------------------------------

def data_meta(questions):
    """What a cached data folder must have been generated with to be reused."""
    return {"questions": questions, "corpus": CORPUS_SIZE, "systems": list(SYSTEMS),
            "seed": SEED, "retrieved": RETRIEVED, "max_claims": MAX_CLAIMS, "layout": 5}


def data_paths(folder):
    """The dataset folder, the qrels file and one run file per system inside ``folder``."""
    folder = Path(folder)
    return {"dataset": folder / "dataset", "qrels": folder / "qrels.txt",
            "runs": {system: folder / f"run.{system}.txt" for system in SYSTEMS},
            "meta": folder / "meta.json"}


def write_qrels(path, cases):
    """TREC qrels: ``qid 0 docno 1`` for every relevant document."""
    with open(path, "w", encoding="utf-8") as out:
        for name, case in cases.items():
            out.writelines(f"{name} 0 {doc} 1\n" for doc in case["relevant"])


def write_run(path, runs, system):
    """A TREC run for ``system``: ``qid Q0 docno rank score tag``, scores strictly falling."""
    with open(path, "w", encoding="utf-8") as out:
        for name, per_system in runs.items():
            ranked = per_system[system]["retrieved"]
            out.writelines(f"{name} Q0 {doc} {rank} {len(ranked) - rank + 1} {system}\n"
                           for rank, doc in enumerate(ranked, start=1))


def generate(folder, questions):
    """Write the dataset folder (public API only) and the TREC files for ``questions``."""
    import ragscore

    corpus, cases, runs = make_synthetic(cases=questions, corpus_size=CORPUS_SIZE,
                                         retrieved=RETRIEVED, max_claims=MAX_CLAIMS,
                                         seed=SEED, systems=SYSTEMS)
    cases = {name: {"question": f"Synthetic question {name}?", **case}
             for name, case in cases.items()}
    paths = data_paths(folder)
    paths["meta"].unlink(missing_ok=True)
    dataset = ragscore.Dataset(corpus=corpus, cases=cases, runs=runs, name="synthetic-e2e")
    ragscore.save_dataset(dataset, paths["dataset"], overwrite=True)
    write_qrels(paths["qrels"], cases)
    for system, path in paths["runs"].items():
        write_run(path, runs, system)
    paths["meta"].write_text(json.dumps(data_meta(questions)) + "\n")  # last: marks complete


def ensure_data(folder, questions):
    """Generate the data in ``folder`` unless a complete copy of the same size is there."""
    meta = data_paths(folder)["meta"]
    try:
        if json.loads(meta.read_text()) == data_meta(questions):
            return "reused"
    except (OSError, ValueError):
        pass
    Path(folder).mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    generate(folder, questions)
    return f"generated in {time.perf_counter() - start:.1f} s"


# --- timing one process --------------------------------------------------------------------

def _has_gnu_time():
    """True when ``/usr/bin/time -f %M`` works here."""
    if not os.access(TIME_BINARY, os.X_OK):
        return False
    probe = subprocess.run([TIME_BINARY, "-f", "%M", "true"], capture_output=True, text=True)
    return probe.returncode == 0 and probe.stderr.strip().isdigit()


def _fail(argv, code, stderr_path):
    tail = Path(stderr_path).read_text(errors="replace")[-2000:]
    raise SystemExit(f"command failed with exit code {code}: {' '.join(map(str, argv))}\n"
                     f"{tail}")


def measure_with_time(argv, stdout_path, scratch):
    """Seconds (perf_counter around the process), peak RSS bytes and CPU seconds (user +
    system) via ``/usr/bin/time``."""
    report, errors = scratch / "time.txt", scratch / "stderr.txt"
    with open(stdout_path, "wb") as out, open(errors, "wb") as err:
        start = time.perf_counter()
        code = subprocess.call([TIME_BINARY, "-f", "%M %U %S", "-o", str(report), *argv],
                               stdout=out, stderr=err)
        seconds = time.perf_counter() - start
    if code:
        _fail(argv, code, errors)
    peak, user, system = report.read_text().split()[-3:]
    return seconds, int(peak) * 1024, float(user) + float(system)


def measure_with_wrapper(argv, stdout_path, scratch):
    """Seconds and peak RSS bytes measured by a Python wrapper around the process."""
    errors = scratch / "stderr.txt"
    with open(stdout_path, "wb") as out, open(errors, "wb") as err:
        subprocess.call([sys.executable, "-c", WRAPPER, *argv], stdout=out, stderr=err)
    lines = errors.read_text(errors="replace").splitlines()
    try:
        result = json.loads(lines[-1])
    except (IndexError, ValueError):
        _fail(argv, "unknown", errors)
    if result["code"]:
        _fail(argv, result["code"], errors)
    return result["seconds"], result["peak_kib"] * 1024, None


def interleaved_rounds(commands_by_label, repeat, measure, scratch):
    """Run every command once per round, ``repeat`` rounds; per command the best and median
    seconds and the largest peak bytes."""
    seconds = {label: [] for label in commands_by_label}
    cpus = {label: [] for label in commands_by_label}
    peaks = dict.fromkeys(commands_by_label, 0)
    for _ in range(repeat):
        for label, (argv, stdout_path) in commands_by_label.items():
            took, peak, cpu = measure(argv, stdout_path, scratch)
            seconds[label].append(took)
            if cpu is not None:
                cpus[label].append(cpu)
            peaks[label] = max(peaks[label], peak)
    return {label: {"best": min(taken), "median": statistics.median(taken),
                    "cpu": min(cpus[label]) if cpus[label] else None,
                    "cpu_median": statistics.median(cpus[label]) if cpus[label] else None,
                    "peak": peaks[label]} for label, taken in seconds.items()}


def commands(paths, out_dir):
    """``{label: (argv, stdout file)}`` for the two ragscore commands and the peer."""
    dataset = str(paths["dataset"])
    ragscore = [sys.executable, "-m", "ragscore"]
    peer = [sys.executable, str(HERE / "trec_peer.py"), str(paths["qrels"]),
            *(str(path) for path in paths["runs"].values()), "--k", str(K)]
    return {
        f"ragscore report --k {K} --format csv":
            ([*ragscore, "report", dataset, "--k", str(K), "--format", "csv"],
             out_dir / "report.csv"),
        f"ragscore compare --baseline A --candidate B --k {K}":
            ([*ragscore, "compare", dataset, "--baseline", "A", "--candidate", "B",
              "--k", str(K)], out_dir / "compare.txt"),
        "ragscore eval (TREC files) -q --format csv":
            ([*ragscore, "eval", str(paths["qrels"]), *(str(path) for path in
                                                        paths["runs"].values()),
              "--measures", f"P@{K} R@{K} RR@{K}", "-q", "--format", "csv"],
             out_dir / "eval.csv"),
        PEER: (peer, out_dir / "peer.csv"),
    }


# --- agreement -----------------------------------------------------------------------------

def read_retrieval(path):
    """``{(case, system): (precision, recall, rr)}`` from a CSV with those columns."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {(row["case"], row["system"]):
                tuple(float(row[m]) if row[m] else None for m in ("precision", "recall", "rr"))
                for row in csv.DictReader(handle)}


def largest_difference(ours_path, peer_path):
    """Largest absolute difference in P@k, R@k, RR@k between two CSVs, and the row count.

    Rows present in one file only, or n/a on one side only, count as an infinite difference.
    """
    ours, theirs = read_retrieval(ours_path), read_retrieval(peer_path)
    if ours.keys() != theirs.keys():
        return float("inf"), len(ours)
    worst = 0.0
    for key, values in ours.items():
        for mine, peer in zip(values, theirs[key]):
            if (mine is None) != (peer is None):
                return float("inf"), len(ours)
            if mine is not None:
                worst = max(worst, abs(mine - peer))
    return worst, len(ours)


def eval_as_report(path, scratch):
    """``ragscore eval``'s tidy CSV (system, case, measure, value) rewritten with the
    columns of ``report --format csv`` (case, system, precision, recall, rr)."""
    names = {f"P@{K}": "precision", f"R@{K}": "recall", f"RR@{K}": "rr"}
    rows = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["case"] != "all":
                rows.setdefault((row["case"], row["system"]), {})[names[row["measure"]]] = \
                    row["value"]
    target = scratch / "eval-as-report.csv"
    with open(target, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["case", "system", "precision", "recall", "rr"])
        writer.writerows([case, system, values["precision"], values["recall"], values["rr"]]
                         for (case, system), values in rows.items())
    return target


# --- import time ---------------------------------------------------------------------------

def best_wall_time(argv, repeat, env=None):
    """Best wall time in seconds of ``argv`` as a whole process, over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        best = min(best, time.perf_counter() - start)
    return best


def import_overhead_ms(repeat=IMPORT_REPEAT):
    """Best wall times (ms) of a bare start and of import + load_course + evaluate.

    Measured as a user sees it: with bytecode caches written (a warm-up run writes them,
    even where PYTHONDONTWRITEBYTECODE is set in this environment).
    """
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", IMPORT_SNIPPET], check=True, env=env)
    bare = best_wall_time([sys.executable, "-c", "pass"], repeat, env=env)
    light = best_wall_time([sys.executable, "-c", IMPORT_SNIPPET], repeat, env=env)
    return bare * 1000, light * 1000


# --- output --------------------------------------------------------------------------------

def verdict(result, peer):
    """'yes' when a ragscore command meets both goals (best and median), else what it misses."""
    missed = []
    if any(result[kind] / peer[kind] > TIME_GOAL for kind in ("best", "median")):
        missed.append("time")
    if result["peak"] > peer["peak"]:
        missed.append("memory")
    return "yes" if not missed else "no (" + ", ".join(missed) + ")"


def print_table(results):
    """One line per command: best and median seconds, peak MiB, ratios to the peer, goal."""
    peer = results[PEER]
    width = max(map(len, results))
    print(f"{'command':<{width}}  {'best s':>8}  {'median s':>8}  {'peak MiB':>8}  "
          f"{'x peer (best/median)':>20}  goal met  {'CPU s (best/median)':>19}  "
          f"{'CPU x peer':>13}")
    for label, result in results.items():
        ratios = f"{result['best'] / peer['best']:.2f}x / {result['median'] / peer['median']:.2f}x"
        goal = "(peer)" if label == PEER else verdict(result, peer)
        cpu = cpu_ratio = ""
        if result["cpu"] is not None and peer["cpu"]:
            cpu = f"{result['cpu']:.2f} / {result['cpu_median']:.2f}"
            cpu_ratio = (f"{result['cpu'] / peer['cpu']:.2f}x / "
                         f"{result['cpu_median'] / peer['cpu_median']:.2f}x")
        print(f"{label:<{width}}  {result['best']:>8.2f}  {result['median']:>8.2f}  "
              f"{result['peak'] / 2 ** 20:>8.1f}  {ratios:>20}  {goal:<8}  {cpu:>19}  "
              f"{cpu_ratio:>13}")


def print_import(bare_ms, light_ms):
    """The import-time line against its goal."""
    over = light_ms - bare_ms
    met = "yes" if over <= IMPORT_GOAL_MS else "no"
    print(f"import ragscore + load_course() + evaluate: {light_ms:.1f} ms, bare python "
          f"{bare_ms:.1f} ms (best of {IMPORT_REPEAT}): {over:+.1f} ms over a bare start; "
          f"goal <= {IMPORT_GOAL_MS:.0f} ms met: {met}")


def run_benchmark(folder, args, scratch):
    """Ensure the data, time every command, check agreement, print everything."""
    status = ensure_data(folder, args.questions)
    print(f"data: {status} ({folder})")
    measure = measure_with_time if _has_gnu_time() else measure_with_wrapper
    how = "/usr/bin/time -f %M" if measure is measure_with_time else "RUSAGE_CHILDREN wrapper"
    print(f"peak memory: max resident set size of the process ({how}); "
          f"goals: <= {TIME_GOAL:.2f}x the peer's seconds, peak <= the peer's")
    results = interleaved_rounds(commands(data_paths(folder), scratch), args.repeat,
                                 measure, scratch)
    print_table(results)
    worst, rows = largest_difference(scratch / "report.csv", scratch / "peer.csv")
    print(f"largest |difference| in P@{K}, R@{K}, RR@{K}, ragscore report csv vs "
          f"pytrec_eval csv, {rows:,} rows: {worst:.1e}")
    worst, rows = largest_difference(eval_as_report(scratch / "eval.csv", scratch),
                                     scratch / "peer.csv")
    print(f"ragscore eval agrees: largest |difference| in P@{K}, R@{K}, RR@{K}, eval csv vs "
          f"pytrec_eval csv, {rows:,} rows: {worst:.1e}")
    print_import(*import_overhead_ms())


def main(argv=None):
    """Parse the options and run the benchmark; return the exit code."""
    global RETRIEVED
    parser = argparse.ArgumentParser(description="ragscore CLI end to end vs pytrec_eval")
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--retrieved", type=int, default=RETRIEVED,
                        help="documents each run retrieves (default 100; 20: the second shape)")
    parser.add_argument("--data", help="folder caching the generated data (default: a "
                                       "temporary folder, removed afterwards)")
    args = parser.parse_args(argv)
    RETRIEVED = args.retrieved
    print(f"{args.questions:,} questions x {len(SYSTEMS)} systems, corpus of "
          f"{CORPUS_SIZE:,} docs, k={K}, {RETRIEVED} retrieved, up to {MAX_CLAIMS} claims; "
          f"best and median of {args.repeat} interleaved rounds; CPUs "
          f"{sorted(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}; load "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ragscore-e2e-") as scratch:
        scratch = Path(scratch)
        folder = Path(args.data) if args.data else scratch / "data"
        run_benchmark(folder, args, scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
