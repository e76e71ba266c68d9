"""The ``ragscore`` command line: thin wiring around the package's functions.

It behaves like a Unix tool: results on standard output, one line per problem on standard
error, exit code 0 on success, 2 on bad input (with one line naming the problem, never a
traceback), 141 when the reader of its output went away (``ragscore report DIR | head``),
130 on Ctrl-C, and 3 with a request for a bug report on an unexpected internal error
(``--debug`` shows the traceback).
"""
import argparse
import os
import sys

from .core.metrics import REGISTRY
from .core.rules import COURSE, InvalidInputError, check_k, show
from .engine import DEFAULT_ENGINE, ENGINES
from .io.course import COURSE_PATH
from .render.text import FORMATS, format_value, text_table

#: Exit codes.
OK, FAILED, BAD_INPUT, INTERNAL, BROKEN_PIPE, INTERRUPTED = 0, 1, 2, 3, 141, 130
ISSUES = "https://github.com/ragscore/ragscore/issues"


def _course_k(text):
    """A cutoff for the course table (the course rules: 1 to 100)."""
    try:
        return check_k(int(text))
    except (ValueError, InvalidInputError):
        raise argparse.ArgumentTypeError(
            f"k must be a whole number from 1 to {COURSE.max_k}; got {show(text)}") from None


def _k_text(text):
    """A cutoff as typed; checked once the dataset's ID rules (which bound k) are known."""
    return text


def _k(text, rules):
    """The cutoff ``text`` as an int within ``rules``, else a clear error."""
    try:
        return check_k(int(text), rules=rules)
    except (ValueError, InvalidInputError):
        raise InvalidInputError(f"k must be a whole number from 1 to {rules.max_k}; "
                                f"got {show(text)}") from None


def _metric_names(text):
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in REGISTRY]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"--metrics must be registry names separated by commas ({', '.join(REGISTRY)}); "
            f"got {show(text)}")
    return names


def _dataset_argument(parser, *, optional=False):
    if optional:
        parser.add_argument("dataset", nargs="?", default=str(COURSE_PATH),
                            help="dataset folder (default: the course dataset)")
    else:
        parser.add_argument("dataset", help="dataset folder (see docs/dataset-format.md)")


def _scoring_options(parser, *, k=True):
    if k:
        parser.add_argument("--k", type=_k_text, default="2",
                            help="retrieval cutoff: 1 to 100 (course IDs) or 10000 (open IDs); "
                                 "default 2")
    parser.add_argument("--metrics", type=_metric_names, default=None,
                        help="metrics to show, registry names separated by commas "
                             f"({', '.join(REGISTRY)}); default: the contract's six, less "
                             "the answer metrics when no run recorded an answer")
    parser.add_argument("--unit", choices=("chunk", "document"), default="chunk",
                        help="score rankings as recorded (chunk, the default) or projected "
                             "onto their documents (labels then name documents)")
    parser.add_argument("--dedupe", action="store_true",
                        help="drop repeated IDs from a recorded ranking (counted per "
                             "question) instead of refusing the run")
    parser.add_argument("--split", default=None, metavar="NAME",
                        help="score only the questions of one split (dev or heldout)")
    _engine_option(parser)


def _engine_option(parser):
    parser.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                        help="the scoring engine: reference (the plain per-record counter, "
                             f"the specification) or columnar (arrays; default "
                             f"{DEFAULT_ENGINE}); both give the same numbers")


def _no_runs(folder):
    """The error for a dataset whose runs file holds no run: there is nothing to score."""
    from .io.jsonl import where

    return InvalidInputError(f"{where(folder)}: its runs file holds no runs; nothing to score "
                             "(add one line per case and system, see docs/dataset-format.md)")


def _read(args):
    """The counted runs of ``args.dataset``, read and checked by the chosen engine."""
    from .engine import count_folder

    counted = count_folder(args.dataset, engine=args.engine, unit=args.unit,
                           dedupe=args.dedupe)
    if not counted.keys:
        raise _no_runs(args.dataset)
    if getattr(args, "split", None) is not None:
        from .tables.summary import restrict, slice_members

        members = slice_members(counted, "split")
        if args.split not in members:
            raise InvalidInputError(f"--split must be one of the dataset's splits "
                                    f"({', '.join(members)}); got {show(args.split)}")
        counted = restrict(counted, members[args.split])
    return counted


