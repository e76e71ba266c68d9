"""ragscore's TREC commands against pytrec_eval on shapes unlike the project's own, each as
a whole process, CPU time pinned to one CPU and wall time free.

    python benchmarks/bench_shapes.py                          # every shape at 1x, 2x, 4x
    python benchmarks/bench_shapes.py --shape chunks --scale 4 --repeat 3
    python benchmarks/bench_shapes.py --data /tmp/shapes       # keep the files for next time

Data: :mod:`shapes` (seeded; generation not timed, files cached in ``--data``). Timed, each a
whole process (start-up, reading, checking, scoring, writing), standard output to a file:

- ``eval``: ``ragscore eval QRELS RUN --measures MEASURES -q --format csv``;
- ``import``: ``ragscore import trec --qrels QRELS --run RUN --out DIR --overwrite``;
- ``report``: ``ragscore report DIR --measures MEASURES --format csv`` (the folder just
  imported);
- ``pytrec_eval`` (the peer): ``parse_qrel``, ``parse_run``, ``RelevanceEvaluator`` with the
  same six measures, every question's values written as JSON.

Each round runs every command pinned (``taskset -c 0``: the CPU time, user + system, is the
comparison) and then free (both CPUs: the wall time); ``--repeat`` rounds, interleaved, so a
slow spell of the shared machine falls on every side; best and median of each. Peak memory is
the largest resident set of the process (``/usr/bin/time -f %M``). Every per-question value
of ``eval`` and of ``report`` is compared with pytrec_eval's (floats equal to the bit; an n/a
of ragscore's, nothing relevant, against trec_eval's 0 is counted apart).
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from shapes import SHAPES, ensure_shape  # noqa: E402

MEASURES = "P@10 R@100 RR nDCG@10 nDCG AP"
TREC_NAMES = {"P@10": "P_10", "R@100": "recall_100", "RR": "recip_rank",
              "nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "AP": "map"}
TIME = "/usr/bin/time"
#: Goals, as multiples of pytrec_eval's CPU time (issue 42).
GOALS = {"eval": 0.5, "import + report": 1.0, "report": 0.5}
DEEP_EVAL_GOAL = 1.0
LINEAR_GOAL = 4.4

PEER = """\
import json, sys
import pytrec_eval
qrels_path, run_path, out_path = sys.argv[1:4]
with open(qrels_path) as handle:
    qrels = pytrec_eval.parse_qrel(handle)
with open(run_path) as handle:
    run = pytrec_eval.parse_run(handle)
evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(sys.argv[4:]))
results = evaluator.evaluate(run)
with open(out_path, "w") as out:
    json.dump(results, out)
"""


def commands(paths, scratch):
    """``{label: (argv, stdout file)}``, in the order a round runs them."""
    python = sys.executable
    ragscore = [python, "-m", "ragscore"]
    folder = str(scratch / "imported")
    return {
        "eval": ([*ragscore, "eval", str(paths["qrels"]), str(paths["run"]), "--measures",
                  MEASURES, "-q", "--format", "csv"], scratch / "eval.csv"),
        "import": ([*ragscore, "import", "trec", "--qrels", str(paths["qrels"]), "--run",
                    str(paths["run"]), "--out", folder, "--overwrite"], scratch / "import.txt"),
        "report": ([*ragscore, "report", folder, "--measures", MEASURES, "--format", "csv"],
                   scratch / "report.csv"),
        "pytrec_eval": ([python, "-c", PEER, str(paths["qrels"]), str(paths["run"]),
                         str(scratch / "peer.json"), *TREC_NAMES.values()],
                        scratch / "peer.txt"),
    }


def measure(argv, stdout_path, scratch, *, pinned):
    """``{"cpu", "wall", "peak"}`` of one process (seconds, seconds, bytes)."""
    report, errors = scratch / "time.txt", scratch / "stderr.txt"
    prefix = ["taskset", "-c", "0"] if pinned else []
    with open(stdout_path, "wb") as out, open(errors, "wb") as err:
        code = subprocess.call([TIME, "-f", "%e %U %S %M", "-o", str(report), *prefix, *argv],
                               stdout=out, stderr=err)
    if code:
        tail = errors.read_text(errors="replace")[-2000:]
        raise SystemExit(f"failed ({code}): {' '.join(argv)}\n{tail}")
    wall, user, system, peak = report.read_text().split()[-4:]
    return {"cpu": float(user) + float(system), "wall": float(wall), "peak": int(peak) * 1024}


def rounds(labels_argv, repeat, scratch):
    """Every command pinned then free, ``repeat`` interleaved rounds; per command the
    pinned CPU and wall times, the free wall times and the largest peak."""
    found = {label: {"cpu": [], "wall": [], "free": [], "peak": 0} for label in labels_argv}
    loads = [os.getloadavg()[0]]
    for _ in range(repeat):
        for pinned in (True, False):
            for label, (argv, stdout_path) in labels_argv.items():
                taken = measure(argv, stdout_path, scratch, pinned=pinned)
                entry = found[label]
                if pinned:
                    entry["cpu"].append(taken["cpu"])
                    entry["wall"].append(taken["wall"])
                else:
                    entry["free"].append(taken["wall"])
                entry["peak"] = max(entry["peak"], taken["peak"])
                loads.append(os.getloadavg()[0])
    return found, loads


def _best_median(values):
    return min(values), statistics.median(values)


# --- agreement -----------------------------------------------------------------------------

def ours(path):
    """``{(qid, trec name): value or None}`` of a ragscore ``--measures`` CSV (the
    per-question rows; n/a as None)."""
    found = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["case"] == "all" and row["method"]:
                continue
            value = row["value"]
            found[row["case"], TREC_NAMES[row["measure"]]] = float(value) if value else None
    return found


def compare(mine, peer_path):
    """``(values compared, differ, n/a against 0)``: every value of pytrec_eval's against
    ragscore's (a value on one side only differs)."""
    with open(peer_path, encoding="utf-8") as handle:
        peer = json.load(handle)
    theirs = {(qid, name): value for qid, measures in peer.items()
              for name, value in measures.items() if name in TREC_NAMES.values()}
    differ = na_zero = 0
    for key in mine.keys() | theirs.keys():
        value, expected = mine.get(key, "missing"), theirs.get(key, "missing")
        if value is None and expected == 0.0:
            na_zero += 1
        elif value != expected:
            differ += 1
    return len(mine.keys() | theirs.keys()), differ, na_zero


