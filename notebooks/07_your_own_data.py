# %% [markdown]
# # Chapter 7 — Your own data
#
# **Promise:** you will bring a test set in the files it already lives in (TREC, Ragas),
# score it with the same rules as the course, and explain to a colleague why their
# dashboard's means differ from yours on the very same numbers.
#
# **Time:** about 35 minutes. **Before this chapter:** chapters 2 and 4 (the metrics, n/a and
# the answerable slice); TREC's file layout helps, and step 1 shows it.
#
# You will learn:
# - how an import reads TREC qrels and runs, orders ties as trec_eval does, and says what it
#   dropped;
# - graded relevance, **min_relevance**, **nDCG@k**, AP and Hit;
# - a retrieval-only test set: the answer stage not assessed is n/a, never 0;
# - three reasons peers' means differ from ours: n/a against 0, RR cut at k, and the
#   denominator of precision.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) · next,
# [Chapter 8 — A practical test collection](08_practice_collection.ipynb) · terms in **bold**
# are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [TREC](../docs/glossary.md#TREC-qrels-and-runs,-trec_eval) ·
# [graded relevance and min_relevance](../docs/glossary.md#graded-relevance,-min_relevance) ·
# [nDCG](../docs/glossary.md#nDCG@k) · [AP and Hit](../docs/glossary.md#AP@k,-Hit@k) ·
# [not assessed](../docs/glossary.md#not-assessed) · [n/a](../docs/glossary.md#n/a) ·
# [RR@k](../docs/glossary.md#reciprocal-rank,-RR@k) ·
# [precision over returned items](../docs/glossary.md#precision-over-returned-items,-P/ret@k)

# %%
from pathlib import Path

from ragscore.importers import import_ragas, import_trec
from ragscore.reports import aggregates, question_table
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import Table, aggregate_rows, table_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

FIXTURES = Path("..") / "fixtures" / "import"

# %% [markdown]
# ## Step 1: import TREC files
# `fixtures/import/trec/` holds a small, fictional collection in TREC's layout: a qrels file
# (`qid iter docno grade`) and two run files (`qid Q0 docno rank score tag`, the tag naming
# the system). The importer returns the dataset and notes on what it had to drop or fill in.

# %%
trec, notes = import_trec(FIXTURES / "trec" / "qrels.txt",
                          [FIXTURES / "trec" / "bm25.run", FIXTURES / "trec" / "dense.run"])
Table([{"note": what, "bm25": counts.get("bm25", ""), "dense": counts.get("dense", "")}
       for what, counts in notes.items() if isinstance(counts, dict)])

# %% [markdown]
# bm25 ranked a question, `q9`, that nobody judged: it is dropped, because no score can be
# computed without labels. dense never answered `q3`: by default it gets an empty ranking
# and scores 0 there (trec_eval's `-c`), rather than quietly leaving the hard question out.

# %% [markdown]
# ## Step 2: ties are ordered as trec_eval orders them
# bm25 gave `harbour` and `lighthouse` the same score, 7.5, on `q1`, and listed `harbour`
# first. trec_eval ignores the rank column: it sorts by score, then by document ID
# descending, so `lighthouse` comes first. The import does the same, so both tools score the
# same list. IDs are kept exactly as they come, case and all: on `q3` bm25 returned
# `Orchard` and `orchard`, two different IDs tied at 0.5 (lowercase sorts after uppercase,
# so `orchard` comes first), and only `orchard` is judged (step 3).

# %%
Table([{"system": system, "question": question, "ranking": ", ".join(run["retrieved"]) or "(none)"}
       for question, systems in trec.runs.items() for system, run in systems.items()])


# %% [markdown]
# ## Step 3: graded labels
# Judges gave grades (**graded relevance**): 2 for the best note, 1 for a useful one, 0 for
# judged but not useful, -1 for a spam page. A grade at or above **min_relevance** (1 by
# default) counts as relevant for P, R, RR, AP and Hit; **nDCG@k** (normalised discounted
# cumulative gain) instead weighs each hit by its grade, discounted by its rank, against the
# best order the grades allow; a grade of 0 or below adds nothing, as in trec_eval.

# %%
Table([{"question": name, "judged": ", ".join(f"{doc} {grade}"
                                             for doc, grade in case["relevant"].items())}
       for name, case in trec.cases.items()])

# %% [markdown]
# ## Step 4: the report
# Runs imported from TREC record no answers, so support, coverage and abstention are not
# assessed; the report leaves their columns out instead of filling them with zeros.

# %%
graded = question_table(trec, k=3, metrics=("precision", "recall", "rr", "ndcg", "ap", "hit"))
Table(table_rows(graded))

# %% [markdown]
# dense put `tide` first on `q1` and broke the tie between `lighthouse` and `ferry` (both
# 0.75) in `lighthouse`'s favour: `lighthouse` (grade 2) is at rank 2 and `harbour` is
# missed. Recall is 1/2, RR is 1/2, and nDCG@3 = (2 / log2 3) / (2 + 1 / log2 3) = 0.48:
# the grade 2 at rank 2 is discounted by log2 3, and the best order would have put grade 2
# first and grade 1 second.
# On `q3` its empty ranking scores 0 everywhere.

