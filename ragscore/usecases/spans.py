"""``labels``, ``labels anchor`` and ``rechunk``: a span test set's chunk labels derived, a
chunk-ID test set turned into spans, and one span test set carried to a new chunking (or
new document versions). The rule is :mod:`ragscore.core.spans`; the folders
:mod:`ragscore.io.spans` and :mod:`ragscore.io.rechunk`. See docs/spans.md.

- :func:`span_labels`: per question the chunks its spans make relevant (with grades), per
  claim its full and partial chunks, and every label this chunking lost: a
  :class:`SpanLabels`;
- :func:`anchor_labels`: an :class:`Anchored` folder written;
- :func:`rechunk_folder`: a :class:`Rechunked` folder written, with its report.
"""
import json
from collections import namedtuple
from pathlib import Path

from ..core.rules import InvalidInputError
from ..render import spans as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["Anchored", "Rechunked", "SpanLabels", "anchor_labels", "rechunk_folder",
           "span_labels"]


class SpanLabels(Result, namedtuple("SpanLabels", "rows report")):
    """A span test set's labels on its chunking: ``rows`` (per case: its question, the
    relevant chunks with grades, each claim's full and partial chunks) and ``report``
    (every span label with its status, the counts and how many were lost)."""

    __slots__ = ()
    job = "a span test set's labels"
    writers = writer_table(Writer("text", written.span_labels_text),
                           data_writer("json", written.span_labels_json),
                           data_writer("csv", written.span_labels_csv))


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


def span_labels(dataset, *, unit="chunk"):
    """The chunk labels the spans of ``dataset`` (a span test set's folder or Dataset)
    derive on its chunking (``unit="document"``: on whole documents)."""
    from ..io.answers import labelled
    from ..io.rechunk import span_report
    from .reading import loaded

    source = loaded(dataset)
    if not source.documents:
        raise InvalidInputError(f"{dataset}: not a span test set (it holds no source "
                                "documents); 'ragscore labels anchor' turns it into one")
    view = labelled(source, unit=unit).spans
    return SpanLabels(_derived_rows(source, view), span_report(source, view=view))


def _lines(result, display):
    return "\n".join(result.lines) + "\n"


class Anchored(Result, namedtuple("Anchored", "folder lines")):
    """A chunk-ID test set written as spans: the new ``folder`` and what was placed."""

    __slots__ = ()
    job = "an anchored test set"
    writers = writer_table(Writer("text", _lines))


class Rechunked(Result, namedtuple("Rechunked", "folder lines")):
    """A span test set written on a new chunking: the new ``folder`` and what moved."""

    __slots__ = ()
    job = "a rechunked test set"
    writers = writer_table(Writer("text", _lines))


def _outputs(out, report, overwrite, inputs):
    """``out`` (a dataset folder to save) and ``report`` (a file), each checked before any
    work: never an input, never inside a dataset folder (io/outputs.py)."""
    from ..io.outputs import check_output_file, check_output_folder

    check_output_folder(out, flag="--out", inputs=inputs, overwrite=overwrite)
    target = None if report is None else check_output_file(report, flag="--report",
                                                           inputs=inputs)
    if target is not None and Path(out).resolve() in (target, *target.parents):
        raise InvalidInputError(f"--report {report} is inside --out {out}, the folder this "
                                "command saves; write it beside the folder")
    return target


def _write_report(target, report):
    from ..io.store import write_file_atomically

    write_file_atomically(target, [json.dumps(report, indent=2, ensure_ascii=False) + "\n"])


def _provenance(reviewer, date, origin, path):
    from ..core.labels import check_record
    from ..importers.spans import _batch
    from ..io.jsonl import MAX_FILE_BYTES

    if reviewer is None:
        raise InvalidInputError("--reviewer NAME is required: who stands behind the labels "
                                "written as spans")
    found = {"reviewer": reviewer, "date": date, "origin": origin,
             "batch": _batch(path, MAX_FILE_BYTES)}
    check_record({"kind": "answerability", "case": "x", "key": "0" * 16,
                  "decision": "unsure", **found}, "--reviewer, --date, --origin")
    return found


def anchor_labels(dataset, *, documents, out, reviewer, date, origin="human", report=None,
                  overwrite=False, allow_overlap=False):
    """Turn the chunk-ID test set ``dataset`` into spans of ``documents`` (each chunk's text
    found in them) and save it at ``out``; ``report``: every label with its status."""
    from ..folders import load_dataset, save_dataset
    from ..importers.spans import read_source_documents
    from ..io.jsonl import MAX_FILE_BYTES
    from ..io.rechunk import anchor_chunks

    target = _outputs(out, report, overwrite, (dataset, documents))
    source = load_dataset(dataset)
    docs = read_source_documents(documents, MAX_FILE_BYTES)
    provenance = _provenance(reviewer, date, origin, documents)
    changed, found = anchor_chunks(source, docs, provenance=provenance,
                                   allow_overlap=allow_overlap)
    folder = save_dataset(changed, out, overwrite=overwrite)
    if target is not None:
        _write_report(target, found)
    counts = found["counts"]
    line = (f"wrote {folder}: {len(changed.corpus):,} chunks placed in {len(docs):,} "
            f"documents; labels: {counts['kept']} kept, {counts['moved']} moved, "
            f"{counts['orphaned']} orphaned, {counts['ambiguous']} ambiguous "
            f"({found['lost']} lost); {found['runs left out']['count']} runs left out"
            + (f"; report {report}" if report else ""))
    return Anchored(str(folder), (line,))


def rechunk_folder(dataset, *, chunks, out, report, chunks_format=None, doc_field=None,
                   documents=None, min_overlap=None, allow_overlap=False, overwrite=False,
                   stable_ids=False):
    """The span test set ``dataset`` on the chunking ``chunks`` (and, with ``documents``, on
    new versions of its documents), saved at ``out``; every label carried and moved by its
    text (kept, moved, orphaned or ambiguous), written to ``report``."""
    from ..folders import load_dataset, save_dataset
    from ..importers.chunkings import read_chunks
    from ..importers.spans import read_source_documents
    from ..io.jsonl import MAX_FILE_BYTES
    from ..io.rechunk import rechunk, span_report

    target = _outputs(out, report, overwrite, (dataset, chunks, documents))
    source = load_dataset(dataset)
    docs = None if documents is None else read_source_documents(documents, MAX_FILE_BYTES)
    placed, layout = read_chunks(chunks, layout=chunks_format, doc_field=doc_field,
                                 stable=stable_ids, max_bytes=MAX_FILE_BYTES)
    changed, left = rechunk(source, placed, documents=docs, min_overlap=min_overlap,
                            allow_overlap=allow_overlap, layout=layout)
    found = span_report(changed, left=left)
    folder = save_dataset(changed, out, overwrite=overwrite)
    _write_report(target, found)
    runs = sum(len(per_case) for per_case in changed.runs.values())
    return Rechunked(str(folder), (
        f"wrote {folder}: {len(changed.corpus):,} chunks of {len(changed.documents):,} "
        f"documents, {runs:,} runs carried, {found['runs left out']['count']:,} left out "
        "(record them again)", written.counts_line(found), f"wrote {report}"))
