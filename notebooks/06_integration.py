# %% [markdown]
# # Chapter 6 — From the fixture to a release decision
#
# **Promise:** you will leave able to point this scorer at a real system: record runs with
# their manifests and the context they actually used, compare one controlled change stage by
# stage, and let a policy written in advance decide, with an exit code your CI can read.
#
# **Time:** about 25 minutes. **Before this chapter:** chapters 3 and 4 (support, coverage
# and paired comparisons); a terminal.
#
# You will learn:
# - what a run manifest records, and why the test set's hashes are computed, not typed;
# - why a record keeps the context actually delivered to the answer stage;
# - how to compare two configurations stage by stage;
# - how an acceptance gate reads a policy, and what its exit code means;
# - what a real integration still needs.
#
# The data: `fixtures/course-runs/` holds the course's four questions recorded as runs of
# two configurations. B is A with *one controlled change*, a reranker after BM25.

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
# settings and rubric version. The corpus and question-set versions are not typed in:
# ragscore computes them as SHA-256 hashes of the content, the same on any machine.
# `corpus_sha256` covers every note (ID, text, source document, version, access groups);
# `questions_sha256` every question (text, labels, tags, split), not reviewers' judgements.
# With the rubric version the scores are computed under, they make the test set's
# **fingerprint**.

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
# The last column shows the one controlled change: besides each run's own ID, date, revision
# and notes, A and B differ only in `retrieval`. Below, the fingerprint (the first 16 of 64
# hex digits; `ragscore manifest DIR` prints them whole):

# %%
prints = report["fingerprint"]
Table([{"part": "corpus_sha256", "value": prints["corpus_sha256"][:16] + "…"},
       {"part": "questions_sha256", "value": prints["questions_sha256"][:16] + "…"},
       {"part": "rubric", "value": prints["rubric"]}])

# %% [markdown]
# Change one word of one question and the question-set hash changes; the corpus hash does
# not. That is how a committed baseline knows its test set moved.

# %%
reworded = recorded._replace(cases={**recorded.cases, "owner": {
    **recorded.cases["owner"], "question": "Who owns the alert today?"}})
Table([{"hash": key, "changed": "yes" if fingerprint(reworded)[key] != prints[key] else "no"}
       for key in ("corpus_sha256", "questions_sha256")])

# %% [markdown]
# ## Step 2: the context actually delivered
# A record keeps what the answer stage was given, not only the ranking: each run lists its
# `delivered` chunks, each with its source document and version, and the strict citation
# rule is applied to them. Where the delivered context is not the top k retrieved, the
# `ctx differs@k` column says so, in every report.

# %%
flags = question_table(recorded, k=2, metrics=("support", "context_differs"))
Table({**row, "retrieved": ", ".join(run["retrieved"]) or "(none)",
       "delivered": ", ".join(run["delivered"]) or "(none)"}
      for row in table_rows(flags) for run in [recorded.runs[row["case"]][row["system"]]])



# %% [markdown]
# For `owner`, A retrieved `archive` then `owners`, but a token budget cut the context to
# `archive`. Had A cited `owners`, a top-2 record would have called the claim supported
# although the answer stage never saw that note.

# %%
owner_a = recorded.runs["owner"]["A"]
Table([{"what": "retrieved (top 2)", "IDs": ", ".join(owner_a["retrieved"][:2])},
       {"what": "delivered", "IDs": ", ".join(owner_a["delivered"])},
       {"what": "source and version of each delivered chunk",
        "IDs": ", ".join(f"{doc}: {recorded.sources[doc]} @ {recorded.versions[doc]}"
                         for doc in owner_a["delivered"])}])

# %% [markdown]
# ## Step 3: retrieval and answer stages, separately
# On the same frozen questions, the reranker improves retrieval (`rollback`'s recall and
# `owner`'s RR rise) while the answer stage regresses on `launch` (B adds an unsupported
# claim). When retrieval improves but support falls, read the changed context and claims
# before changing anything else. First macro means over the 3 answerable questions, then
# each question whose value changed:

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
# `owner`'s `ctx differs@2` went from yes to no: B was given its top two notes where A's
# context had been cut. That is *changed*, not improved: a different input to the answer
# stage. `region`'s support becomes n/a ("no longer defined", never 0) as B declines.

