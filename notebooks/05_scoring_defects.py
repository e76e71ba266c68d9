# %% [markdown]
# # Chapter 5 — A scoring defect can make a weak system look strong
#
# **Promise:** you will watch the contract tests catch three plausible scoring bugs, and know
# why an import error would prove nothing.
#
# **Time:** about 25 minutes. **Before this chapter:** chapters 2 to 4 (the metrics and the
# n/a policy); reading a short test function helps.
#
# You will learn:
# - the ten behaviours the workbook's tests pin, and what the other contract tests add;
# - what each of the workbook's three defects does to the numbers, and which test fails;
# - how an independent arithmetic cross-check of 3,840 evaluations widens the net;
# - what tests cannot fix: disagreement about the labels themselves.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 4 — Every question before any average](04_every_question.ipynb) · next,
# [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) · terms in
# **bold** are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [contract test](../docs/glossary.md#contract,-contract-test) ·
# [defect](../docs/glossary.md#defect,-mutation) ·
# [cross-check](../docs/glossary.md#cross-check) ·
# [disputed label](../docs/glossary.md#reviewer,-judgement,-disputed-label)

# %%
import ragscore
from ragscore.reports import claim_counts
from ragscore.workbook.crosscheck import crosscheck
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import Table
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.selfcheck import MUTATIONS, behaviour_rows, contract_checks, other_rows, \
    progress_bar
from ragscore.workbook.widgets import show

course = ragscore.load_course()

# %% [markdown]
# ## Step 1: the three defects
# Each defect is a small, plausible edit to the scorer that makes a weak answer look better:
#
# - *short-list denominator*: P@k divides by the notes returned instead of k;
# - *any citation suffices*: one labelled, visible citation supports a claim, even beside a
#   bad one;
# - *no visible-context check*: a labelled citation counts even when the note is not in the
#   top k.

# %%
Table({"defect": name, "file": path, "test that should catch it": catcher}
      for name, (path, _, _, catcher) in MUTATIONS.items())

# %% [markdown]
# ## Step 2: run the tests on the real scorer and on each defect
# Each run copies the package and its tests into a scratch folder, writes the defect into
# that copy, and runs the contract tests (`tests/core/test_contract.py`) there: four runs,
# the scorer as shipped and one per defect. A defect counts as *caught* only when a test
# *fails an assertion*; an import error would only show that the copy is broken, not that
# any test checks the rule.

# %% [markdown] tags=["lab-only"]
# In the cell below, `contract_checks` does the four runs, two at a time; a bar counts the
# finished runs, and the tables below appear once all four are done. `reuse=True` keeps each
# run's result under a hash of everything it read (every file it copied, the defect, the
# tests, Python's and pytest's versions) and reads it back when exactly that is run again:
# the same code gives the same verdict. Change a file and the runs happen again; leave
# `reuse` out to run them whatever happened before.

# %%
bar = progress_bar(1 + len(MUTATIONS), "test runs finished")
results = contract_checks([None, *MUTATIONS], progress=bar.step, reuse=True)

# %%
show(quick_check("05"))

# %% [markdown]
# The workbook's own test file checks ten behaviours. Each is pinned here by one or more
# tests (a test with several cases counts once per case). Each defect breaks exactly one of
# the ten, and it is a different one each time:

# %%
Table(behaviour_rows(results))

# %% [markdown]
# The contract file holds more than those ten. The other tests pin the workbook's whole table
# value by value and the edges of the input rules (a test marked slow, a million-note
# corpus, is left out of these runs):

# %%
Table(other_rows(results[None]))

# %% [markdown]
# All of them together, per scorer: how many passed, how many failed an assertion, how many
# broke with an error, and which tests failed.

# %%
Table({"scorer": name or "as shipped", "passed": result["passed"],
       "failed assertions": result["failed"], "errors": result["errors"],
       "caught by": ", ".join(sorted({test.split("[")[0] for test in result["failed_tests"]}))
       or "(nothing failed)"}
      for name, result in results.items())

# %% [markdown]
# ## Step 3: what the first defect would have shown
# With the short-list defect, `rollback` A's P@2 becomes hits / returned = 1/1 = 1.00 instead
# of hits / k = 1/2 = 0.50: a short list looks perfect. A list of k notes or more is not
# affected. System A's answerable questions, with counts from the package:

# %%
counts = claim_counts(course, k=2)
rows = []
for case in ("launch", "rollback", "owner"):
    hits = int(counts.loc[(case, "A"), "hits"])
    returned = min(2, len(course.runs[case]["A"]["retrieved"]))
    rows.append({"case": case, "system": "A", "hits": hits, "k": 2, "returned": returned,
                 "P@2": f"{hits / 2:.2f}", "with the defect": f"{hits / returned:.2f}"})
Table(rows)


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
# - Ten behaviours pin the contract, from the short-list denominator to refused labels and
#   cutoffs; the other tests pin the workbook's table and the input limits.
# - Each of the three defects flatters a weak answer, and each fails one behaviour's test.
# - A defect is caught only by a failed assertion; an import error proves nothing.
# - 3,840 evaluations agree with independent arithmetic, which widens the net without making
#   the fixture a benchmark.
# - Tests check arithmetic against labels; disagreement about the labels needs review.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does each of the three defects change, and which kind of weak answer does it
#    flatter? (step 1)
# 2. Why does an import error not count as catching a defect? (step 2)
# 3. How many of the ten behaviours does each defect break? (step 2)
# 4. What does the short-list defect do to `rollback` A's P@2, and why only there? (step 3)
# 5. What does the cross-check compare, and what does it not prove? (step 4)
# 6. What can no test of the scorer fix, and what should you do about it? (step 5)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("05.1")` (with the exercise's number) shows the worked solution.
#
# 1. Under the "any citation suffices" defect, what support would `rollback` B get at k = 1
#    if its answer made three claims: `switch` citing `rollback` and `archive`, `smoke`
#    citing `checklist` and `rollback`, and `monday` citing `rollback`? (a rate)

# %% tags=["exercise"]
answer = None
check("05.1", answer)

# %% [markdown] tags=["exercise"]
# 2. The short-list defect rewards returning less. Suppose both systems kept only the first
#    note of each list: under the defect, what is the mean P@2 over the six answers to the
#    answerable questions (A's three and B's three)? (a rate)

# %% tags=["exercise"]
answer = None
check("05.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Under the "no visible-context check" defect, what is the mean coverage at k = 1 over
#    the six answers to the answerable questions (A's three and B's three)? (a rate;
#    chapter 1, step 4 lists every run's notes and citations)


# %% tags=["exercise"]
answer = None
check("05.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:** [Chapter 4 — Every question before any average](04_every_question.ipynb) ·
# **Next:** [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) ·
# [glossary](../docs/glossary.md)
