"""What the items awaiting review can still change, worked out with the gate itself
(``review status``, ``review export --order decision``, docs/labels.md).

The **pending** items are those of the review queue nobody has judged (every system's pool
at the depth asked, the questions, the claims, the nuggets and, with ``citations``, the
cited passages); a claim, nugget assignment or citation that only other systems' answers
make cannot change the two systems' counts, and moves nothing. For each question with
pending items, every combination of their
decisions (each item's scale: a passage 0 or 1, and 2 too when a rule reads graded gains or
``min_relevance`` is above 1; a claim each of its buttons; ...) is one **option**: the
question's runs of the candidate and the baseline are counted with those decisions added as
judgements (the reference engine, one question at a time), and each rule's numbers are read
from the counts as the gate reads them (the same rule objects, ``values_by_case`` and
:func:`ragscore.core.gate.count_na`). :mod:`ragscore.core.deciding` then says which rules
pass or fail whatever is decided, and which items can still move a rule; every rule called
settled is judged again by :func:`ragscore.core.gate.judge` on the whole test set counted
with the completion that comes closest to the other outcome, and stays open if the gate
disagrees. A question with more than ``cap`` options is not enumerated: every rule whose
scope holds it stays open, and each of its items counts as able to move them.

Without a policy, a paired comparison: the sign of the mean delta of ``metric`` at ``k``
(candidate - baseline over the questions defined on both sides).

The **audit slice** (:mod:`ragscore.core.audit_slice`) is drawn per question from a seed
alone, so ``report --estimate ppi`` finds the same questions later.
"""
from collections import namedtuple
from itertools import product

from ..core.deciding import FAIL, OPEN, PASS, Contribution, Space, movers, rule_status
from ..core.rules import InvalidInputError, show

__all__ = ["CAP", "Decider", "decider", "scenario_record"]

#: The most options a question is enumerated with.
CAP = 1024
#: Metrics that read a passage's grade beyond relevant or not (graded gains).
GRADED = frozenset({"ndcg"})
#: The reviewer a completion's judgements are recorded under (never stored).
SCENARIO = "ragscore:scenario"


def scenario_record(row, decision, states=None):
    """The judgement record a completion adds for one queue ``row`` (a person's, so it
    scores; never stored)."""
    from ..core.answers import normalise

    record = {"kind": row["kind"], "case": row["case"], "key": row["key"]}
    if row["kind"] in ("relevance", "citation"):
        record["doc"] = row["doc"]
    if row["kind"] in ("support", "citation"):
        record["claim"] = normalise(row["claim"])
    if row["kind"] == "support":
        record["citations"] = list(row["citations"])
    if row["kind"] == "nugget":
        record["nugget"] = row["nugget"]
    record.update(decision=decision, reviewer=SCENARIO, date="2000-01-01", origin="human",
                  batch="0" * 16)
    if states:
        record["states"] = states
    return record


class Decider(namedtuple("Decider", "rules k candidate baseline metric rows options spaces "
                                    "statuses movers open_cases notes")):
    """The pending items against a policy (``rules`` at ``k``) or a comparison (``metric``
    at ``k``; ``rules`` empty): the pending ``rows``, each question's ``options``
    (``[(records, contributions by rule)]``; ``None`` above the cap), each rule's
    :class:`~ragscore.core.deciding.Space` and settled status (``statuses``:
    ``{rule name: outcome}``, after the gate's check), ``movers`` (``{item: [rule names it
    can move]}``, item ``(kind, case, key)``), the questions not enumerated
    (``open_cases``) and ``notes``."""

    __slots__ = ()

    @property
    def verdict(self):
        """``PASS`` or ``FAIL`` whatever the pending items say, else ``None``; for a
        comparison, ``PASS`` is above 0 and ``FAIL`` below."""
        outcomes = list(self.statuses.values())
        if any(outcome == FAIL for outcome in outcomes):
            return FAIL
        if outcomes and all(outcome == PASS for outcome in outcomes):
            return PASS
        return None

    @property
    def deciding(self):
        """The pending items that can still move some rule, in queue order."""
        return [item for item in self.movers if self.movers[item]]


