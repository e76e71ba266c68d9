"""What the importers share: text files read in blocks of whole lines, IDs, content hashes,
option checks and the assembly of imported runs.

Every problem in an input file raises :class:`~ragscore.io.jsonl.DatasetFileError` naming
the file and the line (or the key path of a single JSON document); values are shown with
:func:`~ragscore.core.rules.show`. A bad option (an argument, not a file) raises
:class:`~ragscore.core.rules.InvalidInputError`.
"""
import hashlib
import os
import re
from pathlib import Path

from ..core.rules import OPEN, InvalidInputError, fail, show
from ..io.jsonl import DatasetFileError, open_regular, too_big, where
from ..io.input_bytes import counted

#: How much of a file one block holds (whole lines): small enough to stay in the CPU cache.
BLOCK_BYTES = 1 << 16
MISSING_RUN = ("zero", "skip")
#: An integer grade as TREC and BEIR files write it (ASCII digits, optional sign).
is_grade = re.compile(r"[+-]?[0-9]+").fullmatch
#: The keys of the notes an importer of TREC runs returns.
UNJUDGED_NOTE = "run questions without qrels"
MISSING_NOTE = "judged questions missing from a run"


def fail_at(path, number, message):
    """Raise :class:`DatasetFileError`: ``<path>, line <number>: <message>`` (no line when
    ``number`` is ``None``)."""
    raise DatasetFileError(f"{where(path, number)}: {message}")


def open_input(path, max_bytes):
    """Open ``path`` (a regular file of at most ``max_bytes``) in binary; a missing file is a
    :class:`DatasetFileError` too."""
    try:
        return counted(open_regular(path, max_bytes))
    except FileNotFoundError:
        raise DatasetFileError(
            f"{where(path)}: cannot be read (No such file or directory)") from None


def blocks(path, handle, max_bytes, size=BLOCK_BYTES):
    """Yield ``(first line number, bytes, text)`` for successive blocks of whole lines.

    The file is read ``size`` bytes at a time and each read cut after its last line ending
    (what follows starts the next block; a line longer than ``size`` makes a longer block):
    one ``bytes`` object per block, not one per line. Each block is decoded as UTF-8 at
    once (a line ending is never inside a UTF-8 character); a decoding error names its
    line. A byte-order mark opening the file is dropped from the text.
    """
    number, read, pending = 1, 0, []
    while True:
        chunk = handle.read(size)
        read += len(chunk)
        if read > max_bytes:
            raise too_big(path, max_bytes)
        if chunk:
            cut = chunk.rfind(b"\n") + 1
            if not cut:
                pending.append(chunk)  # no line ends here yet
                continue
            data = b"".join(pending) + chunk[:cut] if pending else chunk[:cut]
            pending = [chunk[cut:]] if cut < len(chunk) else []
        elif pending:
            data, pending = b"".join(pending), []  # the last line, without its ending
        else:
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            _undecodable(path, number, data.split(b"\n"))
        if number == 1 and text[:1] == "\ufeff":
            text = text[1:]
        yield number, data, text
        number += data.count(b"\n") + (data[-1:] != b"\n")


def _undecodable(path, number, raw):
    for offset, line in enumerate(raw):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            fail_at(path, number + offset, f"not UTF-8 text ({error.reason})")
    raise AssertionError("a block that fails to decode has a line that fails")  # pragma: no cover


def split_lines(text):
    """The lines of a block (only ``\\n`` ends a line), without their endings."""
    parts = text.split("\n")
    if not parts[-1]:
        parts.pop()  # the block ended with a line ending
    return parts


def lines(path, max_bytes, *, keepends=False):
    """Yield ``(number, line)`` for each line of the text file at ``path``; only ``\\n``
    ends a line, and it is kept only with ``keepends``."""
    with open_input(path, max_bytes) as handle:
        for number, _, text in blocks(path, handle, max_bytes):
            parts = split_lines(text)
            if keepends:
                parts = [part + "\n" for part in parts]
                if parts and not text.endswith("\n"):  # the file's last line has no ending
                    parts[-1] = parts[-1][:-1]
            yield from enumerate(parts, start=number)


