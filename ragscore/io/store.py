"""Dataset folders as consistent snapshots: content-addressed files under one atomic index.

A saved folder (format version 2 and later) holds the data files under names that include a
hash of their content (``corpus.<hash>.jsonl``, in version 5 ``runs.<hash>.parquet``) and
one small index, ``dataset.json``, naming them. Which files a version holds, and in which
encoding, is :data:`LAYOUTS` (the one place to add a file kind); this module moves bytes and
never reads inside a data file.
A save writes new content files beside the old ones, then replaces the index in a single
``os.replace``, then removes the files no index names any more. So:

- a reader opens the index once and then every file it names before reading any: it gets
  one complete version, old or new, never a mix; if a writer removed a file between the
  index and the open, the reader starts again from the new index;
- a save killed at any moment leaves the old or the new version complete and loadable;
  its leftovers (the old files it listed before its switch, content files it wrote before
  it, temporary files, or a scratch folder beside a new dataset) are removed by the next
  save;
- writers to one folder take turns (an exclusive ``flock`` on ``.ragscore.lock``);
- a save replaces only what it wrote: a folder that is not a ragscore dataset is refused,
  and a file no index named is left alone, even one named like a data file (a save removes
  the files the old index named, its own temporary files, and content-named files whose
  content matches their name: those a killed save wrote before its switch).
"""
import hashlib
import json
import os
import re
import secrets
import time
from pathlib import Path

from ..core.rules import InvalidInputError
from .content import open_checked
from .jsonl import DatasetFileError, as_path, open_regular, read_json, where

FORMAT = "ragscore-dataset"
INDEX = "dataset.json"
LOCK = ".ragscore.lock"
#: The data files a save is replacing, listed before its index switch (removed after).
REPLACED = ".ragscore-replaced.json"
KINDS = ("corpus", "cases", "runs")
#: The data files of each format version: kind to the suffix of its encoding (JSON Lines, or
#: Parquet for the runs of version 5), in the order they are read. The one place to add a
#: file kind.
LAYOUTS = {1: dict.fromkeys(KINDS, ".jsonl"), 2: dict.fromkeys(KINDS, ".jsonl"),
           3: dict.fromkeys(KINDS, ".jsonl"), 4: dict.fromkeys(KINDS, ".jsonl"),
           5: {"corpus": ".jsonl", "cases": ".jsonl", "runs": ".parquet",
               "judgements": ".jsonl", "documents": ".jsonl"}}
#: Kinds of a layout an index may leave out (version 5), written only when there are some:
#: reviewers' judgements and a span test set's source documents.
OPTIONAL_KINDS = frozenset({"judgements", "documents"})
#: Files of format version 1, named without a hash.
PLAIN_NAMES = {kind: f"{kind}.jsonl" for kind in KINDS}
#: A content-named data file: ``{kind}.{16 hex digits of its SHA-256}{suffix}``.
CONTENT_NAME = re.compile(
    rf"({'|'.join(sorted({kind for layout in LAYOUTS.values() for kind in layout}))})"
    r"\.[0-9a-f]{16}(\.jsonl|\.parquet)")
TEMPORARY = ".ragscore-tmp-"
RETRIES = 50


def layout_of(index):
    """``{kind: suffix}`` of the data files an index's version holds (versions 1 to 4 for an
    index whose version is not one: its checks name the problem)."""
    version = index.get("version") if type(index) is dict else None
    return LAYOUTS.get(version, LAYOUTS[1]) if type(version) is int else LAYOUTS[1]


# ---- reading ------------------------------------------------------------------------------

