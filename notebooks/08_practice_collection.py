# %% [markdown]
# # Chapter 8 — A practical test collection
#
# **Promise:** you will score a test collection that looks like real work: slices you can
# read one by one, restricted notes a correct answer may still leak, outdated and
# conflicting sources, labels reviewers disagree on, a held-out split, and a comparison big
# enough to carry a confidence interval.
#
# **Time:** about 35 minutes. **Before this chapter:** chapters 4, 6 and 7 (slices, the gate,
# graded labels); step 6 uses a confidence interval and a p-value, each explained there.
#
# You will learn:
# - how per-tag aggregates show what one mean hides;
# - why a fully supported answer can still fail on a disclosure;
# - how stale support and conflicting passages are counted, under declared rules;
# - how disputed labels are kept apart and how much reviewers agree;
# - why a comparison warns when it mixes development and held-out questions;
# - what a paired confidence interval and p-value say, and when they cannot be computed.
#
# The data: `fixtures/practice/` is a fictional company's internal notes (Fernhollow), 46
# questions, three systems (`baseline`, `rerank`, and `rerank-guarded`, which also filters
# restricted and outdated chunks), built by `tools/build_practice.py`. We read everything
# at k = 3.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous, [Chapter 7 — Your own data](07_your_own_data.ipynb) · next,
# [Chapter 9 — Your system's answers](09_your_answers.ipynb) · terms in **bold** are defined
# in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [slice](../docs/glossary.md#slice) ·
# [disclosure](../docs/glossary.md#access-groups,-disclosure) ·
# [stale support](../docs/glossary.md#stale-support) · [conflict](../docs/glossary.md#conflict) ·
# [disputed](../docs/glossary.md#reviewer,-judgement,-disputed-label) ·
# [kappa](../docs/glossary.md#percent-agreement,-chance-agreement,-kappa) ·
# [held-out](../docs/glossary.md#development-and-held-out-questions,-split) ·
# [bootstrap interval](../docs/glossary.md#bootstrap-interval) ·
# [p-value](../docs/glossary.md#p-value,-sign-flip-test) ·
# [minimum detectable effect](../docs/glossary.md#minimum-detectable-effect)

# %%
import ragscore
from ragscore.cli import capture
from ragscore.render.text import format_value
from ragscore.reports import agreement_table, disputed_slice, question_table, stats_table
from ragscore.tables.summary import sliced_aggregates
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, stats_rows, table_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import review_editor, show

PRACTICE = "../fixtures/practice"
practice = ragscore.load_dataset(PRACTICE)
K = 3

# %% [markdown]
# ## Step 1: slices by tag
# Every question carries tags naming the slices it belongs to. The mean recall of each
# system, per tag, with how many questions each mean used:

# %%
by_tag = sliced_aggregates(practice, by="tag", k=K, metrics=("recall",))
macro = by_tag[by_tag["method"] == "macro"]
Table([{"tag": tag, "system": system, "R@3": format_value(value),
        "questions used": used}
       for tag, system, value, used in zip(macro["tag"], macro["system"],
                                           macro["value"].astype(object), macro["used"])
       if tag != "unanswerable"])

# %% [markdown]
# The reranker's gain is not spread evenly: nothing changes on plain `lookup` questions,
# while `multi-evidence` (0.69 to 0.97) and `conflicting` (0.60 to 1.00) gain the most, and
# `rerank-guarded` gives back part of the `outdated` gain (it filters superseded notes, some
# of which were labelled relevant). From the command line:
# `ragscore report fixtures/practice --k 3 --by tag`.

# %% [markdown]
# ## Step 2: a correct answer that still discloses
# Notes carry access groups and each question the asking person's groups. A restricted note
# in the context delivered to the answer stage, or cited, for a caller outside its groups is
# a **disclosure**.

# %%
table = question_table(practice, k=K, metrics=("support", "coverage", "disclosures"))
leaks = table[table["disclosures"] > 0]
Table(table_rows(leaks))

# %%
show(quick_check("08"))