def _decisions(row, grades):
    from ..io.review_queue import row_choices

    if row["kind"] == "relevance":
        return [(grade, None) for grade in grades]
    return [(decision, states) for _, decision, states in row_choices(row)]


def _views(dataset, case, systems, records, engine):
    """``{system: counted rows}`` of one question counted with ``records`` added."""
    from ..engine import count_dataset

    per_case = dataset.runs.get(case, {})
    sub = dataset._replace(
        cases={case: dataset.cases[case]},
        runs={case: {name: per_case[name] for name in systems if name in per_case}},
        judgements=records)
    if not sub.runs[case]:
        return {}
    return count_dataset(sub, engine=engine).by_system()


def _contribution(rule, metric, k, case, views, candidate, baseline):
    from ..core.gate import count_na

    mine, theirs = views.get(candidate), views.get(baseline)
    value = None if mine is None else mine.values_by_case(metric, k).get(case)
    before = None if theirs is None else theirs.values_by_case(metric, k).get(case)
    unforced = forced_before = 0
    if rule is not None and mine is not None:
        na = count_na(rule, metric, k, [case], mine, theirs)
        unforced, forced_before = na.unforced, na.baseline_unforced or 0
    return Contribution(value, before, unforced, forced_before)


class _Target(namedtuple("_Target", "name rule metric k scope")):
    __slots__ = ()


def _targets(dataset, policy, candidate, baseline, metric, k, counted):
    """What is judged: one target per rule of ``policy``, or the comparison's."""
    from ..core.gate import check_rule, in_scope
    from ..core.metrics import get

    cases = list(dataset.cases)
    tags = {name: case.get("tags", ()) for name, case in dataset.cases.items()}
    if policy is None:
        return [_Target(f"sign of the mean {metric} delta", None, get(metric), k, cases)]
    return [_Target(rule.name, rule, check_rule(rule, has_baseline=baseline is not None,
                                                max_k=counted.rules.max_k),
                    rule.k or policy.k, in_scope(rule, cases, tags))
            for rule in policy.rules]


def _space(target, outcome, options, baseline):
    metric = target.metric
    per_case = {case: [contributions[target.name] for _, contributions in listed]
                for case, listed in options.items()
                if case in set(target.scope) and listed is not None}
    if target.rule is None:
        return Space("sign", None, None, metric.lower_is_better, 0, (), per_case)
    rule = target.rule
    allowed = outcome.na.allowed if outcome.na is not None else 0
    return Space(rule.check, rule.threshold, rule.tolerance, metric.lower_is_better,
                 allowed, outcome.no_run, per_case)


def _case_options(dataset, case, rows, by_case, grades, targets, systems, engine, cap,
                  candidate, baseline, cache):
    """Every option of one question: ``[(records, {target: Contribution})]``, or ``None``
    above ``cap``."""
    decisions = [_decisions(row, grades) for row in rows]
    total = 1
    for listed in decisions:
        total *= len(listed)
    if total > cap:
        return None, decisions
    found = []
    made = [[scenario_record(row, decision, states) for decision, states in listed]
            for row, listed in zip(rows, decisions)]
    items = tuple((row["kind"], row["key"]) for row in rows)
    judged = tuple((record["kind"], record["key"], record["reviewer"], str(record["decision"]),
                    record.get("states")) for record in by_case.get(case, []))
    for chosen in product(*[range(len(listed)) for listed in decisions]):
        records = [made[place][choice] for place, choice in enumerate(chosen)]
        memo = (case, items, chosen, judged)
        if cache is not None and memo in cache:
            found.append((records, cache[memo]))
            continue
        views = _views(dataset, case, systems, by_case.get(case, []) + records, engine)
        contributions = {target.name: _contribution(target.rule, target.metric, target.k,
                                                    case, views, candidate, baseline)
                         for target in targets}
        if cache is not None:
            cache[memo] = contributions
        found.append((records, contributions))
    return found, decisions


