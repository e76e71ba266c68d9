# %% [markdown]
# # Chapter 9 — Your system's answers
#
# **Promise:** you will take answers as a RAG system writes them, text with citations such
# as `[1]` or `[^2]`, and turn them into scored claims: split, checked, reviewed once per
# sentence, and scored with the same strict citation rule as chapter 3.
#
# **Time:** about 30 minutes. **Before this chapter:** chapter 3 (the strict citation rule)
# and chapter 8, step 4 (reviewers' judgements).
#
# You will learn:
# - how an answer is cut into claims, and what each claim's markers resolve to;
# - why a marker that points nowhere is a finding, never silently dropped;
# - why an answer nobody has reviewed is n/a ("not assessed"), not 0;
# - how a review queue has a person judge a pool of passages, then each sentence once, and
#   what each decision button records.
#
# The data: `fixtures/answers/` holds the course's four questions and labels with twelve
# answers by three invented systems: `draft` (numbered markers), `careful` (footnotes and
# full-width brackets) and `terse` (IDs and ranges as markers); runs record only the `answer`
# and the `retrieved` IDs. `fixtures/answers-decisions.csv` holds one reviewer's decisions,
# frozen so this page reads the same for everyone. We read everything at k = 2.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 8 — A practical test collection](08_practice_collection.ipynb) · next,
# [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb) · bold
# terms are in the [glossary](../docs/glossary.md).
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
# Each run holds the ranking retrieved and the text answered; the markers differ from
# system to system, as in practice:

# %%
Table([{"case": case, "system": system, "retrieved": ", ".join(run["retrieved"]),
        "answer": run["answer"].replace("\n", " ⏎ ")}
       for case, per_case in answers.runs.items() for system, run in per_case.items()])

# %% [markdown]
# `[1]` is the first passage of the context the answer stage saw (here, with no delivered
# context recorded, the first retrieved ID). `[launch]` names an ID, `[1-2]` a range, `[^1]`
# a footnote whose line (`[^1]: launch`) names the ID, and `【1】` is the full-width form
# (U+3010 and U+3011; a screen without a Chinese or Japanese font draws two boxes).

# %% [markdown]
# ## Step 2: from answer text to claims
# *Claims* are cut one per sentence (a stop inside `e.g.`, `2.5`, a URL or a marker ends
# none; markers right after a stop belong to the sentence before). Each claim keeps its span,
# its markers, the IDs they resolve to and any **finding**:

# %%
code, out, err = capture(["claims", ANSWERS, "--format", "text"])
CommandOutput(out)

# %% [markdown]
# Read four things: `draft`'s rollback `[3]`, with two passages retrieved, resolves to
# nothing, and the finding says so (never silently dropped); `draft`'s owner sentence has no
# marker, so it cites nothing and can never be supported; `careful`'s footnote lines name
# IDs and are no claims; `careful`'s region answer declines in a sentence, which the
# reviewer will mark *not a claim*.

# %% [markdown]
# ## Step 3: nobody has reviewed them yet
# A claim's text cannot say which expected claim it states, or whether its citation supports
# it: a person decides, once.

# %%
show(quick_check("09"))

# %% [markdown]
# Until every claim of an answer has a decision, its support and coverage are
# **not assessed**: n/a, never 0.

# %%
before = question_table(answers, k=K, metrics=ANSWER_METRICS)
Table(table_rows(before))

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
# A missing review read as 0 would make an unreviewed answer look wrong; read as 1, it would
# reward answers nobody checked. n/a keeps them out of every mean, which says so.

# %% [markdown]
# ## Step 4: the review queue, a pool first
# A *label* judges the test set, never the answer being scored. So the **review queue**
# starts with passages: the **pool** is every system's top 10 for each question, less what
# the labels already grade. Nobody judged `archive` for any question, or `launch` for
# region: five passages, each graded for its question alone, seeing no answer:

# %%
queue = review_queue(answers)
Table([{"case": row["case"], "passage": row["doc"], "text": row["passage"]}
       for row in queue if row["kind"] == "relevance"])

# %% [markdown]
# Then the claims, each once per question, sentence and cited passages: step 2's 15
# sentences make 14 entries, as `draft` and `careful` both write "The release window starts
# on Monday" citing `launch`. Launch's entries:

# %%
claims_queued = [row for row in queue if row["kind"] == "support"]
Table([{"case": row["case"], "claim": row["claim"].replace("\n", " "),
        "cites": ", ".join(row["citations"]) or "nothing",
        "expected claims": ", ".join(row["expected"]) or "none (unanswerable)"}
       for row in claims_queued if row["case"] == "launch"],
      caption=f"launch's entries, of the {len(claims_queued)} claim entries in the queue")

