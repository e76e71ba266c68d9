# %% [markdown]
# # Chapter 9 — Your system's answers
#
# **Promise:** you will take answers as a RAG system writes them, text with citations such
# as `[1]` or `[^2]`, and turn them into scored claims: split, checked, reviewed once per
# sentence, and scored with the same strict citation rule as chapter 3.
#
# **Time:** about 40 minutes. **Before this chapter:** chapter 3 (the strict citation rule)
# and chapter 8, step 4 (reviewers' judgements).
#
# You will learn:
# - how an answer is cut into claims, and what each claim's markers resolve to;
# - why a marker that points nowhere is a finding, never silently dropped;
# - why an answer nobody has reviewed is n/a ("not assessed"), not 0;
# - how a review queue first has a person judge a pool of passages for relevance, then each
#   sentence once, and what each decision button records;
# - how judgements are reused by later runs, so a changed answer only queues its new
#   sentences.
#
# The data: `fixtures/answers/` holds the course's four questions and labels with twelve
# answers by three invented systems: `draft` (numbered markers), `careful` (footnotes and
# full-width brackets) and `terse` (IDs and ranges as markers). Its runs record only their
# `answer` and `retrieved` IDs, no claims. `fixtures/answers-decisions.csv` is one
# reviewer's decisions, frozen so this page reads the same for everyone; both are written by
# `tools/build_answers.py`. We read everything at k = 2, as in the course.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 8 — A practical test collection](08_practice_collection.ipynb) · next,
# [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb) · terms in
# **bold** are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [claim](../docs/glossary.md#claim,-expected-claim) ·
# [finding](../docs/glossary.md#derived-claim,-finding) ·
# [not assessed](../docs/glossary.md#not-assessed) ·
# [review queue](../docs/glossary.md#review-queue,-pool,-normalised-text) ·
# [supported claim](../docs/glossary.md#supported-claim) · [pooled](../docs/glossary.md#pooled) ·
# [abstention](../docs/glossary.md#abstention,-correct-abstention) ·
# [unsupported](../docs/glossary.md#unsupported)

# %%
from pathlib import Path

import ragscore
from ragscore.cli import capture
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.io.queue_file import add_judgements, read_decisions
from ragscore.io.review_queue import review_queue
from ragscore.reports import question_table
from ragscore.workbook.answer_review import answer_queue_editor
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, table_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

ANSWERS = "../fixtures/answers"
DECISIONS = Path("../fixtures/answers-decisions.csv")
answers = ragscore.load_dataset(ANSWERS)
K = 2
ANSWER_METRICS = ("support", "coverage", "abstention_correct")

# %% [markdown]
# ## Step 1: twelve answers, as systems write them
# Each run holds the ranking the system retrieved and the text it answered with. The
# markers differ from system to system, as they do in practice:

# %%
Table([{"case": case, "system": system, "retrieved": ", ".join(run["retrieved"]),
        "answer": run["answer"].replace("\n", " ⏎ ")}
       for case, per_case in answers.runs.items() for system, run in per_case.items()])

# %% [markdown]
# `[1]` is the first passage of the context the answer stage saw. A run that records its
# delivered context counts in it; these record only the retrieved ranking, so `[1]` is the
# first retrieved ID. `[launch]` names an ID, `[1-2]` a range, `[^1]` a footnote whose line
# (`[^1]: launch`) names the ID, and `【1】` is the full-width form (U+3010 and U+3011,
# which a screen without a Chinese or Japanese font draws as two boxes).

# %% [markdown]
# ## Step 2: from answer text to claims
# *Claims* are cut one per sentence. A stop inside an abbreviation (`e.g.`), a decimal
# (`2.5`), a URL or a marker does not end a sentence. Markers right after a stop belong to
# the sentence before them. Each claim keeps its span in the answer, its markers as written,
# the IDs they resolve to and any **finding**. The command line shows the same list
# (`--format json` or `csv` for a program):

# %%
code, out, err = capture(["claims", ANSWERS, "--format", "text"])
CommandOutput(out)

# %% [markdown]
# Four things to read in that list:
# - `draft`'s rollback answer writes `[3]` with only two retrieved passages. The claim keeps
#   no citation, and the finding says why. A broken marker is never silently dropped.
# - `draft`'s owner answer states a fact without any marker: a claim citing nothing, which
#   the strict rule can never count as supported.
# - `careful`'s footnote lines (`[^1]: launch`) are not claims. They only name the IDs.
# - `careful`'s region answer is an abstention written as a sentence. The splitter cannot
#   know that; the reviewer will say it is *not a claim*.

