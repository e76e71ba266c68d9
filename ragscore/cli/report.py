"""``ragscore demo``, ``report`` and ``sweep``: parse, call the use case
(:mod:`ragscore.usecases.report`, :mod:`ragscore.usecases.sweep`), return its result."""
from ..usecases.report import Report, demo, report_job
from ..usecases.sweep import Sweep, sweep
from ..usecases.measured import TREC_DEFAULT
from .options import (confidence, course_k, dataset_argument, digits_option, format_option,
                      k_text, measures_option, random_seed, scoring, scoring_options)


def _demo(args):
    return demo(args.dataset, k=args.k)


def _report(args):
    k = args.k
    if args.measures is None and not args.trec_eval:
        k = "2" if k is None else k
    estimate = None
    if args.estimate is not None:
        estimate = {"estimate": args.estimate, "audit_share": args.audit_share,
                    "seed": args.seed, "confidence": args.confidence}
    return report_job(args.dataset, failures=args.failures, by=args.by, measures=args.measures,
                      trec_eval=args.trec_eval, k=k, metrics=args.metrics,
                      na_as_zero=args.na_as_zero, system=args.system, drafts=args.drafts,
                      estimate=estimate, **scoring(args))


def _sweep(args):
    return sweep(args.dataset, max_k=args.max_k, metrics=args.metrics,
                 baseline=args.baseline, candidate=args.candidate,
                 confidence=args.confidence, seed=args.seed, **scoring(args))


def add_demo(commands):
    demo_command = commands.add_parser(
        "demo", help="print the per-question table for the course dataset",
        description="Print one line per (case, system): P@k, R@k, RR@k, support, coverage "
                    "and correct abstention, with n/a where a value is undefined.")
    dataset_argument(demo_command, optional=True)
    demo_command.add_argument("--k", type=course_k, default=2,
                              help="retrieval cutoff, 1 to 100 (default 2)")
    demo_command.set_defaults(handler=_demo)


def add_report(commands):
    parser = commands.add_parser(
        "report", help="per-question table of a dataset, in a format of your choice",
        description="Score every recorded run of DATASET and print one row per (case, "
                    "system). text and markdown add the declared aggregates; csv leaves n/a "
                    "empty and json writes null, never 0.")
    dataset_argument(parser)
    scoring_options(parser)
    format_option(parser, Report.writers)
    parser.add_argument("--by", choices=("tag", "split", "disputed"), default=None,
                        help="print the declared aggregates per tag, per split, or over all, "
                             "undisputed and disputed questions (reviews), instead of the "
                             "per-question table (a question with several tags counts in "
                             "each)")
    parser.add_argument("--na-as-zero", action="store_true",
                        help="count a retrieval metric that is n/a (nothing relevant) as 0, "
                             "as trec_eval's means do, and a nugget score that is n/a (no "
                             "(vital) nugget, one not assigned) as 0, as nuggetizer writes "
                             "it; the output says so")
    parser.add_argument("--drafts", action="store_true",
                        help="count machines' drafts (nugget assignments, grades, support "
                             "judgements of origin llm-draft) where no person judged the "
                             "item, as an LLM-only evaluation would; a note says so")
    parser.add_argument("--failures", action="store_true",
                        help="print only the questions a stage failed (diagnosis: retrieval "
                             "missed, not delivered, unsupported claims, should abstain, "
                             "should answer), with question, answer and relevant IDs side by "
                             "side (docs/diagnosis.md)")
    parser.add_argument("--measures", type=measures_option, default=None, metavar="NAMES",
                        help="measures in ir_measures' spelling, e.g. \"P@5 P@10 nDCG@10 AP "
                             "RR R@100 Success@1\" (AP, nDCG and RR without @k are uncut, as "
                             "trec_eval's map, ndcg and recip_rank; ragscore's own metrics by "
                             "their label or name with a cutoff, e.g. support@10, or at --k); "
                             "all in one pass")
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals in text and markdown output (default 4; 2 gives "
                             "the seed's precision)")
    parser.add_argument("--trec-eval", action="store_true",
                        help="print trec_eval -q's layout (measure<TAB>qid<TAB>value, then "
                             "all) with its names, four decimals and n/a as 0, for "
                             "--measures (default: " + TREC_DEFAULT + ")")
    parser.add_argument("--system", default=None, metavar="NAME",
                        help="score only this system's runs")
    parser.add_argument("--estimate", choices=("ppi",), default=None,
                        help="ppi: beside people's figures, estimate each answer metric's mean "
                             "from a judge's drafts of every answer corrected by people's "
                             "audit sample (prediction-powered inference; labelled as an "
                             "estimate, never the default; docs/labels.md)")
    parser.add_argument("--audit-share", type=float, default=0.1, metavar="SHARE",
                        help="with --estimate: the audit slice's share of the questions, as "
                             "review export --order decision drew it (default 0.1)")
    parser.add_argument("--seed", type=random_seed, default=0,
                        help="with --estimate: the audit slice's seed (default 0)")
    parser.add_argument("--confidence", type=confidence, default=0.95,
                        help="with --estimate: the intervals' confidence (default 0.95)")
    parser.set_defaults(handler=_report)


def add_sweep(commands):
    parser = commands.add_parser(
        "sweep", help="mean metrics for every cutoff from 1 to --max-k",
        description="Macro means over answerable questions for k = 1 .. MAX_K, per system.")
    dataset_argument(parser)
    parser.add_argument("--max-k", type=k_text, required=True,
                        help="largest cutoff: 1 to 100 (course IDs) or 10000 (open IDs)")
    scoring_options(parser, k=False)
    format_option(parser, Sweep.writers)
    parser.add_argument("--digits", type=digits_option, default=4,
                        help="decimals in the means (default 4)")
    parser.add_argument("--baseline", default=None, metavar="SYSTEM",
                        help="with --candidate: the paired statistics of the two systems "
                             "at every k, each p-value beside its Holm adjustment for all "
                             "the metrics and cutoffs tested (text or json)")
    parser.add_argument("--candidate", default=None, metavar="SYSTEM",
                        help="the system compared with --baseline")
    parser.add_argument("--confidence", type=confidence, default=0.95,
                        help="confidence level of the paired intervals (default 0.95)")
    parser.add_argument("--seed", type=random_seed, default=0,
                        help="random seed of the resampling (default 0)")
    parser.set_defaults(handler=_sweep)


COMMANDS = {"demo": add_demo, "report": add_report, "sweep": add_sweep}