def check_id(value, what, path, number):
    """Return ``value`` if it is an ID under open rules, else fail naming the line."""
    if not OPEN.is_id(value):
        fail_at(path, number, f"{what} must be {OPEN.expected}; got {show(value)}")
    return value


def unicode_problem(text):
    """Why ``text`` cannot be written as UTF-8 (a lone surrogate from a JSON escape), else
    ``None``."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate, which is not Unicode text"
    return None


def question_id(text):
    """The case ID of a question known only by its text: the first 12 hex digits of the
    SHA-256 of its UTF-8 bytes.

    >>> question_id("Who owns the alert?")
    '0d33240934cc'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def context_id(text):
    """The document ID of a context known only by its text: ``ctx-`` and the first 16 hex
    digits of the SHA-256 of its UTF-8 bytes.

    >>> context_id("The fictional Aurora team owns the alert.")
    'ctx-e8169891c5dfa6dc'
    """
    return "ctx-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def id_list(value, what, place, *, max_ids=OPEN.max_ids):
    """``value`` (a list of unique IDs under open rules) as a tuple; else fail at ``place``.

    A repeated ID is refused, not dropped: a ranking that repeats a document (a fusion
    retriever's duplicate chunks) would otherwise be scored as something it is not.
    """
    if type(value) is not list or not all(type(item) is str for item in value):
        raise DatasetFileError(f"{place}: {what} must be a list of strings; got {show(value)}")
    if len(value) > max_ids:
        raise DatasetFileError(f"{place}: {what} holds {len(value):,} IDs; at most "
                               f"{max_ids:,} are allowed")
    seen = set()
    for item in value:
        if not OPEN.is_id(item) or unicode_problem(item):
            raise DatasetFileError(f"{place}: {what} must hold IDs ({OPEN.expected}); got "
                                   f"{show(item)}")
        if item in seen:
            raise DatasetFileError(f"{place}: {what} lists {show(item)} twice (a repeated ID "
                                   "is refused, not dropped)")
        seen.add(item)
    return tuple(value)


def text_list(value, what, place):
    """``value`` (a list of strings) as a tuple; else fail at ``place``."""
    if type(value) is not list or not all(type(item) is str for item in value):
        raise DatasetFileError(f"{place}: {what} must be a list of strings; got {show(value)}")
    for item in value:
        problem = unicode_problem(item)
        if problem:
            raise DatasetFileError(f"{place}: {what} {problem}")
    return tuple(value)


class TextCorpus:
    """Documents as they are met: ``texts`` maps ID to text (``None`` while unknown).

    ``differing`` counts texts that differ from the first text given for the same ID (the
    first is kept); ``unpaired`` counts lists of texts not as long as their list of IDs
    (those texts are not kept).
    """

    def __init__(self):
        self.texts, self.differing, self.unpaired = {}, 0, 0

    def add(self, ids, texts=None):
        """Enter ``ids``, with ``texts`` beside them when both lists are as long."""
        if texts is not None and len(texts) != len(ids):
            self.unpaired += 1
            texts = None
        for position, doc in enumerate(ids):
            text = document_text(texts[position]) if texts is not None else None
            known = self.texts.get(doc, _ABSENT)
            if known is _ABSENT or known is None:
                self.texts[doc] = text
            elif text is not None and text != known:
                self.differing += 1

    def notes(self):
        """What was left out, for the importer's notes."""
        return {TEXT_DIFFERS_NOTE: self.differing, TEXT_UNPAIRED_NOTE: self.unpaired}


_ABSENT = object()
#: What a list-based importer's notes say of its rankings' order.
LIST_ORDER_NOTE = "list order, as recorded (the file has no scores); first is best"
TEXT_DIFFERS_NOTE = "texts differing from the first text of their ID (first kept)"
TEXT_UNPAIRED_NOTE = "text lists not as long as their ID lists (texts not kept)"


