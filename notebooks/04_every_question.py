# %% [markdown]
# # Chapter 4 — Every question before any average
#
# **Promise:** you will read a per-question table first, and then report averages that
# say how they were made — so no favourable mean can hide a regression.
#
# You will learn:
# - the full table of the course at k = 2;
# - per-question deltas between two systems, regressions first;
# - macro against pooled averages, and the unanswerable slice;
# - plots that keep n/a visibly apart from 0.

# %%
# %matplotlib inline
import pandas as pd

import ragscore
from ragscore.workbook.exercises import check_yourself
from ragscore.plots import plot_deltas, plot_heatmap, plot_sweep
from ragscore.reports import aggregates, compare, question_table, render, sweep

course = ragscore.load_course()
table = question_table(course, k=2)

# %% [markdown]
# ## Step 1: the full table
# One line per question and system. This cell's output is the workbook's table, checked
# character for character whenever the notebook is re-run.

# %%
print(render(table, k=2, fmt="text"), end="")

# %% [markdown]
# The same table as a DataFrame: nullable columns keep n/a as `<NA>`, never 0.

# %%
table

# %% [markdown]
# ## Step 2: per-question deltas, B against A
# Regressions first. B improves `rollback` and `owner` and abstains on `region`, but
# `launch` regresses on support (1.00 → 0.50) while its coverage stays 1.00.

# %%
deltas = compare(table, baseline="A", candidate="B")
deltas[deltas["verdict"] != "unchanged"]

# %%
ax = plot_deltas(deltas, metric="support")

# %% [markdown]
# ## Step 3: averages that declare themselves
# Macro gives each question equal weight (n/a left out); pooled sums claim counts, so
# longer answers weigh more. For B they differ: 0.83 macro, 4 of 5 = 0.80 pooled.

# %%
summary = aggregates(course, k=2)
summary.loc[summary["metric"].isin(["recall", "support"]),
            ["system", "slice", "metric", "method", "value", "description"]]

# %% [markdown]
# Both averages rise from A to B while `launch` got worse — which is exactly why the
# per-question table comes first.

# %% [markdown]
# ## Step 4: the unanswerable slice
# Correct abstention is counted on its own slice, never folded into retrieval success.

# %%
summary.loc[summary["slice"] == "unanswerable", ["system", "value", "description"]]

# %% [markdown]
# ## Step 5: look instead of read
# The heatmap hatches n/a cells grey — different from a dark 0.

# %%
ax = plot_heatmap(table)

# %%
ax = plot_sweep(sweep(course, max_k=4), metric="coverage")

# %% [markdown]
# ## Recap
# In this chapter we read every question before any average, compared B with A question
# by question, named each aggregate's method and denominator, kept the unanswerable slice
# apart, and drew n/a so that nobody mistakes it for 0.
#
# ## Exercises
# 1. What is A's pooled recall over answerable questions (hits / relevant documents)?

# %%
answer = None
print(check_yourself(answer, 3 / 4))

# %% [markdown]
# 2. How many (question, metric) pairs did B regress on against A?

# %%
answer = None
print(check_yourself(answer, int((deltas["verdict"] == "regressed").sum())))
