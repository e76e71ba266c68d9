# %% [markdown]
# # Chapter 2 — Denominators, ordering and missing values
#
# **Promise:** you will be able to compute P@k, R@k and RR@k by hand, say which
# denominator a dashboard uses, and keep undefined values out of your averages.
#
# You will learn:
# - P@k, R@k and RR@k on the course cases;
# - why P@k (k fixed slots) and precision over returned items disagree;
# - the n/a policy for questions with nothing relevant.

# %%
# %matplotlib inline
import ragscore
from ragscore.workbook.exercises import check_yourself
from ragscore.workbook.widgets import k_explorer, ranking_editor

course = ragscore.load_course()

# %% [markdown]
# ## Step 1: precision keeps k as its denominator
# `rollback` A retrieved a single note, `rollback`, one of the two relevant ones. At k = 2
# there are two slots and one holds a relevant note: P@2 = 1/2.

# %%
rollback = set(course.cases["rollback"]["relevant"])
ranked = course.runs["rollback"]["A"]["retrieved"]
scores = ragscore.evaluate(course.corpus, course.cases["rollback"], course.runs["rollback"]["A"])
print("retrieved:", ranked)
print("P@2 =", scores["precision"], " R@2 =", scores["recall"])

# %% [markdown]
# ## Step 2: the other precision
# Precision over *returned items* divides by what came back (1 item), giving 1.00. Both
# numbers are honest; they answer different questions. Two dashboards using different
# definitions cannot be compared, so ragscore always says which one it reports: P@k.

# %%
hits = len(rollback & set(ranked[:2]))
print(f"P@2 (fixed slots)        = {hits}/2 = {hits / 2:.2f}")
print(f"precision over returned  = {hits}/{len(ranked[:2])} = {hits / len(ranked[:2]):.2f}")

# %% [markdown]
# ## Step 3: reciprocal rank says where the first hit landed
# `owner` A puts `archive` first and `owners` second: RR@2 = 1/2 while recall is 1.
# B puts `owners` first: RR@2 = 1 and recall is unchanged.

# %%
for system in ("A", "B"):
    run = course.runs["owner"][system]
    scores = ragscore.evaluate(course.corpus, course.cases["owner"], run)
    print(system, run["retrieved"], "RR@2 =", scores["rr"], "R@2 =", scores["recall"])

# %% [markdown]
# ## Step 4: n/a is not zero
# `region` has nothing relevant, so all three retrieval metrics are undefined — `None`,
# shown as n/a — and such questions stay out of answerable-only averages. An *answerable*
# question with an empty list is different: it scores 0, 0, 0.

# %%
empty = {"retrieved": (), "claims": ()}
print("region, any run:", ragscore.evaluate(course.corpus, course.cases["region"], empty))
print("owner, empty   :", ragscore.evaluate(course.corpus, course.cases["owner"], empty))

# %% [markdown]
# ## Step 5: explore k live
# Move the slider: the table follows at once, and the plot marks the current k on the
# mean recall of each system. (In this stored copy the slider sits at k = 2.)

# %%
explorer = k_explorer(course, k=2)
explorer

# %% [markdown]
# The panel's controls are ordinary attributes, so a cell can move them too. At k = 1,
# `owner` A's relevant note falls out of view:

# %%
explorer.k.value = 1
print("owner A at k=1:", 'data-case="owner"><th>owner</th><td data-metric="precision">0.00'
      in explorer.table.value)
explorer.k.value = 2

# %% [markdown]
# ## Step 6: edit a ranking
# Type a different order for a question's retrieved list and watch P@k, R@k and RR@k.

# %%
editor = ranking_editor(course, case="owner", system="A")
editor

# %%
editor.ranking.value = "owners, archive"
print(editor.report.value.split("<tr>")[-1])

# %% [markdown]
# ## Recap
# In this chapter we computed P@k with k fixed slots, set it beside precision over
# returned items, read reciprocal rank as "where the first hit landed", and kept
# undefined values as n/a rather than 0.
#
# ## Exercises
# 1. What is P@3 for `rollback` B (`rollback`, `checklist`)? Replace `None`.

# %%
answer = None
print(check_yourself(answer, 2 / 3))

# %% [markdown]
# 2. What is RR@1 for `owner` A?

# %%
answer = None
print(check_yourself(answer, 0.0))