def document_text(text):
    """Corpus text: ``None`` (an ID without text) when ``text`` is blank."""
    return text if text and not text.isspace() else None


def paths_of(value, what):
    """A tuple of paths from one path or a sequence of them."""
    if isinstance(value, (str, os.PathLike)):
        return (value,)
    try:
        found = tuple(value)
    except TypeError:
        raise InvalidInputError(f"{what} must be a path or a sequence of paths; got "
                                f"{show(value)}") from None
    for item in found:
        if not isinstance(item, (str, os.PathLike)):
            raise InvalidInputError(f"{what} must be a path or a sequence of paths; got "
                                    f"{show(item)}")
    return found


def check_options(*, name, default_name, missing_run=None, min_relevance=1):
    """The dataset name to use; raise for an option out of range."""
    if missing_run is not None and missing_run not in MISSING_RUN:
        raise InvalidInputError(f"missing_run must be 'zero' or 'skip'; got {show(missing_run)}")
    if type(min_relevance) is not int or min_relevance < 1:
        raise InvalidInputError(f"min_relevance must be an int of at least 1; got "
                                f"{show(min_relevance)}")
    if name is None:
        return default_name
    if type(name) is not str:
        raise InvalidInputError(f"name must be a str; got {show(name)}")
    return name


def check_max_depth(max_depth):
    """``max_depth`` (keep each ranking's best N, as ``trec_eval -M N``) when it is None or an
    int of at least 1; raise otherwise.

    >>> check_max_depth(0)
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: max_depth must be an int of at least 1 (trec_eval -M); got 0
    """
    if max_depth is not None and (type(max_depth) is not int or max_depth < 1):
        fail("max_depth", "an int of at least 1 (trec_eval -M)", max_depth)
    return max_depth


def check_system(system):
    """``system`` when it is a system name under open ID rules; raise otherwise."""
    if not OPEN.is_id(system):
        raise InvalidInputError(f"system must be {OPEN.expected}; got {show(system)}")
    return system


def stem(path):
    """A default dataset name from a file or folder path: its name without suffixes."""
    base = Path(path).name or Path(os.path.abspath(path)).name
    return base.split(".")[0] or base or "imported"


def file_names(paths):
    """``'a.run', 'b.run'``: the base names of ``paths`` for a description."""
    return ", ".join(repr(Path(path).name) for path in paths)


def assemble_runs(cases, rankings, unjudged, missing_run):
    """``(runs, notes)`` from read rankings: ``runs[case][system] = {"retrieved": ...}``.

    ``rankings[system][question]`` holds each kept ranking; ``unjudged[system]`` the
    questions dropped for want of labels. A case a system did not run gets an empty
    ranking (``missing_run="zero"``, as ``trec_eval -c``) or no run at all (``"skip"``).
    """
    runs = {}
    missing = dict.fromkeys(rankings, 0)
    for case in cases:
        per_case = {}
        for system, ranked in rankings.items():
            ranking = ranked.get(case)
            if ranking is None:
                missing[system] += 1
                if missing_run == "skip":
                    continue
                ranking = ()
            per_case[system] = {"retrieved": ranking}
        if per_case:
            runs[case] = per_case
    notes = {UNJUDGED_NOTE: {system: len(unjudged.get(system, ())) for system in rankings},
             MISSING_NOTE: missing, "missing_run": missing_run}
    return runs, notes


def answer_checked(run, place):
    """``run``, refused at ``place`` (its file and line) when it records an answer without
    claims that the claim splitter would refuse (too long:
    :func:`ragscore.core.validation.check_answer_to_split`), rather than by the save, which
    knows no line."""
    from ..core.validation import check_answer_to_split

    if "answer" in run and "claims" not in run:
        try:
            check_answer_to_split(run["answer"])
        except InvalidInputError as error:
            raise DatasetFileError(f"{place}: {error}") from None
    return run

