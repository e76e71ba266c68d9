# %% [markdown]
# # Chapter 1 — The test set comes before the dashboard
#
# **Promise:** by the end of this chapter you can read a grounded test set (notes, questions,
# labels, recorded runs) and say what each part claims and what it leaves open.
#
# **Time:** about 25 minutes. **Before this chapter:** basic Python (calling a function,
# reading a dict); no background in retrieval or evaluation.
#
# You will learn:
# - the two places where a retrieval-augmented answer can go wrong;
# - what the notes, the questions and the recorded runs hold, read as tables;
# - what an *unanswerable* question is and why a test set needs one;
# - why questions must be representative, sources frozen, and held-out data kept apart;
# - what validation refuses before any score exists.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* next,
# [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) · every
# chapter is listed in the README's "Start here" · terms in **bold** are defined in the
# [glossary](../docs/glossary.md).
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
# A retrieval-augmented system answers in two stages. First a retriever picks notes; then an
# answer stage writes claims and cites notes. Either stage can fail on its own: the retriever
# can miss the note that holds the answer, and the answer stage can ignore or misuse a note it
# was given. A useful test set therefore scores the two stages separately; the Ragas paper
# (Es and others, 2023, in the glossary's references) makes the same case for scoring the
# parts of a RAG pipeline one by one. This course takes that idea only: it does not install
# Ragas or reproduce its scores. System A on the
# `owner` question shows the second kind: the right note was retrieved (R@2 is 1.00), yet the
# answer cites the wrong one (support is 0.00).

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

# %% [markdown]
# Nothing is relevant to `region` and no claim is expected: the question is **unanswerable**
# from these notes. That is a statement about this frozen evidence, not about the world. The
# right behaviour is to decline. A system that declined every question would never make an
# unsupported claim, and it would fail every answerable question; keeping both kinds of
# question in the set is what exposes it. Reading-comprehension benchmarks learned the same
# lesson: SQuAD 2.0 (Rajpurkar, Jia and Liang, 2018) added questions that the given passage
# cannot answer, so that a model is rewarded for saying so. `region` is our own question, not
# one of theirs.

# %%
show(quick_check("01"))

# %% [markdown]
# ## Step 4: the recorded runs
# A run is what one system did for one question: the notes it retrieved, best first, and the
# claims it made with their citations. Systems A and B are hand-written examples chosen to
# make the rules visible; they are not measurements of any model.

# %%
Table({"case": name, "system": system,
       "retrieved": " > ".join(run["retrieved"]) or "(none)",
       "claims": "; ".join(f"{claim} citing {', '.join(cited) or 'nothing'}"
                           for claim, cited in run["claims"]) or "(declines)"}
      for name, systems in course.runs.items() for system, run in systems.items())

# %% [markdown]
# ## Step 5: before you build your own
# Three habits decide whether a score means anything:
#
# - *Representative questions.* Pick questions the way real users ask them, including hard
#   and unanswerable ones, rather than the ones a system already handles.
# - *Frozen sources.* Fix the version of every note before labelling; a label written
#   against one version says nothing about the next.
# - *Development versus held-out data.* Tune on development questions. Score the held-out
#   questions once and record the result before looking at the failures. Once you tune
#   against held-out failures, that set has become development data and you need fresh
#   questions.
#
# Four questions are far too few to split, so treat this set as development data: it
# teaches the rules and estimates nothing. Reviewers also disagree and labels can be
# incomplete; record the doubt instead of treating a label as universal truth.

# %% [markdown]
# ## Step 6: what validation refuses
# Malformed input is refused before anything is scored, with a message naming the field and
# the value. Each row below is one attempt on the `owner` question: what was tried, and
# `accepted` or `refused:` with the message.

# %% [markdown] tags=["lab-only"]
# In the cell below, `attempt(corpus, case, run)` tries one run written as in `course.runs`:
# `owner` B's is `{"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}`,
# each claim a pair of its ID and the notes it cites.

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
# Validation checks shape, not truth. A well-formed label can still be wrong, a relevant note
# can be missing from the labels, and two notes can contradict each other: reviewing labels
# is separate work from validating them.

# %% [markdown]
# ## Recap
# - A RAG answer can fail at retrieval or at the answer stage, so the two are scored apart.
# - A test set is frozen notes, questions with reviewed labels (relevant notes, expected
#   claims and their supporting notes) and recorded runs; the scorer compares IDs only.
# - An unanswerable question belongs in the set: declining it is the right answer.
# - Representative questions, frozen sources and a held-out split keep a score honest.
# - Validation refuses malformed input (a repeated or unknown note, blank text, a label
#   outside the relevant notes, a bad cutoff) and names the field; it does not check truth.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What are the two stages of a retrieval-augmented answer, and why does a test set score
#    them apart? (step 1)
# 2. What does a claim ID stand for, and what does the scorer never read? (step 3)
# 3. What makes a question unanswerable, and what should a system do with one? (step 3)
# 4. What does a recorded run hold for one question and one system? (step 4)
# 5. Why are the notes frozen before anyone labels them? (step 5)
# 6. When does a held-out question stop being held-out? (step 5)
# 7. Name three things validation refuses, and one thing it cannot check. (step 6)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell. The check tells you whether you are right,
# hints at the likely mistake if not, and never prints the answer. Counts are whole numbers,
# rates are numbers from 0 to 1 compared to two decimals (you may type a fraction such as
# `1/4`), and a choice is one of the names listed, in quotes. After your first try, right or
# wrong, `solution("01.1")` (with the exercise's number) shows the worked solution.
#
# 1. Over the four questions, how many claims does the reviewer expect in all? (a count)

# %% tags=["exercise"]
answer = None
check("01.1", answer)

# %% [markdown] tags=["exercise"]
# 2. How many of the eight recorded runs make at least one claim that cites a note *not*
#    labelled as support for that claim? (a count; compare step 4 with step 3; a claim the
#    reviewer did not expect has no note labelled for it)

# %% tags=["exercise"]
answer = None
check("01.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose an answer to `owner` claims `aurora` and cites a note called `no-such-note`.
#    What becomes of it? Type one of `"refused"` (validation refuses the whole run),
#    `"dropped"` (the citation is dropped and the claim judged without it), `"unsupported"`
#    (the run is scored and the claim counts as unsupported) or `"supported"` (the claim
#    counts as supported, since `owners` is retrieved). You can try it with `attempt` and
#    `ragscore.evaluate` in a new cell.

# %% tags=["exercise"]
answer = None
check("01.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Next:** [Chapter 2 — Denominators, ordering and missing values](02_denominators.ipynb) ·
# [glossary](../docs/glossary.md) · every chapter is listed in the README's "Start here".
