"""The content of a shareable comparison report (``ragscore html``), as plain data.

:func:`review_data` gathers everything the HTML page and the Markdown summary show, computed
by the existing tables (aggregates, paired statistics, sweeps) and the gate: nothing is
recomputed in the page. Values stay ``None`` where they are n/a.
"""
from bisect import bisect_right

from pandas import NA

from ..core.aggregate import label_notes
from ..core.answers import answer_text
from ..core.diagnosis import (DIAGNOSES, FAILURES, combine, diagnose_counts,
                              question_diagnoses)
from ..core.metrics import select, waiting_reason
from ..core.trials import trial_runs
from ..engine import count_dataset, default_metrics
from .nuggets import nugget_assignments
from .scores import scores_frame
from .stats import stats_table
from .summary import aggregates, sweep

#: The largest cutoff the measure-over-k plots reach.
SWEEP_MAX_K = 20


def _plain(value):
    """``value`` as a plain Python number, ``None`` for every kind of n/a (``None``,
    ``pandas.NA``, NaN)."""
    if value is None or value is NA:  # a mean over no question: n/a
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value != value:  # NaN
        return None
    return value


def _means(counted, *, k, metrics, baseline, candidate, stats):
    rows = aggregates(counted, k=k, metrics=tuple(m.name for m in metrics))
    by_metric = {}
    for record in rows.astype(object).to_dict("records"):
        if record["system"] not in (baseline, candidate):
            continue
        entry = by_metric.setdefault(record["metric"], {})
        entry.setdefault(record["system"], []).append(
            {"method": record["method"], "slice": record["slice"],
             "value": _plain(record["value"]), "used": _plain(record["used"]),
             "left_out": _plain(record["left_out"]), "description": record["description"]})
    measures = []
    for metric in metrics:
        paired = stats.get(metric.name, {})
        measures.append({
            "name": metric.name, "label": metric.label_at(k), "kind": metric.kind,
            "baseline": by_metric.get(metric.name, {}).get(baseline, []),
            "candidate": by_metric.get(metric.name, {}).get(candidate, []),
            "paired": {key: _plain(value) for key, value in paired.items()}})
    return measures


def _sweep(counted, *, metrics, baseline, candidate, max_k):
    table = sweep(counted, max_k=max_k, metrics=tuple(m.name for m in metrics))
    curves = {}
    for metric in metrics:
        curves[metric.name] = {
            system: [_plain(table.loc[(system, k), metric.name]) for k in range(1, max_k + 1)]
            for system in (baseline, candidate) if (system, 1) in table.index}
    return {"max_k": max_k, "curves": curves}


def _claims_detail(run, support, *, k):
    """Each claim with its citations, and per citation whether it is labelled for the claim
    and inside the context the answer saw (delivered, else the top k)."""
    retrieved = tuple(run.get("retrieved", ()))
    delivered = run.get("delivered")
    visible = set(retrieved[:k] if delivered is None else delivered)
    claims = []
    for claim, citations in run.get("claims") or ():
        labelled = set((support or {}).get(claim, ()))
        claims.append([claim, [[doc, doc in labelled, doc in visible] for doc in citations]])
    return claims


def _nuggets_detail(case, counts, *, k):
    """Each nugget of the question with its importance and the answer's assignment at k
    (``None``: not assigned yet), when its nuggets are listed or reviewers assigned some
    (else they are its expected claims, shown with the claims)."""
    found = nugget_assignments(case, counts, k=k)
    return None if found is None else [
        [nugget.id, nugget.text, "vital" if nugget.vital else "okay", assignment]
        for nugget, assignment in found]


def _run_detail(run, case, counts, *, k, awaiting):
    if run is None:
        return None
    trials = trial_runs(run)
    by_trial = ([diagnose_counts(one, k=k, run=record, awaiting=awaiting)
                 for one, record in zip(counts, trials)]
                if len(trials) > 1 and not hasattr(counts, "relevant_ranks") else None)
    shown = 0 if by_trial is None else by_trial.index(combine(by_trial))  # the telling trial
    first = trials[shown]
    one = counts if hasattr(counts, "relevant_ranks") else counts[shown]
    delivered = first.get("delivered")
    return {
        "trials": len(trials), "trial_diagnoses": by_trial, "shown_trial": shown + 1,
        "retrieved": list(first.get("retrieved", ())),
        "delivered": None if delivered is None else list(delivered),
        "answer": answer_text(first),
        "claims": None if first.get("claims") is None else _claims_detail(
            first, case.get("support"), k=k),
        "nuggets": _nuggets_detail(case, one, k=k),
        "counts": {"relevant": one.n_relevant, "hits_at_k": bisect_right(one.relevant_ranks, k),
                   "retrieved_relevant": len(one.relevant_ranks), "n_retrieved": one.n_retrieved,
                   "claims": one.n_claims, "supported_at_k": bisect_right(one.claim_cutoffs, k),
                   "expected": one.n_expected}}


def _relevant_ids(case):
    relevant = case.get("relevant") or ()
    if isinstance(relevant, dict):
        return [doc for doc, grade in relevant.items() if grade]
    return list(relevant)


