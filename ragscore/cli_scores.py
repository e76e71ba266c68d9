"""The scoring commands of ``ragscore``: ``demo``, ``report``, ``compare``, ``audit`` and
``sweep`` (wiring only: the numbers come from the engine and the tables)."""
import sys

from .cli_common import (OK, Escaping, course_k, cutoff, confidence, dataset_argument, k_text,
                         no_runs, random_seed, notes_out, read_counted, read_pair,
                         scoring_options, shortened_note, what_was_removed)
from .cli_measures import (add_measure_options, add_report_options, digits_option,
                           measures_option)
from .core.aggregate import label_notes
from .core.metrics import REGISTRY
from .core.rules import InvalidInputError
from .render.formats import FORMATS
from .render.escape import markdown_cell, text as one_line
from .render.text import aligned_lines, format_value, text_table


def _demo(args, out):
    from .core.scoring import iter_scores
    from .folders import load_dataset

    dataset = load_dataset(args.dataset)
    if not dataset.runs:
        raise no_runs(args.dataset)
    rows = iter_scores(dataset.corpus, dataset.cases, dataset.runs, k=args.k)
    out.write(text_table(rows, k=args.k) + "\n")
    return OK


def _record_lines(counted, *, k, metrics, digits=2):
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
                         f"min {format_value(low, digits=digits)}, max "
                         f"{format_value(high, digits=digits)}, mean "
                         f"{format_value(mean, digits=digits)}, {agree} agree")
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
    counted = read_counted(args)
    k = cutoff(args.k, counted.rules)
    if args.failures:
        return _failures(args, counted, k, out)
    if args.measures is not None or args.trec_eval or args.system is not None:
        from .cli_measures import measures_report, only_system

        if args.by is not None:
            raise InvalidInputError("--by prints the declared aggregates of --metrics at --k; "
                                    "it does not combine with --measures, --trec-eval or "
                                    "--system")
        return measures_report(args, only_system(counted, args.system), out, default_k=k)

    if args.by is not None:
        from .render.formats import render_frame

        if args.by == "disputed":
            from .folders import load_dataset
            from .tables.reviews import disputed_slice

            frame = disputed_slice(load_dataset(args.dataset), k=k, metrics=args.metrics,
                                   engine=args.engine)
        else:
            from .tables.summary import sliced_aggregates

            frame = sliced_aggregates(counted, by=args.by, k=k, metrics=args.metrics,
                                      na_as_zero=args.na_as_zero)
        Escaping(sys.stderr).write("".join(f"ragscore: note: {note}\n"
                                            for note in label_notes(counted, k)))
        out.write(render_frame(frame, fmt=args.format, digits=args.digits))
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
        text = render(table, k=k, fmt=args.format, digits=args.digits)
    prose = markdown_cell if args.format == "markdown" else one_line  # names shown as typed
    notes = counted.notes + tuple(label_notes(counted, k))
    if notes and args.format in ("text", "markdown"):
        out.write("".join(f"Note: {prose(shortened_note(note))}\n" for note in notes)
                  + "\n")
    elif notes:
        Escaping(sys.stderr).write("".join(f"ragscore: note: {shortened_note(note)}\n"
                                            for note in notes))
    if args.na_as_zero and args.format in ("text", "markdown"):
        out.write("Note: --na-as-zero: a retrieval metric with nothing relevant counts 0, as "
                  "in trec_eval's means, and a nugget score that is n/a counts 0, as "
                  "nuggetizer writes it; ragscore's default leaves n/a out.\n\n")
    elif args.na_as_zero:
        sys.stderr.write("ragscore: note: --na-as-zero: retrieval metrics with nothing "
                         "relevant are written as 0 (trec_eval's convention), and nugget "
                         "scores that are n/a too (nuggetizer's)\n")
    out.write(text)
    if args.format in ("text", "markdown"):
        from .tables.summary import aggregates

        rows = aggregates(counted, k=k, metrics=tuple(table.columns),
                          na_as_zero=args.na_as_zero)
        lines = ["", "Aggregates (each names its method, denominator and what it left out):"]
        for system, slice_, metric, method, value, description in zip(
                *(rows[name].tolist() for name in ("system", "slice", "metric", "method",
                                                   "value", "description"))):
            lines.append(f"- {system} {slice_} {metric} ({method}) = "
                         f"{format_value(value, digits=args.digits)}: {description}")
        lines += _record_lines(counted, k=k, metrics=tuple(table.columns), digits=args.digits)
        lines += _diagnosis_lines(args, counted, k)
        removed = what_was_removed(counted)
        if removed:
            lines += ["", "Removed before scoring, per question (repeated IDs dropped, chunks "
                          "collapsed into their documents):"]
            lines += [f"- {case} {system}: {dropped} dropped, {collapsed} collapsed"
                      for case, system, dropped, collapsed in removed]
        if args.format == "markdown":  # a name from the data never becomes a link or HTML
            lines = [f"- {prose(line[2:])}" if line.startswith("- ") else prose(line)
                     for line in lines]
        out.write("\n".join(lines) + "\n")
    notes_out(counted, Escaping(sys.stderr))
    return OK