# --- the run -------------------------------------------------------------------------------

def run_shape(shape, scale, data, repeat, scratch, questions=None):
    """Time one shape at one scale; return its figures."""
    folder = Path(data) / (f"{shape}-{scale}x" if questions is None else
                           f"{shape}-{questions}q-{scale}x")
    start = time.perf_counter()
    sizes = ensure_shape(shape, folder, scale=scale, questions=questions)
    paths = {"qrels": folder / "qrels.txt", "run": folder / "run.txt"}
    print(f"\n{shape} x{scale}: {sizes['questions']:,} questions, {sizes['run_lines']:,} run "
          f"lines, {sizes['qrels_lines']:,} qrels lines (data ready in "
          f"{time.perf_counter() - start:.1f} s)", flush=True)
    found, loads = rounds(commands(paths, scratch), repeat, scratch)
    found["import + report"] = {
        key: [a + b for a, b in zip(found["import"][key], found["report"][key])]
        for key in ("cpu", "wall", "free")}
    found["import + report"]["peak"] = max(found["import"]["peak"], found["report"]["peak"])
    peer = found["pytrec_eval"]
    print(f"load average during the rounds: {min(loads):.1f} to {max(loads):.1f}")
    print(f"{'command':<16} {'CPU s pinned':>16} {'x peer':>13} {'wall s pinned':>16} "
          f"{'wall s free':>16} {'x peer':>13} {'peak MiB':>9} {'x peer':>7}")
    for label, entry in found.items():
        cpu, wall, free = (_best_median(entry[key]) for key in ("cpu", "wall", "free"))
        peer_cpu, peer_free = _best_median(peer["cpu"]), _best_median(peer["free"])
        print(f"{label:<16} {cpu[0]:>7.2f} / {cpu[1]:>6.2f} "
              f"{cpu[0] / peer_cpu[0]:>5.2f}/{cpu[1] / peer_cpu[1]:<5.2f}x "
              f"{wall[0]:>7.2f} / {wall[1]:>6.2f} {free[0]:>7.2f} / {free[1]:>6.2f} "
              f"{free[0] / peer_free[0]:>5.2f}/{free[1] / peer_free[1]:<5.2f}x "
              f"{entry['peak'] / 2 ** 20:>9.1f} {entry['peak'] / peer['peak']:>6.2f}x")
    for label in ("eval", "report"):
        compared, differ, na_zero = compare(ours(scratch / f"{label}.csv"),
                                            scratch / "peer.json")
        print(f"{label} against pytrec_eval: {compared:,} values compared, {differ:,} differ"
              f"{f', {na_zero:,} n/a against 0' if na_zero else ''}")
    return {"sizes": sizes, "found": found, "loads": loads}


START_GOAL = 0.3