def _demo(args, out):
    from .core.scoring import iter_scores
    from .io.dataset import load_dataset

    dataset = load_dataset(args.dataset)
    if not dataset.runs:
        raise _no_runs(args.dataset)
    rows = iter_scores(dataset.corpus, dataset.cases, dataset.runs, k=args.k)
    out.write(text_table(rows, k=args.k) + "\n")
    return OK


def _removed(counted):
    """``(case, system, dropped, collapsed)`` for every run a dedupe or projection changed."""
    return [(case, system, dropped, collapsed) for (case, system), dropped, collapsed
            in zip(counted.keys, counted.field("dropped"), counted.field("collapsed"))
            if dropped or collapsed]


_PRINTABLE_ASCII = bytes(range(32, 127)) + b"\n"  # in ASCII, what str.isprintable passes, and \n


def terminal_safe(text):
    """``text`` with every unprintable character but the line break escaped (``\\x1b``,
    ``\\u202e``), so what a data file holds cannot move the cursor or forge a line.

    >>> terminal_safe("ok\\n\\x1b[2J")
    'ok\\n\\\\x1b[2J'
    """
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return text  # the common case, checked at C speed
    lines = text.split("\n")
    if all(map(str.isprintable, lines)):
        return text
    return "\n".join(line if line.isprintable() else
                     "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
                     for line in lines)