def snapshot(folder, max_bytes):
    """``(index, {kind: (path, open file)})``: one consistent version of a dataset folder.

    Every file is opened before any is read; a file removed by a concurrent save sends
    the reader back to the new index (at most ``RETRIES`` times). A content-named file is
    opened to be checked against its name as it is read (:mod:`ragscore.io.content`).
    """
    folder = Path(folder)
    for attempt in range(RETRIES):
        try:
            with open_regular(folder / INDEX, max_bytes) as handle:
                index = read_json(handle, folder / INDEX, max_bytes)
        except FileNotFoundError:
            raise DatasetFileError(
                f"{where(folder / INDEX)}: cannot be read (No such file or directory)"
            ) from None
        names = _names(index, folder)
        opened = {}
        try:
            for kind in names:
                path = folder / names[kind]
                opened[kind] = (path, open_checked(path, open_regular(path, max_bytes)))
        except FileNotFoundError:
            for _, handle in opened.values():
                handle.close()
            if index.get("version") == 1 or attempt == RETRIES - 1:
                missing = next(kind for kind in names if kind not in opened)
                raise DatasetFileError(f"{where(folder / names[missing])}: cannot be read "
                                       "(No such file or directory)") from None
            time.sleep(0.001 * (attempt + 1))
            continue
        except BaseException:
            for _, handle in opened.values():
                handle.close()
            raise
        return index, opened
    raise AssertionError("unreachable")  # pragma: no cover


def content_name(kind, digest, suffix=".jsonl"):
    """The name of a data file of ``kind`` whose content hashed to ``digest`` (a SHA-256
    object): ``{kind}.{its first 16 hex digits}{suffix}``."""
    return f"{kind}.{digest.hexdigest()[:16]}{suffix}"


def _names(index, folder):
    """The data file names an index points to (version 1: the plain names), by kind in the
    order of its version's layout."""
    files = index.get("files")
    if index.get("version") == 1 or files is None:
        return PLAIN_NAMES
    layout = layout_of(index)
    optional = OPTIONAL_KINDS.intersection(layout)
    required = set(layout) - optional
    if type(files) is not dict or not required <= set(files) <= set(layout) or not all(
            type(files[kind]) is str and _fits(files[kind], kind, layout[kind])
            for kind in files):
        optional_in = "; ".join(
            f"version {number}: and optionally {', '.join(sorted(OPTIONAL_KINDS & set(kinds)))}"
            for number, kinds in LAYOUTS.items() if OPTIONAL_KINDS & set(kinds))
        named = ", ".join(f"{kind} ({suffix})" for kind, suffix in layout.items()
                          if kind not in optional)
        raise DatasetFileError(f"{where(folder / INDEX)}: key 'files' must name "
                               f"{', '.join(KINDS)} ({optional_in}) as content-addressed "
                               f"files, in version {index.get('version')}: {named}; got "
                               f"{files!r:.200}")
    return {kind: files[kind] for kind in layout if kind in files}


def _fits(name, kind, suffix):
    found = CONTENT_NAME.fullmatch(name)
    return found is not None and found.group(1) == kind and found.group(2) == suffix


# ---- writing ------------------------------------------------------------------------------

