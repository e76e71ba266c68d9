# %% [markdown]
# # Chapter 3 — A citation must support the claim and be in view
#
# **Promise:** you will decide, for any claim, whether it counts as supported under the strict
# rule, and say why in one sentence.
#
# **Time:** about 25 minutes. **Before this chapter:** chapters 1 and 2 (labels, runs and
# the cutoff k).
#
# You will learn:
# - the strict citation rule, and support against coverage;
# - why `owner` A's good retrieval does not rescue its wrong citation;
# - why `launch` B's extra claim lowers support but not coverage;
# - how an answer with no claims is scored, on answerable and unanswerable questions.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · next,
# [Chapter 4 — Every question before any average](04_every_question.ipynb) · bold terms are
# in the [glossary](../docs/glossary.md).
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
# cited note is labelled as supporting that very claim and is among the top k retrieved. A
# note that exists, or is relevant to the question, is not enough, and one good citation
# does not make up for a bad one. Labels belong to a question: a claim expected on one
# question has no supporting note on another.
#
# - **Support** = supported claims / claims the answer made.
# - **Coverage** = supported expected claims / claims the reviewer expected.

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
# Coverage stays 1.00 (the expected claim is there); support halves. A report of coverage
# or of retrieval alone would miss the addition.

# %% [markdown]
# ## Step 4: supported but incomplete
# `rollback` A makes only the `switch` claim, correctly cited: support 1.00, coverage 0.50.
# Support asks how much of what was said is backed; coverage, how much of what should have
# been said is there.

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
# The editor starts on `owner` A's answer, `aurora: archive` (one claim per line, `claim:
# citation, citation`). Change `archive` to `owners`, add a line, or clear it: support,
# coverage and each claim's reason follow. You can also switch case, system or k.

# %%
editor = citation_editor(course, case="owner", system="A", k=2)
show(editor)

# %% [markdown]
# Citing `owners` makes `aurora` supported: 1.00 and 1.00, `owner` B's answer.

# %%
fixed = (("aurora", ("owners",)),)
Table([scored("owner", "A", claims=fixed, label="A citing owners"), scored("owner", "B")])

# %% [markdown]
# ## Step 7: an answer with no claims
# An answer with no claim declines. Its support is n/a (nothing to check). On an answerable
# question its coverage is 0; on the unanswerable `region` coverage is n/a and declining is
# right: correct abstention is yes for B, no for A, which claimed something.

# %%
Table([scored("owner", "B", claims=(), label="no claims"), scored("region", "B"),
       scored("region", "A")])

# %% [markdown]
# ## Recap
# - A claim is supported only when it cites at least one note and every cited note is
#   labelled for that claim and in the top k.
# - Support: how much of what was said is backed; coverage: how much of what should have
#   been said is there.
# - Good retrieval does not rescue a wrong citation; a relevant note does not support a
#   claim nobody labelled it for.
# - No claims: support n/a; coverage 0 on an answerable question, n/a on an unanswerable
#   one, where declining is the correct abstention.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. State the strict citation rule in one sentence. (step 1)
# 2. Why does `owner` A's perfect recall not rescue its answer? (step 2)
# 3. Why does `launch` B's extra claim lower support but not coverage? (step 3)
# 4. Why does `smoke` lose its support at k = 1? (step 5)
# 5. How is an answer with no claims scored? (step 7)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals (a
# fraction such as `1/4` is fine). After a first try, `solution("03.1")` shows the working.
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

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 4: a claim made twice, and what this grader does not do.

# %% [markdown] tags=["going-further"]
# ### Repeating a claim does not count twice
# A claim ID may appear once per answer: repeating a correct claim would inflate the
# numerator, so validation refuses it.

# %% tags=["going-further"]
twice = {"retrieved": ("owners",), "claims": (("aurora", ("owners",)),) * 2}
Table([{"attempt": "aurora claimed twice, citing owners both times",
        "result": attempt(course.corpus, course.cases["owner"], twice)}])

# %% [markdown] tags=["going-further"]
# ### What this grader does not do
# Reviewers assigned the claim IDs; this grader never reads a sentence. A free-text
# evaluator must split an answer into propositions, match them to the rubric and read the
# cited passages, and a human or model judge can get each step wrong: keep the original
# answer, the context shown and the decision, so a disagreement can be audited. An empty
# claim list stands in for "I cannot answer"; deciding that a sentence refuses, and refuses
# helpfully, is a separate judgement (chapter 9 starts on it).

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:**
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · **Next:**
# [Chapter 4 — Every question before any average](04_every_question.ipynb) ·
# [glossary](../docs/glossary.md)
