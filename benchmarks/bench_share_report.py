"""The shareable HTML report at scale: size of the file and time for Chromium to open it.

    python benchmarks/bench_share_report.py --questions 10000

Builds a synthetic test set of QUESTIONS questions answered by two systems (each with a
question text, 10 retrieved IDs, a delivered context of 3, claims with citations and an
answer), writes `ragscore html` for it and opens it from file:// in headless Chromium,
timing from navigation to the table's first rows (the page's own script done). Prints the
file size, the time to build the file and the time to open it (best of --repeat).
"""
import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragscore.io.format import Dataset  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def synthetic(questions, *, seed=0, depth=10, documents=2000):
    """A test set of ``questions`` questions, systems ``base`` and ``cand``."""
    rng = random.Random(seed)
    corpus = {f"doc-{i:05d}#s{i % 7}": f"Section {i} of a synthetic note." for i in range(documents)}
    ids = list(corpus)
    cases, runs = {}, {}
    for number in range(questions):
        name = f"q{number:05d}"
        answerable = rng.random() > 0.1
        relevant = rng.sample(ids, 2) if answerable else []
        cases[name] = {"question": f"Synthetic question {number}: what does section "
                                   f"{number % 97} say about item {number % 13}?",
                       "relevant": tuple(relevant),
                       "support": {f"fact-{j}": (doc,) for j, doc in enumerate(relevant)}}
        runs[name] = {}
        for system, skill in (("base", 0.5), ("cand", 0.65)):
            pool = rng.sample(ids, depth)
            retrieved = [doc for doc in pool if doc not in relevant][:depth]
            for doc in relevant:
                if rng.random() < skill:
                    retrieved.insert(rng.randrange(0, 5), doc)
            retrieved = tuple(dict.fromkeys(retrieved))[:depth]
            delivered = retrieved[:3]
            claims = []
            if answerable and rng.random() < 0.9:
                for j, doc in enumerate(relevant):
                    cited = doc if doc in delivered else delivered[0]
                    claims.append((f"fact-{j}", (cited,)))
            elif not answerable and rng.random() < 0.3:
                claims.append(("made-up", (delivered[0],)))
            runs[name][system] = {"retrieved": retrieved, "delivered": delivered,
                                  "claims": tuple(claims),
                                  "answer": "A synthetic answer. " * 3}
    return Dataset(corpus, cases, runs, name="synthetic", ids="open")


def build(questions):
    from ragscore.render.share_html import render_html
    from ragscore.tables.share import review_data

    data = review_data(synthetic(questions), baseline="base", candidate="cand", k=3)
    return render_html(data)


def open_time(path, *, repeat=3, chromium="/usr/bin/chromium"):
    """Best time (s) from navigation to the first table row, and the console errors."""
    from playwright.sync_api import sync_playwright

    best, errors = float("inf"), []
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            for _ in range(repeat):
                page = context.new_page()
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                start = time.perf_counter()
                page.goto(path.as_uri())
                page.wait_for_selector("#questions-body tr.q")
                best = min(best, time.perf_counter() - start)
                page.close()
        finally:
            context.close()
    return best, errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    text = build(args.questions)
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.html"
        path.write_text(text, encoding="utf-8")
        size = path.stat().st_size
        opened, errors = open_time(path, repeat=args.repeat)
    print(f"{args.questions:,} questions x 2 systems: report {size / 1e6:.2f} MB "
          f"({size:,} bytes), built in {built:.2f} s, opened in Chromium in {opened:.2f} s "
          f"(best of {args.repeat}), console errors: {len(errors)}")
    for error in errors[:5]:
        print(f"  console error: {error}")


if __name__ == "__main__":
    main()