# %% [markdown]
# The panel walks `draft`'s queue, question by question. A passage gets a grade (0, 1 or 2).
# Each claim button records two things: whether the passages the sentence cites back it,
# and which expected claim it states (for coverage):
# - *supported, states NAME*: backed, and it makes the expected claim NAME; the strict
#   rule of chapter 3 then checks its citations against NAME's sources and may still count
#   it unsupported;
# - *supported, states none*: backed, but no expected claim: an extra claim, unsupported
#   under the strict rule;
# - *unsupported*: the citations do not back it;
# - *not a claim* (a greeting, an abstention): left out.
#
# On a question that expects no claim (`region`) the first button is plain *supported*.
#
# The table under the panel scores `draft` with your decisions so far; Back takes the last
# one back; nothing is saved without a folder (`path=`). From the command line:
# `ragscore review export DIR --out queue.csv`, then `ragscore review import DIR queue.csv`.

# %%
editor = answer_queue_editor(answers, system="draft", reviewer="learner", date="2026-12-04",
                             k=K)
show(editor)

# %% [markdown]
# ## Step 5: support and coverage appear
# This page applies the frozen decisions instead of your clicks: the five pooled passages
# graded 0, then every claim. `read_decisions` checks every row against the queue (a bad
# one is refused with its line and field):

# %%
found = read_decisions(DECISIONS.read_text(encoding="utf-8"), answers, kind="csv")
reviewed = add_judgements(answers, found)
Table(table_rows(question_table(reviewed, k=K,
                                metrics=("precision", "judged") + ANSWER_METRICS)))

# %% [markdown]
# P@2 is unchanged (an unjudged passage already counted as not relevant), but now we know
# it: `Judged@2`, the share of the top 2 someone judged, is 1.00 everywhere. The strict
# rule then decides, as in chapter 3:
# - `careful` scores 1.00 everywhere: each sentence cites exactly the labelled passage.
# - `draft`'s "Then run the smoke test" states `smoke`, but its `[3]` resolved to nothing:
#   unsupported, so rollback's support is 1 of 2.
# - `terse`'s "Switch traffic back and run the smoke test [1-2]" was judged to state
#   `switch`, and also cites `checklist`, not labelled for `switch`: unsupported. So is
#   "Aurora [owners, archive]".
# - On `region`, `draft` answered (abstention "no"); `careful` and `terse` wrote only
#   sentences judged *not a claim* (abstention "yes").

# %% [markdown]
# ## Recap
# - An answer's claims are derived, one per sentence, each marker resolved through the
#   delivered context (else the ranking), each finding listed.
# - An answer with a claim nobody judged is n/a, with the number of claims waiting.
# - A person grades a pool of passages, then judges each claim once per question, sentence
#   and cited passages; "states NAME" names the expected claim, and the strict rule decides.
# - The command line: `ragscore import log answers.jsonl --system mine --out DIR
#   --review-out queue.csv`, fill in the queue, `ragscore review import`, `ragscore report`.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. What does `[1]` point at when a run records no delivered context? (step 1)
# 2. What does a marker that points nowhere become? (step 2)
# 3. Why is an answer nobody has reviewed n/a rather than 0 or 1? (step 3)
# 4. Why does the queue list a sentence two systems wrote only once? (step 4)
# 5. Why is `terse`'s "Switch traffic back and run the smoke test [1-2]" unsupported?
#    (step 5)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals (a
# fraction such as `1/4` is fine). After a first try, `solution("09.1")` shows the working.
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
#    ranking is `rollback, checklist`. With its launch and owner answers as in step 5, what
#    would its **pooled** coverage be at k = 2: expected claims covered over expected
#    claims, summed over launch, rollback and owner? (a rate)

# %% tags=["exercise"]
answer = None
check("09.3", answer)

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 10: how a later run reuses the review.

# %% [markdown] tags=["going-further"]
# ### A changed answer queues only its new sentence
# A claim's judgement is keyed by its case, its **normalised text** (markers removed, case
# and spacing folded, surrounding punctuation stripped) and the passages it cites. So the
# same sentence citing the same passage in a later run, of any system, reuses its decision;
# another question, even one asking the same thing, never does. Here `draft` is re-run and
# its launch answer changes its second sentence:

# %% tags=["going-further"]
runs = {case: dict(per_case) for case, per_case in reviewed.runs.items()}
runs["launch"]["draft"] = {
    "retrieved": ("launch", "archive"),
    "answer": "The release window starts on MONDAY [1]. It closes on Friday [2]."}
rerun = reviewed._replace(runs=runs)
Table([{"case": row["case"], "claim": row["claim"]} for row in review_queue(rerun)
       if row["kind"] == "support"])

# %% [markdown] tags=["going-further"]
# Only "It closes on Friday [2]." waits: "starts on MONDAY [1]" normalises to the sentence
# already judged, and cites the same passage. Until the new sentence is reviewed, that one
# answer is n/a again, and the reason says how many claims wait:

