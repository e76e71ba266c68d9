"""``claims``, ``review export`` and ``review import``: answers cut into claims, what awaits a
person's review written out as a queue, and the decisions read back (docs/answers.md).

- :func:`claims`: every claim derived from the runs' answer text: a :class:`Claims`;
- :func:`review_queue`: the items that await review (pooled passages, questions, claims,
  nuggets, citations): a :class:`Queue`, written as JSON Lines or CSV (to a file or to
  standard output);
- :func:`import_decisions`: a filled-in queue read into the folder under its lock: a
  :class:`DecisionsImported`.
"""
from collections import namedtuple
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..render import claims as claim_writers
from ..render import queue as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["Claims", "DecisionsImported", "Queue", "claims", "import_decisions",
           "queue_summary", "review_queue", "write_queue_file"]


class Claims(Result, namedtuple("Claims", "rows")):
    """The claims derived from answer text: ``rows``, one dict per claim (case, system,
    trial, claim, span, citations, markers, findings, source, decision)."""

    __slots__ = ()
    job = "the list of claims"
    writers = writer_table(Writer("text", claim_writers.claims_text),
                           data_writer("json", claim_writers.claims_json),
                           data_writer("csv", claim_writers.claims_csv))


def claims(dataset, *, system=None, split="sentence", pattern=None):
    """The claims of every answer-only run of ``dataset`` (of ``system`` only, when given),
    cut by ``split`` and read with the citation ``pattern``."""
    from ..io.answers import derived_claims
    from .reading import loaded

    source = loaded(dataset)
    if system is not None and system not in source.systems:
        raise InvalidInputError(f"system {show(system)} is not in the dataset (its "
                                f"systems: {', '.join(source.systems) or 'none'})")
    systems = None if system is None else {system}
    rows = [{"case": case_name, "system": name, "trial": trial, "claim": claim.text,
             "span": list(claim.span), "citations": list(claim.citations),
             "markers": list(claim.markers), "findings": list(claim.findings),
             "source": derived.source, "decision": decision}
            for case_name, name, trial, derived in derived_claims(
                source, systems=systems, split=split, pattern=pattern)
            for claim, decision in zip(derived.claims, derived.decisions)]
    return Claims(rows)


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


class Queue(Result, namedtuple("Queue", "rows out")):
    """What awaits review: ``rows`` (one dict per item, :mod:`ragscore.io.review_queue`) and
    the file it was written to (``out``; ``None``: it is written on standard output)."""

    __slots__ = ()
    job = "a review queue"

    def _written(self, display, kind):
        if self.out is None:
            return written.write_queue(self.rows, kind=kind)
        return f"wrote {self.out}: {queue_summary(self.rows)}\n"

    writers = writer_table(
        data_writer("jsonl", lambda result, display: result._written(display, "jsonl")),
        data_writer("csv", lambda result, display: result._written(display, "csv")))


def queue_format(out, fmt):
    """The format a queue is written in: ``fmt``, else CSV for an ``out`` ending in
    ``.csv``, else JSON Lines."""
    if fmt is not None:
        return fmt
    return "csv" if out is not None and str(out).lower().endswith(".csv") else "jsonl"


def write_queue_file(dataset, path, *, kind=None, **options):
    """Write the review queue of ``dataset`` at ``path`` (atomically); say so in a line."""
    from ..io.review_queue import review_queue as queued
    from ..io.store import write_file_atomically

    rows = queued(dataset, **options)
    write_file_atomically(Path(path), [written.write_queue(rows,
                                                           kind=queue_format(path, kind))])
    return f"wrote {path}: {queue_summary(rows)}"


def review_queue(dataset, *, out=None, fmt=None, overwrite=False, overwrite_decisions=False,
                 **options):
    """The review queue of ``dataset`` (``options``: those of
    :func:`~ragscore.io.review_queue.review_queue`); with ``out``, written there atomically
    in ``fmt`` (default: by its suffix) before the result is returned: a file there is
    replaced only with ``overwrite``, and one holding decisions only with
    ``overwrite_decisions`` (:func:`~ragscore.io.queue_file.check_queue_output`)."""
    from ..io.queue_file import check_queue_output
    from ..io.review_queue import review_queue as queued
    from ..io.store import write_file_atomically
    from .reading import loaded, paths

    target = None if out is None else check_queue_output(
        out, flag="--out", inputs=paths(dataset), overwrite=overwrite,
        decisions=overwrite_decisions)
    rows = queued(loaded(dataset), **options)
    if target is not None:
        write_file_atomically(target, [written.write_queue(rows,
                                                           kind=queue_format(out, fmt))])
    return Queue(rows, out)


class DecisionsImported(Result, namedtuple("DecisionsImported", "folder decisions")):
    """A filled-in queue read into ``folder``: ``decisions`` says how many judgements were
    added, replaced, left unchanged and left to review."""

    __slots__ = ()
    job = "an import of decisions"
    writers = writer_table(Writer("text", lambda result, display: _decisions_text(result)))


def _decisions_text(result):
    decisions = result.decisions
    noun = "judgement" if decisions.added == 1 else "judgements"
    line = f"{result.folder}: {decisions.added} {noun} added"
    if decisions.replaced:
        line += (f" ({decisions.replaced} replace{'s' * (decisions.replaced == 1)} the same "
                 "reviewer's earlier decision, kept in the history)")
    if decisions.unchanged:
        line += f"; {decisions.unchanged} already recorded, unchanged"
    if decisions.open:
        line += f"; {decisions.open} left to review"
    return line + "\n"


def import_decisions(folder, file, *, reviewer=None, date=None, split="sentence",
                     pattern=None):
    """Read the filled-in queue ``file`` (CSV or JSON Lines, by its suffix) into the dataset
    ``folder``, under the folder's lock and against the folder as it is then; rows that
    leave them empty take ``reviewer`` and ``date`` (default today, UTC)."""
    import datetime

    from ..folders import update_dataset
    from ..io.jsonl import read_text
    from ..io.queue_file import add_judgements, read_decisions

    path = Path(file)
    kind = "csv" if path.suffix.lower() == ".csv" else "jsonl"
    text = read_text(path)  # a regular file within the limit: never a FIFO or /dev/zero
    date = date or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    found = {}

    def add(dataset):  # under the folder's lock, against the folder as it is now
        try:
            decisions = read_decisions(text, dataset, kind=kind, reviewer=reviewer,
                                       date=date, split=split, pattern=pattern)
        except InvalidInputError as error:
            raise InvalidInputError(f"{path}, {error}") from None
        found["decisions"] = decisions
        if not decisions.records:
            return None
        return add_judgements(dataset, decisions)

    update_dataset(folder, add)
    return DecisionsImported(str(folder), found["decisions"])