# %% [markdown]
# ## Step 4: the gate, decided before looking
# The policy `fixtures/policies/course.toml` was written before any result was read. Its
# five rules: no question loses support; the questions tagged `critical` keep full coverage
# (these first two rules are of severity critical); mean coverage is at least 0.8; every
# unanswerable question is declined; at most one claim is unsupported. `ragscore gate` prints each rule
# with PASS or FAIL and the questions that broke it. It exits 0 when every rule passes, 1
# when one fails and 2 on bad input: a CI job reads that code.

# %%
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "B",
                          "--baseline", "A"])
CommandOutput(out + err + f"exit code {code}")

# %%
show(quick_check("06"))

# %% [markdown]
# B's averages are better than A's, and the gate still refuses it: the policy said in
# advance that no question may lose support, and `launch` did. Each rule's line says how
# many questions broke it out of how many it could judge. A rule reads every question (or
# every question with its tag), not chapter 4's answerable slice, so `region`'s n/a coverage
# is inside what the coverage rules read.
#
# Each line also says how many values were n/a on each side, and why. An n/a the labels make
# (`region` is unanswerable) never counts against B; a candidate n/a where the baseline
# answered fails the rule, so going silent cannot pass, unless the policy allowed it in
# advance (`max_na = 1`).

# %% [markdown]
# ## Step 5: what a real integration still needs
# - *A practical test collection*: lookups, multi-evidence, near-duplicate, outdated and
#   conflicting notes, unanswerable and permission-sensitive questions (chapter 8).
# - *Permissions*: a restricted note delivered or cited for a caller outside its groups is
#   a disclosure, never excused by a correct answer (chapter 8); the format models access
#   labels, it is not an access-control system.
# - *Latency, cost and failures*, beside quality, measured on a real system with its
#   environment and request count; this lab calls no model and claims none.
# - *A hosted judge* brings its own cost, variability and errors: validate it against a
#   reviewed sample first.
# - *Acceptance and uncertainty*: write the policy before looking; report uncertainty on
#   enough questions, and never count repeated trials of one question as more questions.
# - *Monitoring*: a passing gate lasts until the corpus, prompts or providers change; rerun
#   it on versioned test sets, which the fingerprint makes visible.

# %% [markdown]
# ## Recap
# - A run carries its manifest; the test set's fingerprint is computed, never typed, so a
#   changed note or question shows.
# - A record keeps the context actually delivered, and `ctx differs@k` flags every question
#   where it is not the top k.
# - One controlled change is compared stage by stage: retrieval can improve while the
#   answer stage regresses.
# - A gate applies a policy written before looking, prints PASS or FAIL per rule, and exits
#   0, 1 or 2 for CI.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. Which two hashes of a manifest are computed rather than typed? (step 1)
# 2. Why does the strict rule need the delivered context? (step 2)
# 3. How can retrieval improve while the answer stage regresses? (step 3)
# 4. What do the gate's exit codes 0, 1 and 2 mean to a CI job? (step 4)
# 5. Why is the policy written before anyone looks at the results? (step 4)
# 6. Name three things a real integration needs that this fixture leaves out. (step 5)

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

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 7: operation figures, the gate from A's side, a committed baseline,
# and a running system recorded and gated.

# %% [markdown] tags=["going-further"]
# ### Operation figures
# Latency, tokens, cost and failures are reported beside quality when a record carries them.
# This lab calls no model: these figures are written into the fixture to show the report
# and measure nothing (median and 95th percentile by nearest rank).

# %% tags=["going-further"]
ops = ops_summary(recorded)
Table([{"system": row.system, "records": row.records, "failed": row.failed,
        "latency median (ms)": f"{row.latency_ms_median:.0f}",
        "latency p95 (ms)": f"{row.latency_ms_p95:.0f}", "tokens": row.tokens_total,
        "cost ($)": f"{row.cost_total:.4f}"} for row in ops.itertuples(index=False)])

