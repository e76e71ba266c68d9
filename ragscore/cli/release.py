"""``ragscore manifest``, ``validate``, ``upgrade``, ``baseline save|verify`` and ``gate``:
parse, call the use case (:mod:`ragscore.usecases.folders`,
:mod:`ragscore.usecases.baselines`, :mod:`ragscore.usecases.gate`), return its result."""
import argparse

from ..core.rules import show
from ..usecases.baselines import BaselineCheck, save_baseline, verify_baseline
from ..usecases.folders import manifest, upgrade, validate
from ..usecases.gate import Verdict, gate
from .options import dataset_argument, digits_option, engine_option, format_option


def _gate(args):
    return gate(args.dataset, policy=args.policy, candidate=args.candidate,
                baseline=args.baseline, baseline_file=args.baseline_file, engine=args.engine,
                allow_mismatch=args.allow_mismatch, digits=args.digits, show=args.show)


def _baseline_save(args):
    return save_baseline(args.dataset, system=args.system, out=args.out, engine=args.engine)


def _baseline_verify(args):
    return verify_baseline(args.file, args.dataset, engine=args.engine)


def _at_least_0(text):
    """``--show``: a whole number at least 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number at least 0; got {show(text)}")
    return value


def add_manifest(commands):
    parser = commands.add_parser(
        "manifest", help="the test set's fingerprint and each run's manifest, as JSON",
        description="Print the test set's fingerprint (corpus_sha256, questions_sha256: "
                    "SHA-256 of canonical content, computed, never typed) and the manifest "
                    "of each system's run.")
    dataset_argument(parser)
    parser.set_defaults(handler=lambda args: manifest(args.dataset))


def add_validate(commands):
    parser = commands.add_parser(
        "validate", help="check a dataset folder against the shipped JSON Schemas",
        description="Check the index and every record against ragscore/schemas/*.schema.json "
                    "(naming file, line and field), then load it as every report does.")
    dataset_argument(parser)
    parser.set_defaults(handler=lambda args: validate(args.dataset))


def add_upgrade(commands):
    parser = commands.add_parser(
        "upgrade", help="rewrite a dataset folder in format version 5, in place",
        description="Read the folder (any format version, every rule checked) and save it "
                    "again in format version 5: the corpus and the cases in JSON Lines, the "
                    "runs in one Parquet file. Atomic: a reader sees the old version or the "
                    "new one; a folder with a problem is left as it is.")
    dataset_argument(parser)
    parser.set_defaults(handler=lambda args: upgrade(args.dataset))


def add_baseline(commands):
    parser = commands.add_parser(
        "baseline", help="save one system's results as a committed baseline file, or verify "
                         "one",
        description="Baselines are written only by 'baseline save', never by a gate; each "
                    "file carries a digest of the runs it came from and of its own content "
                    "(docs/ci.md). 'baseline verify FILE DIR' recomputes it from DIR's runs.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    save = actions.add_parser("save", help="write the baseline file of one system")
    dataset_argument(save)
    save.add_argument("--system", required=True, help="the system whose results to keep")
    save.add_argument("--out", required=True, help="the baseline file to write (JSON)")
    engine_option(save)
    save.set_defaults(handler=_baseline_save)
    verify = actions.add_parser(
        "verify", help="recompute a baseline file from a folder's runs: equal, or what "
                       "differs (exit 0 or 1)",
        description="Recompute FILE from DIR's runs of its system, as 'baseline save' would "
                    "write it now, and say whether it is equal or which questions (and "
                    "fields) differ; a file edited since it was saved is named so.")
    verify.add_argument("file", metavar="FILE", help="a file written by 'baseline save'")
    dataset_argument(verify)
    format_option(verify, BaselineCheck.writers)
    engine_option(verify)
    verify.set_defaults(handler=_baseline_verify)


def add_gate(commands):
    parser = commands.add_parser(
        "gate", help="check a candidate against a policy: exit 0 pass, 1 fail, 2 bad input",
        description="Judge every rule of a TOML policy for the candidate system; print each "
                    "rule with PASS or FAIL and the questions that broke it, worst first, "
                    "grouped by severity. The questions are the test set's: one in a rule's "
                    "scope without a run fails the rule ('no run'), and so does a candidate "
                    "n/a on more questions than the baseline (or than the labels force) "
                    "unless the rule allows it (max_na). Exit 0 when every rule passes, 1 "
                    "when any fails (minor ones too), 2 on bad input.")
    dataset_argument(parser, pair=True)
    parser.add_argument("--policy", required=True, help="the policy file (TOML)")
    parser.add_argument("--candidate", required=True,
                        help="the system you might ship (without DATASET: DIR:SYSTEM)")
    parser.add_argument("--baseline", help="a system in the same test set to compare with "
                                           "(without DATASET: DIR:SYSTEM)")
    parser.add_argument("--baseline-file", help="a file written by 'ragscore baseline save' "
                                                "(refused if edited since)")
    parser.add_argument("--allow-mismatch", action="store_true",
                        help="compare even when the test set or the rubric changed (the "
                             "output says so on its first line)")
    parser.add_argument("--show", type=_at_least_0, default=10,
                        help="questions listed per failed rule (default 10)")
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals of the means and values printed (default 4)")
    format_option(parser, Verdict.writers)
    engine_option(parser)
    parser.set_defaults(handler=_gate)


COMMANDS = {"manifest": add_manifest, "validate": add_validate, "upgrade": add_upgrade,
            "baseline": add_baseline, "gate": add_gate}
