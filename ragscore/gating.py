"""The release gate as a Python call, for teams that gate inside their own tests::

    def test_release():
        result = ragscore.gate("fixtures/course", policy="fixtures/policies/course.toml",
                               candidate="B", baseline="A")
        assert result.passed, result

``result.passed`` is True only when every rule passed; ``str(result)`` (and the ``repr``
pytest prints under a failed ``assert result.passed``) names each failed rule, its detail
sentence and the questions that broke it, worst first. The rules are judged by
:mod:`ragscore.core.gate`, exactly as ``ragscore gate`` judges them.
"""
from collections import namedtuple

from .core.rules import InvalidInputError, show

#: Questions listed per failed rule in the text of a result.
SHOWN = 5


class GateResult(namedtuple("GateResult", "passed outcomes candidate baseline k policy")):
    """How a candidate fared against a policy: ``passed`` (every rule passed), ``outcomes``
    (one :class:`~ragscore.core.gate.Outcome` per rule, in policy order), the ``candidate``
    and ``baseline`` names, the cutoff ``k`` and the ``policy`` path."""

    __slots__ = ()

    @property
    def failed(self):
        """The outcomes of the rules that failed, in policy order."""
        return [outcome for outcome in self.outcomes if not outcome.passed]

    def __bool__(self):  # a result is a tuple: without this it would always be true
        return self.passed

    def __str__(self):
        from .render.text import format_value

        failed = self.failed
        against = "" if self.baseline is None else f" against baseline {self.baseline}"
        head = (f"gate {'PASS' if self.passed else 'FAIL'}: candidate {self.candidate}"
                f"{against}, k={self.k}: {len(self.outcomes) - len(failed)} of "
                f"{len(self.outcomes)} rules passed")
        lines = [head]
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
        return f"<GateResult {self}>"


def _dataset(dataset):
    from .io.format import Dataset

    if isinstance(dataset, Dataset):
        return dataset
    from .folders import load_dataset

    return load_dataset(dataset)


class GateInputs(namedtuple("GateInputs", "policy dataset counted systems cases tags")):
    """What a gate judges, checked: the loaded ``policy``, the ``dataset``, its
    ``counted`` runs and those runs ``systems`` by name, the test set's ``cases`` (whoever
    answered them) and each case's ``tags``."""

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


def gate_inputs(dataset, *, policy, has_baseline, engine):
    """Load the policy file ``policy`` and check its rules on their own (a rule that needs a
    baseline refused without one), count ``dataset`` (a folder's path or a loaded dataset)
    with ``engine``, then check the rules against the test set (their tags, cases and k):
    the steps ``ragscore gate`` and :func:`gate` share, in one order. ``dataset`` may also
    be two chunkings of one span test set: a :class:`~ragscore.engine.pairs.FolderPair`, or
    a function making one (called after the policy is checked)."""
    from .engine import count_dataset
    from .engine.pairs import FolderPair
    from .io.policy import check_policy_rules, load_policy

    loaded = load_policy(policy)
    check_policy_rules(loaded, policy, has_baseline=has_baseline)
    if callable(dataset):
        dataset = dataset()
    if isinstance(dataset, FolderPair):
        data, counted = dataset.view, dataset.counted
    else:
        data = _dataset(dataset)
        counted = count_dataset(data, engine=engine)
    cases = list(data.cases)  # the test set's questions, whoever answered them
    tags = {name: case.get("tags", ()) for name, case in data.cases.items()}
    check_policy_rules(loaded, policy, has_baseline=has_baseline, cases=cases, tags=tags,
                       max_k=counted.rules.max_k)
    return GateInputs(loaded, data, counted, counted.by_system(), cases, tags)


def refuse_failed_calls(dataset, system, side):
    """Refuse to gate a system with runs recorded as ``failed`` (a call that never
    answered is not an empty ranking): fail closed, naming the first and the count."""
    from .core.trials import trial_runs

    failed = [(case, run.get("trial", 1)) for case, systems in dataset.runs.items()
              for run in trial_runs(systems.get(system, ())) if run.get("failed") is True]
    if failed:
        case, trial = failed[0]
        raise InvalidInputError(
            f"{side} {show(system)}: {len(failed)} run{'s' * (len(failed) != 1)} recorded "
            f"as failed (first: case {show(case)}, trial {trial}); a call that never "
            "answered cannot be judged: record them again (ragscore record ... --resume) "
            "or remove them before gating")


def gate(dataset, *, policy, candidate, baseline=None, engine="columnar",
         allow_mismatch=False):
    """Judge every rule of ``policy`` (a TOML file's path) for system ``candidate`` of
    ``dataset`` (a folder's path, a loaded dataset, or a
    :class:`~ragscore.engine.pairs.FolderPair` of two chunkings of one span test set), against
    system ``baseline`` of the same test set when given; return a :class:`GateResult`.

    Bad input (an unknown system, a rule that needs a baseline without one, runs judged
    under different rubric versions unless ``allow_mismatch``) raises
    :class:`~ragscore.core.rules.InvalidInputError`: a gate fails closed.

    >>> import ragscore
    >>> result = ragscore.gate(ragscore.load_course(), policy="fixtures/policies/course.toml",
    ...                        candidate="B", baseline="A")  # doctest: +SKIP
    >>> result.passed  # doctest: +SKIP
    False
    """
    from .core.gate import run_gate, verdict_of
    from .io.manifest import rubric_conflict

    inputs = gate_inputs(dataset, policy=policy, has_baseline=baseline is not None,
                         engine=engine)
    judged = inputs.system(candidate, "candidate")
    against = None if baseline is None else inputs.system(baseline, "baseline")
    data = inputs.dataset
    if baseline is not None and not allow_mismatch:
        problem = rubric_conflict(data.manifests, data.rubric, baseline, candidate)
        if problem:
            raise InvalidInputError(f"{problem}; refusing to compare (pass "
                                    "allow_mismatch=True to compare anyway)")
    loaded = inputs.policy
    verdict = verdict_of(run_gate(loaded.rules, judged, k=loaded.k, tags=inputs.tags,
                                  baseline=against, cases=inputs.cases,
                                  max_k=inputs.counted.rules.max_k, digits=4))
    return GateResult(verdict.passed, verdict.outcomes, candidate, baseline, loaded.k,
                      str(policy))
