"""Span test sets at scale: the import and the derivation of chunk labels against ``report``
on the same folder, each as a whole process.

    python benchmarks/bench_spans.py                          # 100,000 questions, 10,000
                                                              # documents, 1,000,000 chunks
    taskset -c 0 python benchmarks/bench_spans.py             # the one-CPU figures
    python benchmarks/bench_spans.py --questions 2000 --documents 200 --chunks 20000

Data (seeded, written once per shape into --data, reused while the sizes match): documents
of random words; questions each with one relevant span (graded 1 or 2) and one or two
claims, each with an evidence span inside it, placed anywhere (so a span often crosses chunk
boundaries); one system's run per question, ten chunks ranked, the chunks holding the
evidence among them, each claim citing the chunk where its evidence starts (so some claims
are partial). Two shapes, the same totals:

- ``cut``: every document cut into equal chunks that do not overlap;
- ``windows``: chunks twice as long, each starting half a chunk after the last (every
  character in two chunks: ``--allow-overlap``), so each span meets more chunks.

Timed, each as a whole process (start-up, reading, checks and writing included; standard
output to a file), in ``--repeat`` interleaved rounds: ``ragscore import spans`` (read the
four inputs, check every offset and chunk, save the folder), ``ragscore labels DIR --format
csv`` (read the folder and derive every question's chunk labels: the derivation) and
``ragscore report DIR --format csv`` (read, derive and count): wall seconds and CPU seconds
(user and system, which other jobs on a busy machine do not inflate). The derivation is also
timed alone, in this process, in CPU seconds, on the loaded folder (``span_view``: anchor
every label, derive every question), against counting the derived runs
(``count_dataset``). Goal: the derivation within the same order as report (labels at most
report's CPU seconds; the in-process derivation at most 3x the counting). Bytecode is
compiled first (``python -m compileall``).
"""
import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SEED = 33
WORDS = ("release window rollback smoke test owner alert archive planning note traffic "
         "version switch monday aurora team project backup region checklist").split()
LAYOUT = 1


def text_of(rng, length):
    words, size = [], 0
    while size < length:
        word = rng.choice(WORDS) + str(rng.randrange(1000))
        words.append(word)
        size += len(word) + 1
    return " ".join(words)[:length - 1] + "."


def generate(folder, *, questions, documents, chunks, shape):
    """Write documents, chunks, questions and runs for one shape into ``folder``."""
    rng = random.Random(SEED)
    per_doc = chunks // documents
    step = 60 if shape == "cut" else 30  # windows: 60 long, every 30
    length = per_doc * step + (30 if shape == "windows" else 0)
    folder.mkdir(parents=True, exist_ok=True)
    texts = [text_of(rng, length) for _ in range(documents)]
    with open(folder / "documents.jsonl", "w") as out:
        out.writelines(json.dumps({"id": f"d{doc}", "text": text}) + "\n"
                       for doc, text in enumerate(texts))
    with open(folder / "chunks.jsonl", "w") as out:
        for doc in range(documents):
            for number in range(per_doc):
                out.write(json.dumps({"id": f"d{doc}#{number}", "doc": f"d{doc}",
                                      "start": number * step,
                                      "end": number * step + 60}) + "\n")
    with open(folder / "questions.jsonl", "w") as spans, \
            open(folder / "runs.jsonl", "w") as runs:
        for number in range(questions):
            doc = rng.randrange(documents)
            start = rng.randrange(0, length - 200)
            relevant = {"doc": f"d{doc}", "start": start, "end": start + 150,
                        "grade": rng.choice((1, 2))}
            evidence, cited = [], []
            for claim in range(rng.choice((1, 2))):
                at = start + rng.randrange(0, 110)
                evidence.append({"claim": f"c{claim}", "doc": f"d{doc}", "start": at,
                                 "end": at + 40})
                cited.append({"claim": f"c{claim}", "citations": [f"d{doc}#{at // step}"]})
            spans.write(json.dumps({"id": f"q{number}", "question": f"Question {number}?",
                                    "answerable": True, "relevant": [relevant],
                                    "evidence": evidence}) + "\n")
            holding = range(start // step, min(per_doc, (start + 150) // step + 1))
            ranked = list(dict.fromkeys(
                [f"d{doc}#{position}" for position in holding]
                + [f"d{rng.randrange(documents)}#{rng.randrange(per_doc)}" for _ in range(10)]))
            ranked = ranked[:10]
            for item in cited:
                for chunk in item["citations"]:
                    if chunk not in ranked:
                        ranked[-1] = chunk
            runs.write(json.dumps({"id": f"q{number}", "question": f"Question {number}?",
                                   "system": "A", "retrieved": list(dict.fromkeys(ranked)),
                                   "claims": cited}) + "\n")


def ensure_data(root, sizes, shape):
    folder = Path(root) / shape
    meta = {**sizes, "shape": shape, "seed": SEED, "layout": LAYOUT}
    try:
        if json.loads((folder / "meta.json").read_text()) == meta:
            return folder, "reused"
    except (OSError, ValueError):
        pass
    start = time.perf_counter()
    generate(folder, shape=shape, **sizes)
    (folder / "meta.json").write_text(json.dumps(meta) + "\n")
    return folder, f"generated in {time.perf_counter() - start:.1f} s"


def _cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(argv, stdout_path):
    """``(wall seconds, CPU seconds)`` of one process, its output to ``stdout_path``. The CPU
    seconds (user and system) are what a busy machine cannot inflate: the wall time counts
    every other job sharing the cores too."""
    with open(stdout_path, "wb") as out:
        start, cpu = time.perf_counter(), _cpu()
        done = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE)
        seconds, cpu = time.perf_counter() - start, _cpu() - cpu
    if done.returncode:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(argv)}\n"
                         f"{done.stderr.decode(errors='replace')[-2000:]}")
    return seconds, cpu


