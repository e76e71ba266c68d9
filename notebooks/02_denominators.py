# %% [markdown]
# # Chapter 2 — Denominators, ordering and missing values
#
# **Promise:** you will compute P@k, R@k and RR@k by hand, say which denominator a dashboard
# uses, and keep undefined values out of your averages.
#
# **Time:** about 35 minutes. **Before this chapter:** chapter 1 (the notes, the questions
# with their labels, the recorded runs).
#
# You will learn:
# - P@k, R@k and RR@k on the course questions;
# - why P@k (k fixed slots) and precision over returned items disagree;
# - the n/a policy for a question with nothing relevant;
# - what this binary-relevance lab leaves out on purpose.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 1 — The test set comes before the dashboard](01_test_set.ipynb) · next,
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) · terms
# in **bold** are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [cutoff k](../docs/glossary.md#cutoff,-k) ·
# [P@k](../docs/glossary.md#precision-at-k,-P@k) ·
# [precision over returned items](../docs/glossary.md#precision-over-returned-items,-P/ret@k) ·
# [R@k](../docs/glossary.md#recall-at-k,-R@k) ·
# [RR@k](../docs/glossary.md#reciprocal-rank,-RR@k) ·
# [n/a](../docs/glossary.md#n/a) · [slice](../docs/glossary.md#slice) ·
# [graded relevance](../docs/glossary.md#graded-relevance,-min_relevance)

# %%
# %matplotlib inline
import ragscore
from ragscore.reports import claim_counts
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import Table, attempt, question_rows, score_row
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import RETRIEVAL_METRICS, k_explorer, ranking_editor, show

course = ragscore.load_course()


def retrieval(case, system, k=2, retrieved=None):
    run = course.runs[case][system] if retrieved is None else {"retrieved": retrieved,
                                                                 "claims": ()}
    scores = ragscore.evaluate(course.corpus, course.cases[case], run, k=k)
    return score_row(scores, k=k, keys=RETRIEVAL_METRICS, case=case, system=system,
                     retrieved=", ".join(run["retrieved"]) or "(none)")

# %% [markdown]
# ## Step 1: precision keeps k as its denominator
# Stanford's information-retrieval textbook (Manning, Raghavan and Schütze, 2008) defines
# precision over the items retrieved and recall over the items that are relevant. Ranked
# results add a cutoff: only the first k notes count. **P@k** counts the relevant notes among
# the first k and divides by **k**, even when the list is shorter than k. **R@k** divides the
# same count by the number of relevant notes. `rollback` A
# returned a single note, `rollback`, one of the two relevant ones: at k = 2 one of two slots
# holds a relevant note, so P@2 = 1/2, and one of two relevant notes was found, so R@2 = 1/2.

# %%
Table([retrieval("rollback", "A")])

# %% [markdown]
# ## Step 2: the other precision
# Precision over *returned items* divides by what came back: one note, one hit, 1.00. Both
# numbers are honest answers to different questions, and two dashboards that use different
# ones cannot be compared. ragscore reports P@k and says so. Here are the counts behind both:

# %%
counts = claim_counts(course, k=2).loc[("rollback", "A")]
returned = len(course.runs["rollback"]["A"]["retrieved"][:2])
Table([{"hits in top 2": int(counts["hits"]), "slots (k)": 2, "returned": returned,
        "P@2 = hits / k": f"{counts['hits'] / 2:.2f}",
        "over returned = hits / returned": f"{counts['hits'] / returned:.2f}"}])

# %%
show(quick_check("02"))

# %% [markdown]
# ## Step 3: reciprocal rank says where the first hit landed
# RR@k is 1 divided by the rank of the first relevant note within k, and 0 when there is
# none. `owner` A puts `archive` first and `owners` second: RR@2 = 1/2 while R@2 = 1. B puts
# `owners` first: RR@2 = 1, and recall does not change. RR says where the first hit is, not
# whether the whole answer is there.

# %%
Table([retrieval("owner", "A"), retrieval("owner", "B")])

