# %% [markdown]
# # Chapter 11 — Nuggets: what a complete answer says
#
# **Promise:** you will score how complete an answer is the way TREC's RAG track does: by
# the *nuggets* it states, each vital or okay, assigned support, partial support or no
# support, and read the five nugget scores beside support and coverage.
#
# **Time:** about 35 minutes. **Before this chapter:** chapter 3 (the strict citation rule)
# and chapter 9 (answers as text, and the review queue).
#
# You will learn:
# - what a nugget is, and why some are vital and some only okay;
# - how an answer's assignment to each nugget is decided: by the strict rule where the
#   nugget is an expected claim, by a reviewer where it has no sources, and n/a (never
#   `not_support`) while nobody has;
# - how TREC RAG's five scores count a partial assignment and weigh an okay nugget;
# - how to work the weighted score W by hand, and which change to an answer raises it.
#
# The data: chapter 9's twelve answers by `draft`, `careful` and `terse` to the course's
# four questions, with that chapter's frozen review decisions applied. We add nuggets to
# the questions in step 1. We read everything at k = 2.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb) · this is
# the last chapter for now · terms in **bold** are defined in the
# [glossary](../docs/glossary.md) · its folded *Going further* part reads the same scores
# from TREC RAG's files.
#
# *Terms in this chapter* (each link opens its entry):
# [nugget, vital, okay](../docs/glossary.md#nugget,-vital,-okay) ·
# [assignment, partial support](../docs/glossary.md#assignment,-partial-support) ·
# [nugget scores](../docs/glossary.md#nugget-scores,-V-strict,-A-strict,-V,-A,-W) ·
# [coverage](../docs/glossary.md#coverage) · [support](../docs/glossary.md#support) ·
# [review queue](../docs/glossary.md#review-queue,-pool,-normalised-text) ·
# [draft](../docs/glossary.md#draft,-post-edited) · [n/a](../docs/glossary.md#n/a)

# %%
import tempfile
from pathlib import Path

import ragscore
from ragscore.cli import capture
from ragscore.core.labels import content_key
from ragscore.core.metrics import NUGGET_METRICS, REGISTRY
from ragscore.engine import count_dataset
from ragscore.io.queue_file import add_judgements, read_decisions
from ragscore.io.review_queue import review_queue
from ragscore.render.text import format_value
from ragscore.reports import assignment_rows, question_table
from ragscore.workbook.answer_review import answer_queue_editor, judgement_of
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, table_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

answers = ragscore.load_dataset("../fixtures/answers")
decisions = Path("../fixtures/answers-decisions.csv").read_text(encoding="utf-8")
reviewed = add_judgements(answers, read_decisions(decisions, answers, kind="csv"))
K = 2

# %% [markdown]
# ## Step 1: nuggets in the test set
# A **nugget** is a fact a complete answer states. TREC rates each one **vital** (an
# answer without it fails the question) or **okay** (good to have). Here the expected
# claims of chapter 1 are the nuggets, and a case may list them to give them an
# importance: rollback's smoke test becomes okay. A case may also list a nugget nobody tied
# to a passage: a *nugget without sources*, as TREC's nuggets are plain text. Rollback
# gets one: the smoke test comes after the switch.

# %%
NUGGETS = {
    "launch": ({"id": "monday", "importance": "vital"},),
    "rollback": ({"id": "switch", "importance": "vital"},
                 {"id": "smoke", "importance": "okay"},
                 {"id": "order", "text": "The smoke test runs after traffic is switched back",
                  "importance": "okay"}),
    "owner": ({"id": "aurora", "importance": "vital"},),
    "region": (),
}
cases = {name: dict(case, nuggets=NUGGETS[name]) for name, case in reviewed.cases.items()}
nuggety = reviewed._replace(cases=cases)
Table([{"case": name, "nugget": item["id"], "importance": item["importance"],
        "sources": ", ".join(case.get("support", {}).get(item["id"], ())) or "none",
        "text": item.get("text", "")}
       for name, case in nuggety.cases.items() for item in case["nuggets"]])

# %% [markdown]
# `monday`, `switch`, `smoke` and `aurora` are expected claims, with the passages labelled
# for them. `order` has no sources: no passage was labelled for it, so no citation can
# prove it. The unanswerable `region` has no nugget.

# %% [markdown]
# ## Step 2: the strict rule assigns what it can
# For every answer and nugget, an **assignment**: `support`, `partial_support` or
# `not_support`. A nugget that is an expected claim is assigned by the strict rule of
# chapter 3: `support` when the claim stating it is supported at k, else
# `not_support`. A nugget without sources cannot be assigned that way.

# %%
show(quick_check("11"))

# %% [markdown]
# Until someone reads the answer against it, such a nugget is *not assigned* (n/a), never
# `not_support`:

# %%
def shown(rows):
    """Assignment rows as the tables of this page show them."""
    return [{"case": row["case"], "system": row["system"], "nugget": row["nugget"],
             "importance": row["importance"],
             "assignment": row["assignment"] or "not assigned yet"} for row in rows]


Table(shown(row for row in assignment_rows(nuggety, k=K) if row["case"] == "rollback"))

# %% [markdown]
# `draft` supports `switch` but not `smoke` (its `[3]` pointed nowhere); `careful` supports
# both; `terse`'s one sentence cites `checklist` beside `rollback`, so the strict rule
# counts it unsupported and it supports neither. Every answer waits on `order`, so its
# rollback score W (the weighted nugget score of step 4) is n/a, with the reason:

# %%
counted = count_dataset(nuggety)
W = REGISTRY["nugget_weighted"]
Table([{"case": case, "system": system, "W": format_value(value),
        "why": reason or ""}
       for (case, system), value, reason in zip(counted.keys, counted.values(W, K),
                                                 counted.reasons(W, K))
       if case != "region"])

# %% [markdown]
# ## Step 3: a reviewer assigns the rest, a partial answer among them
# The review queue offers each answer against each nugget the strict rule cannot assign,
# once per answer. Three buttons: *support*, *partial support*, *not support*. The queue
# holds three items, one per system's rollback answer against `order`:

# %%
queue = [row for row in review_queue(nuggety) if row["kind"] == "nugget"]
system_of = {run["answer"]: system for system, run in nuggety.runs["rollback"].items()}
Table([{"case": row["case"], "system": system_of[row["answer"]], "nugget": row["nugget"],
        "answer": row["answer"].replace("\n", " ⏎ ")} for row in queue])

# %% [markdown]
# The panel below is given `terse`'s runs only, so its queue holds one item: choose a
# button, and the panel lists what it recorded. Nothing is saved without a folder
# (`path=`).

# %%
editor = answer_queue_editor(nuggety, system="terse", reviewer="learner", date="2026-12-05",
                             pool_depth=0)
show(editor)

# %% [markdown]
# This page applies one reviewer's decisions instead of your clicks. `draft` ("switch ...
# Then run the smoke test") and `careful` ("First ... After that ...") state the order.
# `terse` ("Switch traffic back and run the smoke test") names both actions, and "and"
# only hints at their order: a *partial* answer, `partial_support`. The decision is
# about what the answer says, whatever it cites.

# %%
ORDER = {"draft": "support", "careful": "support", "terse": "partial_support"}
records = [judgement_of(row, ORDER[system_of[row["answer"]]], None, reviewer="ana",
                        date="2026-12-05") for row in queue]
batch = content_key("chapter 11", [record["key"] for record in records])
assigned = add_judgements(nuggety, [dict(record, batch=batch) for record in records])
Table(shown(row for row in assignment_rows(assigned, k=K) if row["case"] == "rollback"))

# %% [markdown]
# ## Step 4: the five nugget scores beside support and coverage
# TREC RAG's scores, as castorini/nuggetizer names them: **V strict** (vital nuggets
# supported, over vital nuggets), **A strict** (all nuggets supported, over all), **V** and
# **A** (the same, a partial assignment counting 0.5), and the weighted **W**, where an
# okay nugget weighs half a vital one.

# %%
metrics = ("support", "coverage") + NUGGET_METRICS
Table(table_rows(question_table(assigned, k=K, metrics=metrics)))

# %% [markdown]
# Read launch and owner first: one vital nugget each, an expected claim assigned by the
# strict rule, so every nugget score equals coverage. Rollback is where they part:
# - coverage counts expected claims only, all alike: `draft` supports one of two, 0.50;
# - A strict adds `order`: 2 of 3; V strict reads the vital `switch` alone: 1.00;
# - `terse`'s partial `order` is worth 0.5 in A and nothing in A strict;
# - W weighs `smoke` and `order` half each, so missing `smoke` costs `draft` less than
#   missing `switch` would. The region question has no nugget: n/a in every nugget
#   column.
#
# A score that is n/a stays out of every mean. nuggetizer writes 0.0 there instead;
# `ragscore report --na-as-zero` does the same, and says so.

# %% [markdown]
# ## Step 5: W by hand
# W = (sum over vital nuggets of *s* + 0.5 × sum over okay nuggets of *s*) / (vital
# nuggets + 0.5 × okay nuggets), *s* = 1 for support, 0.5 for partial support, 0 for not.
# For `careful` on rollback: the vital `switch` supported, the okay `smoke` and `order`
# supported:
#
# W = (1 + 0.5 × (1 + 1)) / (1 + 0.5 × 2) = 2 / 2 = 1.00
#
# And for `terse`: `switch` 0, `smoke` 0, `order` 0.5:
#
# W = (0 + 0.5 × (0 + 0.5)) / (1 + 0.5 × 2) = 0.25 / 2 = 0.125
#
# (Step 4's table shows it to two decimals, a half rounded up: 0.13.) The package computes
# the same from the counts:

# %%
scores = count_dataset(assigned)
for system in ("careful", "terse"):
    position = scores.keys.index(("rollback", system))
    print(f"{system}: W = {scores.values(W, K)[position]}")

# %% [markdown]
# ## Recap
# - A nugget is a fact a complete answer states, vital or okay; a question's expected
#   claims are its nuggets, vital unless listed otherwise, and a case may list nuggets
#   without sources.
# - An expected-claim nugget is assigned by the strict rule; any nugget by a reviewer, who
#   reads what the answer says; a nugget nobody assigned is n/a, never `not_support`.
# - V strict and A strict count supported nuggets; V and A count a partial one as 0.5; W
#   weighs an okay nugget half a vital one.
# - With every nugget vital and assigned by the strict rule, each nugget score equals
#   coverage; okay nuggets, reviewers and partial answers make them part.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What makes a nugget vital rather than okay, and which nuggets have no sources?
#    (step 1)
# 2. Why is a nugget nobody has assigned n/a and not `not_support`? (step 2)
# 3. Why is `terse`'s answer to rollback a partial answer for `order`? (step 3)
# 4. On which questions do the nugget scores equal coverage, and why? (step 4)
# 5. Why does missing an okay nugget cost less in W than missing a vital one? (step 5)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("11.1")` (with the exercise's number) shows the worked solution.
#
# 1. Had the reviewer judged `draft`'s `order` only partial support, what would `draft`'s A
#    (`nugget_all`) be on rollback? (a rate)

# %% tags=["exercise"]
answer = None
check("11.1", answer)

# %% [markdown] tags=["exercise"]
# 2. `terse` may change one thing in its rollback answer, "Switch traffic back and run the
#    smoke test [1-2].":
#    - `"cite"`: cite only `[1]`, so the sentence states `switch` with its labelled
#      passage;
#    - `"sentence"`: add a second sentence, "Run the smoke test [2].", which states `smoke`
#      citing `checklist`;
#    - `"order"`: write "Switch traffic back, then run the smoke test [1-2]." so a reviewer
#      assigns `order` support.
#
#    Suppose the reviewer judges the changed answer as before otherwise. Which single change
#    raises its W the most? (one of `"cite"`, `"sentence"`, `"order"`)

# %% tags=["exercise"]
answer = None
check("11.2", answer)

# %% [markdown] tags=["exercise"]
# 3. If `smoke` were vital instead of okay, what would `draft`'s W on rollback be? (a
#    rate)

# %% tags=["exercise"]
answer = None
check("11.3", answer)

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for the exercises: what an older test set scores, and the same scores from
# TREC RAG's own files.

# %% [markdown] tags=["going-further"]
# A case that lists no nuggets keeps its expected claims as vital nuggets, so a test set
# written before nuggets scores as it did. A reviewer's decision on a nugget is made once
# per answer: the same sentences citing the same passages in a later run reuse it.
#
# The track ships nuggets and assignments in the layout of nuggetizer (its nugget tool),
# and answers in that of ragnarok (its answer generator). `ragscore import nuggets` reads
# them; an LLM's assignments come in as *drafts* (origin `llm-draft`), kept with their
# provenance, and count only when asked (`--drafts`): a score nobody reviewed is never
# passed off as reviewed.

# %% tags=["going-further"]
FILES = "../fixtures/import/nuggets"
with tempfile.TemporaryDirectory() as scratch:
    capture(["import", "nuggets", "--nuggets", f"{FILES}/nuggets.jsonl", "--answers",
             f"{FILES}/answers.jsonl", "--assignments", f"{FILES}/assignments.jsonl",
             "--qrels", f"{FILES}/qrels.txt", "--date", "2026-12-05", "--out",
             f"{scratch}/trec-rag"])
    code, out, err = capture(["report", f"{scratch}/trec-rag", "--metrics",
                              "nugget_strict_vital,nugget_all,nugget_weighted", "--drafts"])
CommandOutput(out.split("\n\nAggregates")[0])

# %% [markdown] tags=["going-further"]
# Without `--drafts` these are n/a: "a nugget is not assigned yet", until a person reviews
# the drafts (`ragscore review export`, or import them as `--origin post-edited` when
# assessors already corrected them). `ragscore export nuggets` writes the files back as
# nuggetizer writes them, byte for byte.

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 10 — Change the chunker, keep the labels](10_change_the_chunker.ipynb)
# · this is the last chapter for now; the README's "Start here" lists every chapter ·
# [glossary](../docs/glossary.md)
