"""``ragscore audit``: parse, call :func:`ragscore.usecases.audit.audit`, return its
:class:`~ragscore.usecases.audit.Audit`."""
from ..usecases.audit import Audit, audit
from .options import dataset_argument, format_option, k_text


def _audit(args):
    return audit(args.dataset, k=args.k)


def add_audit(commands):
    parser = commands.add_parser(
        "audit", help="label audit: what to know about the labels before reading a score",
        description="List, per question and document: retrieved documents in the top k "
                    "that no one judged (with counts per system), near-duplicate documents "
                    "labelled differently, unanswerable questions answered with citations, "
                    "support labels outside the relevant set (graded labels) and disputed "
                    "reviews. Findings are information: the exit code is 0.")
    dataset_argument(parser)
    parser.add_argument("--k", type=k_text, default="2",
                        help="cutoff for unjudged documents: 1 to 100 (course IDs) or 10000 "
                             "(open IDs); default 2, as report")
    format_option(parser, Audit.writers)
    parser.set_defaults(handler=_audit)


COMMANDS = {"audit": add_audit}
