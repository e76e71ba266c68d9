"""The ``ragscore`` command line: thin wiring around the package's functions."""
import argparse
import gc
import sys

from .core.metrics import CONTRACT, REGISTRY
from .core.rules import InvalidInputError, check_k
from .io.course import COURSE_PATH
from .io.dataset import load_dataset
from .render.text import FORMATS, format_value, text_table


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
    from .core.scoring import iter_scores

    dataset = load_dataset(args.dataset)
    rows = iter_scores(dataset.corpus, dataset.cases, dataset.runs, k=args.k)
    print(text_table(rows, k=args.k), file=out)
    return 0


def _report(args, out):
    from .io.dataset import read_counts

    counted = read_counts(args.dataset, jobs=2)  # before pandas loads: the reader may fork

    from .render.formats import render
    from .tables.scores import question_table
    from .tables.summary import aggregates

    table = question_table(counted, k=args.k)
    out.write(render(table, k=args.k, fmt=args.format))
    if args.format in ("text", "markdown"):
        out.write("\nAggregates (each names its method, denominator and what it left out):\n")
        for row in aggregates(counted, k=args.k).itertuples():
            value = format_value(row.value)
            out.write(f"- {row.system} {row.slice} {row.metric} ({row.method}) = {value}: "
                      f"{row.description}\n")
    return 0


def _compare(args, out):
    from .io.dataset import read_counts

    counted = read_counts(args.dataset, jobs=2)  # before pandas loads: the reader may fork

    from .render.formats import render_comparison
    from .tables.compare import compare
    from .tables.scores import question_table

    table = question_table(counted, k=args.k)
    rows = compare(table, baseline=args.baseline, candidate=args.candidate)
    out.write(render_comparison(rows, baseline=args.baseline, candidate=args.candidate,
                                k=args.k))
    return 0


def _sweep(args, out):
    from .io.dataset import read_counts

    counted = read_counts(args.dataset, jobs=2)  # before pandas loads: the reader may fork

    from .tables.summary import sweep

    table = sweep(counted, max_k=args.max_k)
    out.write("Macro means over answerable questions (n/a left out); abstention is the share "
              "of unanswerable questions with a correct abstention.\n")
    out.write("system k | " + " ".join(REGISTRY[name].label_at("k") for name in CONTRACT)
              + "\n")
    columns = [table[name].astype(object).tolist() for name in CONTRACT]
    for (system, k), *values in zip(table.index, *columns):
        out.write(f"{system} {k} | " + " ".join(map(format_value, values)) + "\n")
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

    report = commands.add_parser(
        "report", help="per-question table of a dataset, in a format of your choice",
        description="Score every recorded run of DATASET and print one row per (case, "
                    "system). text and markdown add the declared aggregates; csv leaves n/a "
                    "empty and json writes null, never 0.")
    _dataset_argument(report)
    report.add_argument("--k", type=_k, default=2, help="retrieval cutoff, 1 to 100 (default 2)")
    report.add_argument("--format", choices=FORMATS, default="text",
                        help="output format (default text)")
    report.set_defaults(run=_report)

    comparison = commands.add_parser(
        "compare", help="paired per-question comparison of two systems",
        description="For each question and metric: baseline value, candidate value, delta "
                    "and verdict (regressed, no longer defined, newly defined, improved, "
                    "unchanged). Regressions are listed first.")
    _dataset_argument(comparison)
    comparison.add_argument("--baseline", required=True, help="the system you have now")
    comparison.add_argument("--candidate", required=True, help="the system you might ship")
    comparison.add_argument("--k", type=_k, default=2,
                            help="retrieval cutoff, 1 to 100 (default 2)")
    comparison.set_defaults(run=_compare)

    sweeping = commands.add_parser(
        "sweep", help="mean metrics for every cutoff from 1 to --max-k",
        description="Macro means over answerable questions for k = 1 .. MAX_K, per system.")
    _dataset_argument(sweeping)
    sweeping.add_argument("--max-k", type=_k, required=True, help="largest cutoff, 1 to 100")
    sweeping.set_defaults(run=_sweep)
    return parser


def main(argv=None, *, out=None):
    """Run the command line; return the exit code (0 ok, 2 bad input)."""
    out = sys.stdout if out is None else out
    args = build_parser().parse_args(argv)
    collecting = gc.isenabled()
    gc.disable()  # a report builds millions of acyclic objects: the collector would re-walk them
    try:
        return args.run(args, out)
    except InvalidInputError as error:
        print(f"ragscore: error: {error}", file=sys.stderr)
        return 2
    finally:
        if collecting:
            gc.enable()
