"""``ragscore report --failures``: the questions a stage failed, with the text to read.

One block per failing (question, system), the diagnosis (:mod:`ragscore.core.diagnosis`)
on its first line, then three columns side by side: the question, the answer (or, without
a recorded answer, its claims with their citations) and the relevant IDs, each wrapped to
its column. Line breaks inside the data are read as spaces, so a value cannot forge a line.
"""
import json
import textwrap
from itertools import zip_longest

from ..core.diagnosis import DIAGNOSES, FAILURES, diagnose_counts, question_diagnoses
from ..core.trials import trial_runs

#: Column widths: question, answer or claims, relevant IDs (112 columns in all, with the
#: two gaps); a narrower output width shares its columns out in the same proportions.
WIDTHS = (34, 46, 28)
GAP = 2


def column_widths(width=None):
    """The three column widths for an output ``width`` (``None``: :data:`WIDTHS`).

    >>> column_widths(80)
    (23, 32, 21)
    """
    if width is None or width >= sum(WIDTHS) + 2 * GAP:
        return WIDTHS
    room = width - 2 * GAP
    first, second = room * WIDTHS[0] // sum(WIDTHS), room * WIDTHS[1] // sum(WIDTHS)
    return first, second, room - first - second


def _claims_text(claims):
    if claims is None:
        return "(answer not assessed)"
    if not claims:
        return "(no claims: abstained)"
    return "; ".join(f"{claim} [{', '.join(citations) or 'no citation'}]"
                     for claim, citations in claims)


def failure_rows(dataset, counted, *, k):
    """``[{case, system, diagnosis, question, answer, claims, relevant}]`` for every row of
    ``counted`` whose diagnosis at ``k`` is a failure, in row order (for repeated trials,
    the answer and claims of the first trial with that diagnosis, and ``trial``: its
    number of ``trials``)."""
    rows = []
    codes = question_diagnoses(counted, dataset.runs, k=k)
    for position, ((case, system), code) in enumerate(zip(counted.keys, codes)):
        if code not in FAILURES:
            continue
        record = dataset.cases.get(case, {})
        trials = trial_runs(dataset.runs.get(case, {}).get(system) or {})
        counts = counted.counts_at(position)
        chosen = 0
        if len(trials) > 1 and not hasattr(counts, "relevant_ranks"):
            chosen = next(index for index, (one, run) in enumerate(zip(counts, trials))
                          if diagnose_counts(one, k=k, run=run) == code)
        run = trials[chosen]
        relevant = record.get("relevant") or ()
        claims = run.get("claims")
        rows.append({"case": case, "system": system, "diagnosis": code,
                     "reason": DIAGNOSES[code], "question": record.get("question"),
                     "answer": run.get("answer"),
                     "claims": None if claims is None else [
                         {"claim": claim, "citations": list(citations)}
                         for claim, citations in claims],
                     "relevant": sorted(relevant) if isinstance(relevant, dict)
                     else list(relevant),
                     "retrieved_top_k": list(run.get("retrieved", ()))[:k],
                     "trial": chosen + 1, "trials": len(trials)})
    return rows


def _column(text, width):
    return textwrap.wrap(str(text), width=width, break_long_words=True,
                         break_on_hyphens=False) or [""]


def failures_text(rows, *, k, width=None):
    """The text of :func:`failure_rows`: a count per diagnosis, then one block per row, its
    three columns sharing ``width`` (``None``: :data:`WIDTHS`)."""
    if not rows:
        return f"No question failed at k={k}: every diagnosis is ok or n/a.\n"
    tally = {}
    for row in rows:
        tally[row["reason"]] = tally.get(row["reason"], 0) + 1
    lines = [f"{len(rows)} failing (question, system) pairs at k={k}: "
             + "; ".join(f"{count} {reason}" for reason, count in tally.items()), ""]
    widths = column_widths(width)
    head = ("question", "answer (or claims [citations])", "relevant IDs")
    rule = "  ".join("-" * width for width in widths)
    for row in rows:
        said = row["answer"] if row["answer"] is not None else _claims_text(
            None if row["claims"] is None else
            [(claim["claim"], claim["citations"]) for claim in row["claims"]])
        if row["answer"] is not None and row["claims"] is not None:
            said += " | claims: " + _claims_text([(c["claim"], c["citations"])
                                                  for c in row["claims"]])
        columns = [_column(row["question"] or "(no question text)", widths[0]),
                   _column(said, widths[1]),
                   _column(", ".join(row["relevant"]) or "none (unanswerable)", widths[2])]
        trial = (f" (trial {row['trial']} of {row['trials']})" if row["trials"] > 1 else "")
        lines.append(f"{row['case']}  {row['system']}: {row['reason']}{trial}")
        lines.append("  ".join(name[:width].ljust(width)
                               for name, width in zip(head, widths)).rstrip())
        lines.append(rule)
        for parts in zip_longest(*columns, fillvalue=""):
            lines.append("  ".join(part.ljust(width)
                                   for part, width in zip(parts, widths)).rstrip())
        lines.append(f"top {k} retrieved: " + (", ".join(row["retrieved_top_k"]) or "nothing"))
        lines.append("")
    return "\n".join(lines)


def failures_json(rows, *, k):
    """The rows of :func:`failure_rows` as JSON (``null`` where nothing was recorded)."""
    return json.dumps({"k": k, "failures": rows}, indent=2, ensure_ascii=False) + "\n"


def diagnosis_lines(counted, runs, *, k):
    """The lines a text report adds: per system, how many questions each diagnosis got
    (``runs``: the dataset's runs, read only where the delivered context is not a prefix of
    the ranking)."""
    codes = question_diagnoses(counted, runs, k=k)
    tally = {}
    for (_, system), code in zip(counted.keys, codes):
        tally.setdefault(system, dict.fromkeys(DIAGNOSES, 0))[code] += 1
    lines = ["", f"Diagnosis per question at k={k}: the first stage that failed "
                 "(docs/diagnosis.md; 'report --failures' lists them with their text):"]
    for system, counts in tally.items():
        lines.append(f"- {system}: " + ", ".join(f"{count} {DIAGNOSES[code]}"
                                                  for code, count in counts.items() if count))
    return lines
