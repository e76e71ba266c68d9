"""``gate``: a candidate judged against a policy, returned as one :class:`Verdict` (the
release gate as a Python call and as ``ragscore gate``)::

    def test_release():
        verdict = ragscore.gate("fixtures/course", policy="fixtures/policies/course.toml",
                                candidate="B", baseline="A")
        assert verdict.passed, verdict

``verdict.passed`` is True only when every rule passed; ``str(verdict)`` (and the ``repr``
pytest prints under a failed ``assert verdict.passed``) names each failed rule, its detail
sentence and the questions that broke it, worst first. The rules are judged by
:mod:`ragscore.core.gate`; the baseline is a system of the same test set (``baseline``), a
file ``ragscore baseline save`` wrote (``baseline_file``: refused when its content does not
match its digest or the test set changed), or a chunking's folder (``DIR:SYSTEM``).
"""
from collections import namedtuple

from ..core.gate import Outcome
from ..core.rules import InvalidInputError, show
from ..engine import DEFAULT_ENGINE
from ..render import gate as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["GateInputs", "GateResult", "Verdict", "gate", "gate_inputs", "named_system",
           "refuse_failed_calls"]

#: Questions listed per failed rule in the text of a verdict.
SHOWN = 5
#: Exit codes of a verdict.
PASSED, FAILED = 0, 1


class Verdict(Result, namedtuple("Verdict", "passed outcomes candidate baseline k policy "
                                            "warnings notes show digits")):
    """How a candidate fared against a policy: ``passed`` (every rule passed), ``outcomes``
    (one :class:`~ragscore.core.gate.Outcome` per rule, in policy order), the ``candidate``
    and ``baseline`` names (with the baseline file when there is one), the cutoff ``k``,
    the ``policy`` path, the ``warnings`` said first (a mismatch allowed), the ``notes``
    (answers awaiting review, labels lost or open), and how to show it: ``show`` questions
    per failed rule, ``digits`` decimals."""

    __slots__ = ()
    job = "a verdict"

    @property
    def exit_code(self):
        return PASSED if self.passed else FAILED

    @property
    def failed(self):
        """The outcomes of the rules that failed, in policy order."""
        return [outcome for outcome in self.outcomes if not outcome.passed]

    @property
    def header(self):
        against = "" if self.baseline is None else f" against baseline {self.baseline}"
        return (f"gate: {self.policy}: candidate {self.candidate}{against}, k={self.k}, "
                f"{len(self.outcomes)} rules")

    def __bool__(self):  # a result is a tuple: without this it would always be true
        return self.passed

    def __str__(self):
        from ..render.text import format_value

        failed = self.failed
        against = "" if self.baseline is None else f" against baseline {self.baseline}"
        lines = [f"gate {'PASS' if self.passed else 'FAIL'}: candidate {self.candidate}"
                 f"{against}, k={self.k}: {len(self.outcomes) - len(failed)} of "
                 f"{len(self.outcomes)} rules passed"]
        for outcome in failed:
            rule = outcome.rule
            lines.append(f"  FAIL {rule.name} ({rule.metric}, {rule.check}, {rule.severity}): "
                         f"{outcome.detail}")
            for case, value, before in outcome.failures[:SHOWN]:
                was = "" if before is None else f" (baseline {format_value(before, digits=4)})"
                lines.append(f"    {case}: {format_value(value, digits=4)}{was}")
            if len(outcome.failures) > SHOWN:
                lines.append(f"    ... and {len(outcome.failures) - SHOWN} more")
        return "\n".join(lines)

    def __repr__(self):
        return f"<Verdict {self}>"

    writers = writer_table(Writer("text", written.verdict_text),
                           data_writer("json", written.verdict_json))


#: The name the gate's result had before it became a use case's :class:`Verdict`.
GateResult = Verdict


class GateInputs(namedtuple("GateInputs", "policy dataset counted systems cases tags mismatch",
                            defaults=(None,))):
    """What a gate judges, checked: the loaded ``policy``, the ``dataset``, its
    ``counted`` runs and those runs ``systems`` by name, the test set's ``cases`` (whoever
    answered them), each case's ``tags`` and, for two chunkings, why they may not be
    compared (``mismatch``, allowed), else ``None``."""

    __slots__ = ()

    def system(self, name, role):
        """The counted runs of system ``name`` (the ``role`` it plays: candidate or
        baseline); refused when it has no runs or has runs recorded as failed."""
        runs = named_system(self.systems, name, role)
        refuse_failed_calls(self.dataset, name, role)
        return runs


def named_system(systems, name, role):
    """``systems[name]``, refused by name (with the ``role`` it plays and the systems
    there are) when the test set holds no runs of it."""
    if name not in systems:
        raise InvalidInputError(f"{role} system {show(name)} has no runs in this test set; "
                                f"systems: {', '.join(map(show, systems))}")
    return systems[name]


