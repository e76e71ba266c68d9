"""The release commands of ``ragscore``: ``manifest``, ``baseline save`` and ``gate``.

Wiring only: the gate's rules live in :mod:`ragscore.core.gate`, policies in
:mod:`ragscore.io.policy`, baselines in :mod:`ragscore.io.baseline`, fingerprints and
manifests in :mod:`ragscore.io.manifest`.
"""
import json

from .measures import digits_option
from ..core.rules import InvalidInputError, show

PASSED, FAILED = 0, 1


def _manifest(args, out):
    from ..folders import load_dataset
    from ..io.manifest import manifest_report

    report = manifest_report(load_dataset(args.dataset))
    out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return PASSED


def _validate(args, out):
    from ..folders import validate_folder

    checked = validate_folder(args.dataset)
    out.write(f"{args.dataset}: valid against the shipped JSON Schemas and the reader: "
              + ", ".join(f"{count} {kind} records" for kind, count in checked.items()) + "\n")
    return PASSED


def _upgrade(args, out):
    from ..folders import upgrade_folder

    before, after = upgrade_folder(args.dataset)
    out.write(f"{args.dataset}: format version {before} rewritten as version {after} (the "
              "test set in JSON Lines, the runs in Parquet)\n")
    return PASSED


def _counted_by_system(dataset, engine):
    from ..engine import count_dataset

    counted = count_dataset(dataset, engine=engine)
    return counted, counted.by_system()


def _baseline_save(args, out):
    from .options import output_file
    from ..gating import named_system, refuse_failed_calls
    from ..io.baseline import baseline_record, save_baseline
    from ..folders import load_dataset
    from ..io.manifest import fingerprint

    target = output_file("--out", args.out, inputs=(args.dataset,))
    # one read: every file of the folder opened before any is read (io/store.py), so the
    # counts and the fingerprint are of one version even while someone saves the folder,
    # and nothing is written into it (no lock to hold, even on a read-only folder)
    dataset = load_dataset(args.dataset)
    counted, systems = _counted_by_system(dataset, args.engine)
    named_system(systems, args.system, "baseline")
    refuse_failed_calls(dataset, args.system, "baseline")  # as gate --baseline refuses it
    record = baseline_record(counted, args.system, fingerprint=fingerprint(dataset),
                             manifest=(dataset.manifests or {}).get(args.system))
    save_baseline(record, target)
    out.write(f"baseline of system {args.system} written to {args.out}: "
              f"{len(record['questions'])} questions, test set "
              f"{record['fingerprint']['questions_sha256'][:12]}\n")
    return PASSED


def _mismatch(dataset, args, candidate):
    """``(message or None, baseline name, baseline counts or None)``: why the candidate and
    its baseline may not be compared."""
    from ..io.manifest import fingerprint, rubric_conflict

    if args.baseline_file is not None:
        from ..engine.reference import ReferenceCounted
        from ..io.baseline import load_baseline

        system, stored, _, questions = load_baseline(args.baseline_file)
        questions = ReferenceCounted([(case, system) for case in questions],
                                     list(questions.values()))
        current = fingerprint(dataset)
        for key in ("corpus_sha256", "questions_sha256", "rubric"):
            if stored.get(key) != current.get(key):
                return (f"the baseline file {args.baseline_file} (system {system}) was saved "
                        f"for another test set: its {key} is {stored.get(key)}, this test "
                        f"set's is {current.get(key)}"), system, questions
        return None, system, questions
    return (rubric_conflict(dataset.manifests, dataset.rubric, args.baseline, candidate),
            args.baseline, None)


def _regression_scope(rules, cases, tags):
    """The questions some ``no_regression`` rule judges, in test-set order."""
    from ..core.gate import CHECKS, in_scope

    judged = set()
    for rule in rules:
        if CHECKS[rule.check].needs == "baseline":
            judged.update(in_scope(rule, cases, tags))
    return [case for case in cases if case in judged]