class _Escaping:
    """A text stream that writes through :func:`terminal_safe`."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        return self.stream.write(terminal_safe(text))

    def flush(self):
        self.stream.flush()


#: A dataset's note longer than this is cut when shown.
LONGEST_NOTE = 1000


def _note(text):
    return text if len(text) <= LONGEST_NOTE else (
        f"{text[:LONGEST_NOTE]}... (cut; the note has {len(text):,} characters)")


def _notes(counted, out_of_band):
    """Say on ``out_of_band`` what a projection or dedupe removed, per system."""
    totals = {}
    for _, system, dropped, collapsed in _removed(counted):
        before = totals.get(system, (0, 0))
        totals[system] = (before[0] + dropped, before[1] + collapsed)
    for system, (dropped, collapsed) in totals.items():
        if dropped:
            out_of_band.write(f"ragscore: note: system {system}: {dropped} repeated IDs "
                              "dropped from its rankings (--dedupe)\n")
        if collapsed:
            out_of_band.write(f"ragscore: note: system {system}: {collapsed} chunks collapsed "
                              "into their documents (--unit document)\n")


def _record_lines(counted, *, k, metrics):
    """Lines on repeated trials (their spread per question) and on operations per system."""
    from .tables.records import ops_summary, trial_spread

    lines = []
    if "trials" in counted.features:
        spread = trial_spread(counted, k=k, metrics=metrics)
        lines += ["", "Repeated trials: each question counts once (its value above is the "
                      "trials' mean; yes/no: yes only if every trial says yes); the spread:"]
        for case, system, metric, trials, defined, low, high, mean, agree in zip(
                *(spread[name].tolist() for name in spread.columns)):
            if not defined:
                continue
            lines.append(f"- {case} {system} {metric}: {trials} trials, {defined} defined, "
                         f"min {format_value(low)}, max {format_value(high)}, mean "
                         f"{format_value(mean)}, {agree} agree")
    if counted.ops:
        ops = ops_summary(counted)
        lines += ["", "Operations per system (every trial is a record; latency percentiles "
                      "by nearest rank):"]
        for row in ops.astype(object).itertuples(index=False):
            lines.append(
                f"- {row.system}: {row.records} records, {row.failed} failed, {row.retries} "
                f"retries, latency median {format_value(row.latency_ms_median)} ms, p95 "
                f"{format_value(row.latency_ms_p95)} ms, tokens {format_value(row.tokens_total)}"
                f", cost {'n/a' if row.cost_total is None else f'{row.cost_total:.4f}'}")
    return lines


def _report(args, out):
    counted = _read(args)
    k = _k(args.k, counted.rules)

    if args.by is not None:
        from .render.formats import render_frame

        if args.by == "disputed":
            from .io.dataset import load_dataset
            from .tables.reviews import disputed_slice

            frame = disputed_slice(load_dataset(args.dataset), k=k, metrics=args.metrics,
                                   engine=args.engine)
        else:
            from .tables.summary import sliced_aggregates

            frame = sliced_aggregates(counted, by=args.by, k=k, metrics=args.metrics,
                                      na_as_zero=args.na_as_zero)
        out.write(render_frame(frame, fmt=args.format))
        return OK
    if args.format == "csv":  # straight from the counts: no pandas table to build
        from .core.metrics import select
        from .engine import default_metrics
        from .render.formats import csv_text

        chosen = select(default_metrics(counted) if args.metrics is None else args.metrics)
        columns = {metric.name: counted.column(metric, k, na_as_zero=args.na_as_zero)
                   for metric in chosen}
        text = csv_text([case for case, _ in counted.keys],
                        [system for _, system in counted.keys], columns)
    else:
        from .render.formats import render
        from .tables.scores import question_table

        table = question_table(counted, k=k, metrics=args.metrics, na_as_zero=args.na_as_zero)
        text = render(table, k=k, fmt=args.format)
    if counted.notes and args.format in ("text", "markdown"):
        out.write("".join(f"Note: {_note(note)}\n" for note in counted.notes) + "\n")
    elif counted.notes:
        _Escaping(sys.stderr).write("".join(f"ragscore: note: {_note(note)}\n"
                                            for note in counted.notes))
    if args.na_as_zero and args.format in ("text", "markdown"):
        out.write("Note: --na-as-zero: a retrieval metric with nothing relevant counts 0, as "
                  "in trec_eval's means; ragscore's default leaves n/a out.\n\n")
    elif args.na_as_zero:
        sys.stderr.write("ragscore: note: --na-as-zero: retrieval metrics with nothing "
                         "relevant are written as 0 (trec_eval's convention)\n")
    out.write(text)
    if args.format in ("text", "markdown"):
        from .tables.summary import aggregates

        rows = aggregates(counted, k=k, metrics=tuple(table.columns),
                          na_as_zero=args.na_as_zero)
        lines = ["", "Aggregates (each names its method, denominator and what it left out):"]
        for system, slice_, metric, method, value, description in zip(
                *(rows[name].tolist() for name in ("system", "slice", "metric", "method",
                                                   "value", "description"))):
            lines.append(f"- {system} {slice_} {metric} ({method}) = {format_value(value)}: "
                         f"{description}")
        lines += _record_lines(counted, k=k, metrics=tuple(table.columns))
        removed = _removed(counted)
        if removed:
            lines += ["", "Removed before scoring, per question (repeated IDs dropped, chunks "
                          "collapsed into their documents):"]
            lines += [f"- {case} {system}: {dropped} dropped, {collapsed} collapsed"
                      for case, system, dropped, collapsed in removed]
        out.write("\n".join(lines) + "\n")
    _notes(counted, _Escaping(sys.stderr))
    return OK


def _compare(args, out):
    counted = _read(args)
    k = _k(args.k, counted.rules)

    from .core.paired import split_mix
    from .io.manifest import rubric_mismatch

    warnings = []
    problem = rubric_mismatch(args.dataset, args.baseline, args.candidate)
    if problem and not args.allow_mismatch:
        raise InvalidInputError(f"{problem}; refusing to compare (pass --allow-mismatch to "
                                "compare anyway)")
    if problem:
        warnings.append(f"--allow-mismatch: {problem}")
    mixed = split_mix(counted)
    if mixed:
        warnings.append("this comparison mixes splits ("
                        + ", ".join(f"{count} {split}" for split, count in mixed.items())
                        + " questions); a decision belongs on held-out questions: "
                          "--split heldout")
    for warning in warnings:  # first lines of the output; on stderr when it is JSON
        if args.format == "json":
            sys.stderr.write(f"ragscore: warning: {warning}\n")
        else:
            out.write(f"WARNING: {warning}\n")
    if args.format != "json":  # the text straight from the counts: no pandas table
        from .core.metrics import select
        from .core.paired import pair_up
        from .engine import default_metrics
        from .render.formats import comparison_text

        chosen = select(default_metrics(counted) if args.metrics is None else args.metrics)
        paired = pair_up(counted.keys, {metric.name: counted.values(metric, k)
                                        for metric in chosen},
                         baseline=args.baseline, candidate=args.candidate, metrics=chosen)
        out.write(comparison_text(paired, baseline=args.baseline, candidate=args.candidate,
                                  k=k))
    if args.stats or args.format == "json":
        from .tables.scores import question_table

        table = question_table(counted, k=k, metrics=args.metrics)
    if args.stats:
        from .tables.stats import RESAMPLES, stats_table

        stats = stats_table(table, baseline=args.baseline, candidate=args.candidate,
                            confidence=args.confidence, seed=args.seed)
    if args.format == "json":
        from .render.stats import comparison_records, stats_records, to_json
        from .tables.compare import compare

        out.write(to_json(stats_records(stats) if args.stats else comparison_records(
            compare(table, baseline=args.baseline, candidate=args.candidate))))
    elif args.stats:
        from .render.stats import render_stats

        out.write("\n" + render_stats(stats, baseline=args.baseline, candidate=args.candidate,
                                      confidence=args.confidence, seed=args.seed,
                                      resamples=RESAMPLES))
    _notes(counted, _Escaping(sys.stderr))
    return OK


def _audit(args, out):
    from .io.dataset import load_dataset
    from .render.audit import audit_json, render_audit
    from .tables.audit import audit

    dataset = load_dataset(args.dataset)
    k = _k(args.k, dataset.rules)
    result = audit(dataset, k=k)
    render = audit_json if args.format == "json" else render_audit
    out.write(render(result, name=dataset.name))
    if args.format != "json" and any(case.get("reviews") for case in dataset.cases.values()):
        from .render.formats import render_frame
        from .tables.reviews import agreement_table

        out.write("\nAgreement between reviewers (relevant/supported read as positive; "
                  "kappa = (po - pe) / (1 - pe)):\n")
        out.write(render_frame(agreement_table(dataset), fmt="text"))
    return OK


def _confidence(text):
    """A confidence level strictly between 0 and 1, such as 0.95."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"--confidence must be a number strictly between 0 and 1, such as 0.95; "
            f"got {text!r}")
    return value


