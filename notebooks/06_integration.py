# %% [markdown]
# # Chapter 6 — From the fixture to a release decision
#
# **Promise:** you will leave able to point this scorer at a real system: record runs with
# their manifests and the context they actually used, compare one controlled change stage by
# stage, and let a policy written in advance decide, with an exit code your CI can read.
#
# **Time:** about 45 minutes. **Before this chapter:** chapters 3 and 4 (support, coverage
# and paired comparisons); a terminal, and a TOML file read once.
#
# You will learn:
# - what a run manifest records, and why the test set's hashes are computed, not typed;
# - how a recorded delivered context is checked against the retrieval;
# - how to evaluate retrieval and answer stages separately for two configurations;
# - how an acceptance gate reads a policy and a baseline, and what its exit code means;
# - what happens when the test set changes under a committed baseline;
# - how to record a running system's answers into a test set folder and gate them.
#
# The data: `fixtures/course-runs/` holds the course's four questions recorded as runs of
# two configurations. B is A with *one controlled change*, a reranker after BM25. The
# questions, labels and rankings are the course's own; `tools/build_course_runs.py` adds the
# manifests, the delivered contexts, the answers and illustrative operation figures.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · next, [Chapter 7 — Your own data](07_your_own_data.ipynb) · terms in **bold** are defined
# in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [manifest](../docs/glossary.md#manifest) · [fingerprint](../docs/glossary.md#fingerprint) ·
# [delivered context](../docs/glossary.md#delivered-context) ·
# [ctx differs@k](../docs/glossary.md#ctx-differs@k) · [policy](../docs/glossary.md#policy) ·
# [gate](../docs/glossary.md#gate) ·
# [committed baseline](../docs/glossary.md#committed-baseline) ·
# [not assessed](../docs/glossary.md#not-assessed)

# %%
import tempfile
from pathlib import Path

import ragscore
from ragscore import REGISTRY
from ragscore.cli import capture
from ragscore.io.manifest import fingerprint, manifest_report
from ragscore.reports import aggregates, compare, question_table
from ragscore.tables.records import ops_summary
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table, aggregate_rows, comparison_rows, \
    table_rows
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.toy_system import serving
from ragscore.workbook.widgets import show

RUNS = "../fixtures/course-runs"
POLICY = "../fixtures/policies/course.toml"
BASELINE = "../fixtures/baselines/course-A.json"
recorded = ragscore.load_dataset(RUNS)

# %% [markdown]
# ## Step 1: a manifest per run, and a fingerprint of the test set
# A score is only as reproducible as what produced it. Each run carries a manifest: run ID,
# date, code revision, retrieval settings, context cutoff, prompt revision, model, generation
# settings and rubric version. The corpus and question-set versions are *not* typed into
# it: ragscore computes them as SHA-256 hashes of the content in a canonical form, so the
# same content gives the same hash on any machine. `corpus_sha256` is computed over every
# note (its ID, text, source document, version and access groups); `questions_sha256` over
# every question (its text, labels, tags and split), but not over reviewers' judgements.
# Together they are the test set's **fingerprint**. `ragscore manifest DIR` prints the same.

# %%
report = manifest_report(recorded)
a, b = report["runs"]["A"], report["runs"]["B"]


def shown(value):
    """A manifest value as text: a dict of settings as "key value, key value"."""
    return ", ".join(f"{key} {item}" for key, item in value.items()) \
        if isinstance(value, dict) else str(value)


Table({"field": field, "A": shown(a[field]), "B": shown(b[field]),
       "same in both": "yes" if a[field] == b[field] else "no"} for field in a)

# %% [markdown]
# Every field the text names is there, and the last column shows the one controlled change:
# besides what every run has of its own (its ID, date, code revision and notes), the two
# differ only in `retrieval`, where B adds the reranker. The prompt, the model, the
# generation settings, the context cutoff and the rubric are the same, so a difference in
# the scores can be put down to the reranker. Below, the fingerprint: each hash is shown by
# the first 16 of its 64 hex digits, enough to tell two apart (`ragscore manifest DIR`
# prints them whole).

# %%
prints = report["fingerprint"]
Table([{"hash": "corpus_sha256", "value": prints["corpus_sha256"][:16] + "…"},
       {"hash": "questions_sha256", "value": prints["questions_sha256"][:16] + "…"},
       {"hash": "rubric", "value": prints["rubric"]}])