# %% [markdown]
# ## Step 3: nobody has reviewed them yet
# A claim's text alone cannot say which expected claim it states, or whether its citation
# really supports it: a person decides, once. Until every claim of an answer has a decision,
# that answer's support and coverage are **not assessed**: n/a, never 0.

# %%
before = question_table(answers, k=K, metrics=ANSWER_METRICS)
Table(table_rows(before))

# %%
show(quick_check("09"))

# %% [markdown]
# Each n/a says why, with how many claims wait. The reasons of `draft`'s support, and the
# note every report repeats:

# %%
counted = count_dataset(answers)
Table([{"case": case, "system": system, "support": "n/a" if reason else "defined",
        "why": reason}
       for (case, system), reason in zip(counted.keys,
                                         counted.reasons(REGISTRY["support"], K))
       if system == "draft"])

# %%
CommandOutput("\n".join(note for note in counted.notes if note.startswith("system ")))

# %% [markdown]
# Reading a missing review as 0 would make an unreviewed answer look as bad as a wrong one;
# reading it as 1 would reward answers nobody checked. n/a keeps them out of every mean, and
# the mean says how many it left out.

# %% [markdown]
# ## Step 4: the review queue, a pool first
# A *label* is a person's judgement about the test set, never about the answer being
# scored. So the **review queue** starts with the passages: the **pool** is the union of
# every system's top 10 for each question, less the passages its labels already grade. Here
# the course's lists name only the relevant notes, so nobody ever judged `archive` for any
# of the four questions, or `launch` for the region question: five passages. A person
# grades each one for its question alone, seeing no answer:

# %%
queue = review_queue(answers)
Table([{"case": row["case"], "passage": row["doc"], "text": row["passage"]}
       for row in queue if row["kind"] == "relevance"])

# %% [markdown]
# Then the claims: each once per question, sentence and cited passages, with the text of
# what it cites and the question's expected claims. `draft` and `careful` both write "The
# release window starts on Monday" citing `launch` for the launch question (one with `[1]`,
# the other with `[^1]`): one entry. (A question whose labels did not say whether the
# corpus answers it would also get an entry between its passages and its claims, asking
# whether it is answerable, unanswerable or unsure. Every question here is labelled.)

# %%
Table([{"case": row["case"], "claim": row["claim"].replace("\n", " "),
        "cites": ", ".join(row["citations"]) or "nothing",
        "expected claims": ", ".join(row["expected"]) or "none (unanswerable)"}
       for row in queue if row["kind"] == "support"])

# %% [markdown]
# The panel below walks `draft`'s queue question by question: each question's pooled
# passages, then its claims.
# A passage gets a grade: `0 not relevant`, `1 relevant` or `2 highly relevant`. A claim's
# buttons say two different things, and keep them apart:
# - **supported** means the passages it cites back the sentence up;
# - *states NAME* says which expected claim the sentence makes, for coverage. It is not
#   a verdict: the strict rule of chapter 3 then checks the citations against the sources
#   labelled for NAME, and may still count it unsupported;
# - *supported, states none*: its passages back it up, but it makes no expected claim of
#   the question. It is an extra claim: the strict rule counts it unsupported, so it lowers
#   support and adds no coverage;
# - **unsupported**, and *not a claim* (a greeting, an abstention) left out.
#
# Try a few: the panel moves on, and the table under it scores `draft`'s answers with your
# decisions so far (an answer stays n/a until each of its claims has one). Step 5 scores the
# same answers from a frozen reviewer's decisions: compare. Nothing is saved unless the
# panel is given a folder (`path=`). From the command line the same queue is `ragscore
# review export DIR --out queue.csv`, filled in a spreadsheet and read back by `ragscore
# review import DIR queue.csv`.

# %%
editor = answer_queue_editor(answers, system="draft", reviewer="learner", date="2026-12-04",
                             k=K)
show(editor)

# %% [markdown]
# ## Step 5: support and coverage appear
# This page applies the frozen decisions instead of your clicks: the five pooled passages
# graded 0 (an old planning note answers none of these questions, and `launch` says nothing
# of backups), then every claim. `read_decisions` checks every row against the queue (a bad
# one is refused with its line and field) and `add_judgements` adds them to the test set's
# judgements:

# %%
found = read_decisions(DECISIONS.read_text(encoding="utf-8"), answers, kind="csv")
reviewed = add_judgements(answers, found)
Table(table_rows(question_table(reviewed, k=K,
                                metrics=("precision", "judged") + ANSWER_METRICS)))