def _diagnosis_lines(args, counted, k):
    from .render.failures import diagnosis_lines

    runs = {}
    if "delivered" in counted.features:  # a delivered context that is not a prefix: the runs
        from .folders import load_dataset

        runs = load_dataset(args.dataset).runs
    return diagnosis_lines(counted, runs, k=k)


def _failures(args, counted, k, out):
    """``report --failures``: the failing questions, with question, answer and relevant IDs."""
    from .folders import load_dataset
    from .render.failures import failure_rows, failures_json, failures_text

    if args.format not in ("text", "json"):
        raise InvalidInputError(f"--failures prints text or json; got --format {args.format}")
    rows = failure_rows(load_dataset(args.dataset), counted, k=k)
    out.write(failures_json(rows, k=k) if args.format == "json"
              else failures_text(rows, k=k, width=args.width))
    return OK


def _compare(args, out):
    from .core.paired import split_mix
    from .io.manifest import rubric_conflict, rubric_mismatch

    if args.dataset is None:  # --baseline DIR:SYSTEM --candidate DIR:SYSTEM
        pair = read_pair(args)
        counted = pair.counted
        problem = rubric_conflict(pair.view.manifests, pair.view.rubric, args.baseline,
                                  args.candidate)
    else:
        counted = read_counted(args)
        problem = rubric_mismatch(args.dataset, args.baseline, args.candidate)
    k = cutoff(args.k, counted.rules)
    warnings = []
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
    for warning in warnings:  # first lines of the output; on stderr when it is JSON or CSV
        if args.format != "text":
            sys.stderr.write(f"ragscore: warning: {warning}\n")
        else:
            out.write(f"WARNING: {warning}\n")
    notes = label_notes(counted, k, systems={args.baseline, args.candidate})
    if args.format != "text":  # said first, out of band; text says them after the table
        Escaping(sys.stderr).write("".join(f"ragscore: note: {note}\n" for note in notes))
    if args.na_as_zero:
        sys.stderr.write("ragscore: note: --na-as-zero: retrieval metrics with nothing "
                         "relevant count 0 on both sides (trec_eval's convention), and nugget "
                         "scores that are n/a too (nuggetizer's)\n")
    if args.measures is not None and args.format != "text":
        from .cli_measures import compare_measures_out

        return compare_measures_out(args, counted, out, default_k=k)
    if args.format == "text":  # the text straight from the counts: no pandas table
        from .core.metrics import select
        from .core.paired import pair_up
        from .engine import default_metrics
        from .render.formats import comparison_text

        if args.measures is not None:
            from .cli_measures import measure_columns

            chosen, columns = measure_columns(counted, args.measures, default_k=k,
                                              na_as_zero=args.na_as_zero)
        else:
            chosen = select(default_metrics(counted) if args.metrics is None else args.metrics)
            columns = {metric.name: counted.column(metric, k, na_as_zero=args.na_as_zero)
                       for metric in chosen}
        paired = pair_up(counted.keys, columns, baseline=args.baseline,
                         candidate=args.candidate, metrics=chosen)
        text = comparison_text(paired, baseline=args.baseline, candidate=args.candidate,
                               k=None if args.measures else k, metrics=chosen,
                               digits=args.digits)
        if not args.stats:
            out.write(text)
    if args.measures is not None and args.stats:
        raise InvalidInputError("compare --measures --stats: the paired statistics of named "
                                "measures are in --format csv or json (their summary)")
    if args.stats or args.format != "text":
        from .tables.scores import question_table

        table = question_table(counted, k=k, metrics=args.metrics,
                               na_as_zero=args.na_as_zero)
    if args.stats:
        from .tables.stats import RESAMPLES, stats_table

        stats = stats_table(table, baseline=args.baseline, candidate=args.candidate,
                            confidence=args.confidence, seed=args.seed)
    if args.format == "json":
        from .render.stats import comparison_records, stats_records, to_json
        from .tables.compare import compare

        out.write(to_json(stats_records(stats) if args.stats else comparison_records(
            compare(table, baseline=args.baseline, candidate=args.candidate))))
    elif args.format == "csv":
        from .render.formats import render_frame
        from .tables.compare import compare

        out.write(render_frame(stats if args.stats else compare(
            table, baseline=args.baseline, candidate=args.candidate), fmt="csv"))
    elif args.stats:
        from .render.stats import render_stats

        summary, _, rows = text.partition("\n")  # the summary first, then the questions
        out.write(summary + "\n\n" + render_stats(stats, baseline=args.baseline,
                                                 candidate=args.candidate,
                                                 confidence=args.confidence, seed=args.seed,
                                                 resamples=RESAMPLES, digits=args.digits)
                  + "\n" + rows)
    if args.format == "text" and notes:
        out.write("".join(f"Note: {one_line(note)}\n" for note in notes))
    notes_out(counted, Escaping(sys.stderr))
    return OK


