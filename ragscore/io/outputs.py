"""Where a command may write: every output path checked once, before any work starts.

One rule for every file a command writes (``html --out``, ``review export --out``,
``import --review-out``, ``baseline save --out``, ``export trec --out-prefix``, ``record
--journal``) and every dataset folder it saves (``import --out``, ``record --out``):

- it is not one of the command's own inputs, and a folder written holds none of them;
- it is not inside a dataset folder, unless it is the dataset folder the command saves: a
  save is the only writer of a dataset folder;
- a file is written over a regular file only (never a folder, a FIFO or a device), and
  never over one holding a reviewer's decisions (a filled-in review queue not imported
  yet), unless the command writes a queue and is given ``--overwrite-decisions``; a command
  writing a queue replaces an existing file only with ``--overwrite``
  (:func:`ragscore.io.queue_file.check_queue_output`);
- a folder is a new or empty folder, or a ragscore dataset replaced only with ``--overwrite``
  (a save replaces only the files it wrote, :mod:`ragscore.io.store`).

Each refusal is an :class:`~ragscore.core.rules.InvalidInputError` naming the flag and the
path: the command stops before it reads, computes or calls anything.
"""
import csv
import io
import os
import stat
from pathlib import Path

from ..core.rules import InvalidInputError
from .jsonl import DECODER, MAX_FILE_BYTES, as_path, read_text, where
from .store import INDEX, is_dataset_folder

__all__ = ["check_output_file", "check_output_folder", "dataset_folder_around", "decisions_in"]


def _named(flag, value):
    if isinstance(value, str) and not value.strip():
        raise InvalidInputError(f"{flag} must name a path; got {value!r}")
    try:
        return as_path(value)
    except InvalidInputError as error:
        raise InvalidInputError(f"{flag}: {error}") from None


def _resolved(path):
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError) as error:
        raise InvalidInputError(f"{where(path)}: cannot be resolved ({error})") from None


