# %% [markdown]
# # Chapter 1 — The test set comes before the dashboard
#
# **Promise:** by the end of this chapter you can read a grounded test set (notes, questions,
# labels, recorded runs) and say what each part claims and what it leaves open.
#
# **Time:** about 20 minutes. **Before this chapter:** basic Python (calling a function,
# reading a dict); no background in retrieval or evaluation.
#
# **The short route:** chapters 1 to 6 carry the whole lesson in about 2 hours 20 minutes
# (20 + 25 + 25 + 25 + 20 + 25). Take each chapter's steps, recap and exercises, and leave
# its *Going further* part, folded at the end, for later. Chapters 7 to 11 bring the same
# rules to your own data.
#
# You will learn:
# - the two places where a retrieval-augmented answer can go wrong;
# - what the notes, the questions and the recorded runs hold;
# - what an *unanswerable* question is and why a test set needs one;
# - what validation refuses before any score exists.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* next,
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · bold
# terms are in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [corpus](../docs/glossary.md#corpus,-note,-chunk) ·
# [relevant](../docs/glossary.md#relevant,-relevance-label) ·
# [claim](../docs/glossary.md#claim,-expected-claim) · [support](../docs/glossary.md#support) ·
# [citation](../docs/glossary.md#citation) ·
# [run](../docs/glossary.md#run,-system,-recorded-run) ·
# [unanswerable](../docs/glossary.md#answerable,-unanswerable) ·
# [held-out](../docs/glossary.md#development-and-held-out-questions,-split) ·
# [validation](../docs/glossary.md#validation)

# %%
import ragscore
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import Table, attempt, question_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

course = ragscore.load_course()

# %% [markdown]
# ## Step 1: two places to fail
# A retrieval-augmented system answers in two stages: a retriever picks notes, then an
# answer stage writes claims and cites notes. Either stage can fail alone, so a useful test
# set scores them apart, as the Ragas paper (Es and others, 2023) argues; this course takes
# that idea only, not Ragas or its scores. System A on `owner` shows the second failure: the
# right note was retrieved (R@2 is 1.00), yet the answer cites the wrong one (support 0.00).
# Read those two columns for now; chapters 2 and 3 define the others.

# %%
Table(row for row in question_rows(course, k=2, system="A") if row["case"] == "owner")

# %% [markdown]
# ## Step 2: the notes
# The corpus is five short fictional notes. Labels and citations refer to a note by its ID.

# %%
Table({"id": note, "text": text} for note, text in course.corpus.items())

# %% [markdown]
# ## Step 3: the questions and their labels
# For every question a reviewer wrote down which notes are **relevant**, and for every
# proposition a good answer should contain (a *claim* ID) which notes **support** it. A claim
# ID stands for a reviewed proposition: the scorer compares IDs and never reads a sentence.

# %%
Table({"case": name, "question": case["question"],
       "relevant": ", ".join(case["relevant"]) or "(none)",
       "expected claims": "; ".join(f"{claim} from {', '.join(notes)}"
                                    for claim, notes in case["support"].items()) or "(none)"}
      for name, case in course.cases.items())

# %%
show(quick_check("01"))

# %% [markdown]
# Nothing is relevant to `region` and no claim is expected: the question is **unanswerable**
# from these frozen notes (a statement about this evidence, not about the world). The right
# behaviour is to decline. A system that declined everything would never make an unsupported
# claim, and would fail every answerable question: keeping both kinds in the set exposes it.
# SQuAD 2.0 (Rajpurkar, Jia and Liang, 2018) added unanswerable questions for the same
# reason; `region` is our own.

# %% [markdown]
# ## Step 4: the recorded runs
# A run is what one system did for one question: the notes it retrieved, best first, and the
# claims it made with their citations. Systems A and B are hand-written to make the rules
# visible; they measure no model.

