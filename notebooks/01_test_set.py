# %% [markdown]
# # Chapter 1 — The test set comes before the dashboard
#
# **Promise:** by the end of this chapter you can read a grounded test set — corpus,
# questions, labels, recorded runs — and say what each part claims and what it does not.
#
# You will learn:
# - what the corpus, the cases and the recorded runs hold, as tables;
# - what an *unanswerable* question is, and why it belongs in a test set;
# - why development and held-out questions must be kept apart;
# - what validation refuses before any score is computed.

# %% [markdown]
# ## Step 1: load the course dataset
# The dataset lives in `fixtures/course/` as four small files. Loading it validates
# every line, so anything we look at below already obeys the rules.

# %%
import pandas as pd

import ragscore
from ragscore.workbook.exercises import check_yourself

course = ragscore.load_course()
print(course.name, "-", len(course.corpus), "notes,", len(course.cases), "questions,",
      "systems", ", ".join(course.systems))

# %% [markdown]
# ## Step 2: the corpus
# Five fictional notes. Each has an ID — the handle that labels and citations use.

# %%
pd.DataFrame({"text": course.corpus}).rename_axis("id")

# %% [markdown]
# ## Step 3: the questions and their labels
# For each question a reviewer recorded which notes are **relevant** and, for each
# proposition a good answer should make (a *claim* ID), which notes **support** it.
# The claim IDs stand for reviewed propositions; nothing here reads sentences.

# %%
pd.DataFrame([
    {"case": name, "question": case["question"], "relevant": ", ".join(case["relevant"]),
     "expected claims": ", ".join(f"{c} ← {'+'.join(s)}" for c, s in case["support"].items())}
    for name, case in course.cases.items()]).set_index("case")

# %% [markdown]
# The `region` question has no relevant notes and no expected claims: it is
# **unanswerable** from this corpus. Unanswerable means the frozen evidence holds no
# answer, not that nobody could know. A good system should decline it; a system that
# declines *everything* would look safe while failing the answerable questions, which is
# why both kinds of question stay in the set.

# %% [markdown]
# ## Step 4: the recorded runs
# A run is what one system did on one question: the ranked notes it retrieved and the
# claims it made, each with its citations. Systems A and B are hand-written fixtures whose
# differences make the scoring rules visible; they are not measurements of any model.

# %%
pd.DataFrame([
    {"case": name, "system": system, "retrieved": " > ".join(run["retrieved"]) or "(none)",
     "claims": "; ".join(f"{c} [{', '.join(s) or 'no citation'}]" for c, s in run["claims"])
     or "(abstains)"}
    for name, per_system in course.runs.items() for system, run in per_system.items()
]).set_index(["case", "system"])

# %% [markdown]
# ## Step 5: development versus held-out questions
# Tune on *development* questions; record the result on *held-out* questions once, before
# investigating failures. Every time you tune against held-out failures, that set turns
# into development data and you need fresh questions. The course set is too small to
# split, so treat all four questions as development data: good for learning the rules,
# useless for estimating how a real system performs.

# %% [markdown]
# ## Step 6: what validation refuses
# Structural rules are checked before scoring. A duplicated retrieved note, a label
# pointing outside the relevant set, a cutoff of zero: each is refused with a message
# that names the field and the value.

# %%
def refused(corpus, case, run, k=2):
    try:
        ragscore.evaluate(corpus, case, run, k=k)
    except ValueError as error:
        return f"refused: {error}"
    return "accepted"


owner = course.cases["owner"]
print(refused(course.corpus, owner, {"retrieved": ("owners", "owners"), "claims": ()}))
print(refused(course.corpus, dict(owner, support={"aurora": ("archive",)}),
              course.runs["owner"]["B"]))
print(refused(course.corpus, owner, course.runs["owner"]["B"], k=0))

# %% [markdown]
# A citation to a note that does not exist is *not* refused: it is valid input that the
# scorer will mark unsupported. Validation checks shape, never truth: a well-formed label
# can still be wrong, which is why labels need their own review.

# %%
print(refused(course.corpus, owner,
              {"retrieved": ("owners",), "claims": (("aurora", ("no-such-note",)),)}))

# %% [markdown]
# ## Recap
# In this chapter we loaded a frozen test set, read its corpus, questions, labels and
# runs as tables, met an unanswerable question, separated development from held-out use,
# and saw validation refuse malformed input with messages that say what is wrong.
#
# ## Exercises
# 1. How many expected claims does the `rollback` question have? Replace `None`.

# %%
answer = None
print(check_yourself(answer, len(course.cases["rollback"]["support"])))

# %% [markdown]
# 2. Is the run `{"retrieved": ("owners", "ghost"), "claims": ()}` accepted for `owner`?
#    Predict, then run `refused(course.corpus, owner, {...})` in a new cell to check.