def _kind(path):
    """``None`` when nothing is at ``path`` (a dangling link counts as nothing), else its
    ``stat`` mode."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InvalidInputError(f"{where(path)}: cannot be read ({error.strerror})") from None


def dataset_folder_around(path):
    """The nearest folder holding ``path`` (a resolved path, itself excluded) that is a
    ragscore dataset, else ``None``."""
    for folder in path.parents:
        if (folder / INDEX).exists() and is_dataset_folder(folder):
            return folder
    return None


def _inside(path, folder):
    return path == folder or folder in path.parents


def _check_inputs(flag, value, target, inputs):
    """Refuse ``target`` (resolved) when it is an input, or lies in an input folder."""
    for given in inputs:
        if given is None:
            continue
        source = _resolved(given)
        if _inside(target, source):
            what = "is" if target == source else "is inside"
            raise InvalidInputError(f"{flag} {where(value)} {what} {where(given)}, an input of "
                                    "this command; write the output somewhere else")


def check_output_file(value, *, flag, inputs=(), make_folder=False, decisions=None):
    """The :class:`~pathlib.Path` of the output file ``value`` given as ``flag``, refused
    when its folder does not exist (unless the command makes it, ``make_folder``), when it
    is an input (one of ``inputs``, files or folders) or inside one, inside a dataset
    folder, anything but a regular file, or a file holding a reviewer's decisions
    (:func:`decisions_in`) unless ``decisions`` is true (``--overwrite-decisions``, which
    only a command writing a queue offers: ``decisions`` is then ``False`` or ``True``,
    else ``None``)."""
    path = _named(flag, value)
    target = _resolved(path)
    if not make_folder and not target.parent.is_dir():
        raise InvalidInputError(f"{flag} {where(value)}: its folder {where(path.parent)} "
                                "does not exist; make the folder first")
    _check_inputs(flag, value, target, inputs)
    mode = _kind(target)
    if mode is not None and stat.S_ISDIR(mode):
        raise InvalidInputError(f"{flag} {where(value)} is a folder; name a file")
    if mode is not None and not stat.S_ISREG(mode):
        raise InvalidInputError(f"{flag} {where(value)} is not a regular file (a FIFO, a "
                                "device or a socket); name a regular file")
    folder = target.parent if is_dataset_folder(target.parent) else \
        dataset_folder_around(target.parent)
    if folder is not None:
        raise InvalidInputError(f"{flag} {where(value)} is inside the dataset folder "
                                f"{where(folder)}; only a save writes there: write it "
                                "somewhere else")
    if mode is not None and not decisions:
        try:
            held = decisions_in(read_text(target, MAX_FILE_BYTES))
        except InvalidInputError:
            held = 0  # not text: no queue a reviewer filled in
        if held:
            noun = "decision" if held == 1 else "decisions"
            force = "" if decisions is None else \
                ", or pass --overwrite-decisions to replace it and lose them"
            raise InvalidInputError(
                f"{flag} {where(value)} holds {held:,} {noun} (a filled-in review queue): "
                f"import them first (ragscore review import DIR {where(value)}) or write "
                f"somewhere else{force}")
    return path


def decisions_in(text):
    """How many rows of a review queue file's ``text`` hold a decision (JSON Lines or CSV,
    read leniently: a line that is no queue row counts none). A queue written by ``review
    export`` holds none until a reviewer fills it in.

    >>> decisions_in('{"kind": "support", "decision": ""}\\n{"kind": "support", "decision": '
    ...              '"supported"}\\n')
    1
    >>> decisions_in("kind,case,key,decision\\nrelevance,q1,0a1b2c3d4e5f6071,2\\n")
    1
    """
    text = text[1:] if text.startswith("\ufeff") else text
    if text.lstrip().startswith("{"):
        found = 0
        for line in text.split("\n"):
            try:
                row = DECODER.decode(line) if line.lstrip().startswith("{") else None
            except (ValueError, RecursionError):
                row = None
            found += type(row) is dict and row.get("decision") not in ("", None)
        return found
    try:
        reader = csv.DictReader(io.StringIO(text))
        if "decision" not in (reader.fieldnames or ()):
            return 0
        return sum(1 for row in reader if (row.get("decision") or "").strip())
    except csv.Error:
        return 0


def check_output_folder(value, *, flag, inputs=(), overwrite=False, saves=None):
    """The :class:`~pathlib.Path` of the dataset folder ``value`` a command will save as
    ``flag``, refused when it is a file, a folder holding other things, a dataset without
    ``overwrite``, inside another dataset folder, or an input (one of ``inputs``) or a folder
    holding one. ``saves``: the dataset folder the command reads and updates (``record DIR``),
    which it may write again without ``overwrite``."""
    path = _named(flag, value)
    target = _resolved(path)
    itself = saves is not None and target == _resolved(saves)
    _check_inputs(flag, value, target, [] if itself else inputs)
    for given in inputs:
        if given is not None and not itself and _inside(_resolved(given), target):
            raise InvalidInputError(f"{flag} {where(value)} holds {where(given)}, an input of "
                                    "this command; write the dataset somewhere else")
    if path.is_symlink():  # a save replaces a folder, never what a link points to
        raise InvalidInputError(f"{flag} {where(value)} is a symbolic link; name the folder "
                                "itself")
    mode = _kind(target)
    if mode is not None and not stat.S_ISDIR(mode):
        raise InvalidInputError(f"{flag} {where(value)} is a file, not a folder; name a new "
                                "folder for the dataset")
    if mode is not None and any(target.iterdir()) and not itself:
        if not is_dataset_folder(target):
            raise InvalidInputError(f"{flag} {where(value)} is a folder but not a ragscore "
                                    f"dataset (no {INDEX}); refusing to write into it")
        if not overwrite:
            switch = "--overwrite" if flag.startswith("--") else "overwrite=True"
            raise InvalidInputError(f"{flag} {where(value)} already exists; pass {switch} to "
                                    "replace it")
    around = dataset_folder_around(target)
    if around is not None:
        raise InvalidInputError(f"{flag} {where(value)} is inside the dataset folder "
                                f"{where(around)}; write the new dataset somewhere else")
    return path