# %% tags=["going-further"]
again = count_dataset(rerun)
position = again.keys.index(("launch", "draft"))
value = again.values(REGISTRY["support"], K)[position]
print(f"support: {'n/a' if value is None else value}, "
      f"why: {again.reasons(REGISTRY['support'], K)[position]}")

# %% [markdown] tags=["going-further"]
# ### Judge on the review page until the verdict settles
# The panel of step 4 needs Jupyter. `ragscore review page` writes the same queue as one
# HTML file that needs nothing else: no server, no network. Given a gate policy and the
# systems it compares, `--order decision` puts first the items whose judgement can still
# change the verdict; the rest go last. Here a three-rule gate asks whether `careful` may
# replace `draft`; we work on a copy of the chapter's folder in a temporary folder:

# %% tags=["going-further"]
import csv
import shutil
import tempfile

from ragscore.io.page_export import export_text
from ragscore.usecases.review import import_decisions, queue_summary, review_page
from ragscore.usecases.review_status import review_status

scratch = tempfile.TemporaryDirectory(prefix="ragscore-page-")  # gone with the kernel
WORK = Path(scratch.name)
FOLDER = shutil.copytree(ANSWERS, WORK / "answers")
POLICY = "../fixtures/policies/answers.toml"
GATED = {"policy": POLICY, "candidate": "careful", "baseline": "draft"}
CommandOutput(Path(POLICY).read_text(encoding="utf-8").split("\n", 2)[2])

# %% tags=["going-further"]
page = review_page(FOLDER, out=WORK / "review.html", reviewer="ana", date="2026-12-04",
                   order="decision", **GATED)
rows = page.rows
print(f"wrote {page.out.name}: {queue_summary(rows)}")

# %% [markdown] tags=["going-further"]
# Open it in your browser from disk (File, Open File; `page.out.as_uri()` is its address),
# not through JupyterLab: it serves files in a sandbox where the page can neither keep your
# decisions across reloads nor export them. `ragscore review page ../fixtures/answers --out
# review.html --order decision --policy ../fixtures/policies/answers.toml --candidate
# careful --baseline draft` writes one where you choose. Its order, with how many rules each
# item can move; `audit` marks the seeded sample judged whatever it decides, so that an
# estimate from it stays unbiased:

# %% tags=["going-further"]
Table([{"#": at, "kind": row["kind"], "case": row["case"],
        "item": row.get("doc") or row["claim"], "can move": len(row["moves"]),
        "audit": "yes" if row["audit"] else ""} for at, row in enumerate(rows, 1)])

# %% [markdown] tags=["going-further"]
# Now ana works down the page, four items at a time, deciding as in the frozen file. After
# each batch the page's *Export decisions* file (written here by the same code) goes
# through `review import`, and `review status` asks the gate whether any way of deciding
# the rest could still change its verdict:

# %% tags=["going-further"]
with DECISIONS.open(newline="", encoding="utf-8") as handle:
    frozen = {(row["kind"], row["case"], row["key"]): (
        int(row["decision"]) if row["kind"] == "relevance" else row["decision"],
        row["states"]) for row in csv.DictReader(handle)}
decided = {}


def judge(count):
    """Decide the page's next ``count`` items as ana did; export, import, ask the gate."""
    for at in range(len(decided), min(len(decided) + count, len(rows))):
        decided[at] = frozen[rows[at]["kind"], rows[at]["case"], rows[at]["key"]]
    export = WORK / "review-export.jsonl"
    export.write_text(export_text(page.identity, rows, decided, reviewer="ana",
                                  date="2026-12-04"), encoding="utf-8")
    import_decisions(FOLDER, export)
    return review_status(FOLDER, **GATED)


# %% tags=["going-further"]
status, lines = review_status(FOLDER, **GATED), []
while True:
    said = status.writers["text"].write(status, None).splitlines()
    lines.append(f"{len(decided):>2} judged: {said[1]}")
    if status.verdict is not None:
        break
    status = judge(4)
lines.append(f"settled after {len(decided)} of {len(rows)} items; "
             f"{len(rows) - len(decided)} left unjudged")
print("\n".join(lines + said[2:]))

# %% [markdown] tags=["going-further"]
# The last items could only confirm what is already known. Judged anyway, the gate on the
# finished pool agrees:

# %% tags=["going-further"]
judge(len(rows))
code, out, err = capture(["gate", str(FOLDER), "--policy", POLICY,
                          "--candidate", "careful", "--baseline", "draft"])
print(out.splitlines()[-1])
scratch.cleanup()  # the temporary folder, page and all

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 8 — A practical test collection](08_practice_collection.ipynb) ·
# **Next:** [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb) ·
# [glossary](../docs/glossary.md)