def start_up(scratch, repeat):
    """``(eval, bare)``: the best wall and CPU seconds over ``repeat`` pinned runs of
    ``ragscore eval`` on a one-line qrels and run, and of ``python -c "import pyarrow"``,
    with bytecode compiled (``python -m compileall`` on the package first); and the eval's
    imports as ``-X importtime`` sums them (microseconds of the top-level imports)."""
    import ragscore

    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    str(Path(ragscore.__file__).parent)], check=True)
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    (scratch / "q1").write_text("q1 0 d1 1\n")
    (scratch / "r1").write_text("q1 Q0 d1 1 1.0 s\n")
    eval_argv = [sys.executable, "-m", "ragscore", "eval", str(scratch / "q1"),
                 str(scratch / "r1"), "--measures", MEASURES, "-q", "--format", "csv"]
    bare_argv = [sys.executable, "-c", "import pyarrow"]
    found = {}
    for label, argv in (("eval", eval_argv), ("bare", bare_argv)):
        subprocess.run(argv, check=True, env=env, capture_output=True)  # bytecode written
    for _ in range(repeat):
        for label, argv in (("eval", eval_argv), ("bare", bare_argv)):
            taken = measure(argv, scratch / "start.txt", scratch, pinned=True)
            best = found.setdefault(label, {"wall": taken["wall"], "cpu": taken["cpu"]})
            best["wall"] = min(best["wall"], taken["wall"])
            best["cpu"] = min(best["cpu"], taken["cpu"])
    lines = subprocess.run([sys.executable, "-X", "importtime", *eval_argv[1:]], env=env,
                           capture_output=True, text=True).stderr.splitlines()
    top = sum(int(line.split("|")[1]) for line in lines
              if line.startswith("import time:") and "|" in line
              and not line.split("|")[2].startswith("  ")
              and line.split("|")[1].strip().isdigit())
    return found, top


def goals(shape, figures):
    """The issue's goals for one shape at one scale, as lines."""
    found = figures["found"]
    peer = found["pytrec_eval"]
    lines = []
    limits = dict(GOALS)
    if figures["sizes"]["run_lines"] < 1_000_000:
        limits.pop("eval")
    if shape == "deep":
        limits["eval"] = DEEP_EVAL_GOAL
    for label, limit in limits.items():
        best, median = (min(found[label]["cpu"]) / min(peer["cpu"]),
                        statistics.median(found[label]["cpu"]) / statistics.median(peer["cpu"]))
        lines.append(f"{label}: CPU {best:.2f}x / {median:.2f}x the peer's (goal <= {limit}x): "
                     f"{'met' if max(best, median) <= limit else 'not met'}")
    for label in ("eval", "import", "report"):
        ratio = found[label]["peak"] / peer["peak"]
        lines.append(f"{label}: peak memory {ratio:.2f}x the peer's (goal <= 1.0x): "
                     f"{'met' if ratio <= 1.0 else 'not met'}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=SHAPES, action="append",
                        help="a shape to run (repeatable; default: all)")
    parser.add_argument("--scale", type=int, action="append",
                        help="a scale to run (repeatable; default 1, 2 and 4)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", help="folder caching the generated files (default: a "
                                       "temporary folder, removed afterwards)")
    parser.add_argument("--questions", type=int, default=None,
                        help="questions at 1x (default: each shape's own; a check of the "
                             "script itself on a small size)")
    parser.add_argument("--start-repeat", type=int, default=15,
                        help="runs of the start-up measurement (best of them)")
    args = parser.parse_args(argv)
    if shutil.which("taskset") is None or not os.access(TIME, os.X_OK):
        raise SystemExit("needs taskset and GNU time (/usr/bin/time)")
    shapes, scales = args.shape or list(SHAPES), args.scale or [1, 2, 4]
    print(f"shapes {', '.join(shapes)} at {', '.join(f'{s}x' for s in scales)}; measures "
          f"{MEASURES}; best / median of {args.repeat} interleaved rounds; CPUs "
          f"{sorted(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}; load "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ragscore-shapes-") as scratch:
        scratch = Path(scratch)
        data = Path(args.data) if args.data else scratch / "data"
        found, imports = start_up(scratch, args.start_repeat)
        over = found["eval"]["wall"] - found["bare"]["wall"]
        print(f"start: ragscore eval on one line {found['eval']['wall']:.3f} s wall, "
              f"{found['eval']['cpu']:.2f} s CPU; python -c 'import pyarrow' "
              f"{found['bare']['wall']:.3f} s wall, {found['bare']['cpu']:.2f} s CPU (best of "
              f"{args.start_repeat}, pinned, bytecode compiled); eval over bare pyarrow: "
              f"{over:+.3f} s (goal <= {START_GOAL} s: {'met' if over <= START_GOAL else 'not met'}"
              f"); the eval's top-level imports (-X importtime): {imports / 1e6:.3f} s",
              flush=True)
        for shape in shapes:
            figures = {scale: run_shape(shape, scale, data, args.repeat, scratch,
                                        args.questions) for scale in scales}
            print(f"\ngoals, {shape}:")
            for scale, found in figures.items():
                for line in goals(shape, found):
                    print(f"  x{scale} {line}")
            if 1 in figures and 4 in figures:
                for label in ("eval", "import + report", "report", "pytrec_eval"):
                    growth = (min(figures[4]["found"][label]["cpu"])
                              / min(figures[1]["found"][label]["cpu"]))
                    print(f"  {label}: CPU at 4x over 1x = {growth:.2f} (goal <= "
                          f"{LINEAR_GOAL}: {'met' if growth <= LINEAR_GOAL else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
