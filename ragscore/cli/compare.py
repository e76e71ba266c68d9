"""``ragscore compare``: parse, call :func:`ragscore.usecases.compare.compare`, return its
:class:`~ragscore.usecases.compare.Comparison`."""
from ..usecases.compare import Comparison, compare
from .options import (confidence, dataset_argument, digits_option, format_option, given_k,
                      measures_option, random_seed, scoring, scoring_options)


def _compare(args):
    return compare(args.dataset, baseline=args.baseline, candidate=args.candidate,
                   k=given_k(args), metrics=args.metrics, measures=args.measures,
                   stats=args.stats, confidence=args.confidence, seed=args.seed,
                   na_as_zero=args.na_as_zero, allow_mismatch=args.allow_mismatch,
                   **scoring(args))


def add_compare(commands):
    parser = commands.add_parser(
        "compare", help="paired per-question comparison of two systems",
        description="For each question and metric: baseline value, candidate value, delta "
                    "and verdict (regressed, no longer defined, newly defined, improved, "
                    "changed for a flag such as ctx differs, unchanged). Regressions are "
                    "listed first.")
    dataset_argument(parser, pair=True)
    parser.add_argument("--baseline", required=True,
                        help="the system you have now (without DATASET: DIR:SYSTEM)")
    parser.add_argument("--candidate", required=True,
                        help="the system you might ship (without DATASET: DIR:SYSTEM)")
    scoring_options(parser)
    format_option(parser, Comparison.writers,
                  help="text (default), csv or json: the per-question rows, or with --stats "
                       "the per-metric statistics (n/a empty or null); with --measures a "
                       "summary per measure (each side's mean, paired difference, interval, "
                       "pairs used and left out, method) and the per-question rows")
    parser.add_argument("--na-as-zero", action="store_true",
                        help="count a retrieval metric that is n/a (nothing relevant) as 0 on "
                             "both sides, as trec_eval does, and a nugget score that is n/a, "
                             "as nuggetizer does")
    parser.add_argument("--measures", type=measures_option, default=None, metavar="NAMES",
                        help="measures in ir_measures' spelling instead of --metrics at --k, "
                             "e.g. \"nDCG@10 AP RR\" (see report --help)")
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals in text output (default 4)")
    parser.add_argument("--allow-mismatch", action="store_true",
                        help="compare systems judged under different rubric versions (their "
                             "manifests say), or two chunkings whose span test sets differ "
                             "(a document edited); the output says so first")
    parser.add_argument("--stats", action="store_true",
                        help="add paired statistics per metric: mean delta, bootstrap "
                             "percentile CI, sign-flip permutation p-value and the smallest "
                             "detectable effect (at least 10 paired questions)")
    parser.add_argument("--confidence", type=confidence, default=0.95,
                        help="confidence level of --stats intervals (default 0.95)")
    parser.add_argument("--seed", type=random_seed, default=0,
                        help="random seed of --stats resampling: the same seed gives the same "
                             "numbers (default 0)")
    parser.set_defaults(handler=_compare)


COMMANDS = {"compare": add_compare}