def gate_inputs(dataset, *, policy, has_baseline, engine=DEFAULT_ENGINE):
    """Load the policy file ``policy`` and check its rules on their own (a rule that needs a
    baseline refused without one), count ``dataset`` (a folder's path or a loaded dataset)
    with ``engine``, then check the rules against the test set (their tags, cases and k).
    ``dataset`` may also be two chunkings of one span test set: a
    :class:`~ragscore.engine.pairs.FolderPair`, or a function making one (called after the
    policy is checked)."""
    from ..engine import count_dataset
    from ..engine.pairs import FolderPair
    from ..io.policy import check_policy_rules, load_policy
    from .reading import loaded

    found = load_policy(policy)
    check_policy_rules(found, policy, has_baseline=has_baseline)
    if callable(dataset):
        dataset = dataset()
    mismatch = None
    if isinstance(dataset, FolderPair):
        data, counted, mismatch = dataset.view, dataset.counted, dataset.mismatch
    else:
        data = loaded(dataset)
        counted = count_dataset(data, engine=engine)
    cases = list(data.cases)  # the test set's questions, whoever answered them
    tags = {name: case.get("tags", ()) for name, case in data.cases.items()}
    check_policy_rules(found, policy, has_baseline=has_baseline, cases=cases, tags=tags,
                       max_k=counted.rules.max_k)
    return GateInputs(found, data, counted, counted.by_system(), cases, tags, mismatch)


def refuse_failed_calls(dataset, system, side):
    """Refuse to gate a system with runs recorded as ``failed`` (a call that never
    answered is not an empty ranking): fail closed, naming the first and the count."""
    from ..core.trials import trial_runs

    failed = [(case, run.get("trial", 1)) for case, systems in dataset.runs.items()
              for run in trial_runs(systems.get(system, ())) if run.get("failed") is True]
    if failed:
        case, trial = failed[0]
        raise InvalidInputError(
            f"{side} {show(system)}: {len(failed)} run{'s' * (len(failed) != 1)} recorded "
            f"as failed (first: case {show(case)}, trial {trial}); a call that never "
            "answered cannot be judged: record them again (ragscore record ... --resume) "
            "or remove them before gating")


def _stored_baseline(path, dataset, inputs):
    """``(problem or None, system, stored counts)`` of a baseline file: its digest checked
    as it is read, then whether it was saved for this test set."""
    from ..engine.reference import ReferenceCounted
    from ..io.baseline import load_baseline
    from ..io.manifest import fingerprint

    system, stored, _, questions = load_baseline(path)
    counts = ReferenceCounted([(case, system) for case in questions], list(questions.values()))
    current = fingerprint(dataset)
    for key in sorted(set(stored) | set(current)):
        if stored.get(key) != current.get(key):
            return (f"the baseline file {path} (system {system}) was saved for another test "
                    f"set: its {key} is {stored.get(key)}, this test set's is "
                    f"{current.get(key)}"), system, counts
    return None, system, counts


def _regression_scope(rules, cases, tags):
    """The questions some ``no_regression`` rule judges, in test-set order."""
    from ..core.gate import CHECKS, in_scope

    judged = set()
    for rule in rules:
        if CHECKS[rule.check].needs == "baseline":
            judged.update(in_scope(rule, cases, tags))
    return [case for case in cases if case in judged]


def _source(dataset, baseline, candidate, engine, allow_mismatch):
    """What :func:`gate_inputs` counts: ``dataset``, or without one the two chunkings
    ``baseline`` and ``candidate`` name (``DIR:SYSTEM``), paired once the policy is read."""
    if dataset is not None:
        return dataset
    if baseline is None:
        raise InvalidInputError("without DATASET, gate compares two chunkings of one span "
                                "test set: --baseline DIR:SYSTEM --candidate DIR:SYSTEM")
    from ..engine.pairs import pair_folders

    return lambda: pair_folders(baseline, candidate, engine=engine,
                                allow_mismatch=allow_mismatch)


def ppi_outcome(rule, estimate, label, where, *, digits=2):
    """The :class:`~ragscore.core.gate.Outcome` of a ``min_mean`` rule judged by an
    estimate: it passes only when the interval's lower end reaches the threshold (an
    undefined estimate fails: nothing shows it passes)."""
    if estimate.mean is None:
        return Outcome(rule, False, None, 0, 0, [],
                       f"estimate (prediction-powered) of the mean {label} in the {where}: "
                       f"n/a ({estimate.reason}): nothing shows it passes.")
    passed = estimate.low >= rule.threshold
    return Outcome(rule, passed, estimate.mean, estimate.sample + estimate.rest, 0, [],
                   f"estimate (prediction-powered, not a measurement) of the mean {label} "
                   f"{estimate.mean:.{digits}f}, 95% interval [{estimate.low:.{digits}f}, "
                   f"{estimate.high:.{digits}f}], from {estimate.rest} answers a judge "
                   f"drafted and {estimate.sample} people judged in the audit sample, in the "
                   f"{where}; threshold {rule.threshold:g}, which the interval's lower end "
                   f"{'reaches' if passed else 'does not reach'}.")