# %% [markdown]
# `card-request` under `rerank`: support and coverage are 1.00, and a finance-only note was
# delivered to a caller without the finance group: a disclosure all the same, counted on its
# own. Nothing excuses it, not even a fully supported answer. The fixture models access
# labels; it is not an access-control system, and checks nothing about who may really read
# a note.

# %% [markdown]
# ## Step 3: outdated and conflicting sources
# A claim supported only by a superseded version of a note counts as **stale support**, not
# as support. A claim citing the losing side of a labelled conflict is unsupported.

# %%
sources = question_table(practice, k=K, metrics=("support", "stale_support", "unsupported"))
shown = (sources["stale_support"] > 0) | (
    sources.index == ("vpn-session", "rerank"))
Table(table_rows(sources[shown]))

# %% [markdown]
# `annual-days` under `baseline` and `oncall-change` under `rerank` each have one claim whose
# only citation is an outdated version of a note: stale, and not counted as support.
# `vpn-session` under `rerank` shows the conflict rule: its claim `sign-in-again` cites a page
# that is labelled and was delivered, but loses the labelled conflict with the current
# policy, so it is one unsupported claim (support 0.50).

# %% [markdown]
# ## Step 4: disputed labels and the review editor
# Two reviewers, ana and ben, judged documents and claims. An item they decided differently
# is *disputed*: it stays disputed (no majority vote settles it), its question forms its
# own slice, and reports can show results with and without it. How far they agree, each
# kind of item on its own scale (a document's relevance and a claim's support are never
# pooled into one figure):

# %%
agreement = agreement_table(practice)
Table([{"kind": row.kind, "reviewers": f"{row.first}, {row.second}", "shared": row.items,
        "agreed": row.agreed, "po (agreement)": format_value(row.po),
        "pe (by chance)": format_value(row.pe), "kappa": format_value(row.kappa)}
       for row in agreement.astype(object).itertuples(index=False)])

# %% [markdown]
# Kappa = (po - pe) / (1 - pe). On the documents, (17/19 - 219/361) / (1 - 219/361) = 52/71,
# about 0.73: well above chance. On the claims, (5/8 - 1/2) / (1 - 1/2) = 1/4: they agree
# little more than chance would, so the support figures rest on shakier labels.

# %% [markdown]
# One disputed claim is `escorted` in `rerank`'s answer to `visitor-registration`: ben read
# it as supported (the note is a word-for-word copy), ana did not. The rule sides with ana:
# the note it cites, `onboarding#visitors`, is not in the context the editor lists as
# delivered (it was retrieved at rank 2 and left out). Pick a claim, choose a decision,
# type a note: the editor's own tables follow. With a folder given
# (`review_editor(practice, path=...)`), Save writes your judgement into the dataset as a
# reviewer record, atomically.

# %%
editor = review_editor(practice, reviewer="learner", case="visitor-registration",
                       system="rerank", k=K)
show(editor)

# %% [markdown]
# ## Step 5: development and held-out questions
# Questions are marked `dev` (for tuning) or `heldout` (for deciding).
# `--split heldout` keeps the decision honest; a comparison over both warns on its first
# line.

# %%
code, out, err = capture(["compare", PRACTICE, "--baseline", "baseline", "--candidate",
                          "rerank", "--k", "3", "--metrics", "recall"])
CommandOutput("\n".join(out.splitlines()[:2]))

# %%
code, out, err = capture(["compare", PRACTICE, "--baseline", "baseline", "--candidate",
                          "rerank", "--k", "3", "--metrics", "recall", "--split", "heldout"])
CommandOutput(out.splitlines()[0])

# %% [markdown]
# ## Step 6: how sure is a difference?
# On the held-out questions, `ragscore compare ... --split heldout --stats` adds, per metric:
# the number of questions where both systems are defined, the mean paired difference, a 95%
# bootstrap interval of it (seeded, so the same every run), a sign-flip permutation p-value
# and the smallest effect this sample could detect. The **p-value** is how often a mean
# difference at least this far from 0 would turn up if the two systems were
# interchangeable on these questions. Repeated trials of a question count as one question,
# never as more samples. The same numbers from Python, as a table:

# %%
heldout = [name for name, case in practice.cases.items() if case.get("split") == "heldout"]
held = practice._replace(cases={name: practice.cases[name] for name in heldout},
                         runs={name: practice.runs[name] for name in heldout
                               if name in practice.runs})
paired = stats_table(question_table(held, k=K, metrics=("recall", "support")),
                     baseline="baseline", candidate="rerank")
Table(stats_rows(paired, k=K))

# %% [markdown]
# `n` counts the held-out questions where both systems are defined (24 of the 28 for
# recall: four are unanswerable); `min detectable` is the mean difference a paired test
# would find significant (p < 0.05) 80% of the time, given this sample's spread; `how` says
# how the interval and p were found (exact over every sign assignment up to 16 pairs, else
# sampled). The reranker's mean recall gain of +0.15 comes with an interval that still
# includes 0, p = 0.19, and is under the 0.29 this sample could detect: eight improvements
# among 28 held-out questions are not yet evidence.

# %% [markdown]
# ## Recap
# - Per-tag means, each with its question count, show where a change helps and where it
#   does nothing.
# - A disclosure (a restricted note delivered or cited for the wrong caller) is counted on
#   its own; a fully supported answer does not excuse it.
# - Stale support and the losing side of a conflict do not count as support, under rules
#   declared in the dataset format.
# - Disputed labels stay disputed and form their own slice; kappa says how far reviewers
#   agree beyond chance.
# - Decide on held-out questions, and read the paired interval: 24 questions settle little.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does a mean per tag show that one mean over every question hides? (step 1)
# 2. Why is a fully supported answer that was given a restricted note still a failure?
#    (step 2)
# 3. When is a claim's support stale, and what becomes of a claim that cites the losing side
#    of a conflict? (step 3)
# 4. What happens to an item two reviewers decided differently? (step 4)
# 5. What does kappa take away from the percent agreement? (step 4)
# 6. Why does a comparison over dev and held-out questions warn, and what does
#    `--split heldout` change? (step 5)
# 7. What do the interval and the p-value say about rerank's recall gain? (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("08.1")` (with the exercise's number) shows the worked solution.
#
# 1. How many disclosures does `rerank` make over the whole collection? (a count)

# %% tags=["exercise"]
answer = None
check("08.1", answer)

# %% [markdown] tags=["exercise"]
# 2. On how many *dev* questions does `rerank` improve recall against `baseline`? (a count;
#    step 5 has what you need)

# %% tags=["exercise"]
answer = None
check("08.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose ana and ben had agreed on 7 of their 8 shared claims, with chance agreement
#    still 1/2. What would Cohen's kappa on the claims be? (a rate)

# %% tags=["exercise"]
answer = None
check("08.3", answer)

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 9: two more readings of this chapter's tables.

# %% [markdown] tags=["going-further"]
# ### Do the disputed questions move the scores?
# Mean recall of `baseline` over all questions, without the disputed ones (step 4), and on
# the disputed ones alone:

# %% tags=["going-further"]
sets = disputed_slice(practice, k=K, metrics=("recall",))
mean_recall = sets[(sets["system"] == "baseline") & (sets["method"] == "macro")]
Table([{"questions": which, "in the set": count, "answerable, used by R@3": used,
        "R@3": format_value(value)}
       for which, count, used, value in zip(mean_recall["questions"],
                                            mean_recall["n_questions"], mean_recall["used"],
                                            mean_recall["value"].astype(object))])

# %% [markdown] tags=["going-further"]
# ### Too few pairs for an interval
# On the course data, one of the four questions is unanswerable, which leaves 3 pairs: the
# mean difference is shown, and no interval or p-value is computed (step 6's `how`):

# %% tags=["going-further"]
course = ragscore.load_course()
Table(stats_rows(stats_table(question_table(course, k=2, metrics=("recall",)),
                             baseline="A", candidate="B"), k=2))

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 7 — Your own data](07_your_own_data.ipynb) · **Next:**
# [Chapter 9 — Your system's answers](09_your_answers.ipynb) ·
# [glossary](../docs/glossary.md)