def _seed(text):
    """A random seed: a whole number 0 or above."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"--seed must be a whole number 0 or above; "
                                         f"got {text!r}")
    return value


def _sweep(args, out):
    counted = _read(args)
    max_k = _k(args.max_k, counted.rules)

    from .tables.summary import sweep

    table = sweep(counted, max_k=max_k, metrics=args.metrics)
    names = [name for name in table.columns if name in REGISTRY]
    lines = ["Macro means over answerable questions (n/a left out); a yes/no metric shows "
             "its share of yes over its own questions.",
             "system k | " + " ".join(REGISTRY[name].label_at("k") for name in names)]
    columns = [table[name].astype(object).tolist() for name in names]
    for (system, k), *values in zip(table.index, *columns):
        lines.append(f"{system} {k} | " + " ".join(map(format_value, values)))
    out.write("\n".join(lines) + "\n")
    return OK


def _save_imported(result, args, out):
    """Save an importer's ``(dataset, notes)`` at ``--out``; say what was written and
    dropped."""
    from .io.dataset import save_dataset

    dataset, notes = result
    sentences = []
    for what, value in notes.items():
        if type(value) is dict:
            counted = ", ".join(f"{system} {count:,}" for system, count in value.items())
            sentences.append(f"{what}: {counted or 'none'}")
        elif what == "missing_run":
            sentences.append("a judged question missing from a run was given an empty ranking "
                             "(--missing-run zero, as trec_eval -c)" if value == "zero" else
                             "a judged question missing from a run was left out of that "
                             "system's results (--missing-run skip)")
        elif what == "max_depth":
            sentences.append(f"each ranking cut to its best {value:,} (--max-depth, as "
                             "trec_eval -M)")
        else:
            sentences.append(f"{what}: {value}")
    dataset = dataset._replace(notes=(f"imported with 'ragscore import {args.kind}'",
                                      *sentences))
    if args.name:
        dataset = dataset._replace(name=args.name)
    folder = save_dataset(dataset, args.out, overwrite=args.overwrite)
    runs = sum(len(per_case) for per_case in dataset.runs.values())
    names = dataset.systems
    systems = len(names)
    lines = [f"wrote {folder}: {len(dataset.corpus):,} documents, {len(dataset.cases):,} "
             f"questions, {runs:,} runs of {systems} system{'s' * (systems != 1)} "
             f"({', '.join(names) or 'none'})"]
    lines += [f"  {sentence}" for sentence in sentences]
    out.write("\n".join(lines) + "\n")
    return OK


def _import_trec(args, out):
    from .io.importers.trec import import_trec

    if not args.run:
        raise InvalidInputError("import trec needs at least one --run file")
    return _save_imported(import_trec(args.qrels, args.run, min_relevance=args.min_relevance,
                                      missing_run=args.missing_run, name=args.name,
                                      max_depth=args.max_depth), args, out)


def _import_beir(args, out):
    from .io.importers import import_beir

    return _save_imported(import_beir(args.folder, split=args.split, runs=args.run or (),
                                      min_relevance=args.min_relevance,
                                      missing_run=args.missing_run, name=args.name), args, out)


def _import_ragas(args, out):
    from .io.importers import import_ragas

    if len(args.file) != len(args.system):
        raise InvalidInputError(f"each --file needs its --system; got {len(args.file)} files "
                                f"and {len(args.system)} systems")
    return _save_imported(import_ragas(list(zip(args.file, args.system)), name=args.name),
                          args, out)


def _import_llamaindex(args, out):
    from .io.importers import import_llamaindex, import_llamaindex_results

    if args.system:  # a RetrieverEvaluator results file
        if args.run:
            raise InvalidInputError("--run goes with a question-set file, --system with a "
                                    "results file; got both")
        result = import_llamaindex_results(args.file, system=args.system, name=args.name)
    else:
        result = import_llamaindex(args.file, runs=args.run or (),
                                   missing_run=args.missing_run, name=args.name)
    return _save_imported(result, args, out)


def _export_trec(args, out):
    from .io.dataset import load_dataset
    from .io.importers import export_trec

    written = export_trec(load_dataset(args.dataset), args.out_prefix)
    out.write("".join(f"wrote {path}\n" for path in written))
    return OK


def _depth(text):
    """A ranking depth: a whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--max-depth must be a whole number of at least 1; "
                                         f"got {text!r}")
    return value