def write_file_atomically(path, chunks):
    """Write the text ``chunks`` to ``path`` through a temporary file beside it, renamed
    into place: a reader sees the old file or the new one, never half of one. The file
    follows the user's umask."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(scratch, path)
    except BaseException:
        _unlink_quietly(scratch)
        raise


def _unlink_quietly(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _step(name):
    """A point in a save where a test may stop the process (see the kill tests)."""


def is_dataset_folder(folder):
    """True when ``folder`` holds a ragscore index (of any version)."""
    try:
        with open_regular(Path(folder) / INDEX) as handle:
            return read_json(handle, Path(folder) / INDEX).get("format") == FORMAT
    except (OSError, InvalidInputError):
        return False


def _write_file(folder, name, data):
    """Write ``data`` to ``folder/name`` through a temporary file: complete or absent."""
    scratch = folder / f"{TEMPORARY}{os.getpid()}-{name}"
    try:
        with open(scratch, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(scratch, folder / name)
    except BaseException:
        _unlink_quietly(scratch)
        raise


def _write_content(folder, kind, chunks, suffix=".jsonl"):
    """Stream ``chunks`` (bytes-like) into a temporary file, hashing as it goes, then give it
    its content name (or drop it when that content is already there); return ``(the name,
    whether this call made the file)``."""
    scratch = folder / f"{TEMPORARY}{os.getpid()}-{kind}"
    digest = hashlib.sha256()
    try:
        with open(scratch, "wb") as handle:
            for chunk in chunks:
                digest.update(chunk)
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:  # a record that cannot be written: no temporary file left
        _unlink_quietly(scratch)
        raise
    name = content_name(kind, digest, suffix)
    if (folder / name).exists():
        os.unlink(scratch)
        return name, False
    os.replace(scratch, folder / name)
    return name, True


def _sync_folder(folder):
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _indexed_names(folder):
    """The data files a save of ``folder`` may remove: those its index names now, and those
    a save killed after its index switch had listed in :data:`REPLACED`."""
    names = set()
    try:
        with open_regular(folder / INDEX) as handle:
            names.update(_names(read_json(handle, folder / INDEX), folder).values())
    except (OSError, InvalidInputError):
        pass
    try:
        with open_regular(folder / REPLACED) as handle:
            listed = json.loads(handle.read().decode("utf-8"))
        names.update(name for name in listed if type(name) is str and "/" not in name)
    except (OSError, ValueError, TypeError, RecursionError, InvalidInputError):
        pass
    return names


def _write_version(folder, files, index):
    """Content files, then the index (the single switch), then the old files removed.

    ``files()`` gives ``{kind: iterable of bytes}``, fresh on each call; each file takes the
    suffix its kind has in the index's version (:data:`LAYOUTS`). The files the old index
    named are listed in :data:`REPLACED` before the switch, so a save killed after it leaves
    the next save a list of what it may remove (and nothing else)."""
    previous = _indexed_names(folder)
    names = {}
    layout = layout_of(index)
    made = []
    try:
        for kind, chunks in files().items():
            names[kind], new = _write_content(folder, kind, chunks, layout[kind])
            made += [names[kind]] if new else []
            _step(f"wrote {kind}")
    except Exception:  # a record that cannot be written: the files before it go too
        for name in made:
            _unlink_quietly(folder / name)
        raise
    if previous:
        _write_file(folder, REPLACED, json.dumps(sorted(previous)).encode("utf-8"))
    _sync_folder(folder)
    index = dict(index, files=names)
    _write_file(folder, INDEX, (json.dumps(index, indent=2, ensure_ascii=False) + "\n")
                .encode("utf-8"))
    _sync_folder(folder)
    _step("replaced index")
    _remove_unreferenced(folder, set(names.values()), previous)
    if previous:
        _unlink_quietly(folder / REPLACED)
    _step("removed old files")


def _written_by_a_save(path):
    """True when the content-named file at ``path`` holds what its name says (the first
    16 hex digits of its SHA-256): a data file a save wrote, not a file named like one."""
    digest = hashlib.sha256()
    try:
        with open_regular(path) as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except (OSError, InvalidInputError):
        return False
    return path.name.split(".")[1] == digest.hexdigest()[:16]


def _remove_unreferenced(folder, keep, previous):
    """Remove what earlier saves left, and only that: the data files the previous index
    named, content-named files whose content matches their name (left by a save killed
    before its index switch) and temporary files. A file of the user's named like a data
    file is left alone."""
    for entry in os.listdir(folder):
        if entry in keep:
            continue
        ours = (entry in previous or entry.startswith(TEMPORARY) or (
            CONTENT_NAME.fullmatch(entry) and _written_by_a_save(folder / entry)))
        if ours:
            try:
                os.unlink(folder / entry)
            except FileNotFoundError:
                pass


_HELD = {}  # folder -> how many times this process holds its lock (threads share it)


def _guard():
    """The lock one thread of this process holds while it holds folder locks (made on first
    use: ``import ragscore`` loads no threading)."""
    global _GUARD
    if _GUARD is None:
        import threading

        _GUARD = threading.RLock()
    return _GUARD


_GUARD = None


class _Locked:
    """An exclusive lock on a dataset folder (an ``flock`` on ``.ragscore.lock``), held by
    this process once however often it is entered: a command that holds it from its read
    to its write (:func:`folder_lock`) saves under it without waiting on itself."""

    def __init__(self, folder):
        self.path = Path(folder) / LOCK
        self.key = os.path.realpath(folder)

    def __enter__(self):
        import fcntl

        _guard().acquire()
        held = _HELD.get(self.key)
        if held is not None:
            _HELD[self.key] = (held[0], held[1] + 1)
            return self
        try:
            descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except BaseException:
            _guard().release()
            raise
        _HELD[self.key] = (descriptor, 1)
        return self

    def __exit__(self, *_):
        descriptor, depth = _HELD[self.key]
        if depth == 1:
            del _HELD[self.key]
            os.close(descriptor)  # closing releases the lock
        else:
            _HELD[self.key] = (descriptor, depth - 1)
        _guard().release()


def folder_lock(folder):
    """The lock of the dataset folder ``folder``, as a context manager: a command that
    reads a folder, changes it and writes it back holds it from the read to the write, so
    that two such commands take turns and neither loses the other's work (every save takes
    it too). Anything but a dataset folder is not locked: reading it names the problem."""
    import contextlib

    folder = as_path(folder)
    return _Locked(folder) if is_dataset_folder(folder) else contextlib.nullcontext()


def _scratch_prefix(target):
    return f".{target.name}{TEMPORARY}"


def _remove_tree(path):
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _abandoned(scratch, target):
    """True when the process that made ``scratch`` (its id ends the name) has ended, or is
    this one: a concurrent save's scratch folder is left to it."""
    owner = scratch.name[len(_scratch_prefix(target)):]
    if not owner.isdigit() or int(owner) == os.getpid():
        return True
    try:
        os.kill(int(owner), 0)
    except (ProcessLookupError, OverflowError):
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


