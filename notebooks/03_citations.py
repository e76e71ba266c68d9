# %% [markdown]
# # Chapter 3 — A citation must support the claim and be in view
#
# **Promise:** you will decide, for any claim, whether it counts as supported under the strict
# rule, and say why in one sentence.
#
# **Time:** about 35 minutes. **Before this chapter:** chapters 1 and 2 (labels, runs and
# the cutoff k).
#
# You will learn:
# - the strict citation rule, and support against coverage;
# - why `owner` A's good retrieval does not rescue its wrong citation;
# - why `launch` B's extra claim lowers support but not coverage;
# - how an answer with no claims is scored, on answerable and unanswerable questions;
# - what this grader does not do: judge free text or read a refusal.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · next,
# [Chapter 4 — Every question before any average](04_every_question.ipynb) · terms in
# **bold** are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [supported claim](../docs/glossary.md#supported-claim) ·
# [support](../docs/glossary.md#support) · [coverage](../docs/glossary.md#coverage) ·
# [citation](../docs/glossary.md#citation) ·
# [abstention](../docs/glossary.md#abstention,-correct-abstention) ·
# [cutoff k](../docs/glossary.md#cutoff,-k)

# %%
import ragscore
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import Table, attempt, claim_rows, score_row
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import ANSWER_METRICS, citation_editor, show

course = ragscore.load_course()


def scored(case, system, k=2, claims=None, label=None):
    run = course.runs[case][system] if claims is None else dict(course.runs[case][system],
                                                                 claims=claims)
    scores = ragscore.evaluate(course.corpus, course.cases[case], run, k=k)
    return score_row(scores, k="k", keys=("recall", *ANSWER_METRICS), case=case,
                     answer=label or f"{system} as recorded", cutoff=k)


def claims_of(case, system, k=2):
    return Table(claim_rows(course.corpus, course.cases[case], course.runs[case][system], k=k))

# %% [markdown]
# ## Step 1: the rule
# A generated claim is **supported** only when it has at least one citation and *every*
# cited note is both labelled as supporting that very claim and among the top k retrieved.
# A note that exists, or is relevant to the question, is not enough, and one good citation
# does not make up for a bad one.
#
# - **Support** = supported claims / claims the answer made.
# - **Coverage** = supported expected claims / claims the reviewer expected.
#
# Labels belong to a question: a claim ID the reviewer expected for one question has no
# supporting note on another.

# %% [markdown]
# ## Step 2: a wrong citation despite perfect retrieval
# `owner` A retrieved `owners` (R@2 = 1.00) but cites `archive` for `aurora`.

# %%
claims_of("owner", "A")

# %%
Table([scored("owner", "A")])

# %% [markdown]
# Evidence was available and not used: recall 1.00, support 0.00, coverage 0.00.

# %% [markdown]
# ## Step 3: an unsupported extra claim
# `launch` B says `monday` (cited correctly) and adds `bonus`, also citing `launch`. The note
# is real and relevant, but nobody labelled it as support for `bonus`.

# %%
claims_of("launch", "B")

# %%
Table([scored("launch", "A"), scored("launch", "B")])

# %% [markdown]
# Coverage stays 1.00 because the one expected claim is there; support halves because one of
# the two claims is unsupported. A report of coverage alone, or of retrieval alone, would
# miss the addition.

# %% [markdown]
# ## Step 4: supported but incomplete
# `rollback` A retrieved only `rollback` and makes only the `switch` claim, correctly cited.
# Everything it says is supported (support 1.00), but it covers one of two expected actions
# (coverage 0.50). Support asks how much of what was said is backed; coverage asks how much
# of what should have been said is there.

# %%
Table([scored("rollback", "A")])

# %%
show(quick_check("03"))

# %% [markdown]
# ## Step 5: the citation must be in view
# At k = 1 only `rollback` B's first note is visible, so `smoke`'s citation to `checklist`
# (ranked second) no longer counts.

# %%
claims_of("rollback", "B", k=1)

# %%
Table([scored("rollback", "B", k=2), scored("rollback", "B", k=1)])

