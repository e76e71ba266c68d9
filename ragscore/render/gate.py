"""The text of a gate's verdict: each rule with PASS or FAIL, grouped by severity, the
questions that broke it, and one verdict line read from the same
:class:`~ragscore.core.gate.Verdict` as the exit code.

Every value that comes from input (rule names, metrics, slices, question names, the policy
path) goes through :func:`ragscore.render.escape.text`, so none can start a line of its
own: the last line is always the verdict.
"""
from ..core.gate import SEVERITIES
from .escape import text
from .text import format_value


def verdict_line(verdict):
    """``verdict: PASS: N of N rules passed`` or ``verdict: FAIL: ...; failed: names``.

    >>> from ragscore.core.gate import verdict_of
    >>> verdict_line(verdict_of([]))
    'verdict: FAIL: 0 of 0 rules passed; no rule was judged'
    """
    outcomes, failed = verdict.outcomes, verdict.failed
    line = (f"verdict: {'PASS' if verdict.passed else 'FAIL'}: {len(outcomes) - len(failed)} "
            f"of {len(outcomes)} rules passed")
    if failed:
        line += "; failed: " + ", ".join(text(outcome.rule.name) for outcome in failed)
    elif not outcomes:
        line += "; no rule was judged"
    return line


def gate_text(verdict, *, header, show, warnings=(), notes=(), digits=2):
    """The lines of a gate's report, ending with :func:`verdict_line` (``show``: questions
    listed per failed rule, at least 0; ``notes``: what the reader should know, such as
    answers awaiting review, printed under the header; ``digits``: decimals of the values
    listed)."""
    lines = [f"WARNING: {text(warning)}" for warning in warnings] + [text(header)]
    lines += [f"note: {text(note)}" for note in notes]
    for severity in SEVERITIES:
        group = [outcome for outcome in verdict.outcomes if outcome.rule.severity == severity]
        if not group:
            continue
        lines.append(f"{severity}:")
        for outcome in sorted(group, key=lambda o: o.passed):
            rule = outcome.rule
            lines.append(f"  {'PASS' if outcome.passed else 'FAIL'}  {text(rule.name)} "
                         f"({text(rule.metric)}, {text(rule.check)}): {text(outcome.detail)}")
            if outcome.passed:
                continue  # a passing rule is one line
            listed = [(case, f"no run ({side})") for case, side in outcome.no_run]
            listed += [(case, format_value(value, digits=digits)
                        + ("" if before is None
                           else f" (baseline {format_value(before, digits=digits)})"))
                       for case, value, before in outcome.failures]
            for case, shown in listed[:show]:
                lines.append(f"        {text(case)}: {shown}")
            if len(listed) > show:
                lines.append(f"        ... and {len(listed) - show} more")
    lines.append(verdict_line(verdict))
    return lines


def verdict_text(result, display):
    """The writer of a :class:`ragscore.usecases.gate.Verdict` for people: warnings, the
    header, notes, each rule grouped by severity, the verdict line last."""
    return "\n".join(gate_text(result, header=result.header, show=result.show,
                               warnings=result.warnings, notes=result.notes,
                               digits=result.digits)) + "\n"


def _plain(value):
    return float(value) if isinstance(value, bool) else value


def verdict_json(result, display):
    """The writer of a :class:`ragscore.usecases.gate.Verdict` as JSON: the verdict, and per
    rule its outcome, value, questions used and left out, n/a on each side, and the
    questions that broke it (n/a as ``null``)."""
    import json

    rules = []
    for outcome in result.outcomes:
        rule, na = outcome.rule, outcome.na
        rules.append({
            "name": rule.name, "metric": rule.metric, "check": rule.check,
            "severity": rule.severity, "passed": outcome.passed,
            "value": _plain(outcome.value), "used": outcome.used,
            "left_out": outcome.left_out, "detail": outcome.detail,
            "na": None if na is None else {
                "candidate": na.candidate, "baseline": na.baseline, "forced": na.forced,
                "unforced": na.unforced, "baseline_unforced": na.baseline_unforced,
                "allowed": na.allowed, "failed": na.failed,
                "reasons": [{"reason": reason, "questions": count}
                            for reason, count in na.reasons]},
            "failures": [{"case": case, "candidate": _plain(value), "baseline": _plain(before)}
                         for case, value, before in outcome.failures],
            "no_run": [{"case": case, "side": side} for case, side in outcome.no_run]})
    return json.dumps({"verdict": "PASS" if result.passed else "FAIL",
                       "passed": result.passed, "policy": result.policy,
                       "candidate": result.candidate, "baseline": result.baseline,
                       "k": result.k, "warnings": list(result.warnings),
                       "notes": list(result.notes), "rules": rules},
                      indent=2, ensure_ascii=False, allow_nan=False) + "\n"