def write_dataset_folder(files, index, path, *, overwrite=False):
    """Write the data files (``files()`` gives ``{kind: iterable of bytes}``) and ``index``
    as a dataset folder at ``path``.

    A new folder is written under a scratch name beside the destination and renamed into
    place; an existing dataset (``overwrite=True``) gets a new version in place. Returns
    the path.
    """
    target = as_path(path)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise InvalidInputError(f"{where(target)}: is not a folder; refusing to replace it")
    empty = target.is_dir() and not any(target.iterdir())
    if target.is_dir() and not empty:
        if not overwrite:
            raise InvalidInputError(
                f"{where(target)}: already exists; pass overwrite=True to replace it")
        if not is_dataset_folder(target):
            raise InvalidInputError(
                f"{where(target)}: is a folder but not a ragscore dataset (no {INDEX}); "
                "refusing to replace it")
        with _Locked(target):
            _write_version(target, files, index)
        return target
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    for entry in parent.iterdir():  # scratch folders of earlier, interrupted saves
        if entry.name.startswith(_scratch_prefix(target)) and _abandoned(entry, target):
            _remove_tree(entry)
    scratch = parent / f"{_scratch_prefix(target)}{os.getpid()}"
    os.mkdir(scratch)  # the user's umask applies
    try:
        _step("made scratch folder")
        _write_version(scratch, files, index)
        try:
            os.rename(scratch, target)  # fails if something non-empty appeared meanwhile
        except OSError:
            if overwrite and is_dataset_folder(target):
                _remove_tree(scratch)
                with _Locked(target):
                    _write_version(target, files, index)
                return target
            raise InvalidInputError(f"{where(target)}: appeared while the dataset was being "
                                    "written; left as it is") from None
        _sync_folder(parent)
        _step("renamed into place")
    finally:
        if scratch.exists():
            _remove_tree(scratch)
    return target