def _audit(args, out):
    from .folders import load_dataset
    from .render.audit import audit_json, render_audit
    from .tables.audit import audit

    from .io.answers import derive_dataset, labelled

    loaded = load_dataset(args.dataset)
    dataset = derive_dataset(loaded)
    k = cutoff(args.k, dataset.rules)
    result = audit(dataset, k=k)
    render = audit_json if args.format == "json" else render_audit
    out.write(render(result, name=dataset.name))
    if args.format != "json" and dataset.judgements:
        from .render.audit import judgement_lines

        out.write("\n" + "\n".join(judgement_lines(dataset.judgements,
                                                   stale=labelled(loaded).stale)) + "\n")
    if args.format != "json" and (dataset.judgements or any(
            case.get("reviews") for case in dataset.cases.values())):
        from .render.audit import agreement_text

        out.write(agreement_text(dataset))
    return OK


def _sweep(args, out):
    counted = read_counted(args)
    max_k = cutoff(args.max_k, counted.rules)

    from .tables.summary import sweep

    table = sweep(counted, max_k=max_k, metrics=args.metrics)
    names = [name for name in table.columns if name in REGISTRY]
    rows = [["system", "k", *(REGISTRY[name].label_at("k") for name in names)]]
    columns = [table[name].astype(object).tolist() for name in names]
    for (system, k), *values in zip(table.index, *columns):
        rows.append([one_line(system), str(k),
                     *(format_value(value, digits=args.digits) for value in values)])
    lines = ["Macro means over answerable questions (n/a left out); a yes/no metric shows "
             "its share of yes over its own questions.", *aligned_lines(rows, right_from=1)]
    from .io.spans import LOST_NOTE

    lost = [note for note in counted.notes if note.startswith(LOST_NOTE)]  # span test sets
    lines += [f"Note: {one_line(note)}" for note in lost + label_notes(counted, max_k)]
    out.write("\n".join(lines) + "\n")
    return OK


