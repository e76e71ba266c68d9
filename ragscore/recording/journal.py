"""The journal: every finished call, one JSON line each, written and flushed as it finishes.

The first line is a header naming the recording (system, trials, the test set's
fingerprint); each further line is one call's entry (:func:`~ragscore.recording.calls.
result_entry`). A recording killed mid-line leaves a torn last line: a resume drops it (that
call is made again). ``--resume`` refuses a journal written for another system, test set or
number of trials.
"""
import json
import os
from pathlib import Path

from ..core.rules import InvalidInputError, show

__all__ = ["HEADER", "Journal", "journal_path", "read_journal"]

HEADER = "ragscore-record-journal"
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def journal_path(out, system):
    """The default journal beside the folder ``out``: ``OUT.SYSTEM.journal.jsonl``.

    >>> journal_path("runs/tests", "mine").as_posix()
    'runs/tests.mine.journal.jsonl'
    """
    out = Path(out)
    return out.parent / f"{out.name}.{system}.journal.jsonl"


def read_journal(path, header):
    """The entries of the journal at ``path`` (its header must match ``header`` where the
    two say the same thing), dropping a torn last line; ``(entries, whole)``: ``whole`` is
    the byte length of its whole lines when the last line was torn, else ``None``."""
    path = Path(path)
    with open(path, "rb") as handle:
        data = handle.read()
    lines = data.split(b"\n")
    torn = lines.pop() != b""  # the text after the last newline: empty when whole
    entries, whole = [], 0
    for number, line in enumerate(lines, start=1):
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
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
        elif type(value.get("case")) is not str or type(value.get("trial")) is not int:
            raise InvalidInputError(f"{path}, line {number}: an entry needs 'case' and "
                                    f"'trial'; got {show(value)}")
        else:
            entries.append(value)
    if whole == 0:
        raise InvalidInputError(f"{path}: an empty journal (no header line)")
    return entries, whole if torn else None


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


class Journal:
    """Appends entries to the journal at ``path``, one flushed line each."""

    def __init__(self, path, header, *, resume):
        self.path = Path(path)
        self.entries, self.torn = [], False
        if resume:
            if not self.path.exists():
                raise InvalidInputError(f"--resume: there is no journal at {self.path} to "
                                        "resume from")
            self.entries, whole = read_journal(self.path, header)
            self.torn = whole is not None
            if self.torn:  # drop the torn line: that call is made again
                with open(self.path, "rb+") as handle:
                    handle.truncate(whole)
            self._handle = open(self.path, "a", encoding="utf-8")
        else:
            if self.path.exists():
                raise InvalidInputError(f"a journal of an unfinished recording is at "
                                        f"{self.path}: add --resume to continue it, or delete "
                                        "it to start again")
            self._handle = open(self.path, "x", encoding="utf-8")
            self.append({"journal": HEADER, **header})

    def append(self, entry):
        self._handle.write(_ENCODE(entry) + "\n")
        self._handle.flush()

    def close(self):
        self._handle.close()

    def remove(self):
        """Delete the journal (its calls are in the dataset folder now)."""
        self.close()
        os.unlink(self.path)
