# %% [markdown]
# # Chapter 5 — A scoring defect can make a weak system look strong
#
# **Promise:** you will watch the contract tests catch three plausible scoring bugs, and know
# why an import error would prove nothing.
#
# You will learn:
# - how to run the contract tests from a notebook;
# - what each of the workbook's three defects does to the numbers;
# - how an independent arithmetic cross-check of 3,840 evaluations widens the net;
# - what tests cannot fix: disagreement about the labels themselves.

# %%
import ragscore
from ragscore.reports import claim_counts
from ragscore.workbook.crosscheck import crosscheck
from ragscore.workbook.exercises import check
from ragscore.workbook.explore import Table
from ragscore.workbook.selfcheck import MUTATIONS, contract_checks, progress_bar

course = ragscore.load_course()

# %% [markdown]
# ## Step 1: the three defects
# Each defect is a small, plausible edit to the scorer that makes a weak answer look better:
#
# - **short-list denominator**: P@k divides by the notes returned instead of k;
# - **any citation suffices**: one labelled, visible citation supports a claim, even beside a
#   bad one;
# - **no visible-context check**: a labelled citation counts even when the note is not in the
#   top k.

# %%
Table({"defect": name, "file": path, "test that should catch it": catcher}
      for name, (path, _, _, catcher) in MUTATIONS.items())

# %% [markdown]
# ## Step 2: run the tests on the real scorer and on each defect
# `contract_checks` copies the package and its tests into a scratch folder per run, writes the
# defect into that copy, and runs the contract tests there (two at a time; about fifteen
# seconds in all, and the bar shows progress). A defect counts as **caught** only when a test
# *fails an assertion*; an import error would only show that the copy is broken.

# %%
bar = progress_bar(1 + len(MUTATIONS), "test runs finished")
results = contract_checks([None, *MUTATIONS], progress=bar.step)

# %%
Table({"scorer": name or "as shipped", "passed": result["passed"],
       "failed assertions": result["failed"], "errors": result["errors"],
       "caught by": ", ".join(sorted({test.split("[")[0] for test in result["failed_tests"]}))
       or "(nothing failed)"}
      for name, result in results.items())

# %% [markdown]
# ## Step 3: what the first defect would have shown
# With the short-list defect, `rollback` A's P@2 becomes hits / returned = 1/1 = 1.00 instead
# of hits / k = 1/2 = 0.50: a short list looks perfect. The counts come from the package:

# %%
hits = int(claim_counts(course, k=2).loc[("rollback", "A"), "hits"])
returned = len(course.runs["rollback"]["A"]["retrieved"][:2])
Table([{"hits": hits, "k": 2, "returned": returned, "P@2": f"{hits / 2:.2f}",
        "with the defect": f"{hits / returned:.2f}"}])

# %% [markdown]
# ## Step 4: an independent cross-check
# The contract tests pin hand-worked cases. A cross-check widens the net: it builds 384
# small retrieval configurations (8 sets of relevant notes × 16 rankings × 3 cutoffs) and 10
# answer patterns for each, recomputes every expected value with plain loops and fractions,
# and compares it with `ragscore.evaluate`.

# %%
Table([crosscheck()])

# %% [markdown]
# Three thousand eight hundred and forty agreements widen the arithmetic coverage; they do
# not turn a synthetic fixture into a benchmark of any real system.

# %% [markdown]
# ## Step 5: what tests cannot fix
# Every test here checks arithmetic against labels. If the labels are wrong, the tests pass
# and the scores are still wrong. Reviewers disagree about whether a passage supports a
# proposition, especially for paraphrases, partial support, conflicting versions,
# multi-step inferences and claims with several clauses. When they disagree, record both
# judgements and resolve the disagreement, or keep it visible, rather than forcing one
# convenient claim ID. State the unit of evaluation, and have a sample reviewed independently
# when you can.

# %% [markdown]
# ## Recap
# In this chapter we ran the contract tests, injected three defects that each flatter a weak
# system, saw named tests fail on assertions (not on import errors), checked 3,840
# evaluations against independent arithmetic, and noted that label disagreements need review,
# not more tests.

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell.
#
# 1. Under the "any citation suffices" defect, what support would `owner` A get at k = 2 if
#    it cited both `owners` and `archive` for `aurora`? (a rate)

# %% tags=["exercise"]
answer = None
check("05.1", answer)

# %% [markdown] tags=["exercise"]
# 2. Under the "short-list denominator" defect, what is `rollback` A's P@3? (a rate)

# %% tags=["exercise"]
answer = None
check("05.2", answer)

# %% [markdown] tags=["exercise"]
# 3. If the mutated copy failed with an `ImportError`, would that count as catching the
#    defect? (`True` or `False`)

# %% tags=["exercise"]
answer = None
check("05.3", answer)