def _import_options(parser, *, runs=True, graded=True):
    parser.add_argument("--out", required=True, help="the dataset folder to write")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace --out if it is a ragscore dataset already")
    parser.add_argument("--name", default=None, help="the dataset's name (default: --out's)")
    if runs:
        parser.add_argument("--run", action="append", metavar="TREC_RUN",
                            help="a TREC run file (qid Q0 docno rank score tag); repeatable")
        parser.add_argument("--missing-run", choices=("zero", "skip"), default="zero",
                            help="a judged question a run lacks: an empty ranking (zero, "
                                 "trec_eval -c; the default) or left out (skip)")
    if graded:
        parser.add_argument("--min-relevance", type=int, default=1,
                            help="lowest grade judged relevant (trec_eval -l; default 1)")


def _add_import_commands(commands):
    importing = commands.add_parser(
        "import", help="turn TREC, BEIR, Ragas or LlamaIndex files into a dataset folder",
        description="Read a test set in a format it already lives in and write it as a "
                    "ragscore dataset folder (open ID rules). A bad line stops the import "
                    "with its file and line, and nothing is written. See docs/import.md.")
    kinds = importing.add_subparsers(dest="kind", required=True, metavar="FORMAT")
    trec = kinds.add_parser("trec", help="qrels plus TREC run files",
                            description="Qrels 'qid iter docno rel'; runs 'qid Q0 docno rank "
                                        "score tag', the tag naming the system, ordered as "
                                        "trec_eval orders them.")
    trec.add_argument("--qrels", required=True, help="the qrels file")
    trec.add_argument("--max-depth", type=_depth, default=None, metavar="N",
                      help="keep each ranking's best N documents (trec_eval -M N)")
    _import_options(trec)
    trec.set_defaults(handler=_import_trec)
    beir = kinds.add_parser("beir", help="a BEIR folder plus TREC run files",
                            description="corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv.")
    beir.add_argument("--folder", required=True, help="the BEIR dataset folder")
    beir.add_argument("--split", default="test", help="the qrels split (default test)")
    _import_options(beir)
    beir.set_defaults(handler=_import_beir)
    ragas = kinds.add_parser("ragas", help="Ragas / Hugging Face evaluation files",
                             description="JSON Lines or CSV with user_input, "
                                         "retrieved_context_ids, reference_context_ids (or "
                                         "the text-only *_contexts) and response; one --file "
                                         "and --system per system, same questions in each.")
    ragas.add_argument("--file", action="append", required=True, help="a .jsonl or .csv file")
    ragas.add_argument("--system", action="append", required=True,
                       help="the system that file records (in the order of --file)")
    _import_options(ragas, runs=False, graded=False)
    ragas.set_defaults(handler=_import_ragas)
    llama = kinds.add_parser("llamaindex", help="a LlamaIndex question set or results file",
                             description="An EmbeddingQAFinetuneDataset JSON (queries, corpus, "
                                         "relevant_docs) with TREC runs, or, with --system, a "
                                         "RetrieverEvaluator results file (query, "
                                         "expected_ids, retrieved_ids).")
    llama.add_argument("--file", required=True, help="the JSON file")
    llama.add_argument("--system", default=None,
                       help="the system of a results file (makes --file a results file)")
    _import_options(llama, graded=False)
    llama.set_defaults(handler=_import_llamaindex)

    exporting = commands.add_parser(
        "export", help="write a dataset as TREC qrels and runs",
        description="Qrels plus one run per system, with strictly decreasing scores so "
                    "every tool sees ragscore's order.")
    formats = exporting.add_subparsers(dest="kind", required=True, metavar="FORMAT")
    trec_out = formats.add_parser("trec", help="TREC qrels and runs")
    _dataset_argument(trec_out)
    trec_out.add_argument("--out-prefix", required=True,
                          help="files are written as PREFIX.qrels and PREFIX.SYSTEM.run")
    trec_out.set_defaults(handler=_export_trec)


