"""The ``ragscore`` command line: thin wiring around the package's functions."""
import argparse
import sys

from .course import COURSE_PATH
from .dataset import load_dataset
from .display import text_table
from .validation import InvalidInputError, check_k


def _k(text):
    try:
        return check_k(int(text))
    except (ValueError, InvalidInputError):
        raise argparse.ArgumentTypeError(
            f"k must be a whole number from 1 to 100; got {text!r}") from None


def _dataset_argument(parser, *, optional=False):
    if optional:
        parser.add_argument("dataset", nargs="?", default=str(COURSE_PATH),
                            help="dataset folder (default: the course dataset)")
    else:
        parser.add_argument("dataset", help="dataset folder holding dataset.json, "
                                            "corpus.jsonl, cases.jsonl and runs.jsonl")


def _demo(args, out):
    from .batch import iter_scores

    dataset = load_dataset(args.dataset)
    rows = iter_scores(dataset.corpus, dataset.cases, dataset.runs, k=args.k)
    print(text_table(rows, k=args.k), file=out)
    return 0


def build_parser():
    """The argument parser, with one sub-command per job."""
    parser = argparse.ArgumentParser(
        prog="ragscore",
        description="Score recorded RAG runs against a grounded test set. "
                    "Start with 'ragscore demo' to see the course table.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser(
        "demo", help="print the per-question table for the course dataset",
        description="Print one line per (case, system): P@k, R@k, RR@k, support, coverage "
                    "and correct abstention, with n/a where a value is undefined.")
    _dataset_argument(demo, optional=True)
    demo.add_argument("--k", type=_k, default=2, help="retrieval cutoff, 1 to 100 (default 2)")
    demo.set_defaults(run=_demo)
    return parser


def main(argv=None, *, out=None):
    """Run the command line; return the exit code (0 ok, 2 bad input)."""
    out = sys.stdout if out is None else out
    args = build_parser().parse_args(argv)
    try:
        return args.run(args, out)
    except InvalidInputError as error:
        print(f"ragscore: error: {error}", file=sys.stderr)
        return 2
