"""``ragscore claims`` and ``ragscore review export|import``: answers to claims, and the
review queue out to a file and back (see ``docs/answers.md``); parsing only, the use cases
are :mod:`ragscore.usecases.review`'s."""
from ..io.review_queue import POOL_DEPTH
from ..usecases.review import Claims, Queue, claims, import_decisions, review_queue
from .options import dataset_argument, format_option, queue_overwrite_options

SPLIT_HELP = "how an answer is cut into claims: sentence (default), line or paragraph"


def _claims(args):
    return claims(args.dataset, system=args.system, split=args.split, pattern=args.pattern)


def _export(args):
    return review_queue(args.dataset, out=args.out, fmt=args.format, system=args.system,
                        split=args.split, pattern=args.pattern, pool_depth=args.pool_depth,
                        reviewer=args.reviewer, citations=args.citations,
                        overwrite=args.overwrite, overwrite_decisions=args.overwrite_decisions)


def _import(args):
    return import_decisions(args.dataset, args.file, reviewer=args.reviewer, date=args.date,
                            split=args.split, pattern=args.pattern)


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


def add_review(commands):
    """Add ``review export|import``."""
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
    export = verbs.add_parser("export", help="write what awaits review (JSONL or CSV)")
    dataset_argument(export)
    export.add_argument("--system", default=None, help="only this system's answers")
    export.add_argument("--out", default=None, help="the file to write (default: stdout)")
    queue_overwrite_options(export, "--out")
    format_option(export, Queue.writers, default=None,
                  help="default: csv for an --out ending in .csv, else jsonl")
    export.add_argument("--pool-depth", type=_depth, default=POOL_DEPTH, metavar="N",
                        help="offer the union of every system's top N passages per question "
                             f"for relevance, as TREC pools (default {POOL_DEPTH}; 0: none)")
    export.add_argument("--reviewer", default=None,
                        help="leave out only what this reviewer judged (a second reviewer "
                             "judges items others did: agreement is then measured)")
    export.add_argument("--citations", action="store_true",
                        help="offer each claim's support by each passage it cites too (full, "
                             "partial, none: TREC RAG's graded citation support)")
    _common(export)
    export.set_defaults(handler=_export)
    importing = verbs.add_parser("import", help="read decisions back into the dataset")
    dataset_argument(importing)
    importing.add_argument("file", help="a filled-in queue file (.jsonl or .csv)")
    importing.add_argument("--reviewer", default=None,
                           help="the reviewer's name for rows that leave it empty")
    importing.add_argument("--date", default=None, type=date_option,
                           help="YYYY-MM-DD for rows that leave it empty (default: today, UTC)")
    _common(importing)
    importing.set_defaults(handler=_import)


COMMANDS = {"claims": add_claims, "review": add_review}