def review_data(dataset, *, baseline, candidate, k, metrics=None, engine="columnar",
                confidence=0.95, seed=0, gate=None, counted=None, cases_by_system=None):
    """Everything the shareable report shows, as plain data (lists, dicts, numbers, None).

    ``gate``: a :class:`~ragscore.gating.GateResult` to show as the verdict, or ``None``.
    Questions are every case either system answered, in the dataset's order; each carries
    both systems' values, the delta, the diagnosis (:mod:`ragscore.core.diagnosis`) and the
    details behind the values (counts, pooled numerators and denominators, retrieved and
    delivered IDs, claims with their citations, nuggets with their importance and
    assignment). Two chunkings of one span test set
    (:class:`~ragscore.engine.pairs.FolderPair`) come with their ``counted`` rows and
    ``cases_by_system`` (each side's labels, derived on its own chunking): each side then
    lists its own relevant IDs."""
    counted = count_dataset(dataset, engine=engine) if counted is None else counted
    names = default_metrics(counted) if metrics is None else metrics
    chosen = list(select(names))
    table = scores_frame(counted, k=k, metrics=tuple(m.name for m in chosen))
    pair = table[table.index.get_level_values("system").isin([baseline, candidate])]
    stats = {row["metric"]: {key: value for key, value in row.items() if key != "metric"}
             for row in stats_table(pair, baseline=baseline, candidate=candidate,
                                    confidence=confidence, seed=seed).astype(object)
             .to_dict("records")}
    diagnoses = question_diagnoses(counted, dataset.runs, k=k)
    values = {metric.name: counted.values(metric, k) for metric in chosen}
    parts = {metric.name: counted.pooled_parts(metric, k) for metric in chosen
             if metric.pooled is not None}
    rows = {}
    for position, (case, system) in enumerate(counted.keys):
        if system not in (baseline, candidate):
            continue
        side = "b" if system == baseline else "c"
        row = rows.setdefault(case, {"case": case, "b": None, "c": None})
        record = (dataset.cases if cases_by_system is None
                  else cases_by_system[system]).get(case, {})
        row.setdefault("question", record.get("question"))
        row.setdefault("tags", list(record.get("tags", ())))
        relevant = _relevant_ids(record)
        row["relevant"] = list(dict.fromkeys(row.get("relevant", []) + relevant))
        detail = _run_detail(dataset.runs.get(case, {}).get(system), record,
                             counted.counts_at(position), k=k,
                             awaiting=(case, system) in counted.waiting) or {}
        if cases_by_system is not None:
            detail["relevant"] = relevant
        detail["diagnosis"] = diagnoses[position]
        waiting = counted.waiting.get((case, system))  # claims awaiting review
        detail["waiting"] = None if waiting is None else waiting_reason(waiting)
        detail["values"] = [_plain(values[m.name][position]) for m in chosen]
        detail["pooled"] = {name: [parts[name][0][position], parts[name][1][position]]
                            for name in parts}
        counts = detail.get("counts")
        if "precision" in values and counts and counts["relevant"] and detail["trials"] == 1:
            detail["pooled"]["precision"] = [counts["hits_at_k"], k]  # P@k = hits / k
        row[side] = detail
    questions = []
    for row in rows.values():
        before = (row["b"] or {}).get("values") or [None] * len(chosen)
        after = (row["c"] or {}).get("values") or [None] * len(chosen)
        row["delta"] = [None if old is None or new is None else float(new) - float(old)
                        for old, new in zip(before, after)]
        questions.append(row)
    max_k = min(SWEEP_MAX_K, counted.rules.max_k,
                max(max((c.get("counts", {}).get("n_retrieved") or 0) for row in questions
                        for c in (row["b"] or {}, row["c"] or {})), k))
    return {
        "dataset": getattr(dataset, "name", "dataset"), "baseline": baseline,
        "candidate": candidate, "k": k, "confidence": confidence, "seed": seed,
        "metrics": [{"name": m.name, "label": m.label_at(k), "kind": m.kind,
                     "lower_is_better": bool(getattr(m, "lower_is_better", False)),
                     "neutral": bool(getattr(m, "neutral", False))}
                    for m in chosen],
        "measures": _means(counted, k=k, metrics=chosen, baseline=baseline,
                           candidate=candidate, stats=stats),
        "sweep": _sweep(counted.take([i for i, (_, s) in enumerate(counted.keys)
                                      if s in (baseline, candidate)]),
                        metrics=chosen, baseline=baseline, candidate=candidate,
                        max_k=max_k),
        "diagnoses": {code: text for code, text in DIAGNOSES.items()},
        "failures": list(FAILURES),
        "questions": questions,
        "gate": None if gate is None else _gate_data(gate),
        "notes": list(getattr(counted, "notes", ())) + label_notes(
            counted, k, systems={baseline, candidate}),
    }


def _gate_data(result):
    return {"passed": result.passed, "policy": result.policy, "k": result.k,
            "rules": [{"name": o.rule.name, "metric": o.rule.metric, "check": o.rule.check,
                       "severity": o.rule.severity, "passed": o.passed, "detail": o.detail,
                       "failures": [[case, _plain(value), _plain(before)]
                                    for case, value, before in o.failures[:10]],
                       "more": max(0, len(o.failures) - 10)}
                      for o in result.outcomes]}
