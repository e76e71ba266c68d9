"""``ragscore review status`` written out: whether the verdict is settled whatever the
pending judgements say, and what can still move it, rule by rule (text, JSON)."""
import json

from ..core.deciding import FAIL, OPEN, PASS

__all__ = ["status_json", "status_text"]

_SAID = {PASS: "passes whatever they say", FAIL: "fails whatever they say"}


_NOUNS = {"relevance": "passage", "answerability": "question", "support": "claim",
          "nugget": "nugget assignment", "citation": "citation"}


def _kinds(rows):
    """What the pending items are, in words.

    >>> _kinds([{"kind": "relevance"}, {"kind": "support"}, {"kind": "relevance"}])
    '2 passages, 1 claim'
    """
    counts = {}
    for row in rows:
        counts[row["kind"]] = counts.get(row["kind"], 0) + 1
    return ", ".join(f"{count} {_NOUNS.get(kind, kind)}{'s' * (count != 1)}"
                     for kind, count in counts.items())


def _headline(result):
    found = result.decider
    pending = len(found.rows)
    against = "" if found.baseline is None else f" against baseline {found.baseline}"
    what = (f"policy {result.policy}" if result.policy is not None else
            f"the sign of the mean {found.metric}@{found.k} delta")
    kinds = f" ({_kinds(found.rows)})" if found.rows else ""
    return (f"review status: {what}, candidate {found.candidate}{against}, k={found.k}: "
            f"{pending} item{'s' * (pending != 1)} pending{kinds}")


def _verdict_line(result):
    found = result.decider
    pending = len(found.rows)
    whatever = (f"whatever the {pending} pending item{'s' * (pending != 1)} say"
                if pending else "(nothing is pending)")
    verdict = found.verdict
    if result.policy is None:  # a comparison
        if verdict is not None:
            side = "above" if verdict == PASS else "below"
            return (f"settled: {found.candidate} {side} {found.baseline} on "
                    f"{found.metric}@{found.k} {whatever}")
    elif verdict is not None:
        return f"settled: {'PASS' if verdict == PASS else 'FAIL'} {whatever}"
    deciding = len(found.deciding)
    return (f"not settled: {deciding} of the {pending} pending item{'s' * (pending != 1)} "
            f"can still move it")


def status_text(result, display):
    """The status as text: a headline, the verdict line, then one line per rule."""
    found = result.decider
    lines = [_headline(result), _verdict_line(result)]
    for name in found.rules:
        status = found.statuses[name]
        if status == OPEN:
            moving = sum(1 for moves in found.movers.values() if name in moves)
            lines.append(f"  {name}: open, {moving} item{'s' * (moving != 1)} can move it")
        else:
            lines.append(f"  {name}: {_SAID[status]}")
    lines += [f"note: {note}" for note in found.notes]
    return "\n".join(lines) + "\n"


def status_json(result, display):
    """The status as one JSON object: ``verdict`` (``PASS``, ``FAIL`` or null), the counts,
    each rule's status and the items that can move it."""
    found = result.decider
    rules = [{"name": name, "status": found.statuses[name],
              "movers": [list(item) for item, moves in found.movers.items() if name in moves]}
             for name in found.rules]
    return json.dumps({"dataset": result.dataset, "policy": result.policy,
                       "candidate": found.candidate, "baseline": found.baseline,
                       "metric": found.metric, "k": found.k, "verdict": result.verdict,
                       "pending": len(found.rows), "deciding": len(found.deciding),
                       "rules": rules, "notes": list(found.notes)},
                      ensure_ascii=False, indent=2) + "\n"