def in_process(folder):
    """Seconds to load the folder, derive its labels (span_view) and count its runs."""
    from ragscore.core.labels import resolved
    from ragscore.engine import count_dataset
    from ragscore.io.answers import derive_dataset
    from ragscore.folders import load_dataset
    from ragscore.io.spans import span_view

    clock = time.process_time  # CPU seconds of this process: a busy machine cannot inflate them
    start = clock()
    dataset = load_dataset(folder)
    loaded = clock()
    records = dataset.judgements
    view = span_view(dataset, records, resolved(records))
    derived = clock()
    ready = derive_dataset(dataset)
    before = clock()
    count_dataset(ready._replace(judgements=(), documents=None), engine="columnar")
    counted = clock()
    return {"load": loaded - start, "derive": derived - loaded, "count": counted - before,
            "lost": view.lost, "questions": len(view.cases)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--data", default="/tmp/ragscore-bench-spans")
    parser.add_argument("--shapes", default="cut,windows")
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    str(Path(__file__).resolve().parent.parent / "ragscore")], check=True)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{args.questions:,} questions over {args.documents:,} documents and "
          f"{args.chunks:,} chunks; {cpus} CPU{'s' * (cpus != 1)} allowed")
    sizes = {"questions": args.questions, "documents": args.documents, "chunks": args.chunks}
    ragscore = [sys.executable, "-m", "ragscore"]
    for shape in args.shapes.split(","):
        folder, how = ensure_data(args.data, sizes, shape)
        dataset = folder / "dataset"
        imports = [*ragscore, "import", "spans", "--documents", str(folder / "documents.jsonl"),
                   "--questions", str(folder / "questions.jsonl"), "--chunks",
                   str(folder / "chunks.jsonl"), "--runs", str(folder / "runs.jsonl"),
                   "--reviewer", "bench", "--date", "2026-12-04", "--out", str(dataset),
                   "--overwrite", *(["--allow-overlap"] if shape == "windows" else [])]
        timed = {"import spans": imports,
                 "labels --format csv": [*ragscore, "labels", str(dataset), "--format", "csv"],
                 "report --format csv": [*ragscore, "report", str(dataset), "--format", "csv"]}
        seconds = {label: [] for label in timed}
        cpu = {label: [] for label in timed}
        for _ in range(args.repeat):
            for label, argv in timed.items():
                wall, used = run(argv, folder / f"{label.split()[0]}.out")
                seconds[label].append(wall)
                cpu[label].append(used)
        print(f"shape {shape} (data {how}):")
        for label, taken in seconds.items():
            print(f"  ragscore {label}: wall best {min(taken):.2f} s, median "
                  f"{statistics.median(taken):.2f} s; CPU best {min(cpu[label]):.2f} s")
        ratio = min(cpu["labels --format csv"]) / min(cpu["report --format csv"])
        print(f"  labels / report, CPU seconds: {ratio:.2f} (goal: at most 1)")
        found = min((in_process(dataset) for _ in range(args.repeat)),
                    key=lambda item: item["derive"])
        print(f"  in process, CPU seconds: load {found['load']:.2f}, derive "
              f"{found['derive']:.2f} ({found['questions']:,} questions, {found['lost']} labels "
              f"lost), count {found['count']:.2f}; derive / count "
              f"{found['derive'] / found['count']:.2f} (goal: at most 3)")


if __name__ == "__main__":
    main()
