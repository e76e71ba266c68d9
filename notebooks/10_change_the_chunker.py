# %% [markdown]
# # Chapter 10 — Change the chunker, keep the labels
#
# **Promise:** you will label the course once, as spans of the notes' own text, and score
# two chunkings of the notes with those same labels; then you will edit a note and watch
# each label move with its text, or say plainly that it is lost.
#
# **Time:** about 30 minutes. **Before this chapter:** chapter 3 (the strict citation rule)
# and chapter 9, step 4 (a label is a judgement about the test set).
#
# You will learn:
# - why a label naming a chunk ID dies with the chunker, and a **span** of text does not;
# - the one rule that derives any chunking's labels from spans, *full* and *partial*;
# - why a claim whose evidence is cut in two needs both pieces cited;
# - what an edit does to each label: **kept**, **moved**, **orphaned** or **ambiguous**.

# %% [markdown] tags=["lab-only"]
# *Finding your way:* previous,
# [Chapter 9 — Your system's answers](09_your_answers.ipynb) · next,
# [Chapter 11 — Nuggets: what a complete answer says](11_nuggets.ipynb) · terms in **bold**
# are defined in the [glossary](../docs/glossary.md).
#
# *Terms in this chapter* (each link opens its entry):
# [span, version](../docs/glossary.md#span,-source-document,-version) ·
# [chunking](../docs/glossary.md#chunking) ·
# [full and partial support](../docs/glossary.md#full-and-partial-support) ·
# [span R@k, chars@k](../docs/glossary.md#span-R@k,-chars@k) ·
# [kept, moved, orphaned, ambiguous](../docs/glossary.md#kept,-moved,-orphaned,-ambiguous) ·
# [supported claim](../docs/glossary.md#supported-claim)

# %%
from pathlib import Path
from textwrap import fill

from ragscore.core.spans import document_version
from ragscore.importers.chunkings import read_chunks
from ragscore.importers.spans import import_spans
from ragscore.io.answers import derive_with_waiting
from ragscore.io.documents import Placed
from ragscore.io.jsonl import MAX_FILE_BYTES
from ragscore.io.rechunk import rechunk, span_report
from ragscore.workbook.chunking import chunk_size_explorer, derived_rows, score_rows
from ragscore.workbook.exercises import check, solution
from ragscore.workbook.explore import CommandOutput, Table
from ragscore.workbook.quickcheck import quick_check
from ragscore.workbook.widgets import show

SPANS = Path("../fixtures/spans")
K = 2

# %% [markdown]
# `fixtures/spans/` holds the course's notes, its labels and two chunkings of the notes
# (sentences, whole notes), each with the course systems' runs. We read both, at k = 2:

# %%
def load(chunks, runs):
    """The span test set of fixtures/spans on one chunking, with its runs (in memory)."""
    dataset, _ = import_spans(SPANS / "documents.jsonl", SPANS / "questions.jsonl",
                              SPANS / chunks, runs=SPANS / runs, reviewer="ana",
                              date="2026-12-04", max_bytes=MAX_FILE_BYTES)
    return dataset


sentences = load("chunks-sentences.jsonl", "runs-sentences.jsonl")
notes = load("chunks-notes.jsonl", "runs-notes.jsonl")

# %% [markdown]
# ## Step 1: the notes as documents, the labels as spans
# The course's labels name notes by ID (`launch` supports the claim `monday`); cut the
# notes differently and that ID is gone. So this test set names text, in two documents:

# %%
Table([{"document": doc, "version": version, "characters": len(text), "text": text}
       for doc, (version, text) in sentences.documents.items()])

# %% [markdown]
# A document's **version** is a hash of its text: edit one character and it is a new
# version. Each label is a **span**: a document, a start and an end (counted in characters,
# the end excluded). A relevant span says a passage answers the question; an evidence span
# says which text supports an expected claim:

