"""How fast ``import_trec`` reads large TREC run files, and how much memory it takes.

    python benchmarks/bench_import_trec.py                   # 10,000 questions x 100 docs x 2
    python benchmarks/bench_import_trec.py --docs 1000       # 20,000,000 run lines
    python benchmarks/bench_import_trec.py --data /tmp/trec  # keep the files for the next run

Data (seeded): a qrels file judging 5 documents per question and one run file per system,
each question ranking ``--docs`` documents drawn from a pool of 20 per question, with scores
rounded to two decimals (so ties are common) and lines grouped by question. Generation is
not timed; with ``--data DIR`` the files are kept in DIR and reused while the sizes match.

Timed, each in a fresh process: ``import_trec(qrels, runs)`` (reading, checking, ordering as
trec_eval does, building the dataset in memory) and, when it is installed, the peer
``pytrec_eval.parse_run`` on the same run files (parsing into dicts only: no ordering, no
checks). Reported: best seconds of ``--repeat`` runs, run lines per second, and the largest
peak resident memory of the process.
"""
import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generate(folder, questions, docs, systems):
    """Write ``qrels.txt`` and ``<system>.run`` files in ``folder`` (unless already there)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = folder / "sizes.json"
    sizes = {"questions": questions, "docs": docs, "systems": systems}
    if stamp.exists() and json.loads(stamp.read_text()) == sizes:
        return
    generator = random.Random(20)
    pool = questions * 20
    with open(folder / "qrels.txt", "w") as handle:
        for question in range(questions):
            for doc in generator.sample(range(pool), 5):
                handle.write(f"q{question} 0 doc-{doc:07d} {generator.randint(0, 3)}\n")
    for system in range(systems):
        with open(folder / f"system{system}.run", "w") as handle:
            for question in range(questions):
                ranked = generator.sample(range(pool), docs)
                scores = sorted((round(generator.uniform(0, 30), 2) for _ in ranked),
                                reverse=True)
                handle.write("".join(
                    f"q{question} Q0 doc-{doc:07d} {rank} {score} system{system}\n"
                    for rank, (doc, score) in enumerate(zip(ranked, scores), 1)))
    stamp.write_text(json.dumps(sizes))


CHILD = {
    "ragscore import_trec": (
        "import sys, time\n"
        "from ragscore.importers import import_trec\n"
        "start = time.perf_counter()\n"
        "dataset, notes = import_trec(sys.argv[1], sys.argv[2:], max_bytes=1 << 40)\n"
        "lines = sum(len(run['retrieved']) for per_case in dataset.runs.values()\n"
        "            for run in per_case.values())\n"
        "print(time.perf_counter() - start, lines, PEAK())\n"),
    "pytrec_eval parse_run (peer)": (
        "import sys, time\n"
        "import pytrec_eval\n"
        "start = time.perf_counter()\n"
        "lines = 0\n"
        "for path in sys.argv[2:]:\n"
        "    with open(path) as handle:\n"
        "        run = pytrec_eval.parse_run(handle)\n"
        "    lines += sum(map(len, run.values()))\n"
        "print(time.perf_counter() - start, lines, PEAK())\n"),
}


#: Prepended to each timed program: its own peak resident memory, in MB, when it ends.
PRELUDE = ("import resource\n"
           "def PEAK():\n"
           "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n")


def measure(code, arguments, repeat):
    """``(best seconds, run lines, peak MB)`` of ``code`` run ``repeat`` times, each fresh."""
    best, lines, peak = float("inf"), 0, 0.0
    for _ in range(repeat):
        result = subprocess.run([sys.executable, "-c", PRELUDE + code, *map(str, arguments)],
                                capture_output=True, text=True, cwd=ROOT, check=True)
        seconds, lines, memory = result.stdout.split()
        best = min(best, float(seconds))
        peak = max(peak, float(memory))
    return best, int(lines), peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--systems", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, help="keep the generated files in this folder")
    options = parser.parse_args()
    scratch = None
    folder = options.data
    if folder is None:
        scratch = tempfile.TemporaryDirectory(prefix="bench-import-trec-")
        folder = Path(scratch.name)
    started = time.perf_counter()
    generate(folder, options.questions, options.docs, options.systems)
    runs = sorted(folder.glob("*.run"))
    size = sum(path.stat().st_size for path in runs)
    total = options.questions * options.docs * options.systems
    print(f"{options.questions:,} questions x {options.docs:,} docs x {options.systems} "
          f"systems = {total:,} run lines, {size / 1e6:,.0f} MB "
          f"(ready in {time.perf_counter() - started:.1f} s)")
    for label, code in CHILD.items():
        if "pytrec_eval" in code:
            try:
                import pytrec_eval  # noqa: F401
            except ImportError:
                print(f"{label}: pytrec_eval is not installed")
                continue
        seconds, lines, peak = measure(code, [folder / "qrels.txt", *runs], options.repeat)
        print(f"{label}: {seconds:.2f} s best of {options.repeat}, {lines / seconds:,.0f} "
              f"lines/s, peak memory {peak:,.0f} MB")
    if scratch is not None:
        scratch.cleanup()


if __name__ == "__main__":
    main()
