"""``ragscore claims`` and ``ragscore review export|import``: answers to claims, and the
review queue out to a file and back (see ``docs/answers.md``); parsing only, the use cases
are :mod:`ragscore.usecases.review`'s."""
from ..io.review_queue import POOL_DEPTH
from ..usecases.review import Claims, QUEUE_KINDS, Queue, claims, import_decisions, \
    review_page, review_queue
from ..usecases.review_status import ReviewStatus, review_status
from .options import dataset_argument, format_option, queue_overwrite_options

SPLIT_HELP = "how an answer is cut into claims: sentence (default), line or paragraph"


def _claims(args):
    return claims(args.dataset, system=args.system, split=args.split, pattern=args.pattern)


def _queue_options(args):
    return {"system": args.system, "split": args.split, "pattern": args.pattern,
            "pool_depth": args.pool_depth, "reviewer": args.reviewer,
            "citations": args.citations, "kinds": args.kinds, "order": args.order,
            "policy": args.policy, "candidate": args.candidate, "baseline": args.baseline,
            "metric": args.metric, "k": args.k, "audit_share": args.audit_share,
            "seed": args.seed, "only_deciding": args.only_deciding or None}


def _status(args):
    return review_status(args.dataset, candidate=args.candidate, policy=args.policy,
                         baseline=args.baseline, metric=args.metric, k=args.k,
                         pool_depth=args.pool_depth, citations=args.citations,
                         split=args.split, pattern=args.pattern)


def _share(text):
    """``--audit-share``: a number (checked by the use case)."""
    import argparse

    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--audit-share must be a number from 0 to 1; got "
                                         f"{text!r}") from None


def _seed(text):
    import argparse

    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"--seed must be a whole number 0 or above; got "
                                         f"{text!r}")
    return int(text)


def _deciding(parser, *, status=False):
    """The options that say what decides: a policy and its systems, or a comparison."""
    parser.add_argument("--policy", default=None,
                        help="the gate's policy (TOML): what decides is its verdict")
    parser.add_argument("--candidate", default=None, required=status,
                        help="the system the policy judges (or the comparison's candidate)")
    parser.add_argument("--baseline", default=None,
                        help="the baseline system (no_regression rules; a comparison)")
    parser.add_argument("--metric", default=None,
                        help="without --policy: what decides is the sign of the mean paired "
                             "delta of this metric (registry name) between the systems")
    parser.add_argument("--k", type=int, default=None,
                        help="the comparison's cutoff (default 2; a policy says its own)")


def _export(args):
    return review_queue(args.dataset, out=args.out, fmt=args.format, disputed=args.disputed,
                        overwrite=args.overwrite, overwrite_decisions=args.overwrite_decisions,
                        **_queue_options(args))


def _page(args):
    return review_page(args.dataset, out=args.out, date=args.date, overwrite=args.overwrite,
                       overwrite_decisions=args.overwrite_decisions, **_queue_options(args))


def _kinds(text):
    """``--kinds``: queue kinds separated by commas (checked by the use case)."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _import(args):
    return import_decisions(args.dataset, args.file, reviewer=args.reviewer, date=args.date,
                            split=args.split, pattern=args.pattern, role=args.role)


def _depth(text):
    """A pool depth: a whole number 0 or above."""
    import argparse

    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"--pool-depth must be a whole number 0 or above; "
                                         f"got {text!r}")
    return int(text)


def _common(parser):
    parser.add_argument("--split", choices=("sentence", "line", "paragraph"),
                        default="sentence", help=SPLIT_HELP)
    parser.add_argument("--pattern", default=None,
                        help="a regular expression for citation markers; its first group "
                             "holds the marker's contents (default: [1] [1, 3] [1-3] [doc-id] "
                             "[^1] 【1】)")


def add_claims(commands):
    """Add ``claims``."""
    parser = commands.add_parser(
        "claims", help="list the claims derived from the runs' answer text",
        description="Split every run's answer (runs that record 'answer' and no 'claims') "
                    "into claims, with their spans, citation markers, the IDs they resolve "
                    "to and any finding. See docs/answers.md.")
    dataset_argument(parser)
    parser.add_argument("--system", default=None, help="only this system's answers")
    format_option(parser, Claims.writers)
    _common(parser)
    parser.set_defaults(handler=_claims)


def _queue_arguments(parser):
    """The options that choose a queue's items (review export and review page)."""
    parser.add_argument("--system", default=None, help="only this system's answers")
    parser.add_argument("--pool-depth", type=_depth, default=POOL_DEPTH, metavar="N",
                        help="offer the union of every system's top N passages per question "
                             f"for relevance, as TREC pools (default {POOL_DEPTH}; 0: none)")
    parser.add_argument("--reviewer", default=None,
                        help="leave out only what this reviewer judged (a second reviewer "
                             "judges items others did: agreement is then measured)")
    parser.add_argument("--citations", action="store_true",
                        help="offer each claim's support by each passage it cites too (full, "
                             "partial, none: TREC RAG's graded citation support)")
    parser.add_argument("--kinds", type=_kinds, default=None, metavar="KINDS",
                        help="only these kinds, separated by commas "
                             f"({', '.join(QUEUE_KINDS)}; citation implies --citations)")
    parser.add_argument("--order", choices=("decision",), default=None,
                        help="decision: first the seeded audit slice, then the items that can "
                             "still change a rule's verdict (or the comparison's sign), then "
                             "the rest (needs --candidate and --policy, or --metric and "
                             "--baseline)")
    _deciding(parser)
    parser.add_argument("--only-deciding", action="store_true",
                        help="with --order decision: leave out the items that cannot change "
                             "anything (never the audit slice)")
    parser.add_argument("--audit-share", type=_share, default=None, metavar="SHARE",
                        help="with --order decision: each question is in the audit slice "
                             "with this probability, seeded (default 0.1)")
    parser.add_argument("--seed", type=_seed, default=None,
                        help="with --order decision: the audit slice's seed (default 0)")
    _common(parser)