# %% [markdown] tags=["going-further"]
# ### A, judged by the same policy against B
# A fails all five rules:

# %% tags=["going-further"]
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "A",
                          "--baseline", "B"])
CommandOutput(out + err + f"exit code {code}")

# %% [markdown] tags=["going-further"]
# ### A committed baseline, and a test set that moves under it
# `ragscore baseline save DIR --system A --out FILE` writes A's per-question counts with the
# test set's fingerprint; the file is committed beside the policy, and the gate can compare
# against it. Writing a baseline is always an explicit command, never a side effect.

# %% tags=["going-further"]
code, out, err = capture(["gate", RUNS, "--policy", POLICY, "--candidate", "B",
                          "--baseline-file", BASELINE])
CommandOutput("\n".join([out.splitlines()[0], out.splitlines()[-1], f"exit code {code}"]))

# %% [markdown] tags=["going-further"]
# Reword one question, as if someone edited the test set after the baseline was saved: the
# gate refuses to compare (exit 2) and names both hashes. `--allow-mismatch` would compare
# anyway and say so on its first line; the honest fix is a new baseline.

# %% tags=["going-further"]
with tempfile.TemporaryDirectory() as scratch:
    ragscore.save_dataset(reworded, f"{scratch}/moved")
    code, out, err = capture(["gate", f"{scratch}/moved", "--policy", POLICY,
                              "--candidate", "B", "--baseline-file", BASELINE])
CommandOutput(err.replace("; ", ";\n  ") + f"exit code {code}")

# %% [markdown] tags=["going-further"]
# ### Record a system that is running
# `ragscore record` sends every question to a system's HTTP endpoint, keeps the ranking, the
# delivered context and the answer it returns, fills in the manifest and writes the runs
# into a dataset folder; every finished call is journalled, so an interrupted recording
# resumes (`docs/record.md`). The system here is a toy, `ragscore.workbook.toy_system`: it
# ranks notes by the words they share with the question, delivers the first two and answers
# "See the note ...". `serving(notes)` runs it on a free local port for a `with` block.

# %% tags=["going-further"]
recording = tempfile.TemporaryDirectory(prefix="ragscore-live-")
LIVE = Path(recording.name) / "live"
with serving(recorded.corpus) as endpoint:
    code, out, err = capture(["record", RUNS, "--endpoint", endpoint, "--system", "live",
                              "--out", str(LIVE)])
CommandOutput(out.split("; wrote")[0] + ("" if code == 0 else f"\n{err}"))

# %% [markdown] tags=["going-further"]
# The recording is a system like A and B, in a dataset folder of its own:

# %% tags=["going-further"]
live = ragscore.load_dataset(LIVE)
Table([{"question": case, "retrieved": ", ".join(live.runs[case]["live"]["retrieved"][:3]),
        "delivered": ", ".join(live.runs[case]["live"]["delivered"]),
        "answer": live.runs[case]["live"]["answer"]} for case in live.cases])

# %% [markdown] tags=["going-further"]
# ### Gate the recording
# Nobody has judged the live answers, so their support and coverage are **not assessed**
# (n/a, never 0); the policy for this release, `fixtures/policies/retrieval.toml`, asks only
# about retrieval:

# %% tags=["going-further"]
RETRIEVAL_POLICY = "../fixtures/policies/retrieval.toml"
CommandOutput(Path(RETRIEVAL_POLICY).read_text())

# %% [markdown] tags=["going-further"]
# Against A, on the same questions:

# %% tags=["going-further"]
code, out, err = capture(["gate", str(LIVE), "--policy", RETRIEVAL_POLICY,
                          "--candidate", "live", "--baseline", "A"])
recording.cleanup()  # the recorded folder is not needed after this
CommandOutput("\n".join(out.splitlines()[1:]))

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:**
# [Chapter 5 — A scoring defect can make a weak system look strong](05_scoring_defects.ipynb)
# · **Next:** [Chapter 7 — Your own data](07_your_own_data.ipynb) ·
# [glossary](../docs/glossary.md)
