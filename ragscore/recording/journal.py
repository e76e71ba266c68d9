"""The journal: every finished call, one JSON line each, written and flushed as it finishes.

The first line is a header naming the recording (system, trials, the test set's
fingerprint); each further line is one call's entry (:func:`~ragscore.recording.calls.
result_entry`). A recording killed mid-line leaves a torn last line: a resume drops it (that
call is made again). ``--resume`` refuses a journal written for another system, test set or
number of trials, an entry a recording could not have written, and a journal another
recording is writing.
"""
import json
import os
from pathlib import Path

from ..core.rules import InvalidInputError, show
from ..io.jsonl import DECODER, open_regular

__all__ = ["HEADER", "Journal", "journal_path", "read_journal"]

HEADER = "ragscore-record-journal"
#: The largest journal a resume reads (bytes).
MAX_JOURNAL_BYTES = 1 << 30
#: ASCII with escapes: any text a call returned can be journalled, whatever it holds.
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def journal_path(out, system):
    """The default journal beside the folder ``out``: ``OUT.SYSTEM.journal.jsonl``.

    >>> journal_path("runs/tests", "mine").as_posix()
    'runs/tests.mine.journal.jsonl'
    """
    out = Path(out)
    return out.parent / f"{out.name}.{system}.journal.jsonl"


def read_journal(path, header, check=None):
    """The entries of the journal at ``path`` (its header must match ``header`` where the
    two say the same thing), dropping a torn last line; ``(entries, whole)``: ``whole`` is
    the byte length of its whole lines when the last line was torn, else ``None``.
    ``check(entry)`` raises for the run fields of a finished call that could not have been
    recorded (a hand-edited line)."""
    path = Path(path)
    with open_regular(path, MAX_JOURNAL_BYTES) as handle:
        entries, whole = _entries(path, handle.read(), header, check)
    return entries, whole


def _entries(path, data, header, check):
    lines = data.split(b"\n")
    torn = lines.pop() != b""  # the text after the last newline: empty when whole
    entries, whole = [], 0
    for number, line in enumerate(lines, start=1):
        try:
            value = DECODER.decode(line.decode("utf-8"))
        except (ValueError, RecursionError):
            value = None
        if type(value) is not dict:
            if number == len(lines) and not torn:
                torn = True  # a final line cut inside its JSON yet ending in a newline
                break
            raise InvalidInputError(f"{path}, line {number}: not a journal entry: "
                                    f"{show(line[:200])}")
        whole += len(line) + 1
        if number == 1:
            _check_header(path, value, header)
        else:
            problem = _entry_problem(value, header["trials"], check)
            if problem:
                raise InvalidInputError(f"{path}, line {number}: {problem}; got "
                                        f"{show(value)} (delete the line to make that call "
                                        "again)")
            entries.append(value)
    if whole == 0:
        raise InvalidInputError(f"{path}: an empty journal (no header line)")
    return entries, whole if torn else None


def _entry_problem(entry, trials, check):
    """Why ``entry`` is not one a recording writes (:func:`~ragscore.recording.calls.
    result_entry`), else ``None``."""
    if type(entry.get("case")) is not str:
        return "an entry needs 'case' (text)"
    trial = entry.get("trial")
    if type(trial) is not int or not 1 <= trial <= trials:
        return f"an entry needs 'trial', a whole number from 1 to {trials}"
    if type(entry.get("retries")) is not int or entry["retries"] < 0:
        return "an entry needs 'retries', a whole number of at least 0"
    failed = entry.get("failed")
    if type(failed) is not bool:
        return "an entry needs 'failed', true or false"
    if failed:
        return None if type(entry.get("reason")) is str else \
            "a failed call's entry needs its 'reason' (text)"
    latency = entry.get("latency_ms")
    if type(latency) not in (int, float) or not 0 <= latency < float("inf"):
        return "a finished call's entry needs 'latency_ms', a number of at least 0"
    if check is not None:
        try:
            check(entry)
        except ValueError as error:  # a ResponseError or an InvalidInputError
            return f"a finished call's run fields cannot be read: {error}"
    return None


def _check_header(path, found, header):
    if found.get("journal") != HEADER:
        raise InvalidInputError(f"{path}: not a ragscore record journal (its first line is "
                                f"{show(found)})")
    for key in ("system", "trials", "fingerprint"):
        if found.get(key) != header[key]:
            raise InvalidInputError(f"{path}: the journal was written for {key} "
                                    f"{show(found.get(key))}, this recording has "
                                    f"{show(header[key])}; resume with the same test set, "
                                    "system and trials, or start again without --resume")


def _lock(descriptor, path):
    """Hold the journal for this recording alone (released when it is closed)."""
    import fcntl

    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise InvalidInputError(f"{path}: another 'ragscore record' is writing this journal "
                                "now; wait for it to finish (one journal has one writer at a "
                                "time)") from None


class Journal:
    """Appends entries to the journal at ``path``, one flushed line each, holding it for
    one writer at a time (an exclusive lock, so two ``--resume`` of one journal cannot both
    make the remaining calls)."""

    def __init__(self, path, header, *, resume, check=None):
        self.path = Path(path)
        self.entries, self.torn = [], False
        if resume:
            try:
                handle = open_regular(self.path, MAX_JOURNAL_BYTES, writable=True)
            except FileNotFoundError:
                raise InvalidInputError(f"--resume: there is no journal at {self.path} to "
                                        "resume from") from None
            _lock(handle.fileno(), self.path)
            try:
                self.entries, whole = _entries(self.path, handle.read(MAX_JOURNAL_BYTES + 1),
                                               header, check)
                self.torn = whole is not None
                if self.torn:  # drop the torn line: that call is made again
                    handle.truncate(whole)
                handle.seek(0, os.SEEK_END)
            except BaseException:
                handle.close()
                raise
            self._handle = handle
        else:
            try:
                descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                raise InvalidInputError(f"a journal of an unfinished recording is at "
                                        f"{self.path}: add --resume to continue it, or delete "
                                        "it to start again") from None
            _lock(descriptor, self.path)
            self._handle = os.fdopen(descriptor, "wb")
            self.append({"journal": HEADER, **header})

    def append(self, entry):
        self._handle.write((_ENCODE(entry) + "\n").encode("utf-8"))
        self._handle.flush()

    def close(self):
        self._handle.close()

    def remove(self):
        """Delete the journal (its calls are in the dataset folder now)."""
        os.unlink(self.path)
        self.close()
