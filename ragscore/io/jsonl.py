"""Reading data files safely: regular files only, a byte limit on what is actually read,
JSON without NaN or duplicate keys, and every error naming the file and the line.

No pickle and no eval: only a JSON decoder. Paths and values are shown escaped in messages
(:func:`ragscore.core.rules.show`), so a file cannot forge a line on the terminal.
"""
import json
import os
import stat

from ..core.rules import InvalidInputError, show

MAX_FILE_BYTES = 1 << 30


class DatasetFileError(InvalidInputError):
    """A data file that cannot be read: names the file and the line or key path."""


def as_path(value):
    """``value`` as a :class:`~pathlib.Path` if it is a ``str`` or ``os.PathLike`` naming a
    path (no NUL character), else :class:`InvalidInputError`.

    >>> as_path("data/course").name
    'course'
    """
    from pathlib import Path

    text = os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(text, str):
        raise InvalidInputError(f"path must be a str or os.PathLike naming a folder; got "
                                f"{show(value)}")
    if "\0" in text:
        raise InvalidInputError(f"path must not contain a NUL character; got {show(text)}")
    return Path(text)


#: Paths longer than this are cut in messages (with their length stated).
LONGEST_PATH = 1000


def where(path, line=None, unit="line"):
    """``path`` (escaped if it holds anything unprintable, cut if very long), with
    ``, line N`` if given (``, row N`` with ``unit="row"``: a row of a Parquet file).

    >>> where("runs.jsonl", 3)
    'runs.jsonl, line 3'
    >>> where("bad\\x1b[2J.jsonl")
    "'bad\\\\x1b[2J.jsonl'"
    """
    text = str(path)
    if not text.isprintable() or len(text) > LONGEST_PATH:
        text = show(text, limit=200)
    return text if line is None else f"{text}, {unit} {line}"


class Line:
    """Where a record stands, formatted only when an error needs it."""

    __slots__ = ("path", "number", "unit")

    def __init__(self, path, number, unit="line"):
        self.path, self.number, self.unit = path, number, unit

    def __str__(self):
        return where(self.path, self.number, self.unit)


def _refuse_constant(name):
    raise ValueError(f"{name} is not allowed")


def _no_duplicate_keys(pairs):
    record = dict(pairs)
    if len(record) != len(pairs):
        seen = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"duplicate key {show(duplicate)}")
    return record


DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys,
                           parse_constant=_refuse_constant)
_SCAN = DECODER.scan_once
_PLAIN_SCAN = json.JSONDecoder(parse_constant=_refuse_constant).scan_once


def parse(text, place):
    """One JSON value from ``text``; an error names ``place`` (a string, or a callable
    giving it, so the common path never formats it)."""
    try:
        value, end = _SCAN(text, 0)  # the C scanner directly: most lines start with "{"
    except (StopIteration, ValueError, RecursionError):
        end = -1
    if end == len(text) or (end > 0 and text[end:].isspace()):
        return value
    try:  # leading whitespace, or an error to explain
        return DECODER.decode(text)
    except (ValueError, RecursionError) as error:
        place = place() if callable(place) else place
        raise DatasetFileError(f"{place}: not valid JSON ({_reason(error)})") from None


def check_encodable(record, place):
    """Refuse a decoded ``record`` holding a lone surrogate (a ``\\uD800``-``\\uDFFF``
    escape without its pair): no UTF-8 file can hold it, so a save would refuse it later,
    far from its line. ``place``: where it was read (a string)."""
    try:
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        text = error.object
        raise DatasetFileError(
            f"{place}: holds a lone surrogate U+{ord(text[error.start]):04X} (a \\u escape "
            "of half a pair), which no UTF-8 file can hold; got "
            f"{show(text[max(0, error.start - 30):error.start + 30])}") from None
    except (ValueError, TypeError, RecursionError):
        pass  # not what this checks: the record's own rules say what is wrong


def _reason(error):
    if isinstance(error, RecursionError):
        return "nested too deeply"
    text = (str(error).splitlines() or [""])[0][:200]
    return text if text.isprintable() else show(text, limit=200)


def open_regular(path, max_bytes=MAX_FILE_BYTES, *, writable=False):
    """Open ``path`` for reading in binary (and writing, ``writable``) if it is a regular
    file within ``max_bytes``.

    A FIFO, a device, a folder or a socket is refused without blocking on it; a symbolic
    link is followed to what it names, which must itself be a regular file.
    """
    try:
        descriptor = os.open(path, (os.O_RDWR if writable else os.O_RDONLY) | os.O_NONBLOCK)
    except OSError as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise DatasetFileError(f"{where(path)}: cannot be read ({error.strerror})") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise DatasetFileError(f"{where(path)}: is not a regular file")
        if info.st_size > max_bytes:
            raise DatasetFileError(
                f"{where(path)}: is {info.st_size} bytes, over the limit of {max_bytes}; "
                "pass a larger max_bytes if this file is trusted")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "r+b" if writable else "rb")
    except BaseException:
        os.close(descriptor)
        raise


