"""``ragscore claims`` and ``ragscore review export|import``: answers to claims, and the
review queue out to a file and back (see ``docs/answers.md``)."""
import csv
import json
from pathlib import Path

from .cli_common import OK, dataset_argument, queue_overwrite_options
from .core.rules import InvalidInputError, show
from .io.review_queue import POOL_DEPTH

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
        from .render.escape import csv_cell  # as every CSV writer: no formula, no raw control

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(names)
        for row in rows:
            writer.writerow(["" if row[name] is None else csv_cell(
                json.dumps(row[name], ensure_ascii=False) if type(row[name]) is list
                else row[name]) for name in names])
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
    from .io.review_queue import review_queue
    from .render.queue import write_queue

    rows = review_queue(dataset, **options)
    kind = kind or ("csv" if path and str(path).lower().endswith(".csv") else "jsonl")
    return rows, write_queue(rows, kind=kind)


def queue_summary(rows):
    """What a queue holds, in words: ``12 items await review (4 passages, 2 questions, 6
    claims)``.

    >>> queue_summary([{"kind": "support"}, {"kind": "relevance"}])
    '2 items await review (1 passage, 0 questions, 1 claim)'
    """
    counts = {kind: sum(1 for row in rows if row["kind"] == kind)
              for kind in ("relevance", "answerability", "support", "nugget", "citation")}
    parts = [f"{counts['relevance']} passage{'s' * (counts['relevance'] != 1)}",
             f"{counts['answerability']} question{'s' * (counts['answerability'] != 1)}",
             f"{counts['support']} claim{'s' * (counts['support'] != 1)}"]
    parts += [f"{counts[kind]} {noun}{'s' * (counts[kind] != 1)}"
              for kind, noun in (("nugget", "nugget assignment"), ("citation", "citation"))
              if counts[kind]]
    noun = "item awaits" if len(rows) == 1 else "items await"
    return f"{len(rows)} {noun} review ({', '.join(parts)})"


def _export(args, out):
    from .folders import load_dataset
    from .io.store import write_file_atomically

    from .io.queue_file import check_queue_output

    target = None if args.out is None else check_queue_output(
        args.out, flag="--out", inputs=(args.dataset,), overwrite=args.overwrite,
        decisions=args.overwrite_decisions)
    rows, text = queue_text(load_dataset(args.dataset), path=args.out, kind=args.format,
                            system=args.system, split=args.split, pattern=args.pattern,
                            pool_depth=args.pool_depth, reviewer=args.reviewer,
                            citations=args.citations)
    if target is None:
        out.write(text)
    else:
        write_file_atomically(target, [text])
        out.write(f"wrote {args.out}: {queue_summary(rows)}\n")
    return OK


def _import(args, out):
    import datetime

    from .folders import update_dataset
    from .io.jsonl import read_text
    from .io.queue_file import add_judgements, read_decisions

    path = Path(args.file)
    kind = "csv" if path.suffix.lower() == ".csv" else "jsonl"
    text = read_text(path)  # a regular file within the limit: never a FIFO or /dev/zero
    date = args.date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    found = {}

    def add(dataset):  # under the folder's lock, against the folder as it is now
        try:
            decisions = read_decisions(text, dataset, kind=kind, reviewer=args.reviewer,
                                       date=date, split=args.split, pattern=args.pattern)
        except InvalidInputError as error:
            raise InvalidInputError(f"{path}, {error}") from None
        found["decisions"] = decisions
        if not decisions.records:
            return None
        return add_judgements(dataset, decisions)

    update_dataset(args.dataset, add)
    decisions = found["decisions"]
    noun = "judgement" if decisions.added == 1 else "judgements"
    line = f"{args.dataset}: {decisions.added} {noun} added"
    if decisions.replaced:
        line += (f" ({decisions.replaced} replace{'s' * (decisions.replaced == 1)} the same "
                 "reviewer's earlier decision, kept in the history)")
    if decisions.unchanged:
        line += f"; {decisions.unchanged} already recorded, unchanged"
    if decisions.open:
        line += f"; {decisions.open} left to review"
    out.write(line + "\n")
    return OK


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


def add_answer_commands(commands):
    """Add ``claims`` and ``review export|import``."""
    from .importers.registry import date_option

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
    export.add_argument("--format", choices=("jsonl", "csv"), default=None,
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
