"""``ragscore compare --measures ... --format csv|json``: two systems compared on named
measures (``nDCG@10 AP RR``) as plain data: a summary per measure, then the per-question
rows.

Per measure, the summary gives each side's mean (the declared aggregate of
:func:`ragscore.core.measures.score_measures`: macro over the questions where it is
defined), the paired difference (mean of candidate - baseline over the questions both
systems ran where both are defined, yes counting 1 and no 0), its bootstrap interval and
sign-flip p-value (:func:`ragscore.tables.stats.paired_stats`, as ``compare --stats``) and
that p-value adjusted for the measures tested together (``p_holm``, Holm's, over ``tested``
measures), the
pairs used and left out (n/a on either side) and the method. ``na_as_zero`` counts a
retrieval measure with nothing relevant as 0 on both sides, in the rows and the summary
alike, as trec_eval does.

>>> from ragscore.engine import count_dataset
>>> from ragscore.io.course import load_course
>>> found = compare_measures(count_dataset(load_course()), "RR P@1", baseline="A",
...                          candidate="B", default_k=2)
>>> [(row["measure"], row["baseline"], row["candidate"], row["delta"], row["used"])
...  for row in found["summary"]]  # RR: A (1 + 1 + 1/2) / 3, B 1; P@1: A 2/3, B 1
[('RR', 0.8333333333333334, 1.0, 0.16666666666666666, 3), ('P@1', 0.6666666666666666, 1.0, 0.3333333333333333, 3)]
"""
from ..core.measures import measures_of, score_measures
from ..core.paired import VERDICTS, pair_up
from .stats import RESAMPLES, paired_stats, percent, with_holm


def _mean_of(summary, system, label):
    """``(value, used, left_out, method)`` of ``system``'s declared mean of ``label``: the
    macro mean where there is one, else the first aggregate (a count of yes)."""
    rows = [row for row in summary if row["system"] == system and row["measure"] == label]
    chosen = next((row for row in rows if row["method"] == "macro"), rows[0] if rows else None)
    if chosen is None:
        return None, 0, 0, ""
    return chosen["value"], chosen["used"], chosen["left_out"], chosen["method"]


def _plain(value):
    return float(value) if isinstance(value, bool) else value


def compare_measures(counted, measures, *, baseline, candidate, default_k, na_as_zero=False,
                     confidence=0.95, seed=0):
    """``{"baseline", "candidate", "measures", "confidence", "summary", "rows"}``: one
    summary dict per measure (see the module docstring) and one row per question both ran
    and measure: ``case, measure, baseline, candidate, delta, verdict`` (None for n/a; yes
    1.0, no 0.0), regressions first as ``compare`` lists them."""
    scored = score_measures(counted, measures_of(measures), default_k=default_k,
                            na_as_zero=na_as_zero)
    chosen = scored.measures  # each with the cutoff it was scored at
    metrics = tuple(m.definition._replace(name=m.label, label=m.label) for m in chosen)
    paired = pair_up(counted.keys, scored.columns, baseline=baseline, candidate=candidate,
                     metrics=metrics)
    width = len(metrics)
    summary = []
    for index, measure in enumerate(chosen):
        outcomes = [paired.outcomes[code] for code in paired.codes[index::width]]
        both = [(before, after) for _, before, after, delta, _ in outcomes
                if delta is not None]
        stats = paired_stats([before for before, _ in both], [after for _, after in both],
                             confidence=confidence, seed=seed)
        sides = {}
        for role, system in (("baseline", baseline), ("candidate", candidate)):
            value, used, left_out, method = _mean_of(scored.summary, system, measure.label)
            sides.update({role: value, f"{role}_used": used, f"{role}_left_out": left_out,
                          f"{role}_method": method})
        summary.append({
            "measure": measure.label, **sides, "delta": stats.mean_delta,
            "ci_low": stats.ci_low, "ci_high": stats.ci_high, "p_value": stats.p_value,
            "used": stats.n, "left_out": len(outcomes) - stats.n,
            "method": f"paired mean of candidate - baseline over questions both define; "
                      f"{stats.method}", "note": stats.note})
    with_holm(summary)  # several measures tested together: p_holm beside p_value
    order = sorted(range(len(paired.codes)), key=lambda position: (
        _RANK[paired.outcomes[paired.codes[position]][4]],
        -abs(paired.outcomes[paired.codes[position]][3] or 0.0), position))
    rows = []
    for position in order:
        name, before, after, delta, verdict = paired.outcomes[paired.codes[position]]
        rows.append({"case": paired.cases[position // width], "measure": name,
                     "baseline": _plain(before), "candidate": _plain(after),
                     "delta": delta, "verdict": verdict})
    return {"baseline": baseline, "candidate": candidate,
            "measures": [measure.label for measure in chosen],
            "confidence": percent(confidence), "resamples": RESAMPLES,
            "summary": summary, "rows": rows}


_RANK = {verdict: rank for rank, verdict in enumerate(VERDICTS)}
