"""``ragscore eval QRELS RUN... --measures "P@10 nDCG@10 AP RR"``: TREC files scored as they
are, the way trec_eval and ir_measures take them, with no folder written.

The use case is :func:`ragscore.usecases.measured.evaluate_files`. The files are read by the
TREC importer's rules (straight into columns where they are laid out plainly:
:mod:`ragscore.engine.columnar.trec_columns`) and counted by the columnar engine; the
numbers and the conventions are those of ``ragscore import trec`` followed by ``ragscore
report --measures`` (``tests/test_cli_eval.py`` holds the two to each other). trec_eval's
options have their equivalents: ``-q`` (per-question rows; without it, the means only),
``-c`` (a judged question a run lacks counts, with an empty ranking; without it the means
are over the run's questions, as trec_eval's), ``-l N`` (the lowest grade judged relevant)
and ``-M N`` (each ranking's best N); ``-m NAME`` (repeatable) takes trec_eval's measure
names (``-m P.10 -m map``); ``--trec-eval`` prints trec_eval's layout.
"""
import argparse

from ..core.rules import InvalidInputError
from ..usecases.measured import TREC_DEFAULT, WRITERS, evaluate_files
from .options import digits_option, format_option, measures_option

__all__ = ["COMMANDS"]

#: The cutoff of a measure named without one that is not uncut (ragscore's own metrics).
DEFAULT_K = 10


def trec_measure_option(text):
    """``-m``: a trec_eval measure name (``P.10``, ``map``), checked as the command line is
    read; the labels of the measures it names, separated by spaces."""
    from ..core.measures import parse_trec_measure

    try:
        return " ".join(measure.label for measure in parse_trec_measure(text))
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _eval(args):
    measures = args.measures
    if args.trec_measures:
        if measures is not None:
            raise InvalidInputError("--measures and -m both name the measures: give "
                                    "ir_measures' names to --measures or trec_eval's to -m")
        measures = " ".join(args.trec_measures)
    return evaluate_files(args.qrels, args.runs, measures=measures,
                          trec_eval=args.trec_eval, k=DEFAULT_K,
                          min_relevance=args.min_relevance, complete=args.complete,
                          max_depth=args.max_depth, system=args.system,
                          na_as_zero=args.na_as_zero, rows=args.per_question)


def add_eval(commands):
    """Add ``eval`` to the sub-command parser."""
    from ..importers.registry import MIN_RELEVANCE, depth

    parser = commands.add_parser(
        "eval", help="score TREC qrels and run files as they are (no folder written)",
        description="Read the qrels and the runs as 'ragscore import trec' reads them (the "
                    "same rules and errors, naming file, line and field) and print the "
                    "measures as 'ragscore report --measures' prints them, without writing "
                    "a folder. trec_eval's -q, -c, -l, -M and -m have their flags here. "
                    "'ragscore measures' lists every measure with its names and "
                    "definition.")
    parser.add_argument("qrels", help="the qrels file (qid iter docno rel)")
    parser.add_argument("runs", nargs="+", metavar="run",
                        help="TREC run files (qid Q0 docno rank score tag); each tag a system")
    parser.add_argument("--measures", type=measures_option, default=None, metavar="NAMES",
                        help=f"measures in ir_measures' spelling, such as 'P@10 "
                             f"P(rel=2)@10 nDCG(dcg=exp-log2)@10 AP Rprec' (default: "
                             f"{TREC_DEFAULT}); 'ragscore measures' lists every name")
    parser.add_argument("-m", dest="trec_measures", action="append",
                        type=trec_measure_option, metavar="NAME",
                        help="a measure in trec_eval's spelling, repeatable, as trec_eval "
                             "takes it: -m P.10 -m map -m ndcg_cut.10 -m recip_rank -m "
                             "Rprec (-m P.5,10; -m P: trec_eval's cutoffs); instead of "
                             "--measures")
    format_option(parser, WRITERS)
    parser.add_argument("--trec-eval", action="store_true",
                        help="trec_eval's layout (measure<TAB>qid<TAB>value) with its names, "
                             "four decimals and n/a as 0; one system (--system)")
    parser.add_argument("-q", "--per-question", action="store_true",
                        help="each question's values too (trec_eval -q); else the means only")
    parser.add_argument("-c", "--complete", action="store_true",
                        help="a judged question a run lacks counts, with an empty ranking "
                             "(trec_eval -c); else the means are over the run's questions")
    parser.add_argument("-l", "--min-relevance", **{key: value for key, value in
                                                     MIN_RELEVANCE.settings.items()})
    parser.add_argument("-M", "--max-depth", type=depth, default=None, metavar="N",
                        help="keep each ranking's best N documents (trec_eval -M N)")
    parser.add_argument("--system", default=None, metavar="NAME",
                        help="score only this system (a run's tag)")
    parser.add_argument("--na-as-zero", action="store_true",
                        help="a measure with nothing relevant counts 0 in the means, as "
                             "trec_eval's do (always so with --trec-eval)")
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals in text output (default 4)")
    parser.set_defaults(handler=_eval)


COMMANDS = {"eval": add_eval}
