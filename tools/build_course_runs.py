"""Build ``fixtures/course-runs/``: the course data recorded as real runs (format version 3).

The questions, labels and rankings are the course's own, unchanged. Added, for chapter 6:
a manifest per configuration (B is A with one controlled change: a reranker), each chunk's
source document and version, the context actually delivered to the answer stage (the top 2,
except owner A, where a token budget cut it to one note), the answer text, and illustrative
operation figures (this lab calls no model: they show the report, they measure nothing).
Also writes ``fixtures/baselines/course-A.json`` with ``ragscore baseline save``.

    python tools/build_course_runs.py
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ragscore.io.course import load_course  # noqa: E402
from ragscore.io.write import save_dataset  # noqa: E402  (a version 3 fixture, JSON Lines)

ANSWERS = {
    ("launch", "A"): "The release window starts on Monday.",
    ("launch", "B"): "The release window starts on Monday, and every release earns a bonus.",
    ("rollback", "A"): "Switch traffic back to the previous version.",
    ("rollback", "B"): "Switch traffic back, then run the smoke checklist.",
    ("owner", "A"): "The Aurora team owns the alert.",
    ("owner", "B"): "The Aurora team owns the alert.",
    ("region", "A"): "The backup is hosted in the archive region.",
    ("region", "B"): "The notes do not say which region hosts the backup.",
}
#: Illustrative figures: (latency in ms, tokens, cost in dollars) per record.
OPS = {"A": [(410, 820, 0.0016), (395, 760, 0.0015), (430, 905, 0.0018), (380, 610, 0.0012)],
       "B": [(640, 880, 0.0019), (655, 930, 0.0020), (610, 870, 0.0019), (590, 540, 0.0011)]}
MANIFESTS = {
    "A": {"run_id": "course-A-2026-11-30", "date": "2026-11-30", "code_revision": "4e1c2a7",
          "retrieval": {"retriever": "bm25", "k": 2, "chunking": "one note per chunk"},
          "context_cutoff": 2, "prompt_revision": "answer-prompt-3",
          "model": "course-fixture (no model called)",
          "generation": {"temperature": 0.0}, "rubric_version": "strict-citations-1",
          "notes": "baseline configuration"},
    "B": {"run_id": "course-B-2026-12-01", "date": "2026-12-01", "code_revision": "9b07d3e",
          "retrieval": {"retriever": "bm25", "reranker": "cross-encoder", "k": 2,
                        "chunking": "one note per chunk"},
          "context_cutoff": 2, "prompt_revision": "answer-prompt-3",
          "model": "course-fixture (no model called)",
          "generation": {"temperature": 0.0}, "rubric_version": "strict-citations-1",
          "notes": "one controlled change: a reranker after bm25"},
}
TAGS = {"launch": ("lookup", "critical"), "rollback": ("multi-evidence", "critical"),
        "owner": ("lookup",), "region": ("unanswerable",)}


def build():
    course = load_course()
    cases = {name: dict(case, tags=TAGS[name]) for name, case in course.cases.items()}
    runs, position = {}, {"A": 0, "B": 0}
    for case_name, per_case in course.runs.items():
        runs[case_name] = {}
        for system, run in per_case.items():
            delivered = run["retrieved"][:2]
            if (case_name, system) == ("owner", "A"):
                delivered = run["retrieved"][:1]  # a token budget cut the context to one note
            latency, tokens, cost = OPS[system][position[system]]
            position[system] += 1
            runs[case_name][system] = dict(run, delivered=delivered,
                                           answer=ANSWERS[(case_name, system)],
                                           latency_ms=latency, tokens=tokens, cost=cost,
                                           retries=0, failed=False)
    return course._replace(
        cases=cases, runs=runs, name="course-runs",
        description="The course questions recorded as runs of two configurations (chapter 6)",
        sources={doc: doc for doc in course.corpus},
        versions={doc: "2026-11" for doc in course.corpus},
        rubric="strict-citations-1", manifests=MANIFESTS)


if __name__ == "__main__":
    target = ROOT / "fixtures" / "course-runs"
    save_dataset(build(), target, overwrite=True, version=3)
    (ROOT / "fixtures" / "baselines").mkdir(exist_ok=True)
    subprocess.run([sys.executable, "-m", "ragscore", "baseline", "save", str(target),
                    "--system", "A", "--out", str(ROOT / "fixtures" / "baselines" /
                                                  "course-A.json")], check=True, cwd=ROOT)
    print(f"wrote {target.relative_to(ROOT)}")