# %% [markdown]
# Change one word of one question and the question-set hash changes; the corpus hash does
# not. That is how a baseline knows its test set moved (Step 5).

# %%
reworded = recorded._replace(cases={**recorded.cases, "owner": {
    **recorded.cases["owner"], "question": "Who owns the alert today?"}})
Table([{"hash": key, "changed": "yes" if fingerprint(reworded)[key] != prints[key] else "no"}
       for key in ("corpus_sha256", "questions_sha256")])

# %% [markdown]
# ## Step 2: the context actually delivered
# A record keeps what the answer stage was given, not only the ranking: each run lists its
# `delivered` chunks, and each chunk names its source document and version. The strict
# citation rule is then applied to the delivered context. When the delivered context is not
# the top k retrieved, the `ctx differs@k` column says so, for every question, in every
# report: otherwise the visible-context rule would evaluate the wrong input.

# %%
flags = question_table(recorded, k=2, metrics=("support", "context_differs"))
Table({**row, "retrieved": ", ".join(run["retrieved"]) or "(none)",
       "delivered": ", ".join(run["delivered"]) or "(none)"}
      for row in table_rows(flags) for run in [recorded.runs[row["case"]][row["system"]]])


# %% [markdown]
# One record differs: for `owner`, A retrieved `archive` then `owners`, but a token budget cut
# the context to `archive` alone. Its claim cites `archive` (not labelled for it), so its
# support is 0.00 either way; had it cited `owners`, the top-2 record would have called the
# claim supported although the answer stage never saw that note.

# %%
owner_a = recorded.runs["owner"]["A"]
Table([{"what": "retrieved (top 2)", "IDs": ", ".join(owner_a["retrieved"][:2])},
       {"what": "delivered", "IDs": ", ".join(owner_a["delivered"])},
       {"what": "source and version of each delivered chunk",
        "IDs": ", ".join(f"{doc}: {recorded.sources[doc]} @ {recorded.versions[doc]}"
                         for doc in owner_a["delivered"])}])

# %% [markdown]
# ## Step 3: retrieval and answer stages, separately
# Compare the two configurations on the same frozen questions, one stage at a time. The
# reranker improves retrieval (`rollback`'s recall and `owner`'s RR rise) while the answer
# stage regresses on `launch` (support falls from 1.00 to 0.50 because B adds an unsupported
# claim). When retrieval improves but support falls, read the changed context and claims
# before changing anything else. The first table holds macro means over the 3 answerable
# questions (`region`, with nothing labelled relevant and no claim expected, is not in it);
# the second, each question whose value changed.

# %%
means = aggregates(recorded, k=2, metrics=("precision", "recall", "rr", "support", "coverage"))
macro = means[means["method"] == "macro"]
by_metric = {}
for row in aggregate_rows(macro):
    by_metric.setdefault(row["metric"], {})[row["system"]] = row["value"]
Table([{"stage": REGISTRY[metric].stage, "metric": REGISTRY[metric].label_at(2),
        "A": values["A"], "B": values["B"]}
       for metric, values in by_metric.items()])

# %%
changes = compare(question_table(recorded, k=2), baseline="A", candidate="B")
Table(comparison_rows(changes[changes["verdict"] != "unchanged"], k=2))

# %% [markdown]
# `region` has no answer in the notes. A retrieved `archive` and claimed from it (support
# 0.00); B retrieved nothing and declined, so it made no claim and its support is n/a ("no
# longer defined", never 0), while declining is the right reply: abstention "improved".
# `owner`'s `ctx differs@2` went from yes to no: B was given its top two notes where A's
# context had been cut. That is *changed*, not improved: a different input to the answer
# stage, to read before trusting either support value.

# %% [markdown]
# Latency, tokens, cost and failures are reported beside quality when a record carries them.
# This lab calls no model: the figures below are recorded in the fixture to show the report
# and measure nothing (the median and 95th percentile are by nearest rank).

# %%
ops = ops_summary(recorded)
Table([{"system": row.system, "records": row.records, "failed": row.failed,
        "latency median (ms)": f"{row.latency_ms_median:.0f}",
        "latency p95 (ms)": f"{row.latency_ms_p95:.0f}", "tokens": row.tokens_total,
        "cost ($)": f"{row.cost_total:.4f}"} for row in ops.itertuples(index=False)])

