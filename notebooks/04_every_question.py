# %% [markdown]
# # Chapter 4 — Every question before any average
#
# **Promise:** you will read the per-question table first, then report averages that say how
# they were made, so that no favourable mean can hide a regression.
#
# **Time:** about 25 minutes. **Before this chapter:** chapters 2 and 3 (the six values a
# question gets, and n/a).
#
# You will learn:
# - the full table of the course at k = 2;
# - per-question changes from A to B, regressions first;
# - macro against pooled averages, and the unanswerable slice kept apart;
# - what a release decision needs beyond these numbers.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) · next,
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · bold terms are in the [glossary](../docs/glossary.md).
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
from ragscore.render.text import format_value
from ragscore.reports import aggregates, compare, question_table, render, sweep
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, comparison_rows, show_plot
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

course = ragscore.load_course()
table = question_table(course, k=2)

# %% [markdown]
# ## Step 1: the full table
# One line per question and system at k = 2, as `ragscore demo` prints it: the workbook's
# table, compared character for character on every re-run (`ragscore report` prints the
# same values in aligned columns, with four decimals).

# %%
CommandOutput(render(table, k=2, fmt="text"))

# %% [markdown]
# Read `launch` first: the same retrieval for both (P@2 = 1/2, R@2 = 1, RR@2 = 1), and B
# adds `bonus`, which nothing supports: support 0.50, coverage still 1.00.

# %% [markdown]
# ## Step 2: what changed from A to B, question by question
# Regressions come first. B improves `rollback` and `owner` and declines `region`, but
# `launch` regresses on support (1.00 to 0.50). A yes/no value shows its change (`no → yes`).

# %%
changes = compare(table, baseline="A", candidate="B")
Table(comparison_rows(changes[changes["verdict"] != "unchanged"], k=2))

# %% [markdown]
# The support changes as bars: a diamond marks no change, `n/a` an undefined value (B made
# no claim on `region`), never a 0.

# %%
show_plot(plot_deltas(changes, metric="support"))

# %% [markdown]
# ## Step 3: averages that declare themselves
# A **macro** mean weighs each question the same; a **pooled** value sums numerators and
# denominators, so a longer answer weighs more. Both are taken over a **slice**, here the
# answerable questions: `region` is *not in the slice*. Inside it, an undefined value would
# be *left out as n/a* (none is here). Each line says its method, its denominator, the
# questions it used and why the others are missing.

# %%
summary = aggregates(course, k=2)
chosen = summary[(summary["metric"].isin(["recall", "support"]) & (summary["method"] == "macro"))
                 | ((summary["metric"] == "support") & (summary["method"] == "pooled"))]
Table({"system": row.system, "value": format_value(row.value), "declared as": row.description}
      for row in chosen.itertuples())

# %%
show(quick_check("04"))

# %% [markdown]
# Mean recall rises from A's 0.83 to B's 1.00 and mean support from 0.67 to 0.83 while `launch` got
# worse; pooled support is 2 of 3 for A and 4 of 5 for B. Every average can improve over a
# regression: that is why the per-question table comes first.

# %% [markdown]
# ## Step 4: the unanswerable slice
# Correct abstention is counted on its own slice, never folded into a retrieval success.

# %%
unanswerable = summary[summary["slice"] == "unanswerable"]
Table({"system": row.system, "declared as": row.description}
      for row in unanswerable.itertuples())

# %% [markdown]
# ## Step 5: look instead of read
# The heatmap shows every cell of the table: n/a is hatched grey, never a dark 0; abstention
# is drawn as 1 for yes and 0 for no.

# %%
show_plot(plot_heatmap(table))

# %% [markdown]
# ## Step 6: from numbers to a release decision
# The fixture holds improvements and a regression; calling B the winner without a written
# acceptance policy would hide a decision. A decision names the kinds of question affected
# (a simple lookup gained an unsupported claim), the severity (an unsupported statement
# users trust) and the follow-up (fix and re-test, or accept with a recorded exception).
# Keep sample counts and per-question deltas beside any mean: four hand-made questions
# estimate nothing. Comparing real systems, hold notes, questions, permissions, cutoff and
# rubric fixed, and record each run's configuration.

# %% [markdown]
# ## Recap
# - Read every question's row before any average: an average can rise over a regression.
# - A paired comparison lists each change, regressions first; a value that becomes n/a is
#   "no longer defined", never a regression.
# - Macro weighs questions, pooled weighs claims; each names its denominator, what it left
#   out as n/a and which questions are outside its slice.
# - Correct abstention is counted on the unanswerable slice, apart from retrieval.
# - A release decision names the affected questions, the severity and the follow-up.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. Why is the per-question table read before any average? (step 1)
# 2. What does a value that becomes n/a count as in a comparison? (step 2)
# 3. Why do B's macro and pooled support differ? (step 3)
# 4. What is the difference between "not in the slice" and "left out as n/a"? (step 3)
# 5. Where is correct abstention counted? (step 4)
# 6. What must a release decision name besides the numbers? (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals (a
# fraction such as `1/4` is fine). After a first try, `solution("04.1")` shows the working.
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

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 5: mean support against the cutoff, per system, over the
# answerable questions.

# %% [markdown] tags=["going-further"]
# A citation further down the list counts only once k reaches it.

# %% tags=["going-further"]
show_plot(plot_sweep(sweep(course, max_k=4), metric="support", mark_k=2))

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:**
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) ·
# **Next:**
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · [glossary](../docs/glossary.md)