# %%
Table([{"case": record["case"], "label": record["kind"], "claim": record.get("claim", ""),
        "document": record["doc"], "from": record["start"], "to": record["end"],
        "text": record["text"]}
       for record in sentences.judgements if record["kind"] != "answerability"])

# %% [markdown]
# The evidence for `monday` is characters 14 to 45 of the release notes: the words that say
# it.

# %% [markdown]
# ## Step 2: one chunking, the course's sentences
# A **chunking** cuts each document into chunks, each at a place. The sentence chunking has
# five chunks, named as the course names its notes. No chunk label is stored: one rule
# derives them. A chunk holding a character of a relevant span, or of a claim's evidence,
# is relevant, with the span's grade in brackets (1 here: the course's labels are
# yes-or-no). For each expected claim, a chunk is *full* when it contains one of its
# evidence spans whole, *partial* when it only overlaps one:

# %%
Table(derived_rows(sentences))

# %% [markdown]
# These are the course's labels, exactly: each sentence holds its evidence whole, so every
# supporting chunk is full. The scores are the course's too (system A, k = 2):

# %%
Table(score_rows(sentences, k=K, system="A"))

# %% [markdown]
# ## Step 3: another chunking, the whole notes
# Cut the same documents into two chunks, one per document, and the same spans give other
# chunk labels. Nobody relabelled anything:

# %%
Table(derived_rows(notes))

# %% [markdown]
# The systems ran again on the whole notes, each citing the note holding the sentence it
# cited before. Both chunkings are judged by the same spans, so they compare fairly. R@2
# counts chunks, and one whole note holds what two sentences held. Two measures count
# characters instead: **span R@k**, the share of the relevant characters in the top k
# chunks, and **chars@k**, the characters those chunks hand the answer stage. System A on
# each chunking:

# %%
by_characters = ("span_recall", "characters_read")
before = {row["case"]: row for row in score_rows(sentences, k=K, system="A",
                                                 names=by_characters)}
Table([{"case": row["case"], "span R@2 (sentences)": before[row["case"]]["span R@2"],
        "span R@2 (whole notes)": row["span R@2"],
        "chars@2 (sentences)": before[row["case"]]["chars@2"],
        "chars@2 (whole notes)": row["chars@2"]}
       for row in score_rows(notes, k=K, system="A", names=by_characters)])

# %% [markdown]
# Whole notes carry every relevant character (rollback: 79 of 79, not 44 of 79), but the
# answer stage reads 527 characters instead of 278 (the sums of the chars@2 columns),
# almost twice the text. Region has no
# relevant span: span R@2 is n/a, yet its text is read. Weigh both numbers.

# %% [markdown]
# ## Step 4: full, partial, and the chunk size
# Smaller chunks can cut a span in two. Then no single chunk is full, and the rule asks
# more of a citation: *a claim is supported when every chunk it cites overlaps its
# evidence, every cited chunk is visible at k, and the cited chunks together cover one
# evidence span entirely*. One piece alone is partial: unsupported. Where chunks hold their
# evidence whole, this is exactly chapter 3's rule.
#
# The panel cuts both documents at word boundaries into chunks of at most the slider's
# number of characters, named `DOCUMENT@START`, and carries system B's run over to them (a
# teaching device). Move the slider and watch B's scores, then the full and partial chunks:

# %%
explorer = chunk_size_explorer(sentences, size=60, k=K, system="B")
show(explorer)

# %%
show(quick_check("10"))

# %% [markdown]
# At 60, rollback's two sentences are cut mid-way: no chunk holds either claim's evidence
# whole, and system B, citing one chunk each, is supported on neither. At 50 (0-46, 47-97,
# 98-127) each claim's evidence lies inside one chunk, so B's support is back to 1.00,
# though rollback's second sentence is cut after "After"; at 120 "run the smoke test" is cut (try
# it). R@2 moves too: a passage cut into three chunks needs three slots. B's launch support
# stays 0.50: its claim `bonus` has no evidence.