# %% [markdown]
# P@2 is what it was: a passage nobody judged already counted as not relevant. What changed
# is that we now know it: `Judged@2`, the share of the top 2 someone judged, is 1.00
# everywhere (before the review, `archive` was unjudged wherever it was retrieved).
#
# The reviewer judged every factual sentence but two as supported, stating an expected
# claim. The strict rule then decides, as in chapter 3:
# - `careful` scores 1.00 everywhere: each sentence cites exactly the labelled passage.
# - `draft`'s "Then run the smoke test" states `smoke`, but its `[3]` resolved to nothing.
#   A claim citing nothing is unsupported, so rollback's support is 1 of 2.
# - `terse` writes "Switch traffic back and run the smoke test [1-2]": one sentence stating
#   two things. The reviewer said it states `switch`. It also cites `checklist`, which is not
#   labelled for `switch`, so it is unsupported. The same happens to "Aurora [owners,
#   archive]".
# - On the unanswerable `region`, `draft` answered (a claim, unsupported: abstention "no"),
#   while `careful` and `terse` wrote only sentences judged *not a claim* (abstention "yes").

# %% [markdown]
# ## Step 6: a changed answer queues only its new sentence
# A claim's judgement is keyed by its case, its **normalised text** (markers removed, case
# and spacing folded, surrounding punctuation stripped) and the passages it cites. So the
# same sentence citing the same passage in a later run, of any system, reuses its decision;
# another question, even one asking the same thing, never does. Here `draft` is re-run and
# its launch answer changes its second sentence:

# %%
runs = {case: dict(per_case) for case, per_case in reviewed.runs.items()}
runs["launch"]["draft"] = {
    "retrieved": ("launch", "archive"),
    "answer": "The release window starts on MONDAY [1]. It closes on Friday [2]."}
rerun = reviewed._replace(runs=runs)
Table([{"case": row["case"], "claim": row["claim"]} for row in review_queue(rerun)
       if row["kind"] == "support"])

# %% [markdown]
# Only "It closes on Friday [2]." waits: "starts on MONDAY [1]" normalises to the sentence
# already judged, and cites the same passage. Until the new sentence is reviewed, that one
# answer is n/a again, and the reason says how many claims wait:

# %%
again = count_dataset(rerun)
position = again.keys.index(("launch", "draft"))
value = again.values(REGISTRY["support"], K)[position]
print(f"support: {'n/a' if value is None else value}, "
      f"why: {again.reasons(REGISTRY['support'], K)[position]}")

# %% [markdown]
# ## Recap
# - An answer's claims are derived: one per sentence, each with its markers resolved through
#   the delivered context (else the retrieved ranking) and its findings listed.
# - A claim nobody has judged makes its answer's support and coverage n/a, with the number of
#   claims awaiting review as the reason.
# - A person judges a pool of every system's top passages for relevance, then each claim
#   once per question, sentence and cited passages; "states NAME" names the expected claim,
#   and the strict citation rule decides support from it and the citations.
# - A later run reuses every judgement whose sentence it repeats: only new sentences queue.
# - From the command line: `ragscore import log answers.jsonl --system mine --out DIR
#   --review-out queue.csv`, fill in `queue.csv`, `ragscore review import DIR queue.csv`,
#   `ragscore report DIR` (docs/answers.md).

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does `[1]` point at when a run records no delivered context? (step 1)
# 2. How is an answer cut into claims, and what does a marker that points nowhere become?
#    (step 2)
# 3. Why is an answer nobody has reviewed n/a rather than 0 or 1? (step 3)
# 4. Why does the review queue list a sentence two systems wrote only once? (step 4)
# 5. Why is `terse`'s "Switch traffic back and run the smoke test [1-2]" unsupported?
#    (step 5)
# 6. Under what key is a judgement stored, and what does a re-run send back to the queue?
#    (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("09.1")` (with the exercise's number) shows the worked solution.
#
# 1. Suppose `terse` had written two of its answers as whole sentences: launch as "The
#    release window starts on Monday [launch]." and rollback as "Switch traffic back to the
#    previous version [rollback]." How many claim entries would the review queue of step 4
#    hold then? (a count)

# %% tags=["exercise"]
answer = None
check("09.1", answer)

# %% [markdown] tags=["exercise"]
# 2. After the review (step 5), what is `draft`'s **pooled** support over its answerable
#    questions: supported claims over claims, summed over launch, rollback and owner?
#    (a rate)

# %% tags=["exercise"]
answer = None
check("09.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose `terse` wrote its rollback answer as two sentences, "Switch traffic back [1]."
#    and "Run the smoke test [2].", judged as stating `switch` and `smoke`. Its retrieved
#    ranking is `rollback, checklist`. What would its coverage on rollback be at k = 2?
#    (a rate)

# %% tags=["exercise"]
answer = None
check("09.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:** [Chapter 8 — A practical test collection](08_practice_collection.ipynb) ·
# **Next:** [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb) ·
# [glossary](../docs/glossary.md)
