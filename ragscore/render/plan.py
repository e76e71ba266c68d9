"""``ragscore plan`` written out: questions and judgements a paired comparison needs."""
import json

from .text import fixed

__all__ = ["plan_json", "plan_text"]


def _percent(value):
    return f"{round(value * 100, 6):g}%"


def plan_text(result, display):
    """The plan as text: what is detected, the spread it assumes, questions, judgements."""
    metric = f"{result.metric}@{result.k}"
    lines = [f"plan: detect a mean {metric} difference of {result.delta:g} ({result.candidate} "
             f"- {result.baseline}) with power {result.power:g} at {_percent(result.confidence)}"
             f" confidence (two-sided paired t-test)"]
    if result.sd_from == "observed":
        lines.append(f"standard deviation of the paired differences: {fixed(result.sd, digits=4)}, observed"
                     f" over {result.pairs} paired questions (mean difference "
                     f"{fixed(result.mean_delta, digits=4, sign=True)})")
    else:
        lines.append(f"standard deviation of the paired differences: {result.sd:g}, stated")
    more = max(0, result.questions - result.have)
    lines.append(f"questions needed: {result.questions} (normal approximation "
                 f"{fixed(result.normal, digits=1)}); the test set has {result.have} questions both "
                 f"systems answered" + (f": {more} more" if more else ": enough"))
    lines.append(f"judgements for {result.questions} new questions:")
    for kind, total in result.judgements.items():
        per, how = result.per_question[kind]
        used = "" if kind in result.reads else " (not read by " + result.metric + ")"
        lines.append(f"  {kind}: {total:,} ({fixed(per)} per question: {how}){used}")
    return "\n".join(lines) + "\n"


def plan_json(result, display):
    """The plan as one JSON object."""
    return json.dumps({
        "baseline": result.baseline, "candidate": result.candidate, "metric": result.metric,
        "k": result.k, "delta": result.delta, "power": result.power,
        "confidence": result.confidence, "sd": result.sd, "sd_from": result.sd_from,
        "pairs": result.pairs, "mean_delta": result.mean_delta,
        "questions": result.questions, "normal_approximation": result.normal,
        "have": result.have, "reads": list(result.reads),
        "judgements": {kind: {"total": total, "per_question": result.per_question[kind][0],
                              "how": result.per_question[kind][1]}
                       for kind, total in result.judgements.items()}},
        ensure_ascii=False, indent=2) + "\n"
