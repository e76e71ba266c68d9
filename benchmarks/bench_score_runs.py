"""Throughput and peak memory of ragscore's batch scoring, beside pytrec_eval in the same run.

    python benchmarks/bench_score_runs.py            # 100,000 case-runs (about a minute)
    python benchmarks/bench_score_runs.py --cases 5000 --repeat 1
    python benchmarks/bench_score_runs.py --rounds 3 # three rounds of every tool (3 minutes)

Data (benchmarks/synthetic.py): a corpus of 100,000 documents; one system's run per case,
20 retrieved documents, up to 5 claims; k = 10. Each tool runs in a fresh child process that
builds the same data, then times the tool end to end from in-memory Python data and reads the
peak resident memory the tool adds over the data (Linux: VmHWM after resetting it); the
CPU time each timing took is reported beside it (on a shared machine the wall clock also
counts the time other processes held the CPU).
With ``--rounds N`` every tool's child is started N times, in rounds (each tool once, then
again), so that a slow spell of the machine falls on every tool alike; best and median are
then over all N x repeat timings.

Tools:
- ragscore score_runs: full validation, all six metrics, a pandas DataFrame, as called
  by default (the default engine).
- ragscore score_runs, engine=reference: the same with the reference engine (the plain
  per-record counter).
- ragscore iter_scores: the same validation and metrics as plain Python dicts
  (ragscore.core.scoring.iter_scores, the per-record path).
- pytrec_eval, run cut to 10: P_10, recall_10 and recip_rank; the cut makes its recip_rank
  equal RR@10 (its recip_rank otherwise looks past rank 10). Building its dict inputs counts.
- pytrec_eval, whole run: the same three on the uncut run (recip_rank is then not RR@10).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synthetic import make_synthetic  # noqa: E402

K = 10
TOOLS = ("ragscore score_runs", "ragscore score_runs, engine=reference", "ragscore iter_scores",
         "pytrec_eval, run cut to 10", "pytrec_eval, whole run")
PEERS = TOOLS[3:]


def _status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def _reset_peak():
    Path("/proc/self/clear_refs").write_text("5")


def _pytrec(cases, runs, *, cut):
    import pytrec_eval

    qrels = {name: {doc: 1 for doc in case["relevant"]} for name, case in cases.items()}
    run = {}
    for name, systems in runs.items():
        ranked = systems["sys"]["retrieved"]
        if cut:
            ranked = ranked[:K]
        run[name] = {doc: float(len(ranked) - rank) for rank, doc in enumerate(ranked)}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"P_{K}", f"recall_{K}", "recip_rank"})
    return evaluator.evaluate(run)


def _run_tool(tool, corpus, cases, runs):
    import ragscore

    if tool == "ragscore score_runs":
        return ragscore.score_runs(corpus, cases, runs, k=K)
    if tool == "ragscore score_runs, engine=reference":
        return ragscore.score_runs(corpus, cases, runs, k=K, engine="reference")
    if tool == "ragscore iter_scores":
        from ragscore.core.scoring import iter_scores

        return list(iter_scores(corpus, cases, runs, k=K))
    return _pytrec(cases, runs, cut=tool.endswith("cut to 10"))


def child(tool, size, repeat):
    """Measure one tool in this (fresh) process; print one JSON line."""
    corpus, cases, runs = make_synthetic(cases=size)
    if tool.startswith("ragscore"):
        import pandas  # noqa: F401  (imported before timing: a library load is not scoring)
    else:
        import pytrec_eval  # noqa: F401
    seconds, cpu, added = [], [], []
    for _ in range(repeat):
        baseline = _status("VmRSS")
        _reset_peak()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = _run_tool(tool, corpus, cases, runs)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        added.append(_status("VmHWM") - baseline)
        del result
    print(json.dumps({"tool": tool, "seconds": seconds, "cpu_seconds": cpu,
                      "added_bytes": added}))


def check_agreement(size):
    """P@10, R@10, RR@10 from ragscore and pytrec_eval (cut run) agree on every case."""
    import ragscore

    corpus, cases, runs = make_synthetic(cases=size, seed=11)
    ours = ragscore.score_runs(corpus, cases, runs, k=K)
    theirs = _pytrec(cases, runs, cut=True)
    worst = 0.0
    for (name, _), row in ours.iterrows():
        peer = theirs[name]
        for mine, key in (("precision", f"P_{K}"), ("recall", f"recall_{K}"),
                          ("rr", "recip_rank")):
            worst = max(worst, abs(float(row[mine]) - peer[key]))
    return worst


def main(argv=None):
    parser = argparse.ArgumentParser(description="ragscore batch throughput vs pytrec_eval")
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3, help="timings per child process")
    parser.add_argument("--rounds", type=int, default=1, help="child processes per tool")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.cases, args.repeat)
        return 0
    try:
        import pytrec_eval  # noqa: F401
        tools = TOOLS
    except ImportError:
        print("pytrec_eval is not installed (pip install pytrec-eval-terrier): "
              "measuring ragscore alone")
        tools = TOOLS[:3]
    if args.repeat < 1 or args.rounds < 1:
        parser.error("--repeat and --rounds must be at least 1")
    rounds = f" in {args.rounds} rounds" if args.rounds > 1 else ""
    print(f"{args.cases:,} case-runs, corpus of 100,000 docs, k={K}, 20 retrieved, "
          f"up to 5 claims; best and median of {args.repeat * args.rounds}{rounds}; "
          f"Python {sys.version.split()[0]}")
    results = {tool: {"seconds": [], "cpu_seconds": [], "added_bytes": []} for tool in tools}
    for _ in range(args.rounds):
        for tool in tools:
            output = subprocess.run(
                [sys.executable, __file__, "--child", tool, "--cases", str(args.cases),
                 "--repeat", str(args.repeat)], capture_output=True, text=True,
                check=True).stdout
            measured = json.loads(output.strip().splitlines()[-1])
            for field in results[tool]:
                results[tool][field] += measured[field]
    print(f"{'tool':<38} {'best /s':>10} {'median /s':>10} {'best CPU /s':>12} "
          f"{'peak MiB added':>15}")
    for tool, result in results.items():
        best = args.cases / min(result["seconds"])
        median = args.cases / statistics.median(result["seconds"])
        cpu = args.cases / min(result["cpu_seconds"])
        peak = max(result["added_bytes"]) / 2 ** 20
        print(f"{tool:<38} {best:>10,.0f} {median:>10,.0f} {cpu:>12,.0f} {peak:>15.1f}")
    if len(tools) > 3:
        for mine in TOOLS[:2]:
            ours = results[mine]["seconds"]
            for peer in PEERS:
                ratio = min(results[peer]["seconds"]) / min(ours)
                typical = statistics.median(results[peer]["seconds"]) / statistics.median(ours)
                memory = (max(results[mine]["added_bytes"]) / max(results[peer]["added_bytes"]))
                cpu = min(results[peer]["cpu_seconds"]) / min(results[mine]["cpu_seconds"])
                print(f"{mine[len('ragscore '):]} vs {peer}: {ratio:.2f}x the throughput "
                      f"(medians: {typical:.2f}x; in CPU time, best: {cpu:.2f}x), "
                      f"{memory:.2f}x the peak memory")
        print(f"largest |difference| in P@10, R@10, RR@10 against pytrec_eval (cut run), "
              f"{min(args.cases, 20_000):,} cases: {check_agreement(min(args.cases, 20_000)):.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
