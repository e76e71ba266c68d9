"""``ragscore claims`` and ``ragscore review export|import``: answers to claims, and the
review queue out to a file and back (see ``docs/answers.md``)."""
import csv
import json
from pathlib import Path

from .cli_common import OK, dataset_argument, output_file
from .core.rules import InvalidInputError, show

SPLIT_HELP = "how an answer is cut into claims: sentence (default), line or paragraph"


def _claims(args, out):
    from .io.answers import derived_claims
    from .folders import load_dataset

    dataset = load_dataset(args.dataset)
    if args.system is not None and args.system not in dataset.systems:
        raise InvalidInputError(f"system {show(args.system)} is not in the dataset (its "
                                f"systems: {', '.join(dataset.systems) or 'none'})")
    systems = None if args.system is None else {args.system}
    rows = (
        {"case": case_name, "system": system, "trial": trial, "claim": claim.text,
         "span": list(claim.span), "citations": list(claim.citations),
         "markers": list(claim.markers), "findings": list(claim.findings),
         "source": derived.source, "decision": decision}
        for case_name, system, trial, derived in derived_claims(
            dataset, systems=systems, split=args.split, pattern=args.pattern)
        for claim, decision in zip(derived.claims, derived.decisions))
    if args.format == "json":
        encode = json.JSONEncoder(ensure_ascii=False).encode  # one encoder for every row
        chunk, first = [], True
        out.write("[")
        for row in rows:
            chunk.append(("\n" if first else ",\n") + encode(row))
            first = False
            if len(chunk) >= 2048:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk) + "\n]\n")
    elif args.format == "csv":
        names = ("case", "system", "trial", "claim", "span", "citations", "markers",
                 "findings", "source", "decision")
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(names)
        for row in rows:
            writer.writerow(["" if row[name] is None else
                             json.dumps(row[name], ensure_ascii=False)
                             if type(row[name]) is list else row[name] for name in names])
    else:
        empty = True
        for row in rows:
            empty = False
            cited = ", ".join(row["citations"]) or "no citation"
            judged_as = row["decision"] or "awaits review"
            out.write(f"{row['case']} {row['system']} {row['span'][0]}-{row['span'][1]} "
                      f"[{cited}; {judged_as}] {row['claim']}\n")
            for finding in row["findings"]:
                out.write(f"    finding: {finding}\n")
        if empty:
            out.write("no run records only its answer: every run records its claims\n")
    return OK


def queue_text(dataset, *, path=None, kind=None, **options):
    """``(rows, text)``: the review queue of ``dataset`` (``options``: those of
    :func:`~ragscore.io.review_queue.review_queue`) written as ``kind``, by default CSV for a
    ``path`` ending in ``.csv``, else JSON Lines."""
    from .io.review_queue import review_queue, write_queue

    rows = review_queue(dataset, **options)
    kind = kind or ("csv" if path and str(path).lower().endswith(".csv") else "jsonl")
    return rows, write_queue(rows, kind=kind)


def _export(args, out):
    from .folders import load_dataset
    from .io.store import write_file_atomically

    target = None if args.out is None else output_file("--out", args.out)
    rows, text = queue_text(load_dataset(args.dataset), path=args.out, kind=args.format,
                            system=args.system, split=args.split, pattern=args.pattern)
    if target is None:
        out.write(text)
    else:
        write_file_atomically(target, [text])
        noun = "claim awaits" if len(rows) == 1 else "claims await"
        out.write(f"wrote {args.out}: {len(rows)} {noun} review\n")
    return OK


def _import(args, out):
    import datetime

    from .folders import load_dataset, save_dataset
    from .io.review_queue import add_judgements, read_decisions

    path = Path(args.file)
    kind = "csv" if path.suffix.lower() == ".csv" else "jsonl"
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError(f"{path}: not UTF-8 text") from None
    dataset = load_dataset(args.dataset)
    date = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    try:
        found = read_decisions(text, dataset, kind=kind, reviewer=args.reviewer, date=date)
    except InvalidInputError as error:
        raise InvalidInputError(f"{path}, {error}") from None
    added = sum(len(records) for records in found.values())
    if added:
        save_dataset(add_judgements(dataset, found), args.dataset, overwrite=True)
    out.write(f"{args.dataset}: {added} judgements added\n")
    return OK


def _common(parser):
    parser.add_argument("--split", choices=("sentence", "line", "paragraph"),
                        default="sentence", help=SPLIT_HELP)
    parser.add_argument("--pattern", default=None,
                        help="a regular expression for citation markers; its first group "
                             "holds the marker's contents (default: [1] [1, 3] [1-3] [doc-id] "
                             "[^1] 【1】)")


def add_answer_commands(commands):
    """Add ``claims`` and ``review export|import``."""
    claims = commands.add_parser(
        "claims", help="list the claims derived from the runs' answer text",
        description="Split every run's answer (runs that record 'answer' and no 'claims') "
                    "into claims, with their spans, citation markers, the IDs they resolve "
                    "to and any finding. See docs/answers.md.")
    dataset_argument(claims)
    claims.add_argument("--system", default=None, help="only this system's answers")
    claims.add_argument("--format", choices=("json", "csv", "text"), default="text")
    _common(claims)
    claims.set_defaults(handler=_claims)

    review = commands.add_parser(
        "review", help="export the claims awaiting review, or import decisions",
        description="The review queue of answer claims (see docs/answers.md).")
    verbs = review.add_subparsers(dest="verb", required=True, metavar="VERB")
    export = verbs.add_parser("export", help="write the claims awaiting review (JSONL or CSV)")
    dataset_argument(export)
    export.add_argument("--system", default=None, help="only this system's answers")
    export.add_argument("--out", default=None, help="the file to write (default: stdout)")
    export.add_argument("--format", choices=("jsonl", "csv"), default=None,
                        help="default: csv for an --out ending in .csv, else jsonl")
    _common(export)
    export.set_defaults(handler=_export)
    importing = verbs.add_parser("import", help="read decisions back into the dataset")
    dataset_argument(importing)
    importing.add_argument("file", help="a filled-in queue file (.jsonl or .csv)")
    importing.add_argument("--reviewer", default=None,
                           help="the reviewer's name for rows that leave it empty")
    importing.add_argument("--date", default=None,
                           help="YYYY-MM-DD for rows that leave it empty (default: today, UTC)")
    importing.set_defaults(handler=_import)
