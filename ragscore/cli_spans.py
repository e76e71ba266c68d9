"""The span commands of ``ragscore``: ``labels`` (a span test set's chunk labels, derived),
``labels anchor`` (a chunk-ID test set turned into spans) and ``rechunk`` (one span test
set on a new chunking or new document versions). Wiring only: the rule is
:mod:`ragscore.core.spans`, the folders :mod:`ragscore.io.spans` and
:mod:`ragscore.io.rechunk`. See docs/spans.md."""
import json
from pathlib import Path

from .cli_common import OK, no_verify_option, output_file
from .core.rules import InvalidInputError, show


def _derived_rows(dataset, view):
    """Per case: its question, derived relevant chunks with grades and claims' chunks."""
    rows = []
    for case, derived in view.cases.items():
        rows.append({"case": case, "question": dataset.cases[case].get("question", ""),
                     "relevant": {chunk: grade for chunk, grade in derived.relevant.items()
                                  if grade > 0},
                     "claims": {claim: {"full": list(chunks.full),
                                        "partial": list(chunks.partial)}
                                for claim, chunks in derived.support.items()}})
    return rows


def _labels_text(rows, report):
    lines = [f"Chunk labels derived from spans ({report['chunks']} chunks of "
             f"{report['documents']} documents; relevant: chunk (grade); per claim: full "
             "chunks contain an evidence span, partial ones only overlap one):"]
    for row in rows:
        relevant = ", ".join(f"{chunk} ({grade})" for chunk, grade in row["relevant"].items())
        lines.append(f"{row['case']}: relevant {relevant or 'none'}")
        for claim, chunks in row["claims"].items():
            lines.append(f"  claim {claim}: full {', '.join(chunks['full']) or 'none'}; "
                         f"partial {', '.join(chunks['partial']) or 'none'}")
    lines += ["", _counts_line(report)]
    lines += [f"- {label['status']}: {label['case']} {label['kind']}"
              + (f" {label['claim']}" if label.get("claim") else "")
              + f" {show(label['text'], limit=50)} in {label['doc']}"
              for label in report["labels"] if label["status"] not in ("kept", "moved")]
    return "\n".join(lines) + "\n"


def _counts_line(report):
    counts = report["counts"]
    return (f"Span labels: {len(report['labels'])}; kept {counts['kept']}, moved "
            f"{counts['moved']}, orphaned {counts['orphaned']}, ambiguous "
            f"{counts['ambiguous']}, in no chunk {counts.get('unreached', 0)}: {report['lost']} "
            "lost (kept in the folder, not applied)")


def _labels_csv(rows):
    """One line per derived label: ``case,kind,claim,chunk,grade`` (kind ``relevant``,
    ``full`` or ``partial``), cells escaped as every CSV ragscore writes."""
    import csv
    import io

    from .render.escape import csv_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["case", "kind", "claim", "chunk", "grade"])
    for row in rows:
        case = csv_cell(row["case"])
        writer.writerows([case, "relevant", "", csv_cell(chunk), grade]
                         for chunk, grade in row["relevant"].items())
        for claim, chunks in row["claims"].items():
            writer.writerows([case, level, csv_cell(claim), csv_cell(chunk), ""]
                             for level in ("full", "partial") for chunk in chunks[level])
    return buffer.getvalue()


def _labels(args, out):
    if args.target[0] == "anchor" and len(args.target) == 2:
        return _anchor(args, out)
    if len(args.target) != 1:
        raise InvalidInputError("ragscore labels DIR prints a span test set's labels; "
                                "ragscore labels anchor DIR --documents DOCS --out NEW_DIR "
                                f"turns a chunk-ID test set into spans; got {args.target!r}")
    from .io.answers import labelled
    from .folders import load_dataset
    from .io.rechunk import span_report

    dataset = load_dataset(args.target[0])
    if not dataset.documents:
        raise InvalidInputError(f"{args.target[0]}: not a span test set (it holds no source "
                                "documents); 'ragscore labels anchor' turns it into one")
    view = labelled(dataset, unit=args.unit).spans
    rows, report = _derived_rows(dataset, view), span_report(dataset, view=view)
    if args.format == "json":
        out.write(json.dumps({"cases": rows, "labels": report["labels"],
                              "counts": report["counts"], "lost": report["lost"]},
                             indent=2, ensure_ascii=False) + "\n")
    elif args.format == "csv":
        out.write(_labels_csv(rows))
    else:
        out.write(_labels_text(rows, report))
    return OK


