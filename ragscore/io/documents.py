"""Source documents and the chunking cut from them (format version 5), read and checked.

A span test set's folder holds ``documents.<hash>.jsonl`` beside its other files, one
source document a line, and places each chunk of its corpus in a document::

    documents  {"id": "handbook", "version": "3f0c9a1d2b4e6f70", "text": "..."}
    corpus     {"id": "handbook#0", "text": "...", "source": "handbook",
                "version": "3f0c9a1d2b4e6f70", "start": 0, "end": 120}

A chunk's ``text`` is ``text[start:end]`` of the document its ``source`` names (offsets in
code points, end exclusive), cut from the version its ``version`` names. Every rule is
checked on every reading, and a broken one is refused with its file, line and field:
offsets that are not whole numbers, past the text or ending before they start, a chunk
naming an unknown document or another version of it, a chunk whose text differs from its
place, and (unless the index allows them) two chunks sharing a character.
"""
from collections import namedtuple

from ..core.rules import InvalidInputError, show
from ..core.spans import Chunking, check_offsets, document_version, occurrences
from .jsonl import DatasetFileError, Line, object_with, records, where

__all__ = ["DOCUMENT_KEYS", "Placed", "check_chunking", "check_text_at", "read_chunking",
           "read_documents", "text_place"]

#: How many places of a text found more than once a message lists.
LISTED = 5

#: The keys of a line of the documents file (``version`` is written by every save).
DOCUMENT_KEYS = frozenset({"id", "text", "version"})


def read_documents(path, handle, *, rules, max_bytes, versioned=True):
    """``{doc: (version, text)}`` from an open documents file, each line checked; without
    ``versioned`` a line may leave ``version`` out and gets its text's content hash
    (:func:`~ragscore.core.spans.document_version`), as the import reads its input."""
    found = {}
    for number, record in records(handle, path, max_bytes, encodable=True):
        at = Line(path, number)
        object_with(record, DOCUMENT_KEYS, "a document", at)
        doc, text = record.get("id"), record.get("text")
        if not rules.is_id(doc):
            raise DatasetFileError(f"{at}: field 'id' must be {rules.expected}; got "
                                   f"{show(doc)}")
        if doc in found:
            raise DatasetFileError(f"{at}: duplicate document id {show(doc)}")
        if type(text) is not str or not text.strip():
            raise DatasetFileError(f"{at} (document {show(doc)}): field 'text' must be "
                                   f"non-blank text; got {show(text)}")
        version = record.get("version")
        if version is None and not versioned and "version" not in record:
            version = document_version(text)
        if type(version) is not str or not version.strip():
            raise DatasetFileError(f"{at} (document {show(doc)}): field 'version' must be a "
                                   f"non-blank string; got {show(version)}")
        found[doc] = (version, text)
    if not found:
        raise DatasetFileError(f"{where(path)}: holds no documents")
    return found


def _places(found, length, total):
    """``'14-30, 52-68'``: the first places of a text ``length`` long found ``total`` times
    at the offsets ``found``."""
    listed = ", ".join(f"{start}-{start + length}" for start in found[:LISTED])
    return listed + (f" and {total - LISTED:,} more" if total > LISTED else "")