# %% [markdown]
# ## Step 6: edit citations live
# The editor starts on `owner` A's recorded answer, `aurora: archive`. Edit the box (one claim
# per line, `claim: citation, citation`): change `archive` to `owners`, add a line, or clear
# it. Support, coverage and each claim's reason follow; you can also switch case, system or k.

# %%
editor = citation_editor(course, case="owner", system="A", k=2)
show(editor)

# %% [markdown]
# Fixing the citation to `owners` makes `aurora` supported: support and coverage both become
# 1.00, which is `owner` B's answer.

# %%
fixed = (("aurora", ("owners",)),)
Table([scored("owner", "A", claims=fixed, label="A citing owners"), scored("owner", "B")])

# %% [markdown]
# ## Step 7: an answer with no claims
# An answer that makes no claim declines the question. Its support is undefined (n/a: there
# is nothing to check). On an answerable question its coverage is 0, since the expected claim
# is missing. On the unanswerable `region` question coverage is n/a and the decline is the
# correct behaviour: correct abstention is yes for B and no for A, which claimed something.

# %%
Table([scored("owner", "B", claims=(), label="no claims"), scored("region", "B"),
       scored("region", "A")])

# %% [markdown]
# ## Step 8: repeating a claim does not count twice
# A claim ID may appear once per answer. Repeating a correct claim would inflate the
# numerator, so validation refuses it:

# %%
twice = {"retrieved": ("owners",), "claims": (("aurora", ("owners",)),) * 2}
Table([{"attempt": "aurora claimed twice, citing owners both times",
        "result": attempt(course.corpus, course.cases["owner"], twice)}])

# %% [markdown]
# ## Step 9: what this grader does not do
# The claim IDs were assigned by reviewers; this grader never reads a sentence. A free-text
# evaluator must first split an answer into propositions, match them to the rubric and read
# the cited passages, and a human or model judge can get any of those steps wrong; keep the
# original answer, the exact context shown and the judge's decision so a disagreement can be
# audited. Likewise, an empty claim list stands in for "I cannot answer". A real refusal is a
# sentence, and deciding that a sentence refuses, and refuses helpfully, is a separate
# judgement this lab does not make.

# %% [markdown]
# ## Recap
# - A claim is supported only when it cites at least one note and every cited note is
#   labelled for that claim and is in the top k.
# - Support asks how much of what was said is backed; coverage asks how much of what should
#   have been said is there.
# - Good retrieval does not rescue a wrong citation, and a relevant note does not support a
#   claim nobody labelled it for.
# - An answer with no claims has support n/a; its coverage is 0 on an answerable question and
#   n/a on an unanswerable one, where declining is the correct abstention.
# - The grader compares reviewed IDs; judging free text or a refusal is separate work.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. State the strict citation rule in one sentence. (step 1)
# 2. Why does `owner` A's perfect recall not rescue its answer? (step 2)
# 3. Why does `launch` B's extra claim lower support but not coverage? (step 3)
# 4. What does support ask, and what does coverage ask? (step 4)
# 5. Why does `smoke` lose its support at k = 1? (step 5)
# 6. How is an answer with no claims scored on an answerable question, and on an
#    unanswerable one? (step 7)
# 7. Why is a claim made twice in one answer refused? (step 8)
# 8. What would a grader of free text have to do that this one does not? (step 9)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("03.1")` (with the exercise's number) shows the worked solution.
#
# 1. Suppose `launch` B's answer also claimed `switch`, citing `launch`. What would its
#    support be at k = 2? (a rate)

# %% tags=["exercise"]
answer = None
check("03.1", answer)

# %% [markdown] tags=["exercise"]
# 2. At k = 1, how many of system B's five claims (over its four answers) are supported?
#    (a count; chapter 1, step 4 lists B's rankings and claims)


# %% tags=["exercise"]
answer = None
check("03.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose each of system B's answers added `archive` to the citations of every claim it
#    makes, its rankings unchanged. How many of B's five claims would be supported at
#    k = 2? (a count)

# %% tags=["exercise"]
answer = None
check("03.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:**
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · **Next:**
# [Chapter 4 — Every question before any average](04_every_question.ipynb) ·
# [glossary](../docs/glossary.md)