def _outputs(args, inputs):
    """``--out`` (a dataset folder to save) and ``--report`` (a file), each checked before
    any work: never an input, never inside a dataset folder (io/outputs.py)."""
    from .io.outputs import check_output_folder

    check_output_folder(args.out, flag="--out", inputs=inputs, overwrite=args.overwrite)
    report = None if args.report is None else output_file("--report", args.report,
                                                          inputs=inputs)
    if report is not None and Path(args.out).resolve() in (report, *report.parents):
        raise InvalidInputError(f"--report {args.report} is inside --out {args.out}, the "
                                "folder this command saves; write it beside the folder")
    return report


def _write_report(target, report):
    from .io.store import write_file_atomically

    write_file_atomically(target, [json.dumps(report, indent=2, ensure_ascii=False) + "\n"])


def _anchor(args, out):
    from .folders import load_dataset, save_dataset
    from .importers.spans import read_source_documents
    from .io.jsonl import MAX_FILE_BYTES
    from .io.rechunk import anchor_chunks

    if args.documents is None or args.out is None:
        raise InvalidInputError("ragscore labels anchor DIR needs --documents DOCS.jsonl and "
                                "--out NEW_DIR")
    target = _outputs(args, (args.target[1], args.documents))
    dataset = load_dataset(args.target[1])
    documents = read_source_documents(args.documents, MAX_FILE_BYTES)
    provenance = _provenance(args, args.documents)
    changed, report = anchor_chunks(dataset, documents, provenance=provenance,
                                    allow_overlap=args.allow_overlap)
    folder = save_dataset(changed, args.out, overwrite=args.overwrite)
    if target is not None:
        _write_report(target, report)
    counts = report["counts"]
    out.write(f"wrote {folder}: {len(changed.corpus):,} chunks placed in "
              f"{len(documents):,} documents; labels: {counts['kept']} kept, "
              f"{counts['moved']} moved, {counts['orphaned']} orphaned, "
              f"{counts['ambiguous']} ambiguous ({report['lost']} lost); "
              f"{report['runs left out']['count']} runs left out"
              + (f"; report {args.report}" if args.report else "") + "\n")
    return OK


def _provenance(args, path):
    from .core.labels import check_record
    from .importers.spans import _batch
    from .io.jsonl import MAX_FILE_BYTES

    if args.reviewer is None:
        raise InvalidInputError("--reviewer NAME is required: who stands behind the labels "
                                "written as spans")
    found = {"reviewer": args.reviewer, "date": args.date, "origin": args.origin,
             "batch": _batch(path, MAX_FILE_BYTES)}
    check_record({"kind": "answerability", "case": "x", "key": "0" * 16,
                  "decision": "unsure", **found}, "--reviewer, --date, --origin")
    return found


def _rechunk(args, out):
    from .folders import load_dataset, save_dataset
    from .importers.chunkings import read_chunks
    from .importers.spans import read_source_documents
    from .io.jsonl import MAX_FILE_BYTES
    from .io.rechunk import rechunk, span_report

    target = _outputs(args, (args.dataset, args.chunks, args.documents))
    dataset = load_dataset(args.dataset)
    documents = (None if args.documents is None
                 else read_source_documents(args.documents, MAX_FILE_BYTES))
    placed, layout = read_chunks(args.chunks, layout=args.chunks_format,
                                 doc_field=args.doc_field, max_bytes=MAX_FILE_BYTES)
    changed, left = rechunk(dataset, placed, documents=documents,
                            min_overlap=args.min_overlap, allow_overlap=args.allow_overlap,
                            layout=layout)
    report = span_report(changed, left=left)
    folder = save_dataset(changed, args.out, overwrite=args.overwrite)
    _write_report(target, report)
    runs = sum(len(per_case) for per_case in changed.runs.values())
    out.write(f"wrote {folder}: {len(changed.corpus):,} chunks of {len(changed.documents):,} "
              f"documents, {runs:,} runs carried, {report['runs left out']['count']:,} left "
              f"out (record them again)\n{_counts_line(report)}\nwrote {args.report}\n")
    return OK


def add_span_commands(commands):
    """Add ``labels`` (and ``labels anchor``) and ``rechunk`` to the sub-command parser."""
    from .importers.registry import CHUNKING_OPTIONS, _today, date_option

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
    labels.add_argument("--format", choices=("text", "json", "csv"), default="text",
                        help="output format (default text)")
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