# %% [markdown]
# ## Step 5: a note is edited
# A week later somebody edits the release notes: "After rollback, run the smoke test."
# becomes "After rollback, always run the smoke test." The same sentence chunker cuts the new
# text; only the `checklist` chunk's text changed:

# %%
release = sentences.documents["release-notes"][1]
edited_text = release.replace("run the smoke test", "always run the smoke test")
documents = dict(sentences.documents,
                 **{"release-notes": (document_version(edited_text), edited_text)})
placed, _ = read_chunks(SPANS / "chunks-sentences.jsonl", max_bytes=MAX_FILE_BYTES)
placed["checklist"] = Placed("release-notes", 92, len(edited_text), None, None, "edited")
edited, left_out = rechunk(sentences, placed, documents=documents)
Table([{"case": label["case"], "label": label["kind"], "claim": label["claim"] or "",
        "text": label["text"], "status": label["status"],
        "now at": "" if label["now"] is None else f"{label['now']['start']}-{label['now']['end']}"}
       for label in span_report(edited)["labels"]])

# %% [markdown]
# Each label was looked for by its *text*: the relevant sentence "After rollback, run the
# smoke test." is gone, **orphaned** (kept in the test set, never applied, counted); the
# evidence "run the smoke test" is there once, seven characters later, **moved** and still
# applied; the rest are **kept**. A text found twice would be **ambiguous**, left out, not
# guessed.

# %% [markdown]
# ## Recap
# - A span labels text, not a chunk: any chunking's labels derive from it, so two chunkers
#   are compared fairly, question by question.
# - A chunk holding some of a relevant span or of a claim's evidence is relevant; it is full
#   for a claim when it contains an evidence span, partial when it only overlaps one.
# - A claim is supported when its cited chunks all overlap its evidence, are all in the top
#   k, and together cover one evidence span.
# - An edit moves each label by its text: kept, moved, orphaned or ambiguous, never guessed.

# %% [markdown]
# ## Questionnaire
# Each answer is in the step named after the question.
#
# 1. Why does a label that names a chunk ID die when the chunker changes? (step 1)
# 2. Where do a chunking's labels come from? (step 2)
# 3. Counted in characters, what do whole notes gain over sentences, and at what cost?
#    (step 3)
# 4. What must a claim cite when its evidence is cut across two chunks? (step 4)
# 5. What happens to a label whose text an edit removed, or moved? (step 5)

# %% [markdown] tags=["exercise"]
# ## Exercises
# Replace `None` with your answer and run the cell. After a first try, `solution("10.1")`
# shows the working.
#
# The exercises use a chunker the panel does not have: it cuts the release notes at
# characters 62 and 112 and keeps the spaces, so its chunks meet end to end: `r@0` (0-62,
# "The fictional ... Switch traffic "), `r@62` (62-112, "back to the previous version.
# After rollback, run ") and `r@112` (112-127, "the smoke test."), a start counted in and
# an end not, as in step 1, whose table has the evidence spans.
#
# 1. Over the release notes' three claims (`monday`, `switch`, `smoke`), how many (claim,
#    chunk) pairs are partial on this chunking? (a count)

# %% tags=["exercise"]
answer = None
check("10.1", answer)

# %% [markdown] tags=["exercise"]
# 2. A system ranks `r@62`, `r@0`, `r@112` for the rollback question. At k = 3, how many of
#    these five claims with their citations count as supported? (a) `switch` citing `r@0`;
#    (b) `switch` citing `r@0` and `r@62`; (c) `switch` citing `r@0`, `r@62` and `r@112`;
#    (d) `smoke` citing `r@62` and `r@112`; (e) `smoke` citing `r@112`. (a count)

# %% tags=["exercise"]
answer = None
check("10.2", answer)

# %% [markdown] tags=["exercise"]
# 3. Suppose the edit of step 5 had been another: "Switch traffic back to the previous
#    version." becomes "Switch traffic back to the last good version." How many of the eight
#    span labels would be **moved**? (a count)

# %% tags=["exercise"]
answer = None
check("10.3", answer)

