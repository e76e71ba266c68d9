"""``ragscore report --measures ...`` and ``--trec-eval``: named measures (ir_measures'
spelling) scored in one pass, with full-precision summaries (wiring only: the numbers come
from :mod:`ragscore.render.measured`)."""
import argparse
import sys

from .options import OK, Escaping, notes_out, shortened_note, terminal_safe
from ..core.measures import at_cutoffs, parse_measures
from ..core.rules import InvalidInputError, show

#: The measures ``--trec-eval`` prints when ``--measures`` is not given.
TREC_DEFAULT = "AP RR P@5 P@10 R@100 nDCG nDCG@10"


def measures_option(text):
    """``--measures``: parsed as the command line is read, so a typo fails at once."""
    try:
        parse_measures(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def digits_option(text):
    """``--digits``: 0 to 17 decimals."""
    if not (text.isascii() and text.isdigit() and int(text) <= 17):
        raise argparse.ArgumentTypeError(f"--digits must be a whole number from 0 to 17; "
                                         f"got {show(text)}")
    return int(text)


def add_measure_options(parser):
    parser.add_argument("--measures", type=measures_option, default=None, metavar="NAMES",
                        help="measures in ir_measures' spelling, e.g. \"P@5 P@10 nDCG@10 AP "
                             "RR R@100 Success@1\" (AP, nDCG and RR without @k are uncut, as "
                             "trec_eval's map, ndcg and recip_rank; ragscore's own metrics by "
                             "their label or name, e.g. support); all in one pass")
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals in text and markdown output (default 4; 2 gives "
                             "the seed's precision)")


def add_report_options(parser):
    parser.add_argument("--trec-eval", action="store_true",
                        help="print trec_eval -q's layout (measure<TAB>qid<TAB>value, then "
                             "all) with its names, four decimals and n/a as 0, for "
                             "--measures (default: " + TREC_DEFAULT + ")")
    parser.add_argument("--system", default=None, metavar="NAME",
                        help="score only this system's runs")


def only_system(counted, system):
    """The counted runs of ``system`` only, else a clear error naming the systems."""
    if system is None:
        return counted
    names = counted.systems
    if system not in names:
        raise InvalidInputError(f"--system must be one of the dataset's systems "
                                f"({', '.join(names)}); got {show(system)}")
    return counted.take(counted.positions(system))


def measures_report(args, counted, out, *, default_k, rows=True):
    """Print the measures of ``args.measures`` (or trec_eval's) in ``args.format``: each
    question's values (unless ``rows`` is false) and the summaries."""
    from ..core.measures import score_measures
    from ..render.measured import measures_csv, measures_json, measures_text, trec_eval_text

    measures = parse_measures(args.measures or TREC_DEFAULT)
    trec = args.trec_eval
    if trec and args.format not in ("text", "json"):
        raise InvalidInputError(f"--trec-eval writes trec_eval's text, or with --format json "
                                f"the same numbers; got --format {args.format}")
    scored = score_measures(counted, measures, default_k=default_k,
                            na_as_zero=args.na_as_zero or trec)
    if trec:
        from ..render.measured import trec_eval_json, trec_order

        trec_order(measures)
        if args.format == "json":
            out.write(trec_eval_json(scored, rows=rows))
            return OK
        raw = getattr(out, "stream", out)  # the tabs are trec_eval's: each field made safe
        raw.write("".join("\t".join(map(terminal_safe, line.split("\t"))) + "\n"
                          for line in trec_eval_text(scored, rows=rows).splitlines()))
        return OK
    from ..core.aggregate import label_notes

    notes = counted.notes + tuple(label_notes(counted, default_k))
    if notes:
        Escaping(sys.stderr).write("".join(f"ragscore: note: {shortened_note(note)}\n"
                                            for note in notes))
    if args.na_as_zero:
        sys.stderr.write("ragscore: note: retrieval measures with nothing relevant are "
                         "counted as 0 (trec_eval's convention)\n")
    if args.format == "csv":
        out.write(measures_csv(scored, rows=rows))
    elif args.format == "json":
        out.write(measures_json(scored, rows=rows))
    elif args.format in ("text", "markdown"):
        out.write(measures_text(scored, digits=args.digits,
                                markdown=args.format == "markdown", rows=rows))
    else:
        raise InvalidInputError(f"--measures writes text, markdown, csv or json; got "
                                f"--format {args.format}")
    notes_out(counted, Escaping(sys.stderr))
    return OK


def measure_columns(counted, text, *, default_k, na_as_zero=False):
    """``(metrics, {label: values})`` for :func:`~ragscore.core.paired.pair_up`: each
    measure as its registry metric renamed to its label, read at its own cutoff."""
    from ..core.metrics import REGISTRY

    chosen, columns = [], {}
    for measure in at_cutoffs(parse_measures(text), default=default_k):
        metric = REGISTRY[measure.metric]
        k = measure.cutoff(uncut=counted.rules.max_k, default=default_k)
        chosen.append(metric._replace(name=measure.label, label=measure.label))
        columns[measure.label] = counted.column(metric, k, na_as_zero=na_as_zero)
    return tuple(chosen), columns


def compare_measures_out(args, counted, out, *, default_k):
    """``compare --measures ... --format csv|json``: the summary per measure and the
    per-question rows (:mod:`ragscore.tables.compare_measures`)."""
    from ..render.measured import compared_csv, compared_json
    from ..tables.compare_measures import compare_measures

    found = compare_measures(counted, args.measures, baseline=args.baseline,
                             candidate=args.candidate, default_k=default_k,
                             na_as_zero=args.na_as_zero, confidence=args.confidence,
                             seed=args.seed)
    out.write((compared_csv if args.format == "csv" else compared_json)(found))
    notes_out(counted, Escaping(sys.stderr))
    return OK
