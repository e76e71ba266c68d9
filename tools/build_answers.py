"""Write ``fixtures/answers/`` and ``fixtures/answers-decisions.csv`` for chapter 9.

Twelve answers, as a RAG system writes them (text with inline citations), to the course's
four questions by three invented systems: ``draft`` (numbered markers, one past the
context, one claim without any), ``careful`` (footnotes, full-width brackets, an
abstention) and ``terse`` (IDs and ranges as markers). The corpus and the labels are the
course's (``fixtures/course``), under open ID rules so that runs may record only their
answer. The decisions file is one reviewer's judgements of the review queue, frozen so the
chapter's outputs do not depend on clicks.

    python tools/build_answers.py            # (re)write both (tests/io/test_answer_fixture.py
                                             # checks the shipped files are what it writes)

The output is deterministic: same data, same bytes.
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ragscore.io.course import load_course  # noqa: E402
from ragscore.io.write import save_dataset  # noqa: E402  (a version 3 fixture, JSON Lines)
from ragscore.io.review_queue import review_queue  # noqa: E402
from ragscore.render.queue import write_queue  # noqa: E402

OUT = ROOT / "fixtures" / "answers"
DECISIONS = ROOT / "fixtures" / "answers-decisions.csv"
REVIEWER, DATE = "ana", "2026-12-04"

#: (case, system, retrieved, answer)
ANSWERS = (
    ("launch", "draft", ("launch", "archive"),
     "The release window starts on Monday [1]. Releases are usually planned well in "
     "advance [2]."),
    ("rollback", "draft", ("rollback", "checklist"),
     "To roll back, switch traffic to the previous version [1]. Then run the smoke "
     "test [3]."),
    ("owner", "draft", ("owners", "archive"),
     "The Aurora team owns the alert."),
    ("region", "draft", ("archive", "launch"),
     "The backup is hosted in the eu-west region [2]."),
    ("launch", "careful", ("launch", "archive"),
     "The release window starts on Monday [^1].\n\n[^1]: launch"),
    ("rollback", "careful", ("rollback", "checklist", "archive"),
     "First, switch traffic back to the previous version [^1]. After that, run the smoke "
     "test [^2].\n\n[^1]: rollback\n[^2]: checklist"),
    ("owner", "careful", ("owners",),
     "The fictional Aurora team owns the alert【1】."),
    ("region", "careful", ("archive",),
     "I could not find which region hosts the backup in the notes I was given."),
    ("launch", "terse", ("launch",),
     "Monday [launch]."),
    ("rollback", "terse", ("rollback", "checklist"),
     "Switch traffic back and run the smoke test [1-2]."),
    ("owner", "terse", ("owners", "archive"),
     "Aurora [owners, archive]."),
    ("region", "terse", ("launch",),
     "No answer found."),
)

#: The reviewer's grade for each pooled passage the course's lists leave out: (case, ID)
POOLED = {("launch", "archive"): 0, ("rollback", "archive"): 0, ("owner", "archive"): 0,
          ("region", "archive"): 0, ("region", "launch"): 0}

#: The reviewer's decision per claim (its normalised text): (decision, expected claim stated)
JUDGED = {
    "the release window starts on monday": ("supported", "monday"),
    "releases are usually planned well in advance": ("unsupported", ""),
    "to roll back, switch traffic to the previous version": ("supported", "switch"),
    "then run the smoke test": ("supported", "smoke"),
    "the aurora team owns the alert": ("supported", "aurora"),
    "the backup is hosted in the eu-west region": ("unsupported", ""),
    "first, switch traffic back to the previous version": ("supported", "switch"),
    "after that, run the smoke test": ("supported", "smoke"),
    "the fictional aurora team owns the alert": ("supported", "aurora"),
    "i could not find which region hosts the backup in the notes i was given":
        ("not a claim", ""),
    "monday": ("supported", "monday"),
    "switch traffic back and run the smoke test": ("supported", "switch"),
    "aurora": ("supported", "aurora"),
    "no answer found": ("not a claim", ""),
}


def dataset():
    """The course's corpus and labels with the twelve answers as its runs."""
    course = load_course()
    runs = {}
    for case, system, retrieved, answer in ANSWERS:
        runs.setdefault(case, {})[system] = {"retrieved": retrieved, "answer": answer}
    return course._replace(ids="open", runs=runs, name="answers",
                           description="Chapter 9: twelve answers with inline citations to "
                                       "the course's questions (tools/build_answers.py)")


def decisions_csv(answers):
    """The review queue of ``answers`` with every decision filled in, as CSV text (what a
    reviewer saves from ``ragscore review export --out queue.csv``)."""
    from ragscore.core.answers import normalise

    rows = review_queue(answers)
    claims = {normalise(row["claim"]) for row in rows if row["kind"] == "support"}
    pooled = {(row["case"], row["doc"]) for row in rows if row["kind"] == "relevance"}
    if claims != set(JUDGED) or pooled != set(POOLED) or len(rows) != len(JUDGED) + len(
            POOLED):
        raise SystemExit(f"the queue and JUDGED/POOLED differ: {sorted(claims ^ set(JUDGED))} "
                         f"{sorted(pooled ^ set(POOLED))}")
    for row in rows:
        if row["kind"] == "relevance":
            row["decision"] = POOLED[row["case"], row["doc"]]
        else:
            row["decision"], row["states"] = JUDGED[normalise(row["claim"])]
        row.update(reviewer=REVIEWER, date=DATE)
    return write_queue(rows, kind="csv")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the dataset folder to write")
    parser.add_argument("--decisions", type=Path, default=DECISIONS,
                        help="the decisions file to write")
    args = parser.parse_args(argv)
    answers = dataset()
    save_dataset(answers, args.out, overwrite=True, version=3)
    args.decisions.write_text(decisions_csv(answers), encoding="utf-8")
    print(f"wrote {args.out} and {args.decisions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
