# %% [markdown]
# # Chapter 4 — Every question before any average
#
# **Promise:** you will read the per-question table first, then report averages that say how
# they were made, so that no favourable mean can hide a regression.
#
# **Time:** about 30 minutes. **Before this chapter:** chapters 2 and 3 (the six values a
# question gets, and n/a).
#
# You will learn:
# - the full table of the course at k = 2;
# - per-question changes from A to B, regressions first;
# - macro against pooled averages, and the unanswerable slice kept apart;
# - plots that keep n/a visibly apart from 0;
# - what a release decision needs beyond these numbers.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) · next,
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · terms in **bold** are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [per-question table](../docs/glossary.md#per-question-table) ·
# [paired comparison](../docs/glossary.md#paired-comparison,-baseline,-candidate,-verdict) ·
# [regression](../docs/glossary.md#regression) · [macro](../docs/glossary.md#macro-mean) ·
# [pooled](../docs/glossary.md#pooled) · [slice](../docs/glossary.md#slice) ·
# [left out as n/a](../docs/glossary.md#left-out-as-n/a) ·
# [declared aggregate](../docs/glossary.md#declared-aggregate)

# %%
# %matplotlib inline
import ragscore
from ragscore.plots import plot_deltas, plot_heatmap, plot_sweep
from ragscore.reports import aggregates, compare, question_table, render, sweep
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, comparison_rows, show_plot
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

course = ragscore.load_course()
table = question_table(course, k=2)

# %% [markdown]
# ## Step 1: the full table
# One line per question and system, at k = 2, as `ragscore report fixtures/course --k 2`
# prints it. This is the workbook's table; the cell's output is compared character for
# character whenever the notebook is re-run.

# %%
CommandOutput(render(table, k=2, fmt="text"))

# %% [markdown]
# Read `launch` first. Both systems retrieve `launch` then `archive`, and only `launch` is
# relevant: P@2 = 1/2, R@2 = 1/1, RR@2 = 1/1 for both. The difference is in the answer: B
# adds `bonus`, which nothing supports, so its support is 0.50 while coverage stays 1.00.

# %% [markdown]
# ## Step 2: what changed from A to B, question by question
# Regressions come first. B improves `rollback` and `owner` and correctly declines `region`,
# but `launch` regresses on support (1.00 to 0.50) while its coverage stays at 1.00. A yes/no
# metric shows what changed (`no → yes`) rather than a number.

# %%
changes = compare(table, baseline="A", candidate="B")
Table(comparison_rows(changes[changes["verdict"] != "unchanged"], k=2))

# %% [markdown]
# The same support changes as bars: a diamond marks a question whose support did not change,
# and `n/a` marks one where B's support is undefined (it made no claim), which is not a 0.

# %%
show_plot(plot_deltas(changes, metric="support"))

# %% [markdown]
# ## Step 3: averages that declare themselves
# A **macro** mean gives each question the same weight; a **pooled** value sums numerators and
# denominators, so a longer answer weighs more. Both are taken over a **slice**: the retrieval
# and answer metrics over the answerable questions, so `region` is *not in the slice* (it
# has nothing labelled relevant and no claim expected). Inside the slice, a question whose
# value is undefined would be *left out as n/a*; here none is. Each line below says its
# method, its denominator, how many questions it used and why the others are missing.

# %%
summary = aggregates(course, k=2)
chosen = summary[(summary["metric"].isin(["recall", "support"]) & (summary["method"] == "macro"))
                 | ((summary["metric"] == "support") & (summary["method"] == "pooled"))]
Table({"system": row.system, "value": f"{row.value:.2f}", "declared as": row.description}
      for row in chosen.itertuples())

# %%
show(quick_check("04"))

# %% [markdown]
# Mean recall rises from 0.83 to 1.00 and mean support from 0.67 to 0.83, while `launch` got
# worse. Pooled support is 2 of 3 claims for A and 4 of 5 for B (0.80, not B's macro 0.83).
# Averages can all improve over a regression: that is why the per-question table comes first.

# %% [markdown]
# ## Step 4: the unanswerable slice
# Correct abstention is counted on its own slice, never folded into a retrieval success.

# %%
unanswerable = summary[summary["slice"] == "unanswerable"]
Table({"system": row.system, "declared as": row.description}
      for row in unanswerable.itertuples())

# %% [markdown]
# ## Step 5: look instead of read
# The heatmap shows every cell of the table. An n/a cell is hatched grey, which can never be
# mistaken for a dark 0; abstention is drawn as 1 for yes and 0 for no.

# %%
show_plot(plot_heatmap(table))

# %% [markdown]
# Mean support against the cutoff, per system, over the answerable questions. A citation
# further down the list only counts once k reaches it:

# %%
show_plot(plot_sweep(sweep(course, max_k=4), metric="support", mark_k=2))

# %% [markdown]
# ## Step 6: from numbers to a release decision
# The fixture holds improvements and a regression; calling B the winner without a written
# acceptance policy would hide a decision. A decision names which kinds of question are
# affected (here, a simple lookup gained an unsupported claim), how severe the failure is
# (an unsupported statement in an answer that users trust), and what follow-up is required
# (fix and re-test, or accept with a recorded exception). Keep the sample counts and the
# per-question deltas beside any mean: four hand-made questions show the arithmetic and
# estimate nothing about a real system. When comparing real systems, hold the notes,
# questions, permissions, cutoff and rubric fixed, and record each run's configuration.

# %% [markdown]
# ## Recap
# - Read every question's row before any average; an average can rise over a regression.
# - A paired comparison lists each question's change, regressions first; n/a on one side is
#   "no longer defined" or "newly defined", never a regression or an improvement.
# - A macro mean weighs questions equally, a pooled value weighs claims; both name their
#   denominator, what they left out as n/a and which questions are not in their slice.
# - Correct abstention is a count on the unanswerable slice, kept apart from retrieval.
# - A release decision names the affected questions, the severity and the follow-up.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. Why is the per-question table read before any average? (step 1)
# 2. Why does `launch` regress for B although its coverage stays 1.00? (step 2)
# 3. What does a value that becomes n/a count as in a comparison? (step 2)
# 4. How do a macro mean and a pooled value differ, and why do B's two support values
#    differ? (step 3)
# 5. What is the difference between "not in the slice" and "left out as n/a"? (step 3)
# 6. Where is correct abstention counted, and why not with retrieval? (step 4)
# 7. How does the heatmap keep n/a apart from 0? (step 5)
# 8. What must a release decision name besides the numbers? (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("04.1")` (with the exercise's number) shows the worked solution.
#
# 1. What is A's **pooled** recall over the answerable questions (hits over relevant notes,
#    both summed)? (a rate)

# %% tags=["exercise"]
answer = None
check("04.1", answer)

# %% [markdown] tags=["exercise"]
# 2. At k = 1, on how many (question, metric) pairs does B regress against A? (a count; you
#    can redo step 2's comparison at k = 1 in a new cell)


# %% tags=["exercise"]
answer = None
check("04.2", answer)

# %% [markdown] tags=["exercise"]
# 3. At k = 1, what is B's **pooled** support over the answerable questions (supported
#    claims over claims made, both summed)? (a rate)

# %% tags=["exercise"]
answer = None
check("04.3", answer)

# %% [markdown] tags=["exercise"]
# 4. What is A's macro mean coverage at k = 2? (a rate)

# %% tags=["exercise"]
answer = None
check("04.4", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:**
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) ·
# **Next:**
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · [glossary](../docs/glossary.md)