def _estimated(outcomes, inputs, candidate, *, k, digits):
    """``outcomes`` with each rule that says ``estimate = "ppi"`` judged by the
    prediction-powered estimate of its mean (:mod:`ragscore.usecases.estimate`) over its
    scope: a judge's drafts corrected by people's audit sample."""
    from ..core.gate import in_scope
    from ..core.metrics import get
    from .estimate import estimates, judge_counted
    from ..core.audit_slice import AUDIT_SHARE, audit_cases

    judge, found = None, []
    for outcome in outcomes:
        rule = outcome.rule
        if rule.estimate is None or outcome.no_run:
            found.append(outcome)
            continue
        judge = judge or judge_counted(inputs.dataset)
        metric, at = get(rule.metric), rule.k or k
        scope = in_scope(rule, inputs.cases, inputs.tags)
        sample = audit_cases(inputs.dataset.cases, seed=rule.audit_seed or 0,
                             share=AUDIT_SHARE if rule.audit_share is None else rule.audit_share)
        row = estimates(inputs.dataset, k=at, metrics=[metric], sample=sample,
                        cases=set(scope), systems={candidate}, people=inputs.counted,
                        judge=judge, conservative=True)[0]
        where = f"{len(scope)} question{'s' * (len(scope) != 1)}" + (
            f" tagged {rule.slice}" if rule.slice is not None else "")
        found.append(ppi_outcome(rule, row.ppi, metric.label_at(at), where, digits=digits))
    return found


def gate(dataset, *, policy, candidate, baseline=None, baseline_file=None,
         engine=DEFAULT_ENGINE, allow_mismatch=False, digits=4, show=10):
    """Judge every rule of ``policy`` (a TOML file's path) for system ``candidate`` of
    ``dataset`` (a folder's path, a loaded dataset, a
    :class:`~ragscore.engine.pairs.FolderPair`, or ``None`` with ``baseline`` and
    ``candidate`` as ``DIR:SYSTEM``), against system ``baseline`` of the same test set or the
    baseline file ``baseline_file``; return a :class:`Verdict`.

    Bad input (an unknown system, a rule that needs a baseline without one, a baseline file
    edited since it was saved or saved for another test set, runs judged under different
    rubric versions unless ``allow_mismatch``) raises
    :class:`~ragscore.core.rules.InvalidInputError`: a gate fails closed.

    >>> import ragscore
    >>> verdict = ragscore.gate(ragscore.load_course(), candidate="B", baseline="A",
    ...                         policy="fixtures/policies/course.toml")  # doctest: +SKIP
    >>> verdict.passed  # doctest: +SKIP
    False
    """
    from ..core.aggregate import label_notes
    from ..core.gate import run_gate, verdict_of
    from ..io.manifest import rubric_conflict
    from ..io.spans import LOST_NOTE

    if baseline is not None and baseline_file is not None:
        raise InvalidInputError("give --baseline SYS or --baseline-file FILE, not both")
    has_baseline = baseline is not None or baseline_file is not None
    inputs = gate_inputs(_source(dataset, baseline, candidate, engine, allow_mismatch),
                         policy=policy, has_baseline=has_baseline, engine=engine)
    found, data, counted = inputs.policy, inputs.dataset, inputs.counted
    judged = inputs.system(candidate, "candidate")
    warnings, against, name = [], None, baseline
    if has_baseline:
        if baseline_file is not None:
            from ..io.baseline import check_against_test_set

            problem, name, against = _stored_baseline(baseline_file, data, inputs)
            if not problem:
                check_against_test_set(
                    {case: against.counts_at(position)
                     for position, (case, _) in enumerate(against.keys)}, counted,
                    cases=inputs.cases, path=baseline_file,
                    scope=_regression_scope(found.rules, inputs.cases, inputs.tags))
        else:
            problem = rubric_conflict(data.manifests, data.rubric, baseline, candidate)
            problem = inputs.mismatch or problem
            against = inputs.system(baseline, "baseline")
        if problem and not allow_mismatch:
            raise InvalidInputError(f"{problem}; refusing to compare (update the baseline "
                                    "with 'ragscore baseline save', or pass --allow-mismatch)")
        if problem:
            warnings.append(f"--allow-mismatch: {problem}")
    outcomes = run_gate(found.rules, judged, k=found.k, tags=inputs.tags, baseline=against,
                        cases=inputs.cases, max_k=counted.rules.max_k, digits=digits)
    if any(rule.estimate is not None for rule in found.rules):
        outcomes = _estimated(outcomes, inputs, candidate, k=found.k, digits=digits)
    verdict = verdict_of(outcomes)
    notes = [note for note in counted.notes  # answers awaiting review, span labels lost
             if note.startswith((f"system {candidate}: ", f"system {name}: ", LOST_NOTE))]
    notes += label_notes(counted, found.k, systems={candidate, name})
    shown = name if baseline_file is None or name is None else f"{name} ({baseline_file})"
    return Verdict(verdict.passed, verdict.outcomes, candidate, shown, found.k, str(policy),
                   tuple(warnings), tuple(notes), show, digits)