# %% [markdown]
# ## Step 4: the gate, decided before looking
# The policy `fixtures/policies/course.toml` was written before any result was read. Its
# five rules: no question loses support; the questions tagged `critical` keep full coverage
# (these two are of severity critical); mean coverage is at least 0.8; every unanswerable
# question is declined; at most one claim is unsupported. `ragscore gate` prints each rule
# with PASS or FAIL and the questions that broke it, worst first, grouped by severity. It
# exits 0 when every rule passes, 1 when a rule fails and 2 on bad input; a CI job reads
# that code.

# %%
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "B",
                          "--baseline", "A"])
CommandOutput(out + err + f"exit code {code}")

# %%
show(quick_check("06"))

# %% [markdown]
# B fails one rule, no support regression, because of `launch`. Its averages look better
# than A's, and the gate still refuses it, because the policy said in advance that no
# question may lose support. Each rule's line says what it found in short sentences: how
# many questions broke it out of how many it could judge, then where it looked and how many
# values were n/a. A gate rule reads every question of the test set (or every question with
# the rule's tag), not the answerable slice of chapter 4's averages, so `region`, whose
# coverage is n/a, is inside what the coverage rules read: "1 n/a left out". A, judged by
# the same policy against B, fails all five rules:

# %%
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "A",
                          "--baseline", "B"])
CommandOutput(out + err + f"exit code {code}")

# %% [markdown]
# ## Step 5: a committed baseline, and a test set that moves under it
# `ragscore baseline save DIR --system A --out FILE` writes A's per-question counts with the
# test set's fingerprint; the file is committed beside the policy. The gate can compare
# against it instead of a system in the same folder. Writing a baseline is always an
# explicit command, never a side effect of a gate.

# %%
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "B",
                          "--baseline-file", BASELINE])
CommandOutput("\n".join([out.splitlines()[0], out.splitlines()[-1], f"exit code {code}"]))

# %% [markdown]
# Now reword one question, as if someone edited the test set after the baseline was saved.
# The gate refuses to compare (exit 2) and names both hashes. `--allow-mismatch` would
# compare anyway and say so on its first line; the honest fix is a new baseline.

# %%
with tempfile.TemporaryDirectory() as scratch:
    ragscore.save_dataset(reworded, f"{scratch}/moved")
    code, out, err = capture(["gate", f"{scratch}/moved", "--policy", POLICY,
                              "--candidate", "B", "--baseline-file", BASELINE])
CommandOutput(err.replace("; ", ";\n  ") + f"exit code {code}")

# %% [markdown]
# ## Step 6: record a system that is running
# Runs come from a system, not from a file typed by hand. `ragscore record` sends every
# question to the system's HTTP endpoint, keeps the ranking, the delivered context and the
# answer text it returns, fills in the manifest (fingerprint, date, code revision, settings)
# and writes the runs into a normal dataset folder; every finished call is journalled, so an
# interrupted recording resumes (`docs/record.md` has the details).
#
# The system here is a toy, `ragscore.workbook.toy_system`: it ranks the notes by the words
# they share with the question, delivers the first two and answers "See the note ...". Open
# the module to see all a system has to answer; `serving(notes)` runs it on this machine, on
# a free port, for the length of a `with` block.

# %%
recording = tempfile.TemporaryDirectory(prefix="ragscore-live-")
LIVE = Path(recording.name) / "live"
with serving(recorded.corpus) as endpoint:
    code, out, err = capture(["record", RUNS, "--endpoint", endpoint, "--system", "live",
                              "--out", str(LIVE)])
CommandOutput(out.split("; wrote")[0] + ("" if code == 0 else f"\n{err}"))

# %% [markdown]
# The recording is a system like A and B, in a dataset folder of its own:

# %%
live = ragscore.load_dataset(LIVE)
Table([{"question": case, "retrieved": ", ".join(live.runs[case]["live"]["retrieved"][:3]),
        "delivered": ", ".join(live.runs[case]["live"]["delivered"]),
        "answer": live.runs[case]["live"]["answer"]} for case in live.cases])

# %% [markdown]
# ## Step 7: gate the recording
# The same tables score the recording, and a gate reads it. Nobody has judged the live
# answers yet, so their support and coverage are **not assessed** (n/a, never 0), and the
# policy for this release, `fixtures/policies/retrieval.toml`, asks only about retrieval:

# %%
RETRIEVAL_POLICY = "../fixtures/policies/retrieval.toml"
CommandOutput(Path(RETRIEVAL_POLICY).read_text())

# %% [markdown]
# Against A, on the same questions:

# %%
code, out, err = capture(["gate", str(LIVE), "--policy", RETRIEVAL_POLICY,
                          "--candidate", "live", "--baseline", "A"])
CommandOutput("\n".join(out.splitlines()[1:]))

# %% [markdown]
# ## Step 8: what this chapter does not settle, and why
# - *A practical test collection* (lookups, multi-evidence, near-duplicates, outdated and
#   conflicting notes, unanswerable and permission-sensitive questions): four questions
#   estimate nothing; the practice collection and its slices are the next step.
# - *Permissions*: the format records access groups and counts disclosures (a restricted
#   chunk delivered or cited for a caller outside its groups), never excused by a correct
#   answer; the course notes have no restricted note, so the column stays out of these
#   tables. It models access labels; it is not an access-control system.
# - *Latency and cost*: measured only by recording them from a real system, with the
#   measurement environment and request count; this lab's toy retriever answers at once
#   and calls no model, so its latencies say nothing and are not shown.
# - *A hosted judge* brings its own cost, variability and errors: validate it against a
#   reviewed sample before trusting its score.
# - *Uncertainty*: needs more than a handful of questions; repeated trials of one question
#   are one question (ragscore reports their spread and never counts them as more).
# - *Monitoring*: a passing gate lasts until the corpus, prompts or providers change;
#   rerun it on versioned test sets, which the fingerprint makes visible.

# %% [markdown]
# ## Recap
# - A run carries its manifest; the test set's fingerprint (two content hashes) is computed,
#   never typed, so a changed note or question shows. `ragscore record` fills both in while
#   it records a running system.
# - A record keeps the context actually delivered to the answer stage, and `ctx differs@k`
#   flags every question where it is not the top k.
# - One controlled change is compared stage by stage: retrieval can improve while the
#   answer stage regresses.
# - A gate applies a policy written before looking, prints PASS or FAIL per rule with the
#   questions that broke it, and exits 0, 1 or 2 for CI.
# - A committed baseline refuses to compare against a test set that has moved.

# %% [markdown]
# ## Questionnaire
# Answer in your own words; each answer is in the step named after the question.
#
# 1. What does a run manifest record, and which two hashes are computed rather than typed?
#    (step 1)
# 2. What does `ctx differs@k` flag, and why does the strict rule need the delivered
#    context? (step 2)
# 3. How can retrieval improve while the answer stage regresses? (step 3)
# 4. What do the gate's exit codes 0, 1 and 2 mean to a CI job? (step 4)
# 5. Why is the policy written before anyone looks at the results? (step 4)
# 6. What does the gate do when the test set changed after the baseline was saved, and what
#    is the honest fix? (step 5)
# 7. What does `ragscore record` keep from each call, and what lets it resume? (step 6)
# 8. Why does the recording's policy ask only about retrieval? (step 7)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell. After your first try, right or wrong,
# `solution("06.1")` (with the exercise's number) shows the worked solution.
#
# 1. Someone fixes a typo in the text of the note `archive` and changes nothing else. Which
#    hash of the fingerprint changes? (type one of `"corpus_sha256"`, `"questions_sha256"`,
#    `"both"` or `"neither"`, in quotes)

# %% tags=["exercise"]
answer = None
check("06.1", answer)

# %% [markdown] tags=["exercise"]
# 2. At k = 1, for how many of the eight records would `ctx differs@1` say yes? (a count;
#    `recorded.runs[case][system]` holds each record's `retrieved` and `delivered` lists)

# %% tags=["exercise"]
answer = None
check("06.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose the policy's last rule, "at most one unsupported claim", allowed none
#    (`threshold = 0`) and the other four rules stayed as they are. How many of the five
#    rules would candidate B fail against baseline A? (a count)

# %% tags=["exercise"]
answer = None
check("06.3", answer)

# %% [markdown] tags=["lab-only"]
# ---
# **Previous:**
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · **Next:** [Chapter 7 — Your own data](07_your_own_data.ipynb) ·
# [glossary](../docs/glossary.md)
