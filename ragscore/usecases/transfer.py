"""``import FORMAT`` and ``export FORMAT``: test sets in and out of the formats they already
live in, each format a row of :data:`~ragscore.importers.registry.IMPORTERS` or
:data:`~ragscore.importers.exporters.EXPORTERS`.

:func:`import_dataset` reads the files an importer names and saves a dataset folder (and,
asked for, the queue of what awaits review): an :class:`Imported`. :func:`export_dataset`
writes a folder in another format: an :class:`Exported`. Every output is checked before any
work: never an input, never inside a dataset folder.
"""
from collections import namedtuple
from pathlib import Path

from ..core.rules import InvalidInputError
from ..io.jsonl import where
from ..render.writers import Writer, writer_table
from .result import Result

__all__ = ["Exported", "Imported", "export_dataset", "import_dataset", "import_inputs"]


def _lines(result, display):
    return "\n".join(result.lines) + "\n"


class Imported(Result, namedtuple("Imported", "folder lines")):
    """A dataset folder written by an import: its path and the ``lines`` saying what it
    holds, what was dropped or filled in, and the queue written beside it."""

    __slots__ = ()
    job = "an import"
    writers = writer_table(Writer("text", _lines))


class Exported(Result, namedtuple("Exported", "lines")):
    """Files written by an export: one line per file."""

    __slots__ = ()
    job = "an export"
    writers = writer_table(Writer("text", _lines))


def import_inputs(importer, options):
    """The files and folders an import reads (the options its importer marks ``reads``)."""
    found = []
    for option in importer.options:
        if option.reads:
            value = options.get(option.settings.get("dest") or
                                option.flags[0].lstrip("-").replace("-", "_"))
            found += value if isinstance(value, list) else [value]
    return [value for value in found if value]


def _sentences(notes):
    sentences = []
    for what, value in notes.items():
        if type(value) is dict:
            counted = ", ".join(f"{system} {count:,}" for system, count in value.items())
            sentences.append(f"{what}: {counted or 'none'}")
        elif what == "missing_run":
            sentences.append("a judged question missing from a run was given an empty ranking "
                             "(--missing-run zero, as trec_eval -c)" if value == "zero" else
                             "a judged question missing from a run was left out of that "
                             "system's results (--missing-run skip)")
        elif what == "max_depth":
            sentences.append(f"each ranking cut to its best {value:,} (--max-depth, as "
                             "trec_eval -M)")
        else:
            sentences.append(f"{what}: {value}")
    return sentences


def import_dataset(kind, *, out, overwrite=False, review_out=None, overwrite_decisions=False,
                   **options):
    """Read the files importer ``kind`` names in ``options`` and save the dataset at
    ``out`` (replacing a ragscore dataset there with ``overwrite``); with ``review_out``,
    also write the queue of what awaits review there (a file there replaced only with
    ``overwrite``, one holding decisions only with ``overwrite_decisions``)."""
    from ..folders import save_dataset
    from ..importers.registry import IMPORTERS
    from ..io.format import NAME_PATTERN
    from ..io.input_bytes import bytes_reported, input_bytes
    from ..io.outputs import check_output_folder
    from ..io.queue_file import check_queue_output
    from ..render.progress import Progress

    importer = IMPORTERS[kind]
    inputs = import_inputs(importer, options)
    # every output checked before any work: never an input, never inside a dataset folder
    check_output_folder(out, flag="--out", inputs=inputs, overwrite=overwrite)
    if review_out:
        check_queue_output(review_out, flag="--review-out", inputs=inputs,
                           overwrite=overwrite, decisions=overwrite_decisions)
    options = {**options, "out": out, "overwrite": overwrite}
    folder_name = Path(out).resolve().name
    if options.get("name") is None and NAME_PATTERN.fullmatch(folder_name):
        options["name"] = folder_name  # as --help says
    total = input_bytes(inputs)  # what the import reads, and only that
    # only on a terminal, after two seconds: the share of the input files' bytes read
    with Progress(f"importing ({kind})", unit="bytes") as progress:

        def report(done):
            if total:
                progress(min(done, total), total)

        with bytes_reported(report):
            dataset, notes = importer.read(options)
    sentences = _sentences(notes)
    if not dataset.corpus:  # nothing to check a ranking against: say where, not "{}"
        raise InvalidInputError(f"{', '.join(map(where, inputs))}: no document is named in "
                                "any ranking, context or label (every ranking is empty?); a "
                                "dataset needs at least one document")
    dataset = dataset._replace(notes=(f"imported with 'ragscore import {kind}'", *sentences))
    with Progress("writing the dataset"):
        folder = save_dataset(dataset, out, overwrite=overwrite)
    runs = sum(len(per_case) for per_case in dataset.runs.values())
    names = dataset.systems
    corpus = (f"{len(dataset.corpus):,} chunks of {len(dataset.documents):,} documents"
              if dataset.documents else f"{len(dataset.corpus):,} documents")
    lines = [f"wrote {folder}: {corpus}, {len(dataset.cases):,} questions, {runs:,} runs of "
             f"{len(names)} system{'s' * (len(names) != 1)} ({', '.join(names) or 'none'})"]
    lines += [f"  {sentence}" for sentence in sentences]
    if review_out:
        from .review import write_queue_file

        lines.append(write_queue_file(dataset, review_out))
    return Imported(str(folder), tuple(lines))


def export_dataset(kind, dataset, **options):
    """Write ``dataset`` (a folder's path) with exporter ``kind`` and its ``options``."""
    from ..importers.exporters import EXPORTERS
    from .reading import loaded

    return Exported(tuple(EXPORTERS[kind].write(loaded(dataset),
                                                {**options, "dataset": dataset})))
