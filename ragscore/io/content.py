"""A data file checked against the hash its name carries, as it is read.

A saved folder names each data file by the first 16 hex digits of the SHA-256 of its
content (``runs.b5bbe49a1661e579.parquet``, :mod:`ragscore.io.store`). Every reading
compares the two, so that a file changed after its save (one flipped byte, or a hand edit
whose values are all valid) is refused with a
:class:`~ragscore.io.jsonl.DatasetFileError` naming it, never read as good:

    runs.b5bbe49a1661e579.parquet: its content does not match the hash its name carries
    (its SHA-256 starts 3f0c9a1d2b4e6f70): the file was changed after it was saved; ...

The hash is taken from the bytes the reader reads anyway, never from a second reading:

- a file read as a stream (the record reader's JSON Lines) is opened through
  :func:`open_checked`, whose raw file hashes each block as the buffered reader fetches
  it and compares when the reading reaches the end (an out-of-order reading is hashed
  again in full by :func:`check_handle`);
- a file read as a whole from memory (the Parquet runs, the columnar engine's memory
  maps) is hashed from that memory by :func:`check_bytes`, before it is parsed.

A reading that stops on a broken record checks the files it opened in full
(:func:`checked_reading`): an edited file is named as edited as well as where its reading
stopped. Format version 1 names its files without a hash (``runs.jsonl``): nothing
to compare. Within :func:`unverified` (``--no-verify``) nothing is compared, and every
command that honours it says so in its output.

SHA-256 runs at about 1.5 GB/s on a core with the SHA extensions (measured in
``benchmarks/bench_verify.py``). Standard library only.
"""
import hashlib
import io
import os
from contextlib import contextmanager
from contextvars import ContextVar

from ..core.rules import InvalidInputError
from .jsonl import DatasetFileError, where

__all__ = ["NO_VERIFY_NOTE", "check_bytes", "check_handle", "checked_reading", "checking",
           "first_mismatch", "named_digest", "open_checked", "unverified"]

_CHECK = ContextVar("ragscore_check_content_hashes", default=True)
#: What every output of a command run with ``--no-verify`` says.
NO_VERIFY_NOTE = ("--no-verify: the data files were read without comparing their content "
                  "with the hash their names carry; a file changed after its save would "
                  "not be noticed")
_DIGITS = frozenset("0123456789abcdef")
_BLOCK = 1 << 20


@contextmanager
def unverified():
    """Within the block, data files are read without comparing their content with the
    hash their names carry (``--no-verify``: for a user who knows a file was changed)."""
    token = _CHECK.set(False)
    try:
        yield
    finally:
        _CHECK.reset(token)


def checking():
    """True unless within :func:`unverified`."""
    return _CHECK.get()


def named_digest(path):
    """The 16 hex digits a content-named data file's name carries
    (``{kind}.{digits}{suffix}``), else ``None``.

    >>> named_digest("folder/runs.0a1b2c3d4e5f6071.parquet"), named_digest("runs.jsonl")
    ('0a1b2c3d4e5f6071', None)
    """
    parts = os.path.basename(os.fspath(path)).split(".")
    if len(parts) == 3 and len(parts[1]) == 16 and _DIGITS.issuperset(parts[1]):
        return parts[1]
    return None


def _mismatch(path, found):
    return DatasetFileError(
        f"{where(path)}: its content does not match the hash its name carries (its SHA-256 "
        f"starts {found}, its name says {named_digest(path)}): the file was changed after "
        "its save; restore it, save the folder again, or pass --no-verify to read it as "
        "it is")


class _Hashing(io.FileIO):
    """A raw file that hashes the bytes read in order from its start and compares the
    digest with ``expected`` when a read reaches the end (``checked`` is then True)."""

    def _start(self, path, expected):
        self.path, self.expected = path, expected
        self.digest, self.position, self.hashed = hashlib.sha256(), 0, 0
        self.gap = self.checked = False

    def _seen(self, data):
        end = self.position + len(data)
        if self.position <= self.hashed < end:
            self.digest.update(data[self.hashed - self.position:])
            self.hashed = end
        elif self.position > self.hashed:
            self.gap = True  # a part skipped: check_handle hashes the file in full
        self.position = end

    def _ended(self):
        if not self.checked and not self.gap and self.hashed == self.position:
            self.checked = True
            found = self.digest.hexdigest()[:16]
            if found != self.expected:
                raise _mismatch(self.path, found)

    def readinto(self, buffer):
        count = super().readinto(buffer)
        if count:
            with memoryview(buffer) as view:
                self._seen(view[:count])
        elif count == 0:
            self._ended()
        return count

    def readall(self):
        data = super().readall()
        self._seen(data)
        self._ended()
        return data

    def seek(self, offset, whence=os.SEEK_SET):
        self.position = super().seek(offset, whence)
        return self.position


def open_checked(path, handle):
    """``handle`` (a binary file just opened at ``path``) as a buffered reader that checks
    what it reads against the hash ``path``'s name carries; as it is when the name carries
    none or within :func:`unverified`. Closes ``handle``'s descriptor in its place."""
    expected = named_digest(path)
    if expected is None or not checking():
        return handle
    descriptor = os.dup(handle.fileno())
    handle.close()
    try:
        raw = _Hashing(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise
    raw._start(path, expected)  # noqa: SLF001 (set once, by its only maker)
    return io.BufferedReader(raw, buffer_size=_BLOCK)


def _raw(handle):
    raw = getattr(handle, "raw", None)
    return raw if isinstance(raw, _Hashing) else None


def check_bytes(path, handle, data):
    """Compare ``data`` (the whole content of the file ``path``, open as ``handle``, e.g. a
    memory map of it) with the hash its name carries, unless ``handle`` was opened
    unchecked (:func:`open_checked`)."""
    raw = _raw(handle)
    if raw is None or raw.checked:
        return
    found = hashlib.sha256(data).hexdigest()[:16]
    raw.checked = True
    if found != raw.expected:
        raise _mismatch(path, found)


def check_handle(path, handle):
    """Compare the content of the file ``path`` (open as ``handle``) with the hash its name
    carries, unless a reading already did (or it was opened unchecked): what was not read
    in order from the start is hashed here, from the file's descriptor, leaving its
    position as it is."""
    raw = _raw(handle)
    if raw is None or raw.checked:
        return
    digest, offset, descriptor = hashlib.sha256(), 0, raw.fileno()
    while True:
        block = os.pread(descriptor, _BLOCK, offset)
        if not block:
            break
        digest.update(block)
        offset += len(block)
    found = digest.hexdigest()[:16]
    raw.checked = True
    if found != raw.expected:
        raise _mismatch(path, found)


def first_mismatch(opened):
    """The error of the first file of ``opened`` (``{kind: (path, handle)}``) whose content
    does not match its name, each checked in full (:func:`check_handle`), else ``None``."""
    for path, handle in opened.values():
        if not handle.closed:
            try:
                check_handle(path, handle)
            except DatasetFileError as error:
                return error
    return None


@contextmanager
def checked_reading(opened):
    """Around the reading of a folder's ``opened`` files (``{kind: (path, handle)}``): a
    broken record found in the block is reported with the file that does not match its
    name, if one does not (so that an edited file is named as edited, as well as where its
    reading stopped); once the block is done, every file is checked, those its reading did
    not take to the end hashed in full (:func:`check_handle`)."""
    try:
        yield
    except InvalidInputError as error:
        changed = first_mismatch(opened)
        if changed is None or str(error).startswith(str(changed)):
            raise
        raise DatasetFileError(f"{error} (besides, {changed})") from None
    for path, handle in opened.values():
        check_handle(path, handle)