def _nearest(text, document):
    """``; its longest part found there: ...``: a hint for a text found nowhere, when some
    run of at least half of it (and 4 characters) is in ``document``."""
    from difflib import SequenceMatcher

    match = SequenceMatcher(None, document, text, autojunk=False).find_longest_match(
        0, len(document), 0, len(text))
    if match.size < max(4, len(text) // 2):
        return ""
    part = document[match.a:match.a + match.size]
    return f"; its longest part found there: {show(part)} at {match.a}-{match.a + match.size}"


def text_place(text, doc, document, at, *, field="text", names=("start", "end")):
    """``(start, end)`` of ``text`` in ``document`` (the text of document ``doc``) where it
    occurs exactly once (:func:`~ragscore.core.spans.occurrences`); found nowhere or more
    than once (ambiguous: never guessed), a :class:`~ragscore.io.jsonl.DatasetFileError`
    naming ``at``, the field and the places.

    >>> text_place("Two", "d", "One. Two.", "line 1")
    (5, 8)
    >>> text_place("e", "d", "One. Three.", "line 2")
    Traceback (most recent call last):
    ...
    ragscore.io.jsonl.DatasetFileError: line 2: field 'text' 'e' occurs 3 times in document 'd' (at 2-3, 8-9, 9-10): ambiguous, never guessed; give 'start' and 'end'
    """
    found = occurrences(text, document)
    if len(found) == 1:
        return found[0], found[0] + len(text)
    start, end = names
    if not found:
        raise DatasetFileError(f"{at}: field {field!r} {show(text)} occurs nowhere in "
                               f"document {show(doc)}{_nearest(text, document)}")
    raise DatasetFileError(f"{at}: field {field!r} {show(text)} occurs {len(found):,} times in "
                           f"document {show(doc)} (at {_places(found, len(text), len(found))})"
                           f": ambiguous, never guessed; give {start!r} and {end!r}")


def check_text_at(text, doc, document, start, end, at, *, field="text",
                  names=("start", "end")):
    """Raise :class:`~ragscore.io.jsonl.DatasetFileError` naming ``at``, the field, the
    document's text at ``start:end`` and ``text`` unless they are the same; the message says
    where ``text`` does occur.

    >>> check_text_at("Two", "d", "One. Two.", 5, 8, "line 1")
    >>> check_text_at("Two", "d", "One. Two.", 0, 3, "line 2")
    Traceback (most recent call last):
    ...
    ragscore.io.jsonl.DatasetFileError: line 2: field 'text' must be the document's text from 'start' to 'end' ('One'); got 'Two' (it occurs once in document 'd', at 5-8: give 'start' 5 and 'end' 8, or leave them out to place it by its text)
    """
    if document[start:end] == text:
        return
    start_name, end_name = names
    found = occurrences(text, document) if text else []
    if len(found) == 1:
        hint = (f"it occurs once in document {show(doc)}, at {found[0]}-{found[0] + len(text)}"
                f": give {start_name!r} {found[0]} and {end_name!r} {found[0] + len(text)}, "
                "or leave them out to place it by its text")
    elif found:
        hint = (f"it occurs {len(found):,} times in document {show(doc)}, at "
                f"{_places(found, len(text), len(found))}")
    else:
        hint = f"it occurs nowhere in document {show(doc)}{_nearest(text, document)}"
    raise DatasetFileError(f"{at}: field {field!r} must be the document's text from "
                           f"{start_name!r} to {end_name!r} ({show(document[start:end])}); "
                           f"got {show(text)} ({hint})")


#: The fields of a corpus line that hold a chunk's document, start, end and text.
CORPUS_FIELDS = ("source", "start", "end", "text")


class Placed(namedtuple("Placed", "doc start end version text where fields",
                        defaults=(CORPUS_FIELDS,))):
    """A chunk as its corpus line places it: ``doc`` (its ``source``), ``start``, ``end``,
    ``version`` and ``text`` as written (``None`` when left out), ``where`` it was read
    (for messages: a file and line, or a record's name) and the ``fields`` that held its
    document, start, end and text there (messages name them as the input does:
    ``start_char_idx`` in a LlamaIndex node)."""

    __slots__ = ()


def check_chunking(placed, documents, *, overlapping=False):
    """``{chunk: (doc, start, end)}``: each chunk of ``placed`` (``{chunk: Placed}``)
    checked against ``documents`` (``{doc: (version, text)}``); a broken one raises
    :class:`~ragscore.io.jsonl.DatasetFileError` naming where it was read and the field.
    Two chunks sharing a character are refused unless ``overlapping``.

    >>> documents = {"d": ("v1", "One. Two.")}
    >>> check_chunking({"c": Placed("d", 0, 4, None, "One.", "line 1")}, documents)
    {'c': ('d', 0, 4)}
    >>> check_chunking({"c": Placed("e", 0, 4, None, None, "line 1")}, documents)
    Traceback (most recent call last):
    ...
    ragscore.io.jsonl.DatasetFileError: line 1 (chunk 'c'): field 'source' must name a document of the documents file; got 'e'
    """
    positions = {}
    for chunk, place in placed.items():
        doc, start, end, version, text = place[:5]
        found = documents.get(doc)  # the checks first, a message only when one fails
        if start is None and end is None and text is not None and found is not None:
            start, end = text_place(text, doc, found[1], f"{place.where} (chunk {show(chunk)})",
                                    field=place.fields[3], names=place.fields[1:3])
        if found is None or version is not None and version != found[0] or \
                type(start) is not int or type(end) is not int or \
                not 0 <= start < end <= len(found[1]) or \
                text is not None and found[1][start:end] != text:
            _refuse(chunk, place, found)
        positions[chunk] = (doc, start, end)
    if not overlapping:
        found = Chunking.of(positions).first_overlap()
        if found is not None:
            doc, first, second = found
            raise DatasetFileError(
                f"{placed[second].where} (chunk {show(second)}): it shares characters of "
                f"document {show(doc)} with chunk {show(first)} ({placed[first].where}); "
                "overlapping chunks are refused unless allowed (--allow-overlap: a "
                "chunker with a window overlap)")
    return positions


def _refuse(chunk, place, found):
    """Raise for the chunk :func:`check_chunking` found broken, naming the field as its
    input names it."""
    doc, start, end, version, text, at, fields = place
    doc_field, start_field, end_field, text_field = fields
    at = f"{at} (chunk {show(chunk)})"
    if found is None:
        what = "is missing" if doc is None else f"must name a document of the documents " \
                                                f"file; got {show(doc)}"
        raise DatasetFileError(f"{at}: field {doc_field!r} {what}")
    now_version, document = found
    if version is not None and version != now_version:
        raise DatasetFileError(f"{at}: field 'version' is {show(version)}, but the documents "
                               f"file holds version {show(now_version)} of {show(doc)}: the "
                               "chunk was cut from another version (ragscore rechunk cuts "
                               "the new one)")
    try:
        check_offsets(start, end, len(document), at, names=(start_field, end_field))
    except InvalidInputError as error:
        raise DatasetFileError(str(error)) from None
    check_text_at(text, doc, document, start, end, at, field=text_field,
                  names=(start_field, end_field))


def _line_of(path, chunk, max_bytes):
    """Where the corpus file at ``path`` holds ``chunk`` (an error's place, found again)."""
    from .jsonl import open_regular

    try:
        with open_regular(path, max_bytes) as handle:
            for number, record in records(handle, path, max_bytes):
                if type(record) is dict and record.get("id") == chunk:
                    return str(Line(path, number))
    except (OSError, InvalidInputError):
        pass
    return where(path)


def read_chunking(reader, opened, index, corpus, sources, versions):
    """The span test set's fields of a :class:`~ragscore.io.format.Dataset` (``documents``,
    ``positions``, ``min_overlap``, ``overlapping_chunks``) from an open folder version
    whose corpus ``reader`` has read (``{}`` when the folder holds no documents file):
    every chunk is placed in a document and checked (:func:`check_chunking`)."""
    from .format import span_settings

    if "documents" in opened and not reader.rules.open_labels:
        raise DatasetFileError(f"{where(opened['documents'][0].parent / 'dataset.json')}: key "
                               "'ids' must be 'open' in a span test set (its derived labels "
                               "are graded)")
    if "documents" not in opened:
        if reader.placed:
            chunk, (_, _, place) = next(iter(reader.placed.items()))
            raise DatasetFileError(f"{place} (chunk {show(chunk)}): fields 'start' and 'end' "
                                   "place a chunk in a source document, and the index names "
                                   "no documents file")
        return {}
    documents = read_documents(*opened["documents"], rules=reader.rules,
                               max_bytes=reader.max_bytes)
    min_overlap, overlapping = span_settings(index)
    placed = {}
    for chunk, text in corpus.items():
        start, end, place = reader.placed.get(chunk, (None, None, None))
        if place is None:
            raise DatasetFileError(f"{_line_of(reader.corpus_path, chunk, reader.max_bytes)} "
                                   f"(chunk {show(chunk)}): fields 'start' and 'end' are "
                                   "missing: every chunk of a span test set names its place "
                                   "in a source document")
        placed[chunk] = Placed(sources.get(chunk), start, end, versions.get(chunk), text, place)
    positions = check_chunking(placed, documents, overlapping=overlapping)
    return {"documents": documents, "positions": positions, "min_overlap": min_overlap,
            "overlapping_chunks": overlapping}