# %% [markdown] jp-MarkdownHeadingCollapsed=true tags=["going-further"]
# ## Going further
# Not needed for chapter 11: support and R@2 on both chunkings, how the panel carries a run,
# what step 5's edit costs, the rule's one setting, and the same work on folders.

# %% [markdown] tags=["going-further"]
# ### Support and R@2 on both chunkings
# Step 3 compared the chunkings by characters; by support and R@2, system A on each:

# %% tags=["going-further"]
on_sentences = {row["case"]: row for row in score_rows(sentences, k=K, system="A")}
Table([{"case": row["case"], "support (sentences)": on_sentences[row["case"]]["support"],
        "support (whole notes)": row["support"],
        "R@2 (sentences)": on_sentences[row["case"]]["R@2"],
        "R@2 (whole notes)": row["R@2"]}
       for row in score_rows(notes, k=K, system="A")])

# %% [markdown] tags=["going-further"]
# Read the owner row. On sentences, A cited `archive`, a wrong sentence: support 0. On whole
# notes the same citation is the team note, which holds the evidence: support 1. Bigger
# chunks forgive imprecise citations. R@2 on rollback rose from 0.50 to 1.00 because one
# chunk now holds what two held: chunk counts reward big chunks, which is why step 3 counts
# characters.
#
# ### How the panel carries a run
# Step 4's panel re-cuts the notes but has no system to run again, so it carries B's
# sentence run over: B ranks, in its order, the new chunks holding any of the text it
# ranked, and cites, for each sentence it cited, the chunk holding most of that sentence. A
# real chunker's runs are recorded again on its own chunks.
#
# ### What the edit costs
# A run is carried to the edited chunking only where every chunk it names kept its text.
# B's rollback run ranks and cites `checklist`, whose text the edit changed, so it is left
# out; every other run names only chunks that kept their text:

# %% tags=["going-further"]
Table([{"system": system, "runs left out": ", ".join(cases)}
       for system, cases in left_out.items()])

# %% [markdown] tags=["going-further"]
# The test set still scores, and every report ends with a note of what it lost:

# %% tags=["going-further"]
CommandOutput(fill(derive_with_waiting(edited)[0].notes[-1], 80))

# %% [markdown] tags=["going-further"]
# The note counts every lost label by its cause: orphaned, ambiguous, or *in no chunk* (its
# text is still in the document, but the chunking left that text out of every chunk). A's
# scores are step 2's, unmoved:

# %% tags=["going-further"]
Table(score_rows(edited, k=K, system="A"))

# %% [markdown] tags=["going-further"]
# A's rollback run names only `rollback`, so it is carried, and its R@2 stays 1 of 2
# relevant chunks: `checklist` lost its relevant sentence but still holds the evidence "run
# the smoke test" (moved, not lost), and evidence makes a chunk relevant.
#
# ### The rule's one setting
# A chunk is relevant for a relevant span when it holds at least `min_overlap` of its
# characters (all of a span shorter than that). The default, 1, is step 2's "a character";
# raise it when large chunks should not count as relevant for the sliver of a span they
# touch. It is chosen when the test set is imported (`--min-overlap N`) and kept with it.
# Evidence makes a chunk relevant from one character, whatever `min_overlap` is.
#
# ### On folders
# `ragscore import spans` writes each chunking's test set as a folder (docs/spans.md gives
# this chapter's two commands); then `ragscore labels DIR` lists every chunk label and every
# span label with its status, `ragscore compare --baseline sentences:A --candidate notes:A`
# compares the two chunkings question by question, and `ragscore report DIR --measures
# "span_recall@2 chars@2"` gives step 3's characters.

# %% [markdown] tags=["lab-only"]
# ## Where next
# **Previous:** [Chapter 9 — Your system's answers](09_your_answers.ipynb) ·
# **Next:** [Chapter 11 — Nuggets: what a complete answer says](11_nuggets.ipynb) · the
# README's "Start here" lists every chapter · [glossary](../docs/glossary.md)
