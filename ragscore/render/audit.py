"""Output of ``ragscore audit``: text for people, JSON for tools."""
import json

from ..tables.audit import KINDS
from .escape import text

#: A heading per kind of finding.
HEADINGS = {
    "unjudged": "Unjudged documents in the top {k} (judged = listed in 'relevant', at any "
                "grade, 0 included)",
    "near-duplicate": "Near-duplicate documents (same text up to whitespace) labelled "
                      "differently for a question",
    "answered unanswerable": "Questions labelled unanswerable that a system answered with "
                             "citations",
    "support outside relevant": "Support labels citing a document outside the relevant set",
    "disputed": "Disputed labels (reviewers decided differently)",
}


def _place(finding):
    return (text(finding.case) if finding.system is None
            else f"{text(finding.case)} {text(finding.system)}")


def render_audit(result, *, name):
    """The text of an :class:`ragscore.tables.audit.Audit`: a summary line, then each kind
    of finding under its heading with its count (unjudged with per-system counts first), or
    the reason it was not checked.

    >>> from ragscore.io.course import load_course
    >>> from ragscore.tables.audit import audit
    >>> print(render_audit(audit(load_course(), k=2), name="course").splitlines()[3])
      A: 3 of 6 retrieved documents unjudged, in 3 questions
    """
    findings = result.findings
    lines = [f"Label audit of {text(name)} at k={result.k}: {len(findings)} finding"
             f"{'s' * (len(findings) != 1)} (information, not failures: read them before any "
             "score)"]
    for kind in KINDS:
        chosen = [finding for finding in findings if finding.kind == kind]
        heading = HEADINGS[kind].format(k=result.k)
        if not chosen and kind in result.notes:
            lines += ["", f"{heading}: {text(result.notes[kind])}"]
            continue
        lines += ["", f"{heading}: {len(chosen)}"]
        if kind == "unjudged":
            lines += [f"  {text(system)}: {counts.unjudged} of {counts.retrieved} retrieved documents "
                      f"unjudged, in {counts.questions} question"
                      f"{'s' * (counts.questions != 1)}"
                      for system, counts in result.unjudged.items()]
        lines += [f"  {_place(finding)}: {', '.join(map(text, finding.docs)) or '-'} "
                  f"({text(finding.detail)})"
                  for finding in chosen]
        if not chosen and kind != "unjudged":
            lines.append("  none")
    return "\n".join(lines) + "\n"


def audit_json(result, *, name):
    """An :class:`ragscore.tables.audit.Audit` as JSON: ``dataset``, ``k``, ``unjudged``
    (per system), ``findings`` (kind, case, system, docs, detail; system null for a label
    finding) and ``notes`` (kind: why it was not checked)."""
    return json.dumps({
        "dataset": name, "k": result.k,
        "unjudged": {system: counts._asdict() for system, counts in result.unjudged.items()},
        "findings": [{**finding._asdict(), "docs": list(finding.docs)}
                     for finding in result.findings],
        "notes": result.notes,
    }, indent=2) + "\n"


def agreement_text(dataset):
    """The agreement section of ``ragscore audit``: per kind of item and pair of reviewers,
    Cohen's kappa (:func:`ragscore.tables.reviews.agreement_table`), then per kind
    Krippendorff's alpha (:func:`ragscore.tables.reviews.alpha_table`)."""
    from ..tables.reviews import agreement_table, alpha_table
    from .formats import render_frame

    return ("\nAgreement between reviewers, per kind of item (decisions compared as they "
            "are, each kind on its own scale; kappa = (po - pe) / (1 - pe)):\n"
            + render_frame(agreement_table(dataset), fmt="text")
            + "\nKrippendorff's alpha per kind (people only; ordinal for relevance grades, "
              "nominal otherwise):\n" + render_frame(alpha_table(dataset), fmt="text"))


def judgement_lines(records, *, stale):
    """Lines saying what a test set's judgements amount to (:func:`ragscore.core.labels.tally`),
    how many relevance and answerability judgements are ``stale`` (their passage or
    question changed or gone since: kept, never applied) and, where a machine's draft and a
    person's judgement of one item both exist, how often they agree exactly
    (:func:`ragscore.core.reviews.draft_agreement`).

    >>> draft = {"kind": "nugget", "case": "q", "key": "k", "reviewer": "judge:x",
    ...          "origin": "llm-draft", "decision": "support"}
    >>> judgement_lines([draft, dict(draft, reviewer="ana", origin="post-edited")], stale=0)[2]
    "  nugget: people who edited the draft (post-edited) agree exactly with a machine's draft on 1 of 1 item (100%, as TREC RAG reports its assessors against an LLM)"
    """
    from ..core.labels import tally
    from ..core.reviews import draft_agreement

    count, kinds, origins, reviewers, replaced = tally(records)
    lines = [f"Judgements: {count} by {reviewers} reviewer{'s' * (reviewers != 1)} ("
             + ", ".join(f"{kind} {number}" for kind, number in kinds.items()) + "); by origin: "
             + ", ".join(f"{origin} {number}" for origin, number in origins.items()),
             f"  {replaced} replaced by a later decision of the same reviewer (kept in the "
             f"history); {stale} about a passage or question changed or gone since (kept, not "
             "applied)"]
    for row in draft_agreement(records):
        condition = "edited the draft" if row.origin == "post-edited" else "judged from scratch"
        lines.append(f"  {row.kind}: people who {condition} ({row.origin}) agree exactly with "
                     f"a machine's draft on {row.agreed} of {row.pairs} item"
                     f"{'s' * (row.pairs != 1)} ({100 * row.agreed / row.pairs:.0f}%, as TREC "
                     "RAG reports its assessors against an LLM)")
    return lines


def audit_text(result, display):
    """The writer of a :class:`ragscore.usecases.audit.Audit` for people: the findings, then
    what the judgements amount to, then the agreement between reviewers."""
    dataset = result.dataset
    written = render_audit(result.findings, name=dataset.name)
    if dataset.judgements:
        written += "\n" + "\n".join(judgement_lines(dataset.judgements,
                                                    stale=result.stale)) + "\n"
    if dataset.judgements or any(case.get("reviews") for case in dataset.cases.values()):
        written += agreement_text(dataset)
    return written


def audit_data(result, display):
    """The writer of a :class:`ragscore.usecases.audit.Audit` as JSON."""
    return audit_json(result.findings, name=result.dataset.name)