# %% [markdown]
# ## Step 4: n/a is not zero
# `region` has no relevant note, so P@k, R@k and RR@k are undefined for it: the table shows
# **n/a**, never 0. A question like `region` is unanswerable, and a mean over the answerable
# questions does not include it at all: it is *not in that slice*. That is this course's
# declared policy, not a law of mathematics; other tools score such questions 0 or drop them.
# An *answerable* question with an empty list is different: nothing relevant was found, so it
# scores 0, 0 and 0.

# %%
Table([retrieval("region", "B"), retrieval("owner", "empty list", retrieved=())])

# %% [markdown]
# ## Step 5: explore k live
# Move the slider: the per-question table and the plot follow. The plot draws mean R@k over
# the answerable questions for both systems, with the current k shaded and the chosen system
# drawn thick. The panel starts at k = 2 for system A.

# %%
explorer = k_explorer(course, k=2, system="A")
show(explorer)

# %% [markdown]
# At k = 1 only the first note counts. For system A the table reads as follows (computed
# directly, so this cell does not depend on where the slider is): `owner` A's relevant note
# sits at rank 2, so its P@1, R@1 and RR@1 all drop to 0.

# %%
Table(question_rows(course, k=1, system="A"))

# %% [markdown]
# ## Step 6: edit a ranking
# The ranking editor starts from `owner` A's recorded list, `archive, owners`. Retype the
# order (IDs separated by commas) and P@k, R@k and RR@k follow.

# %%
editor = ranking_editor(course, case="owner", system="A", k=2)
show(editor)

# %% [markdown]
# Putting `owners` first is exactly what B did: RR@2 rises to 1.00, P@2 and R@2 stay. A
# typing slip is not scored as a miss (which would quietly lower P@k): a note that is not in
# the corpus is refused, in the editor as everywhere else.

# %%
Table([retrieval("owner", "A reordered", retrieved=("owners", "archive"))])

# %%
Table([{"typed": "owners, archve", "result": attempt(
    course.corpus, course.cases["owner"], {"retrieved": ("owners", "archve"), "claims": ()})}])


# %% [markdown]
# ## Step 7: left out on purpose
# Every label in this course is binary: a note is relevant or it is not. Real collections
# often grade relevance (partly relevant, highly relevant), and some claims need two passages
# together before they are supported. This lab leaves both out, along with the effect of
# document length, so that each number can be checked by hand. The package has graded
# metrics (nDCG@k) for real test sets; the course contract does not use them.

# %% [markdown]
# ## Recap
# - P@k divides the relevant notes in the top k by k, even for a shorter list; R@k divides
#   them by the number of relevant notes.
# - Precision over returned items divides by what came back instead: a different number, and
#   a report must say which one it uses.
# - RR@k is 1 over the rank of the first relevant note within k, and 0 when there is none.
# - A question with nothing relevant is n/a, not 0, and is not in the answerable slice that
#   means are taken over; an answerable question with an empty list scores 0.
# - Each value depends on k: a note below the cutoff does not count.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does P@k divide by when the list is shorter than k? (step 1)
# 2. What does precision over returned items divide by, and why can two dashboards that use
#    the two precisions not be compared? (step 2)
# 3. What does RR@k say that R@k does not? (step 3)
# 4. Why is `region`'s P@2 n/a and not 0, and how is an answerable question with an empty
#    list scored? (step 4)
# 5. What happens to `owner` A's three values when k goes from 2 to 1, and why? (step 5)
# 6. Why is a typed ID that is not in the corpus refused rather than scored as a miss?
#    (step 6)
# 7. What does this lab leave out on purpose, and why? (step 7)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("02.1")` (with the exercise's number) shows the worked solution.
#
# 1. What is P@3 for `rollback` B (retrieved: `rollback`, `checklist`)?

# %% tags=["exercise"]
answer = None
check("02.1", answer)

# %% [markdown] tags=["exercise"]
# 2. Suppose a system answered `owner` with the list `archive`, `launch`, `owners`. What is
#    its RR@3?

# %% tags=["exercise"]
answer = None
check("02.2", answer)

# %% [markdown] tags=["exercise"]
# 3. What is system A's mean P@1 over the answerable questions? (the table after step 5
#    lists A's values at k = 1)

# %% tags=["exercise"]
answer = None
check("02.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:** [Chapter 1 — The test set comes before the dashboard](01_test_set.ipynb) ·
# **Next:**
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) ·
# [glossary](../docs/glossary.md)