# %% [markdown]
# ## Step 5: n/a or 0? Raise the bar to grade 2
# With `min_relevance = 2` only grade-2 notes count. `q3`'s only judged note has grade 1, so
# nothing is relevant there and its retrieval metrics are n/a.

# %%
show(quick_check("07"))

# %% [markdown]
# A question with nothing relevant and no claim expected is unanswerable, so our mean over
# the answerable questions does not include `q3` at all: the sentence below says "0 left
# out as n/a" (no answerable question has an undefined recall) and "1 question ... not in
# this slice" (`q3`). trec_eval instead counts such a question as 0 in its mean;
# `--na-as-zero` reproduces that.

# %%
strict = trec._replace(min_relevance=2)
ours = aggregates(strict, k=3, metrics=("recall",))
theirs = aggregates(strict, k=3, metrics=("recall",), na_as_zero=True)
Table(aggregate_rows(ours[ours["method"] == "macro"])
      + aggregate_rows(theirs[theirs["method"] == "macro"]))

# %% [markdown]
# ## Step 6: RR cut at k, or not
# At k = 1, dense's first note on `q1` is `tide`, not relevant: RR@1 = 0. trec_eval's
# `recip_rank` looks down the whole list and finds `lighthouse` at rank 2: 1/2. Ask for RR at
# the run's full depth to see what trec_eval reports.

# %%
cut = question_table(trec, k=1, metrics=("rr",))
uncut = question_table(trec, k=1000, metrics=("rr",))
Table([{**row, "RR at full depth": deep["RR@1000"]}
       for row, deep in zip(table_rows(cut), table_rows(uncut))])

# %% [markdown]
# ## Step 7: which precision? Import a Ragas file
# `fixtures/import/ragas/` holds three other questions (a ferry's pier, the tides, who
# repaints the lighthouse), each answered by both of its systems, in the layout Ragas and
# Hugging Face datasets use (`user_input`, `retrieved_context_ids`,
# `reference_context_ids`, `response`). Ragas' ID-based context precision divides by the
# number of IDs returned; our P@k divides by k. bm25 returned a single, right ID for the tide
# question: P@2 = 1/2 = 0.50, but precision over returned items is 1/1 = 1.00. For the
# lighthouse question bm25 returned nothing: P@2 is 0, precision over returned items n/a.

# %%
ragas, _ = import_ragas([(FIXTURES / "ragas" / "bm25.csv", "bm25"),
                         (FIXTURES / "ragas" / "dense.jsonl", "dense")])
both = question_table(ragas, k=2, metrics=("precision", "returned_precision", "recall"))
Table([{"question": ragas.cases[row["case"]]["question"], "system": row["system"],
        **{key: value for key, value in row.items() if key not in ("case", "system")},
        "case": row["case"]} for row in table_rows(both)])

# %% [markdown]
# The case names are short hashes of each question's text, so the same question gets the
# same name in every file. Neither precision is wrong; a report that does not say which one
# it uses cannot be compared with another.

# %% [markdown]
# ## Recap
# - An import reads TREC or Ragas files, orders ties as trec_eval does, and says what it
#   dropped or filled in; a system that skipped a question scores 0 there.
# - Graded labels count as relevant from `min_relevance` up; nDCG weighs each hit by its
#   grade, and an answer stage that was not assessed is n/a, never 0.
# - Our means leave unanswerable questions out of the answerable slice; trec_eval counts them
#   as 0 (`--na-as-zero` shows its number).
# - RR is cut at k here; trec_eval's `recip_rank` looks down the whole list.
# - P@k divides by k; Ragas' ID-based context precision divides by the IDs returned.
#
# From the command line the same steps are `ragscore import trec ...` and
# `ragscore report DIR --metrics ... [--na-as-zero]`.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does the TREC import drop, and what does it give a system that skipped a
#    question? (step 1)
# 2. How does trec_eval order two notes with the same score? (step 2)
# 3. What does min_relevance decide, and which metric uses the grade itself? (step 3)
# 4. Why does the report leave support and coverage out for these runs? (step 4)
# 5. How do our mean and trec_eval's differ on a question with nothing relevant? (step 5)
# 6. Why is dense's RR@1 on `q1` 0 when trec_eval's `recip_rank` says 1/2? (step 6)
# 7. What does Ragas' ID-based context precision divide by, and what does P@k divide by?
#    (step 7)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell; rates are compared to two decimals, and
# you may type a fraction such as `1/4`. After your first try, right or wrong,
# `solution("07.1")` (with the exercise's number) shows the worked solution.
#
# 1. What is dense's nDCG@1 on `q2`? (a rate; the grades are in step 3)

# %% tags=["exercise"]
answer = None
check("07.1", answer)

# %% [markdown] tags=["exercise"]
# 2. trec_eval's `recip_rank` looks down the whole list, and its mean counts dense's empty
#    ranking on `q3` as 0. What mean `recip_rank` would it report for dense over the three
#    questions? (a rate)

# %% tags=["exercise"]
answer = None
check("07.2", answer)

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 6 — From the fixture to a release decision](06_integration.ipynb) ·
# **Next:** [Chapter 8 — A practical test collection](08_practice_collection.ipynb) ·
# [glossary](../docs/glossary.md)
