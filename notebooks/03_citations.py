# %% [markdown]
# # Chapter 3 — Citations must be supported and visible
#
# **Promise:** you will be able to decide, for any claim, whether it counts as supported
# under the strict rule, and explain why in one sentence.
#
# You will learn:
# - the strict citation rule, and support versus coverage;
# - why `owner` A's correct retrieval does not rescue its wrong citation;
# - why `launch` B's extra claim lowers support but not coverage;
# - how a cutoff of 1 hides `rollback` B's second source.

# %%
import ragscore
from ragscore.core.counts import explain_claim
from ragscore.workbook.exercises import check_yourself
from ragscore.workbook.widgets import citation_editor

course = ragscore.load_course()


def explain(case, system, k=2):
    run = course.runs[case][system]
    support = {c: set(s) for c, s in course.cases[case]["support"].items()}
    for claim, citations in run["claims"]:
        ok, reason = explain_claim(claim, citations, support, run["retrieved"], k=k)
        print(f"{case} {system} k={k}: {claim} -> {'supported' if ok else 'unsupported'}: {reason}")

# %% [markdown]
# ## Step 1: the rule
# A claim is supported only when it has at least one citation, and **every** cited note
# is labelled as supporting that very claim **and** sits in the top k retrieved.
# Support = supported claims / claims made. Coverage = supported claims / claims expected.

# %% [markdown]
# ## Step 2: a wrong citation, despite perfect retrieval
# `owner` A retrieved `owners` (recall 1.00) but cited `archive` for `aurora`.

# %%
explain("owner", "A")
scores = ragscore.evaluate(course.corpus, course.cases["owner"], course.runs["owner"]["A"])
print("recall", scores["recall"], "support", scores["support"], "coverage", scores["coverage"])

# %% [markdown]
# ## Step 3: an unsupported extra claim
# `launch` B says `monday` (right) and `bonus`, citing `launch`. `launch` is a real,
# relevant note — but nobody labelled it as support for `bonus`.

# %%
explain("launch", "B")
scores = ragscore.evaluate(course.corpus, course.cases["launch"], course.runs["launch"]["B"])
print("support", scores["support"], "coverage", scores["coverage"])

# %% [markdown]
# Coverage stays 1.00 (the one expected claim is there) while support halves: a
# completeness-only report would miss the addition, and so would a retrieval-only one.

# %% [markdown]
# ## Step 4: visibility matters — rollback B at k = 1
# At k = 1 only `rollback` is in view, so `smoke`'s citation to `checklist` is invisible.

# %%
explain("rollback", "B", k=1)
scores = ragscore.evaluate(course.corpus, course.cases["rollback"],
                           course.runs["rollback"]["B"], k=1)
print("support", scores["support"], "coverage", scores["coverage"])

# %% [markdown]
# ## Step 5: edit citations live
# Pick a question and system, then edit the claims box (one claim per line, as
# `claim: citation, citation`). Support, coverage and each claim's reason follow.

# %%
editor = citation_editor(course, case="owner", system="A")
editor

# %% [markdown]
# Fixing `owner` A's citation from the code side:

# %%
editor.claims.value = "aurora: owners"
print(editor.report.value.split("</table>")[1])

# %% [markdown]
# An answer with no claims is an abstention: support is n/a, and on this answerable
# question coverage is 0.

# %%
editor.claims.value = ""
print(editor.report.value.split("<tr>")[-1].split("</table>")[0])

# %% [markdown]
# ## Recap
# In this chapter we applied the strict rule claim by claim, separated support (how much
# of what was said is backed) from coverage (how much of what should be said is backed),
# and saw the visible context decide whether a citation counts.
#
# ## Exercises
# 1. `rollback` B at k = 1: what is its coverage? Replace `None`.

# %%
answer = None
print(check_yourself(answer, 0.5))

# %% [markdown]
# 2. If `owner` A cited both `owners` and `archive`, would `aurora` be supported (True/False)?

# %%
answer = None
print(check_yourself(answer, False))