def add_review(commands):
    """Add ``review export|page|status|import``."""
    from ..importers.registry import date_option

    review = commands.add_parser(
        "review", help="export what awaits review (pool, questions, claims, nuggets), or "
                       "import decisions",
        description="The review queue: passages pooled from every system's top N for "
                    "relevance, questions for answerability, answer claims for support, "
                    "answers against the nuggets only a person can assign, and with "
                    "--citations each cited passage's support of its claim (see "
                    "docs/answers.md, docs/labels.md and docs/nuggets.md).")
    verbs = review.add_subparsers(dest="verb", required=True, metavar="VERB")
    export = verbs.add_parser("export", help="write what awaits review (JSONL, CSV or the "
                                             "review page)")
    dataset_argument(export)
    export.add_argument("--out", default=None, help="the file to write (default: stdout)")
    queue_overwrite_options(export, "--out")
    format_option(export, Queue.writers, default=None,
                  help="default: csv for an --out ending in .csv, html (the review page) "
                       "for .html, else jsonl")
    _queue_arguments(export)
    export.add_argument("--disputed", action="store_true",
                        help="only the items people decided differently and no adjudicator "
                             "has settled, each with every reviewer's decision (import the "
                             "adjudicator's decisions with --role adjudicator)")
    export.set_defaults(handler=_export)
    page = verbs.add_parser(
        "page", help="write the review page: one self-contained HTML file, no server",
        description="Write the review queue as one HTML file that opens from disk with no "
                    "server, network or Jupyter: one item a screen, decision buttons with "
                    "keyboard shortcuts, a note, progress, the decisions kept in the browser "
                    "across reloads; its Export button writes a file 'ragscore review import' "
                    "reads (see docs/labels.md).")
    dataset_argument(page)
    page.add_argument("--out", required=True, help="the HTML file to write")
    queue_overwrite_options(page, "--out")
    page.add_argument("--date", default=None, type=date_option,
                      help="the date its decisions carry, YYYY-MM-DD (default: the "
                           "reviewer's today, in the browser)")
    _queue_arguments(page)
    page.set_defaults(handler=_page)
    status = verbs.add_parser(
        "status", help="is the verdict settled whatever the pending items say?",
        description="Work out, with the gate itself, whether the policy's verdict (or the "
                    "sign of a paired comparison) is settled whatever the items awaiting "
                    "review say, and otherwise how many of them can still move each rule "
                    "(docs/labels.md).")
    dataset_argument(status)
    _deciding(status, status=True)
    status.add_argument("--pool-depth", type=_depth, default=POOL_DEPTH, metavar="N",
                        help=f"the pool that awaits review, as review export (default "
                             f"{POOL_DEPTH})")
    status.add_argument("--citations", action="store_true",
                        help="count each cited passage's support of its claim as pending too")
    format_option(status, ReviewStatus.writers)
    _common(status)
    status.set_defaults(handler=_status)
    importing = verbs.add_parser("import", help="read decisions back into the dataset")
    dataset_argument(importing)
    importing.add_argument("file", help="a filled-in queue file (.jsonl or .csv)")
    importing.add_argument("--reviewer", default=None,
                           help="the reviewer's name for rows that leave it empty")
    importing.add_argument("--date", default=None, type=date_option,
                           help="YYYY-MM-DD for rows that leave it empty (default: today, UTC)")
    importing.add_argument("--role", choices=("adjudicator",), default=None,
                           help="adjudicator: each decision settles its item's dispute and is "
                                "the one scored (the others' stay beside it)")
    _common(importing)
    importing.set_defaults(handler=_import)


COMMANDS = {"claims": add_claims, "review": add_review}
