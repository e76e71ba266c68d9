# %% [markdown]
# # Chapter 5 — A scoring defect can make a weak system look strong
#
# **Promise:** you will watch the contract tests catch three plausible scoring bugs, and know
# why an import error would prove nothing.
#
# **Time:** about 20 minutes. **Before this chapter:** chapters 2 to 4 (the metrics and the
# n/a policy); reading a short test function helps.
#
# You will learn:
# - the ten behaviours the workbook's tests pin;
# - what each of the workbook's three defects does, and which test catches it;
# - what tests cannot fix: disagreement about the labels themselves.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 4 — Every question before any average](04_every_question.ipynb) · next,
# [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) · bold terms are
# in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [contract test](../docs/glossary.md#contract,-contract-test) ·
# [defect](../docs/glossary.md#defect,-mutation) ·
# [cross-check](../docs/glossary.md#cross-check) ·
# [disputed label](../docs/glossary.md#reviewer,-judgement,-disputed-label)

# %%
import ragscore
from ragscore.render.text import format_value
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
# Each run copies the package and its tests to a scratch folder, writes the defect into the
# copy and runs the contract tests (`tests/core/test_contract.py`): four runs, the scorer as
# shipped and one per defect.

# %% [markdown] tags=["lab-only"]
# `contract_checks` does the four runs, two at a time. `reuse=True` keeps each result under a
# hash of everything the run read and reads it back when exactly that runs again; change a
# file and the runs happen again.

# %%
bar = progress_bar(1 + len(MUTATIONS), "test runs finished")
results = contract_checks([None, *MUTATIONS], progress=bar.step, reuse=True)

# %%
show(quick_check("05"))

# %% [markdown]
# A defect is *caught* only when a test *fails an assertion*; an import error would only
# show that the copy is broken. The workbook's own test file checks ten behaviours, each
# pinned by one or more tests. Each defect breaks exactly one of the ten, a different one
# each time:

# %%
Table(behaviour_rows(results))

# %% [markdown]
# The contract file's other tests pin the workbook's whole table and the edges of the input
# rules (a slow one, a million-note corpus, is left out here):

# %%
Table(other_rows(results[None]))

# %% [markdown]
# All of them, per scorer: tests passed, failed assertions, errors, and which tests failed.

# %%
Table({"scorer": name or "as shipped",
       "passed / failed / errors": f"{result['passed']} / {result['failed']} / "
                                   f"{result['errors']}",
       "caught by": ", ".join(sorted({test.split("[")[0] for test in result["failed_tests"]}))
       or "(nothing failed)"}
      for name, result in results.items())

# %% [markdown]
# ## Step 3: what tests cannot fix
# Every test here checks arithmetic against labels: with wrong labels the tests pass and the
# scores are still wrong. Reviewers disagree about support, above all for paraphrases,
# partial support, conflicting versions, multi-step inferences and claims with several
# clauses. Record both judgements and resolve the disagreement, or keep it visible, rather
# than forcing one convenient claim ID; state the unit of evaluation, and have a sample
# reviewed independently when you can.

# %% [markdown]
# ## Recap
# - Ten behaviours pin the contract, from the short-list denominator to refused labels.
# - Each of the three defects flatters a weak answer, and each fails one behaviour's test.
# - A defect is caught only by a failed assertion; an import error proves nothing.
# - Tests check arithmetic against labels; disagreement about the labels needs review.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. What does each defect change, and which weak answer does it flatter? (step 1)
# 2. Why does an import error not count as catching a defect? (step 2)
# 3. How many of the ten behaviours does each defect break? (step 2)
# 4. What can no test of the scorer fix? (step 3)
# 5. What should you do when two reviewers disagree? (step 3)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals (a
# fraction such as `1/4` is fine). After a first try, `solution("05.1")` shows the working.
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

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 6: the first defect's numbers, and an independent cross-check.

# %% [markdown] tags=["going-further"]
# ### What the short-list defect would have shown
# With it, `rollback` A's P@2 is hits / returned = 1/1 = 1.00 instead of hits / k = 1/2: a
# short list looks perfect, while a list of k notes or more is not affected. System A's
# answerable questions, with counts from the package:

# %% tags=["going-further"]
counts = claim_counts(course, k=2)
rows = []
for case in ("launch", "rollback", "owner"):
    hits = int(counts.loc[(case, "A"), "hits"])
    returned = min(2, len(course.runs[case]["A"]["retrieved"]))
    rows.append({"case": case, "system": "A", "hits": hits, "k": 2, "returned": returned,
                 "P@2": format_value(hits / 2),
                 "with the defect": format_value(hits / returned)})
Table(rows)

# %% [markdown] tags=["going-further"]
# ### An independent cross-check
# The contract tests pin hand-worked cases. A cross-check widens the net: 384 small retrieval
# configurations (8 sets of relevant notes × 16 rankings × 3 cutoffs), each with 10 answer
# patterns, every expected value recomputed with plain loops and fractions and compared with
# `ragscore.evaluate`. 3,840 agreements widen the arithmetic's coverage; they do not make
# the synthetic fixture a benchmark of any real system.

# %% tags=["going-further"]
Table([crosscheck()])

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 4 — Every question before any average](04_every_question.ipynb) ·
# **Next:** [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) ·
# [glossary](../docs/glossary.md)