def add_score_commands(commands):
    """Add ``demo``, ``report``, ``compare``, ``audit`` and ``sweep`` to the sub-command
    parser."""
    demo = commands.add_parser(
        "demo", help="print the per-question table for the course dataset",
        description="Print one line per (case, system): P@k, R@k, RR@k, support, coverage "
                    "and correct abstention, with n/a where a value is undefined.")
    dataset_argument(demo, optional=True)
    demo.add_argument("--k", type=course_k, default=2,
                      help="retrieval cutoff, 1 to 100 (default 2)")
    demo.set_defaults(handler=_demo)

    report = commands.add_parser(
        "report", help="per-question table of a dataset, in a format of your choice",
        description="Score every recorded run of DATASET and print one row per (case, "
                    "system). text and markdown add the declared aggregates; csv leaves n/a "
                    "empty and json writes null, never 0.")
    dataset_argument(report)
    scoring_options(report)
    report.add_argument("--format", choices=FORMATS, default="text",
                        help="output format (default text)")
    report.add_argument("--by", choices=("tag", "split", "disputed"), default=None,
                        help="print the declared aggregates per tag, per split, or over all, "
                             "undisputed and disputed questions (reviews), instead of the "
                             "per-question table (a question with several tags counts in "
                             "each)")
    report.add_argument("--na-as-zero", action="store_true",
                        help="count a retrieval metric that is n/a (nothing relevant) as 0, "
                             "as trec_eval's means do, and a nugget score that is n/a (no "
                             "(vital) nugget, one not assigned) as 0, as nuggetizer writes "
                             "it; the output says so")
    report.add_argument("--drafts", action="store_true",
                        help="count machines' drafts (nugget assignments, grades, support "
                             "judgements of origin llm-draft) where no person judged the "
                             "item, as an LLM-only evaluation would; a note says so")
    report.add_argument("--failures", action="store_true",
                        help="print only the questions a stage failed (diagnosis: retrieval "
                             "missed, not delivered, unsupported claims, should abstain, "
                             "should answer), with question, answer and relevant IDs side by "
                             "side (docs/diagnosis.md)")
    add_measure_options(report)
    add_report_options(report)
    report.set_defaults(handler=_report)

    comparison = commands.add_parser(
        "compare", help="paired per-question comparison of two systems",
        description="For each question and metric: baseline value, candidate value, delta "
                    "and verdict (regressed, no longer defined, newly defined, improved, "
                    "changed for a flag such as ctx differs, unchanged). Regressions are "
                    "listed first.")
    dataset_argument(comparison, pair=True)
    comparison.add_argument("--baseline", required=True,
                            help="the system you have now (without DATASET: DIR:SYSTEM)")
    comparison.add_argument("--candidate", required=True,
                            help="the system you might ship (without DATASET: DIR:SYSTEM)")
    scoring_options(comparison)
    comparison.add_argument("--format", choices=("text", "csv", "json"), default="text",
                            help="text (default), csv or json: the per-question rows, or "
                                 "with --stats the per-metric statistics (n/a empty or "
                                 "null); with --measures a summary per measure (each side's "
                                 "mean, paired difference, interval, pairs used and left "
                                 "out, method) and the per-question rows")
    comparison.add_argument("--na-as-zero", action="store_true",
                            help="count a retrieval metric that is n/a (nothing relevant) as "
                                 "0 on both sides, as trec_eval does, and a nugget score that "
                                 "is n/a, as nuggetizer does")
    comparison.add_argument("--measures", type=measures_option, default=None,
                            metavar="NAMES",
                            help="measures in ir_measures' spelling instead of --metrics at "
                                 "--k, e.g. \"nDCG@10 AP RR\" (see report --help)")
    comparison.add_argument("--digits", type=digits_option, default=4,
                            help="decimals in text output (default 4)")
    comparison.add_argument("--allow-mismatch", action="store_true",
                            help="compare systems judged under different rubric versions "
                                 "(their manifests say); the output says so first")
    comparison.add_argument("--stats", action="store_true",
                            help="add paired statistics per metric: mean delta, bootstrap "
                                 "percentile CI, sign-flip permutation p-value and the "
                                 "smallest detectable effect (at least 10 paired questions)")
    comparison.add_argument("--confidence", type=confidence, default=0.95,
                            help="confidence level of --stats intervals (default 0.95)")
    comparison.add_argument("--seed", type=random_seed, default=0,
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
    dataset_argument(auditing)
    auditing.add_argument("--k", type=k_text, default="2",
                          help="cutoff for unjudged documents: 1 to 100 (course IDs) or 10000 "
                               "(open IDs); default 2, as report")
    auditing.add_argument("--format", choices=("text", "json"), default="text",
                          help="output format (default text)")
    auditing.set_defaults(handler=_audit)

    sweeping = commands.add_parser(
        "sweep", help="mean metrics for every cutoff from 1 to --max-k",
        description="Macro means over answerable questions for k = 1 .. MAX_K, per system.")
    dataset_argument(sweeping)
    sweeping.add_argument("--max-k", type=k_text, required=True,
                          help="largest cutoff: 1 to 100 (course IDs) or 10000 (open IDs)")
    scoring_options(sweeping, k=False)
    sweeping.add_argument("--digits", type=digits_option, default=4,
                          help="decimals in the means (default 4)")
    sweeping.set_defaults(handler=_sweep)