#: An argument error longer than this is cut (argparse repeats a bad value in full).
LONGEST_ERROR = 400


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line: the problem, cut if very long, and where
    to read more (instead of the usage block and the problem)."""

    def error(self, message):
        message = message if message.isprintable() else show(message, limit=LONGEST_ERROR)
        if len(message) > LONGEST_ERROR:
            message = (f"{message[:LONGEST_ERROR]}... (cut; the message had "
                       f"{len(message):,} characters)")
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser():
    """The argument parser, with one sub-command per job."""
    parser = _Parser(
        prog="ragscore",
        description="Score recorded RAG runs against a grounded test set. "
                    "Start with 'ragscore demo' to see the course table.")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of an unexpected error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser(
        "demo", help="print the per-question table for the course dataset",
        description="Print one line per (case, system): P@k, R@k, RR@k, support, coverage "
                    "and correct abstention, with n/a where a value is undefined.")
    _dataset_argument(demo, optional=True)
    demo.add_argument("--k", type=_course_k, default=2,
                      help="retrieval cutoff, 1 to 100 (default 2)")
    demo.set_defaults(handler=_demo)

    report = commands.add_parser(
        "report", help="per-question table of a dataset, in a format of your choice",
        description="Score every recorded run of DATASET and print one row per (case, "
                    "system). text and markdown add the declared aggregates; csv leaves n/a "
                    "empty and json writes null, never 0.")
    _dataset_argument(report)
    _scoring_options(report)
    report.add_argument("--format", choices=FORMATS, default="text",
                        help="output format (default text)")
    report.add_argument("--by", choices=("tag", "split", "disputed"), default=None,
                        help="print the declared aggregates per tag, per split, or over all, "
                             "undisputed and disputed questions (reviews), instead of the "
                             "per-question table (a question with several tags counts in "
                             "each)")
    report.add_argument("--na-as-zero", action="store_true",
                        help="count a retrieval metric that is n/a (nothing relevant) as 0, "
                             "as trec_eval's means do; the output says so")
    report.set_defaults(handler=_report)

    comparison = commands.add_parser(
        "compare", help="paired per-question comparison of two systems",
        description="For each question and metric: baseline value, candidate value, delta "
                    "and verdict (regressed, no longer defined, newly defined, improved, "
                    "unchanged). Regressions are listed first.")
    _dataset_argument(comparison)
    comparison.add_argument("--baseline", required=True, help="the system you have now")
    comparison.add_argument("--candidate", required=True, help="the system you might ship")
    _scoring_options(comparison)
    comparison.add_argument("--format", choices=("text", "json"), default="text",
                            help="text (default) or json: a list of per-question rows, or "
                                 "with --stats a list of per-metric statistics (null for n/a)")
    comparison.add_argument("--allow-mismatch", action="store_true",
                            help="compare systems judged under different rubric versions "
                                 "(their manifests say); the output says so first")
    comparison.add_argument("--stats", action="store_true",
                            help="add paired statistics per metric: mean delta, bootstrap "
                                 "percentile CI, sign-flip permutation p-value and the "
                                 "smallest detectable effect (at least 10 paired questions)")
    comparison.add_argument("--confidence", type=_confidence, default=0.95,
                            help="confidence level of --stats intervals (default 0.95)")
    comparison.add_argument("--seed", type=_seed, default=0,
                            help="random seed of --stats resampling: the same seed gives the "
                                 "same numbers (default 0)")
    comparison.set_defaults(handler=_compare)

    auditing = commands.add_parser(
        "audit", help="label audit: what to know about the labels before reading a score",
        description="List, per question and document: retrieved documents in the top k "
                    "that no one judged (with counts per system), near-duplicate documents "
                    "labelled differently, unanswerable questions answered with citations, "
                    "support labels outside the relevant set (graded labels) and disputed "
                    "reviews. Findings are information: the exit code is 0.")
    _dataset_argument(auditing)
    auditing.add_argument("--k", type=_k_text, default="2",
                          help="cutoff for unjudged documents: 1 to 100 (course IDs) or 10000 "
                               "(open IDs); default 2, as report")
    auditing.add_argument("--format", choices=("text", "json"), default="text",
                          help="output format (default text)")
    auditing.set_defaults(handler=_audit)

    sweeping = commands.add_parser(
        "sweep", help="mean metrics for every cutoff from 1 to --max-k",
        description="Macro means over answerable questions for k = 1 .. MAX_K, per system.")
    _dataset_argument(sweeping)
    sweeping.add_argument("--max-k", type=_k_text, required=True,
                          help="largest cutoff: 1 to 100 (course IDs) or 10000 (open IDs)")
    _scoring_options(sweeping, k=False)
    sweeping.set_defaults(handler=_sweep)
    _add_import_commands(commands)
    from .cli_release import add_release_commands
    add_release_commands(commands, _dataset_argument, _engine_option)
    return parser


def _quiet_stdout():
    """After a closed pipe: point stdout at /dev/null so the interpreter's final flush is
    silent too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def capture(argv):
    """Run the command line on ``argv`` in this process; return ``(exit code, standard
    output, standard error)`` as text (for notebooks and tests)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(list(argv), out=out)
        except SystemExit as error:  # argparse's own usage errors
            code = error.code
    return code, out.getvalue(), err.getvalue()


def main(argv=None, *, out=None):
    """Run the command line; return the exit code (see the module docstring)."""
    out = sys.stdout if out is None else out
    args = build_parser().parse_args(argv)
    if getattr(args, "format", "text") in ("text", "markdown"):  # read by people: escaped
        out = _Escaping(out)
    try:
        code = args.handler(args, out)
        out.flush()
        return code
    except InvalidInputError as error:
        print(f"ragscore: error: {error}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print("ragscore: interrupted", file=sys.stderr)
        return INTERRUPTED
    except OSError as error:  # the machine, not the data: a full disk, a missing permission
        target = f"{show(error.filename)}: " if error.filename else ""
        print(f"ragscore: error: {target}{error.strerror or error}", file=sys.stderr)
        return BAD_INPUT
    except Exception as error:  # noqa: BLE001 (the last line of defence: one line, no trace)
        if args.debug:
            raise
        print(f"ragscore: internal error ({type(error).__name__}): {show(str(error))}; "
              f"this is a bug, please report it at {ISSUES} (run with --debug for the "
              "details)", file=sys.stderr)
        return INTERNAL
