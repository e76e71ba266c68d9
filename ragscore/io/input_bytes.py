"""How far an import has read its input files, for the progress line of ``ragscore
import``: while :func:`bytes_reported` is active, every file an importer opens through
:func:`~ragscore.importers._common.open_input` reports how far it has been read; a file
read twice (a fast reader giving way to the line reader) counts once, at its furthest.

Nothing is counted otherwise: the files are plain buffered readers. Standard library only.
"""
import io
import os
from contextlib import contextmanager
from contextvars import ContextVar

_REPORT = ContextVar("ragscore_import_bytes_read", default=None)


class _CountingFile(io.FileIO):
    """A raw file that reports the bytes each read returns (buffered reads, line
    iteration and whole-file reads all go through these two)."""

    def readinto(self, buffer):
        count = super().readinto(buffer)
        if count:
            self.position += count
            self.report(self.key, self.position)
        return count

    def readall(self):
        data = super().readall()
        if data:
            self.position += len(data)
            self.report(self.key, self.position)
        return data


def counted(handle):
    """``handle`` (an open binary file), counted when a report is active, else as it is."""
    report = _REPORT.get()
    if report is None:
        return handle
    descriptor = os.dup(handle.fileno())
    handle.close()
    raw = _CountingFile(descriptor, "rb")
    info = os.fstat(descriptor)
    raw.report, raw.key, raw.position = report, (info.st_dev, info.st_ino), 0
    return io.BufferedReader(raw)


@contextmanager
def bytes_reported(report):
    """Within the block, ``report(done)`` is called after each read of an imported file
    with the bytes read so far: over the files opened, each counted to the furthest point
    it was read."""
    furthest = {}

    def seen(key, position):
        if position > furthest.get(key, 0):
            furthest[key] = position
            report(sum(furthest.values()))

    token = _REPORT.set(seen)
    try:
        yield
    finally:
        _REPORT.reset(token)


def read_in_full(path):
    """Report the file at ``path`` read to its end: for a reader that reads a file at once
    and then works on it, called when that work is done, so that the progress line (and its
    estimate of the time left) follows the work rather than the reading."""
    report = _REPORT.get()
    if report is None:
        return
    try:
        info = os.stat(path)
    except (OSError, TypeError, ValueError):
        return
    report((info.st_dev, info.st_ino), info.st_size)


def input_bytes(values):
    """The size in bytes of the files and folders (the files in a folder and in its
    sub-folders, no deeper) among ``values`` (paths, lists of paths, or anything else,
    which counts 0): the whole of what an import may read."""
    total = 0
    for value in values:
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if not isinstance(item, (str, os.PathLike)):
                continue
            try:
                if os.path.isdir(item):  # the folder and its sub-folders (BEIR's qrels/),
                    for root, folders, names in os.walk(item):  # no deeper
                        if root != os.fspath(item):
                            folders.clear()
                        total += sum(os.path.getsize(os.path.join(root, name))
                                     for name in names
                                     if os.path.isfile(os.path.join(root, name)))
                elif os.path.isfile(item):
                    total += os.path.getsize(item)
            except (OSError, ValueError):
                continue  # the importer says what is wrong with it
    return total
