# %% [markdown]
# # Chapter 2 — Denominators, ordering and missing values
#
# **Promise:** you will compute P@k, R@k and RR@k by hand, say which denominator a dashboard
# uses, and keep undefined values out of your averages.
#
# **Time:** about 25 minutes. **Before this chapter:** chapter 1 (the notes, the questions
# with their labels, the recorded runs).
#
# You will learn:
# - P@k, R@k and RR@k on the course questions;
# - why P@k (k fixed slots) and precision over returned items disagree;
# - the n/a policy for a question with nothing relevant.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 1 — The test set comes before the dashboard](01_test_set.ipynb) · next,
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) · bold
# terms are in the [glossary](../docs/glossary.md).
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
from ragscore.render.text import format_value
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
# Manning, Raghavan and Schütze's textbook (2008) defines precision over the items retrieved
# and recall over the items that are relevant. With a cutoff, only the first k notes count:
# **P@k** divides the relevant notes among them by **k**, even when the list is shorter;
# **R@k** divides the same count by the number of relevant notes. `rollback` A returned one
# note, one of the two relevant ones: P@2 = 1/2 and R@2 = 1/2.

# %%
Table([retrieval("rollback", "A")])

# %% [markdown]
# ## Step 2: the other precision
# Precision over *returned items* divides by what came back: one note, one hit, 1.00. Both
# are honest answers to different questions, so two dashboards using different ones cannot
# be compared. ragscore reports P@k and says so:

# %%
counts = claim_counts(course, k=2).loc[("rollback", "A")]
returned = len(course.runs["rollback"]["A"]["retrieved"][:2])
Table([{"hits in top 2": int(counts["hits"]), "slots (k)": 2, "returned": returned,
        "P@2 = hits / k": format_value(counts["hits"] / 2),
        "over returned = hits / returned": format_value(counts["hits"] / returned)}])

# %%
show(quick_check("02"))

# %% [markdown]
# ## Step 3: reciprocal rank says where the first hit landed
# RR@k is 1 over the rank of the first relevant note within k, and 0 when there is none.
# `owner` A puts `owners` second: RR@2 = 1/2 while R@2 = 1. B puts it first: RR@2 = 1, same
# recall. RR says where the first hit is, not whether the whole answer is there.

# %%
Table([retrieval("owner", "A"), retrieval("owner", "B")])

# %% [markdown]
# ## Step 4: n/a is not zero
# `region` has no relevant note, so its P@k, R@k and RR@k are undefined: **n/a**, never 0.
# A mean over the answerable questions does not include it: it is *not in that slice*. That
# is this course's declared policy; other tools score such questions 0 or drop them. An
# *answerable* question with an empty list found nothing relevant: it scores 0, 0 and 0.

# %%
Table([retrieval("region", "B"), retrieval("owner", "empty list", retrieved=())])

# %% [markdown]
# ## Step 5: explore k live
# Move the slider: the table and the plot follow. The plot draws mean R@k over the
# answerable questions for both systems, the current k shaded, the chosen system thick.

# %%
explorer = k_explorer(course, k=2, system="A")
show(explorer)

# %% [markdown]
# At k = 1 only the first note counts. System A's table, computed here whatever the slider
# says: `owner` A's relevant note sits at rank 2, so its three values drop to 0.

# %%
Table(question_rows(course, k=1, system="A"))

# %% [markdown]
# ## Step 6: edit a ranking
# The editor starts from `owner` A's list, `archive, owners`. Retype the order (IDs separated
# by commas) and P@k, R@k and RR@k follow.

# %%
editor = ranking_editor(course, case="owner", system="A", k=2)
show(editor)

# %% [markdown]
# Putting `owners` first is what B did: RR@2 rises to 1.00, P@2 and R@2 stay. A typing slip
# in a ranking is refused, never scored as a miss (which would quietly lower P@k):

# %%
Table([retrieval("owner", "A reordered", retrieved=("owners", "archive"))])

# %%
Table([{"typed": "owners, archve", "result": attempt(
    course.corpus, course.cases["owner"], {"retrieved": ("owners", "archve"), "claims": ()})}])


# %% [markdown]
# ## Recap
# - P@k divides the relevant notes in the top k by k, even for a shorter list; R@k divides
#   them by the number of relevant notes; precision over returned items is another number.
# - RR@k is 1 over the rank of the first relevant note within k, 0 when there is none.
# - A question with nothing relevant is n/a, not 0, and outside the answerable slice; an
#   answerable question with an empty list scores 0.
# - Every value depends on k: a note below the cutoff does not count.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. What does P@k divide by when the list is shorter than k? (step 1)
# 2. Why can dashboards using the two precisions not be compared? (step 2)
# 3. What does RR@k say that R@k does not? (step 3)
# 4. Why is `region`'s P@2 n/a and not 0? (step 4)
# 5. What happens to `owner` A's values when k goes from 2 to 1? (step 5)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals (a
# fraction such as `1/4` is fine). After a first try, `solution("02.1")` shows the working.
#
# 1. What is P@3 for `rollback` B (retrieved: `rollback`, `checklist`)?

# %% tags=["exercise"]
answer = None
check("02.1", answer)

# %% [markdown] tags=["exercise"]
# 2. Suppose a system answered `owner` with the list `archive`, `launch`, `owners`, and
#    `launch` with `archive`, `launch`. What is its mean RR@3 over these two questions?

# %% tags=["exercise"]
answer = None
check("02.2", answer)

# %% [markdown] tags=["exercise"]
# 3. What is system A's mean P@1 over the answerable questions? (the table after step 5
#    lists A's values at k = 1)

# %% tags=["exercise"]
answer = None
check("02.3", answer)

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 3: what this lab leaves out on purpose.

# %% [markdown] tags=["going-further"]
# Every label here is binary: a note is relevant or it is not. Real collections often grade
# relevance (partly, highly), and some claims need two passages together before they are
# supported. This lab leaves both out, with document-length effects, so that every number
# can be checked by hand. The package scores graded labels with nDCG@k (chapter 7); the
# course contract does not use it.

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 1 — The test set comes before the dashboard](01_test_set.ipynb) ·
# **Next:**
# [Chapter 3 — A citation must support the claim and be in view](03_citations.ipynb) ·
# [glossary](../docs/glossary.md)