# %%
Table({"case": name, "system": system,
       "retrieved": " > ".join(run["retrieved"]) or "(none)",
       "claims": "; ".join(f"{claim} citing {', '.join(cited) or 'nothing'}"
                           for claim, cited in run["claims"]) or "(declines)"}
      for name, systems in course.runs.items() for system, run in systems.items())

# %% [markdown]
# ## Step 5: before you build your own
# Three habits decide whether a score means anything. Pick *representative questions*, hard
# and unanswerable ones included. *Freeze the sources* before labelling: a label written
# against one version says nothing about the next. Tune on *development* questions, then
# score the *held-out* ones once and record the result before reading the failures; once you
# tune against them, they are development data. Four questions are too few to split: this
# set teaches the rules and estimates nothing. Reviewers disagree and labels can be
# incomplete: record the doubt.

# %% [markdown]
# ## Step 6: what validation refuses
# Malformed input is refused before anything is scored, with a message naming the field and
# the value. Each row is one attempt on the `owner` question:

# %% [markdown] tags=["lab-only"]
# `attempt(corpus, case, run)` tries one run written as in `course.runs`: `owner` B's is
# `{"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}`.

# %%
owner = course.cases["owner"]
blank = dict(course.corpus, archive="   ")
Table([
    {"attempt": "a note retrieved twice",
     "result": attempt(course.corpus, owner, {"retrieved": ("owners", "owners"), "claims": ()})},
    {"attempt": "a retrieved note that is not in the corpus",
     "result": attempt(course.corpus, owner, {"retrieved": ("owners", "ghost"), "claims": ()})},
    {"attempt": "a note whose text is blank",
     "result": attempt(blank, owner, course.runs["owner"]["B"])},
    {"attempt": "a label outside the relevant notes",
     "result": attempt(course.corpus, dict(owner, support={"aurora": ("archive",)}),
                       course.runs["owner"]["B"])},
    {"attempt": "a cutoff of 0",
     "result": attempt(course.corpus, owner, course.runs["owner"]["B"], k=0)},
])

# %% [markdown]
# Validation checks shape, not truth: a well-formed label can still be wrong or incomplete.

# %% [markdown]
# ## Recap
# - An answer can fail at retrieval or at the answer stage: the two are scored apart.
# - A test set is frozen notes, questions with reviewed labels and recorded runs; the scorer
#   compares IDs only.
# - An unanswerable question belongs in the set: declining it is the right answer.
# - Validation refuses malformed input and names the field; it does not check truth.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. What are the two stages of a retrieval-augmented answer? (step 1)
# 2. What does a claim ID stand for? (step 3)
# 3. What should a system do with an unanswerable question? (step 3)
# 4. When does a held-out question stop being held-out? (step 5)
# 5. Name three things validation refuses, and one it cannot check. (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell: a count is a whole number, a choice a
# listed name in quotes. The check hints at the likely mistake and never prints the answer;
# after a first try, `solution("01.1")` (with the exercise's number) shows the working.
#
# 1. Over the four questions, how many claims does the reviewer expect in all? (a count)

# %% tags=["exercise"]
answer = None
check("01.1", answer)

# %% [markdown] tags=["exercise"]
# 2. How many of the eight recorded runs make at least one claim that cites a note *not*
#    labelled as support for that claim? (a count; compare step 4 with step 3)

# %% tags=["exercise"]
answer = None
check("01.2", answer)

# %% [markdown] tags=["exercise"]
# 3. An answer to `owner` claims `aurora` citing a note called `no-such-note`. What becomes
#    of it? One of `"refused"` (the whole run), `"dropped"` (the citation is dropped),
#    `"unsupported"` (the claim counts as unsupported) or `"supported"` (`owners` is
#    retrieved). You can try it with `attempt` and `ragscore.evaluate`.

# %% tags=["exercise"]
answer = None
check("01.3", answer)

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Next:** [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) ·
# [glossary](../docs/glossary.md) · every chapter is listed in the README's "Start here".
