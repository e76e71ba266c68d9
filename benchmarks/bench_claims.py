"""`ragscore claims` vs `ragscore report` on one folder of answer-only runs.

Builds (once, deterministically) a folder of N answers of about 120 words each, with
numeric and ID markers, over a small corpus, every claim judged so the report scores them,
then times each command as a subprocess (the user's view: start-up included), best of
--repeat runs. Usage: python benchmarks/bench_claims.py [--answers 100000] [--repeat 3]
"""
import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("release window monday owners checklist rollback smoke test staging deploy "
         "approval ticket version archive notes build green tests pass").split()


def answer(rng, sentences=7):
    parts = []
    for position in range(sentences):
        words = " ".join(rng.choice(WORDS) for _ in range(14))
        marker = f" [{rng.randint(1, 3)}]" if position % 3 else " [doc-1]"
        parts.append(f"{words.capitalize()}, e.g. version 2.5{marker}.")
    return " ".join(parts)


def build(folder, answers):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ragscore.io.dataset import Dataset
    from ragscore.folders import save_dataset

    rng = random.Random(22)
    corpus = {f"doc-{i}": f"passage {i}" for i in range(1, 51)}
    cases, runs = {}, {}
    for i in range(answers):
        name = f"q{i}"
        cases[name] = {"question": f"question {i}", "relevant": ("doc-1",),
                       "support": {"c1": ("doc-1",)}}
        text = answer(rng)
        retrieved = tuple(f"doc-{j}" for j in rng.sample(range(1, 51), 5))
        runs[name] = {"S": {"retrieved": retrieved, "answer": text}}
    save_dataset(Dataset(ids="open", corpus=corpus, cases=cases, runs=runs), folder,
                 overwrite=True)


def timed(argv, repeat):
    best = None
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ragscore", *argv], check=True,
                       stdout=subprocess.DEVNULL)
        spent = time.perf_counter() - started
        best = spent if best is None else min(best, spent)
    return best


def hostile():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ragscore.core.claim_split import split_claims
    from tests.core.test_claim_split import HOSTILE

    for position, text in enumerate(HOSTILE + ["x" * 10_000_000]):
        started = time.perf_counter()
        try:
            found = f"{len(split_claims(text, context=('a', 'b', 'c'))):,} claims"
        except ValueError as error:
            found = f"ValueError: {error}"
        spent = time.perf_counter() - started
        print(f"hostile {position}: {len(text):,} characters, {spent:.3f} s, {found}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hostile", action="store_true",
                        help="only time the splitter on the hostile answers of "
                             "tests/core/test_claim_split.py (each should take under 1 s)")
    args = parser.parse_args()
    if args.hostile:
        return hostile()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "answers"
        build(folder, args.answers)
        words = len(answer(random.Random(22)).split())
        print(f"{args.answers:,} answer-only runs of about {words} words, best of "
              f"{args.repeat}")
        claims = timed(["claims", str(folder), "--format", "json"], args.repeat)
        print(f"ragscore claims --format json: {claims:.2f} s")
        report = timed(["report", str(folder)], args.repeat)
        print(f"ragscore report:               {report:.2f} s")
        print(f"claims / report: {claims / report:.2f}")


if __name__ == "__main__":
    main()