def too_big(path, max_bytes):
    return DatasetFileError(f"{where(path)}: grew past the limit of {max_bytes} bytes while "
                            "being read; pass a larger max_bytes if it is trusted")


def read_whole(handle, path, max_bytes=MAX_FILE_BYTES):
    """The text of an open file read to its end: at most ``max_bytes``, UTF-8."""
    data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_big(path, max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DatasetFileError(f"{where(path)}: not UTF-8 text ({error.reason})") from None


def read_text(path, max_bytes=MAX_FILE_BYTES):
    """The whole text of the UTF-8 file at ``path``: a regular file within ``max_bytes``
    (a FIFO or a device is refused without blocking on it), a byte-order mark dropped."""
    try:
        with open_regular(path, max_bytes) as handle:
            text = read_whole(handle, path, max_bytes)
    except FileNotFoundError:
        raise DatasetFileError(f"{where(path)}: cannot be read (No such file or "
                               "directory)") from None
    return text[1:] if text[:1] == "\ufeff" else text


def read_value(handle, path, max_bytes=MAX_FILE_BYTES):
    """The one JSON value in an open file (an object, an array, ...)."""
    return parse(read_whole(handle, path, max_bytes), where(path))


def object_with(record, fields, what, at):
    """``record`` if it is a JSON object whose fields are all among ``fields``, else a
    :class:`DatasetFileError` naming ``at`` and the first unknown field (``what`` names the
    record in the message: ``a document``).

    >>> object_with({"id": "d"}, {"id", "text"}, "a document", "line 1")
    {'id': 'd'}
    >>> object_with({"id": "d", "txt": ""}, {"id", "text"}, "a document", "line 2")
    Traceback (most recent call last):
    ...
    ragscore.io.jsonl.DatasetFileError: line 2: unknown field 'txt' (a document has id, text)
    """
    if type(record) is not dict:
        raise DatasetFileError(f"{at}: {what} must be an object; got {show(record)}")
    if not fields.issuperset(record):
        extra = sorted(str(key) for key in record if key not in fields)
        raise DatasetFileError(f"{at}: unknown field {show(extra[0])} ({what} has "
                               f"{', '.join(sorted(fields))})")
    return record


def read_json(handle, path, max_bytes=MAX_FILE_BYTES):
    """The one JSON object in an open file (a manifest, an index)."""
    value = read_value(handle, path, max_bytes)
    if type(value) is not dict:
        raise DatasetFileError(f"{where(path)}: expected a JSON object; got {show(value)}")
    return value


def records(handle, path, max_bytes=MAX_FILE_BYTES, keys_of=len, span=None, *,
            encodable=False):
    """Yield ``(number, object)`` for each non-blank line of an open JSON Lines file (only
    the lines of ``span = (start, stop, first line number)`` when given); a byte-order mark
    opening the file is dropped. ``encodable``: refuse a line holding a lone surrogate
    (:func:`check_encodable`), for a reader that checks no text field for one itself.

    Duplicate keys are refused. The fast path parses without a per-object hook and proves
    there can be none: when every ``:`` on the line directly follows a ``"`` (so each key's
    colon is counted) and the colons number exactly the keys ``keys_of(record)`` finds, no
    key was repeated. Any other line is parsed by the checking decoder.
    """
    read, start, stop, first = 0, *(span or (0, max_bytes + 1, 1))
    if start:
        handle.seek(start)
    for number, raw in enumerate(handle, start=first):
        if read >= stop - start:
            break
        read += len(raw)
        if read > max_bytes:
            raise too_big(path, max_bytes)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DatasetFileError(
                f"{where(path, number)}: not UTF-8 text ({error.reason})") from None
        if line[:1] == "\ufeff" and read == len(raw) and not start:
            line = line[1:]  # a byte-order mark opening the file (Windows tools write one)
        colons = line.count(":")
        if colons == line.count('":') and line[:1] == "{":
            try:
                record, end = _PLAIN_SCAN(line, 0)
            except (StopIteration, ValueError, RecursionError):
                record, end = None, 0
            if (type(record) is dict and (end == len(line) or line[end:].isspace())
                    and keys_of(record) == colons):
                if encodable and "\\u" in line:
                    check_encodable(record, Line(path, number))
                yield number, record
                continue
        if line.isspace() or not line:
            continue
        record = parse(line, Line(path, number).__str__)
        if type(record) is not dict:
            raise DatasetFileError(f"{where(path, number)}: expected a JSON object; "
                                   f"got {show(record)}")
        if encodable and "\\u" in line:
            check_encodable(record, Line(path, number))
        yield number, record