def _pairs(decisions, position):
    """The pairs of option numbers that differ only in item ``position``'s decision (every
    two decisions of its scale: its ends and what lies between)."""
    sizes = [len(listed) for listed in decisions]
    strides, stride = [0] * len(sizes), 1
    for place in reversed(range(len(sizes))):
        strides[place], stride = stride, stride * sizes[place]
    found = []
    for number in range(stride):
        mine = (number // strides[position]) % sizes[position]
        for other in range(mine + 1, sizes[position]):
            found.append((number, number + (other - mine) * strides[position]))
    return found


def _confirmed(dataset, targets, status, options, records_now, gate_args, engine):
    """``status`` with each settled rule judged again by the gate on the whole test set
    counted with each witness completion; a rule the gate does not confirm is open."""
    from ..engine import count_dataset

    checked = {}
    for target in targets:
        outcome, witnesses = status[target.name]
        if outcome == OPEN:
            checked[target.name] = OPEN
            continue
        agreed = True
        for witness in witnesses:
            records = [record for case, option in witness.items()
                       if options.get(case) is not None
                       for record in options[case][option][0]]
            counted = count_dataset(dataset._replace(
                judgements=tuple(records_now) + tuple(records)), engine=engine).by_system()
            agreed = agreed and _judged(target, counted, gate_args) == outcome
        checked[target.name] = outcome if agreed else OPEN
    return checked


def _judged(target, counted, gate_args):
    """PASS or FAIL of one target on a whole counted test set (the gate's own judge, or
    the sign of the mean paired delta)."""
    from ..core.gate import judge

    candidate, baseline, tags, cases, max_k = gate_args
    mine, theirs = counted.get(candidate), counted.get(baseline)
    if target.rule is None:
        before = theirs.values_by_case(target.metric, target.k)
        deltas = [float(value) - float(before[case]) for case, value in
                  mine.values_by_case(target.metric, target.k).items()
                  if value is not None and before.get(case) is not None]
        total = sum(deltas)
        return PASS if deltas and total > 0 else FAIL if deltas and total < 0 else OPEN
    outcome = judge(target.rule, mine, k=target.k, tags=tags, baseline=theirs, cases=cases,
                    max_k=max_k)
    return PASS if outcome.passed else FAIL


def decider(dataset, *, candidate, policy=None, baseline=None, metric=None, k=None,
            pool_depth=None, citations=False, split="sentence", pattern=None, cap=CAP,
            engine="reference", cache=None):
    """The :class:`Decider` of ``dataset``'s pending items against ``policy`` (a TOML
    file's path) for ``candidate`` (and ``baseline``), or, without a policy, the sign of
    the mean paired delta of ``metric`` at ``k`` between ``candidate`` and ``baseline``.
    ``pool_depth`` (default: the queue's), ``citations``, ``split`` and ``pattern``
    choose the pending items as ``review export`` does; ``cache`` (a dict) keeps each
    question's counted options between calls."""
    from ..core.gate import run_gate
    from ..io.review_queue import POOL_DEPTH, review_queue
    from .gate import gate_inputs
    from .reading import cutoff, loaded

    if policy is None and (metric is None or baseline is None):
        raise InvalidInputError("give --policy P, or a comparison: --metric M with "
                                "--baseline A and --candidate B")
    if policy is not None and metric is not None:
        raise InvalidInputError("--policy and --metric both say what decides; give one")
    if type(cap) is not int or cap < 1:
        raise InvalidInputError(f"cap must be a whole number 1 or above; got {show(cap)}")
    source = loaded(dataset)
    inputs = gate_inputs(source, policy=policy, has_baseline=baseline is not None,
                         engine=engine) \
        if policy is not None else None
    from ..engine import count_dataset

    counted = inputs.counted if inputs is not None else count_dataset(source, engine=engine)
    systems = counted.by_system()
    from .gate import named_system

    named_system(systems, candidate, "candidate")
    if baseline is not None:
        named_system(systems, baseline, "baseline")
    if policy is None:
        from ..core.metrics import get

        get(metric)
        k = cutoff(2 if k is None else k, counted.rules)
    found_policy = inputs.policy if inputs is not None else None
    targets = _targets(source, found_policy, candidate, baseline, metric, k, counted)
    cases = list(source.cases)
    tags = {name: case.get("tags", ()) for name, case in source.cases.items()}
    outcomes = {}
    if found_policy is not None:
        for target, outcome in zip(targets, run_gate(
                found_policy.rules, systems[candidate], k=found_policy.k, tags=tags,
                baseline=systems.get(baseline), cases=cases, max_k=counted.rules.max_k)):
            outcomes[target.name] = outcome
    depth = POOL_DEPTH if pool_depth is None else pool_depth
    rows = review_queue(source, pool_depth=depth, citations=citations, split=split,
                        pattern=pattern)
    graded = any(target.metric.name in GRADED for target in targets)
    grades = (0, 1, 2) if graded or source.min_relevance != 1 else (0, 1)
    chosen = [name for name in (candidate, baseline) if name is not None]
    # an answer's items (claims, nugget assignments, citations) of other systems cannot
    # change these two systems' counts: they are pending, and move nothing
    read = {(row["kind"], row["case"], row["key"]) for name in chosen
            for row in review_queue(source, system=name, pool_depth=0, citations=citations,
                                    split=split, pattern=pattern)}
    by_case, pending, idle = {}, {}, []
    for record in source.judgements:
        by_case.setdefault(record["case"], []).append(record)
    for row in rows:
        item = (row["kind"], row["case"], row["key"])
        if row["kind"] in ("relevance", "answerability") or item in read:
            pending.setdefault(row["case"], []).append(row)
        else:
            idle.append(item)
    options, decisions, open_cases = {}, {}, []
    for case in cases:
        listed, decisions[case] = _case_options(
            source, case, pending.get(case, []), by_case, grades, targets, chosen, engine,
            cap, candidate, baseline, cache)
        options[case] = listed
        if listed is None:
            open_cases.append(case)
    spaces = {target.name: _space(target, outcomes.get(target.name), options, baseline)
              for target in targets}
    status = {}
    for target in targets:
        if any(case in open_cases for case in target.scope):
            status[target.name] = (OPEN, ())
        else:
            status[target.name] = rule_status(spaces[target.name])
    gate_args = (candidate, baseline, tags, cases, counted.rules.max_k)
    statuses = _confirmed(source, targets, status, options, source.judgements, gate_args,
                          engine)
    moving, asked = {item: [] for item in idle}, {}
    for case, listed in pending.items():
        for position, row in enumerate(listed):
            item = (row["kind"], row["case"], row["key"])
            moving[item] = []
            if options[case] is None:  # not worked out: it may move every rule over it
                moving[item] = [target.name for target in targets if case in target.scope]
            else:
                asked[item] = (case, _pairs(decisions[case], position))
    for target in targets:
        if statuses[target.name] != OPEN:
            continue
        space = spaces[target.name]
        found = movers(space, {item: ask for item, ask in asked.items()
                               if ask[0] in space.options})
        for item in asked:
            if item in found:
                moving[item].append(target.name)
    notes = []
    if open_cases:
        notes.append(f"{len(open_cases)} question{'s' * (len(open_cases) != 1)} with more "
                     f"than {cap} ways to decide its pending items not worked out (every "
                     f"rule over it stays open): {', '.join(map(show, open_cases[:5]))}")
    unconfirmed = [name for name, (outcome, _) in status.items()
                   if outcome != OPEN and statuses[name] == OPEN]
    if unconfirmed:
        notes.append(f"rules the gate did not confirm as settled, left open: "
                     f"{', '.join(map(show, unconfirmed))}")
    return Decider(tuple(target.name for target in targets), k if policy is None else
                   found_policy.k, candidate, baseline, metric, rows, options, spaces,
                   statuses, moving, tuple(open_cases), tuple(notes))