def _gate(args, out):
    from ..core.gate import run_gate, verdict_of
    from ..gating import gate_inputs
    from ..render.gate import gate_text

    # an empty name is a baseline asked for (and refused), never a gate without one
    if args.baseline is not None and args.baseline_file is not None:
        raise InvalidInputError("give --baseline SYS or --baseline-file FILE, not both")
    has_baseline = args.baseline is not None or args.baseline_file is not None
    source = args.dataset
    if source is None:  # --baseline DIR:SYSTEM --candidate DIR:SYSTEM
        from .options import read_pair

        if args.baseline is None:
            raise InvalidInputError("without DATASET, gate compares two chunkings of one span "
                                    "test set: --baseline DIR:SYSTEM --candidate DIR:SYSTEM")
        source = lambda: read_pair(args)  # noqa: E731 (counted after the policy is checked)
    inputs = gate_inputs(source, policy=args.policy, has_baseline=has_baseline,
                         engine=args.engine)
    policy, dataset, counted = inputs.policy, inputs.dataset, inputs.counted
    cases, tags = inputs.cases, inputs.tags
    candidate = inputs.system(args.candidate, "candidate")
    warnings, baseline, against = [], None, ""
    if has_baseline:
        problem, name, stored = _mismatch(dataset, args, args.candidate)
        if problem and not args.allow_mismatch:
            raise InvalidInputError(f"{problem}; refusing to compare (update the baseline "
                                    "with 'ragscore baseline save', or pass --allow-mismatch)")
        if problem:
            warnings.append(f"--allow-mismatch: {problem}")
        if stored is not None:
            from ..io.baseline import check_against_test_set

            check_against_test_set(
                {case: stored.counts_at(position) for position, (case, _) in
                 enumerate(stored.keys)}, counted, cases=cases,
                scope=_regression_scope(policy.rules, cases, tags), path=args.baseline_file)
        baseline = stored if stored is not None else inputs.system(name, "baseline")
        against = f" against baseline {name}" + (f" ({args.baseline_file})"
                                                 if args.baseline_file else "")
    verdict = verdict_of(run_gate(policy.rules, candidate, k=policy.k, tags=tags,
                                  baseline=baseline, cases=cases, max_k=counted.rules.max_k,
                                  digits=args.digits))
    header = (f"gate: {args.policy}: candidate {args.candidate}{against}, k={policy.k}, "
              f"{len(verdict.outcomes)} rules")
    from ..core.aggregate import label_notes

    from ..io.spans import LOST_NOTE

    notes = [note for note in counted.notes  # answers awaiting review, span labels lost
             if note.startswith((f"system {args.candidate}: ", f"system {args.baseline}: ",
                                 LOST_NOTE))]
    notes += label_notes(counted, policy.k, systems={args.candidate, args.baseline})
    out.write("\n".join(gate_text(verdict, header=header, show=args.show,
                                  warnings=warnings, notes=notes, digits=args.digits)) + "\n")
    return PASSED if verdict.passed else FAILED


def _at_least_0(text):
    """``--show``: a whole number at least 0."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number at least 0; got {show(text)}")
    return value


def add_release_commands(commands, dataset_argument, engine_option):
    """Add ``manifest``, ``validate``, ``upgrade``, ``baseline`` and ``gate`` to the
    sub-command parser."""
    manifest = commands.add_parser(
        "manifest", help="the test set's fingerprint and each run's manifest, as JSON",
        description="Print the test set's fingerprint (corpus_sha256, questions_sha256: "
                    "SHA-256 of canonical content, computed, never typed) and the manifest "
                    "of each system's run.")
    dataset_argument(manifest)
    manifest.set_defaults(handler=_manifest)

    validate = commands.add_parser(
        "validate", help="check a dataset folder against the shipped JSON Schemas",
        description="Check the index and every record against ragscore/schemas/*.schema.json "
                    "(naming file, line and field), then load it as every report does.")
    dataset_argument(validate)
    validate.set_defaults(handler=_validate)

    upgrade = commands.add_parser(
        "upgrade", help="rewrite a dataset folder in format version 5, in place",
        description="Read the folder (any format version, every rule checked) and save it "
                    "again in format version 5: the corpus and the cases in JSON Lines, the "
                    "runs in one Parquet file. Atomic: a reader sees the old version or the "
                    "new one; a folder with a problem is left as it is.")
    dataset_argument(upgrade)
    upgrade.set_defaults(handler=_upgrade)

    baseline = commands.add_parser(
        "baseline", help="save one system's results as a committed baseline file",
        description="Baselines are written only by this command, never by a gate.")
    actions = baseline.add_subparsers(dest="action", required=True, metavar="ACTION")
    save = actions.add_parser("save", help="write the baseline file of one system")
    dataset_argument(save)
    save.add_argument("--system", required=True, help="the system whose results to keep")
    save.add_argument("--out", required=True, help="the baseline file to write (JSON)")
    engine_option(save)
    save.set_defaults(handler=_baseline_save)

    gate = commands.add_parser(
        "gate", help="check a candidate against a policy: exit 0 pass, 1 fail, 2 bad input",
        description="Judge every rule of a TOML policy for the candidate system; print each "
                    "rule with PASS or FAIL and the questions that broke it, worst first, "
                    "grouped by severity. The questions are the test set's: one in a rule's "
                    "scope without a run fails the rule ('no run'). Exit 0 when every rule "
                    "passes, 1 when any fails (minor ones too), 2 on bad input.")
    dataset_argument(gate, pair=True)
    gate.add_argument("--policy", required=True, help="the policy file (TOML)")
    gate.add_argument("--candidate", required=True,
                      help="the system you might ship (without DATASET: DIR:SYSTEM)")
    gate.add_argument("--baseline", help="a system in the same test set to compare with "
                                         "(without DATASET: DIR:SYSTEM)")
    gate.add_argument("--baseline-file", help="a file written by 'ragscore baseline save'")
    gate.add_argument("--allow-mismatch", action="store_true",
                      help="compare even when the test set or the rubric changed (the "
                           "output says so on its first line)")
    gate.add_argument("--show", type=_at_least_0, default=10,
                      help="questions listed per failed rule (default 10)")
    gate.add_argument("--digits", type=digits_option, default=4,
                      help="decimals of the means and values printed (default 4)")
    engine_option(gate)
    gate.set_defaults(handler=_gate)
