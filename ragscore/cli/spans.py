"""The span commands of ``ragscore``: ``labels`` (a span test set's chunk labels, derived),
``labels anchor`` (a chunk-ID test set turned into spans) and ``rechunk`` (one span test
set on a new chunking or new document versions). Parsing only: the use cases are
:mod:`ragscore.usecases.spans`'s. See docs/spans.md."""
from ..core.rules import InvalidInputError
from ..usecases.spans import SpanLabels, anchor_labels, rechunk_folder, span_labels
from .options import format_option, no_verify_option


def _labels(args):
    if args.target[0] == "anchor" and len(args.target) == 2:
        if args.documents is None or args.out is None:
            raise InvalidInputError("ragscore labels anchor DIR needs --documents DOCS.jsonl "
                                    "and --out NEW_DIR")
        return anchor_labels(args.target[1], documents=args.documents, out=args.out,
                             reviewer=args.reviewer, date=args.date, origin=args.origin,
                             report=args.report, overwrite=args.overwrite,
                             allow_overlap=args.allow_overlap)
    if len(args.target) != 1:
        raise InvalidInputError("ragscore labels DIR prints a span test set's labels; "
                                "ragscore labels anchor DIR --documents DOCS --out NEW_DIR "
                                f"turns a chunk-ID test set into spans; got {args.target!r}")
    return span_labels(args.target[0], unit=args.unit)


def _rechunk(args):
    return rechunk_folder(args.dataset, chunks=args.chunks, out=args.out, report=args.report,
                          chunks_format=args.chunks_format, doc_field=args.doc_field,
                          documents=args.documents, min_overlap=args.min_overlap,
                          allow_overlap=args.allow_overlap, overwrite=args.overwrite,
                          stable_ids=args.stable_ids)


def add_labels(commands):
    """Add ``labels`` (and ``labels anchor``) to the sub-command parser."""
    from ..importers.registry import _today, date_option

    labels = commands.add_parser(
        "labels", help="a span test set's chunk labels, derived (or: labels anchor)",
        description="ragscore labels DIR: print, per question, the chunks the span labels "
                    "make relevant (with grades) and, per claim, its full and partial chunks, "
                    "then every label lost on this chunking (orphaned, ambiguous, in no "
                    "chunk). ragscore labels anchor DIR --documents DOCS.jsonl --out NEW_DIR: "
                    "turn a chunk-ID test set into spans by finding each chunk's text in the "
                    "documents. See docs/spans.md.")
    labels.add_argument("target", nargs="+", metavar="DIR",
                        help="a span test set's folder (or: anchor DIR)")
    format_option(labels, SpanLabels.writers)
    labels.add_argument("--unit", choices=("chunk", "document"), default="chunk",
                        help="derive the labels of the chunks (default) or of whole "
                             "documents")
    labels.add_argument("--documents", default=None, metavar="DOCS.jsonl",
                        help="anchor: the source documents (id, text, optionally version)")
    labels.add_argument("--out", default=None, metavar="NEW_DIR",
                        help="anchor: the span test set to write")
    labels.add_argument("--report", default=None, metavar="REPORT.json",
                        help="anchor: also write every label with its status as JSON")
    labels.add_argument("--overwrite", action="store_true",
                        help="anchor: replace --out if it is a ragscore dataset already")
    labels.add_argument("--allow-overlap", action="store_true",
                        help="anchor: accept placed chunks that share characters")
    labels.add_argument("--reviewer", default=None, metavar="NAME",
                        help="anchor: who stands behind the labels written as spans")
    labels.add_argument("--date", default=_today(), metavar="YYYY-MM-DD", type=date_option,
                        help="anchor: their date (default today)")
    labels.add_argument("--origin", choices=("human", "llm-draft", "post-edited"),
                        default="human", help="anchor: their origin (default human)")
    no_verify_option(labels)
    labels.set_defaults(handler=_labels)


def add_rechunk(commands):
    """Add ``rechunk`` to the sub-command parser."""
    from ..importers.registry import CHUNKING_OPTIONS

    rechunking = commands.add_parser(
        "rechunk", help="a span test set on a new chunking (and new document versions)",
        description="Write NEW_DIR: the test set of DIR on the chunking CHUNKS (and, with "
                    "--documents, on new versions of its documents). Every label is carried "
                    "and moved by its text: kept, moved, orphaned or ambiguous (never "
                    "guessed); runs whose chunks all exist with the same text are carried, "
                    "the others left out and counted. REPORT lists every label with its "
                    "status. See docs/spans.md.")
    rechunking.add_argument("dataset", metavar="DIR", help="a span test set's folder")
    rechunking.add_argument("--chunks", required=True, metavar="CHUNKS",
                            help="the new chunking")
    for option in CHUNKING_OPTIONS:
        settings = dict(option.settings)
        if option.flags == ("--min-overlap",):
            settings.update(default=None, help="characters of a relevant span a chunk must "
                                               "hold to take its grade (default: DIR's)")
        rechunking.add_argument(*option.flags, **settings)
    rechunking.add_argument("--documents", default=None, metavar="NEW_DOCS.jsonl",
                            help="new versions of the documents (id, text, optionally "
                                 "version)")
    rechunking.add_argument("--out", required=True, metavar="NEW_DIR",
                            help="the folder to write")
    rechunking.add_argument("--report", required=True, metavar="REPORT.json",
                            help="every label with its status, the counts and the runs "
                                 "left out, as JSON")
    rechunking.add_argument("--overwrite", action="store_true",
                            help="replace --out if it is a ragscore dataset already")
    no_verify_option(rechunking)
    rechunking.set_defaults(handler=_rechunk)


COMMANDS = {"labels": add_labels, "rechunk": add_rechunk}
