"""Chunkings as pipelines write them, read as chunk places
(:class:`~ragscore.io.documents.Placed`): where each chunk was cut from its document.

Three layouts, told apart by their fields (``layout="auto"``) or named:

==============  ========================================================================
layout          one chunk
==============  ========================================================================
``ragscore``    ``{"id": str, "doc": str, "start": int, "end": int}``, optionally
                ``"text"`` (checked against the document); or ``"text"`` without
                ``start`` and ``end``, placed where it occurs once in the document
``llamaindex``  a LlamaIndex node as ``node.to_dict()`` / ``model_dump()`` writes it:
                ``id_``, ``text``, ``start_char_idx``, ``end_char_idx`` and the document
                in ``relationships["1"]["node_id"]`` (the SOURCE relationship; else
                ``metadata`` ``ref_doc_id``, ``document_id`` or ``doc_id``). A persisted
                ``docstore.json`` (``{"docstore/data": {id: {"__data__": node}}}``) or a
                JSON array of nodes reads too; stored Documents are skipped.
``langchain``   a LangChain ``Document`` as ``model_dump()`` writes it (``page_content``,
                ``metadata``, ``id``) or as ``dumpd`` does (``{"lc": 1, "kwargs": {...}}``):
                the splitter's ``metadata["start_index"]`` (``add_start_index=True``), the
                document in ``metadata[doc_field]`` (``source`` by default, as loaders set
                it), the chunk ID ``id`` if set, else ``metadata["id"]``, else
                ``DOC@START``.
==============  ========================================================================

With ``stable=True`` a LlamaIndex or LangChain chunk is named by its place,
``DOC@START-END`` (:func:`stable_ids`), so the same chunks keep their IDs from one run of
the chunker to the next.

A file ending in ``.json`` holds one JSON value (a docstore or an array); any other is JSON
Lines, one chunk a line. Every problem is refused naming the file, the line (a docstore:
the node) and the field.
"""
from pathlib import Path

from ..core.rules import OPEN, InvalidInputError, show
from ..io.documents import Placed
from ..io.jsonl import DatasetFileError, object_with, parse, read_value, records, where
from ._common import open_input

__all__ = ["LAYOUTS", "read_chunks", "stable_ids"]

LAYOUTS = ("auto", "ragscore", "llamaindex", "langchain")
RAGSCORE_KEYS = frozenset({"id", "doc", "start", "end", "text"})
#: The metadata keys a LlamaIndex node may name its document by, after its SOURCE relation.
LLAMAINDEX_DOC_KEYS = ("ref_doc_id", "document_id", "doc_id")


def layout_of(record):
    """The layout a chunk record is written in, or ``None`` when none fits.

    >>> layout_of({"id": "c", "doc": "d", "start": 0, "end": 4})
    'ragscore'
    >>> layout_of({"page_content": "One.", "metadata": {"start_index": 0}})
    'langchain'
    """
    if type(record) is not dict:
        return None
    if "page_content" in record or (record.get("lc") == 1 and type(record.get("kwargs")) is dict
                                    and "page_content" in record["kwargs"]):
        return "langchain"
    if "start_char_idx" in record or "id_" in record or "class_name" in record:
        return "llamaindex"
    if "doc" in record and "id" in record:
        return "ragscore"
    return None


def _items(path, max_bytes):
    """``(where, record)`` for each chunk record of the file at ``path``."""
    handle = open_input(path, max_bytes)
    with handle:
        if Path(path).suffix.lower() == ".json":
            yield from _json_items(path, read_value(handle, path, max_bytes))
            return
        for number, record in records(handle, path, max_bytes):
            yield where(path, number), record


def _json_items(path, value):
    if type(value) is list:
        for position, record in enumerate(value):
            yield f"{where(path)}, item {position}", record
        return
    stored = value.get("docstore/data") if type(value) is dict else None
    if type(stored) is not dict:
        raise DatasetFileError(f"{where(path)}: a .json chunking must be an array of chunks "
                               "or a LlamaIndex docstore ({\"docstore/data\": {...}}); got "
                               f"{show(value)}")
    for node_id, entry in stored.items():
        data = entry.get("__data__") if type(entry) is dict else None
        if type(data) is str:  # older stores keep each node as a JSON string
            data = parse(data, f"{where(path)}, node {show(node_id)}")
        yield f"{where(path)}, node {show(node_id)}", data


def _whole(value, field, at):
    if type(value) is not int:
        raise DatasetFileError(f"{at}: field {field!r} must be a whole number (an offset in "
                               f"code points); got {show(value)}")
    return value


def _id(value, field, at):
    if not OPEN.is_id(value):
        raise DatasetFileError(f"{at}: field {field!r} must be {OPEN.expected}; got "
                               f"{show(value)}")
    return value


def _ragscore(record, at, _):
    object_with(record, RAGSCORE_KEYS, "a chunk", at)
    placed = "start" in record or "end" in record or "text" not in record
    for field in ("id", "doc") + (("start", "end") if placed else ()):
        if field not in record:
            raise DatasetFileError(f"{at}: field {field!r} is missing" + (
                " (a chunk gives 'start' and 'end', or only its 'text' to be placed where "
                "it occurs once)" if field == "start" else ""))
    text = record.get("text")
    if text is not None and (type(text) is not str or not text) or \
            "text" in record and text is None:
        raise DatasetFileError(f"{at}: field 'text' must be a non-empty string; got "
                               f"{show(text)}")
    return (_id(record["id"], "id", at), _id(record["doc"], "doc", at),
            _whole(record["start"], "start", at) if placed else None,
            _whole(record["end"], "end", at) if placed else None, text,
            ("doc", "start", "end", "text"))


def _llamaindex(record, at, _):
    if record.get("class_name") == "Document":
        return None  # a stored Document, not one of its nodes
    chunk = _id(record.get("id_"), "id_", at)
    source = (record.get("relationships") or {}).get("1")
    doc = source.get("node_id") if type(source) is dict else None
    doc_field = 'relationships["1"].node_id'
    metadata = record.get("metadata") if type(record.get("metadata")) is dict else {}
    for key in LLAMAINDEX_DOC_KEYS:
        if doc is None and metadata.get(key) is not None:
            doc, doc_field = metadata[key], f"metadata.{key}"
    if doc is None:
        raise DatasetFileError(f"{at}: node {show(chunk)} names no document (field "
                               "'relationships'[\"1\"] (SOURCE) is missing, and so are "
                               f"metadata {', '.join(LLAMAINDEX_DOC_KEYS)})")
    start, end = record.get("start_char_idx"), record.get("end_char_idx")
    if start is None or end is None:
        raise DatasetFileError(f"{at}: node {show(chunk)}: fields 'start_char_idx' and "
                               "'end_char_idx' must be offsets; got "
                               f"{show(start)} and {show(end)} (LlamaIndex leaves them "
                               "null when it could not find the node's text in its document)")
    text = record.get("text")
    if text is not None and type(text) is not str:
        raise DatasetFileError(f"{at}: field 'text' must be a string; got {show(text)}")
    return (chunk, _id(doc, doc_field, at), _whole(start, "start_char_idx", at),
            _whole(end, "end_char_idx", at), text or None,
            (doc_field, "start_char_idx", "end_char_idx", "text"))


def _langchain(record, at, doc_field):
    if record.get("lc") == 1 and type(record.get("kwargs")) is dict:
        record = record["kwargs"]  # langchain_core.load.dumpd
    text, metadata = record.get("page_content"), record.get("metadata")
    if type(text) is not str:
        raise DatasetFileError(f"{at}: field 'page_content' must be a string; got "
                               f"{show(text)}")
    if type(metadata) is not dict:
        raise DatasetFileError(f"{at}: field 'metadata' must be an object; got "
                               f"{show(metadata)}")
    if "start_index" not in metadata:
        raise DatasetFileError(f"{at}: field 'metadata.start_index' is missing (split with "
                               "add_start_index=True to record where each chunk starts)")
    start = _whole(metadata["start_index"], "metadata.start_index", at)
    if start < 0:  # the splitter writes -1 when it could not find the chunk
        raise DatasetFileError(f"{at}: field 'metadata.start_index' is {start}: the splitter "
                               "could not find the chunk in its document")
    doc = _id(metadata.get(doc_field), f"metadata.{doc_field}", at)
    chunk = record.get("id") or metadata.get("id") or f"{doc}@{start}"
    return (_id(chunk, "id", at), doc, start, start + len(text), text,
            (f"metadata.{doc_field}", "metadata.start_index",
             "metadata.start_index + the length of page_content", "page_content"))


_READERS = {"ragscore": _ragscore, "llamaindex": _llamaindex, "langchain": _langchain}


def stable_ids(placed, layout):
    """``({stable ID: Placed}, {ID read: stable ID})``: the chunks of a LlamaIndex or
    LangChain chunking (``layout``) named by their place, ``DOC@START-END``, instead of the
    IDs their pipeline gave them. LlamaIndex draws a random UUID for every node, so the same
    chunker run twice names the same chunks differently and no recorded run would survive a
    rechunk; a place is the same whenever the chunk is. A ragscore-layout chunking names its
    own chunks and is refused; so are two chunks at one place (each names the other).

    >>> from ragscore.io.documents import Placed
    >>> stable_ids({"9f2c": Placed("notes", 0, 46, None, None, "line 1")}, "llamaindex")[1]
    {'9f2c': 'notes@0-46'}
    """
    if layout not in ("llamaindex", "langchain"):
        raise InvalidInputError("--stable-ids names LlamaIndex and LangChain chunks by their "
                                f"place; a {layout} chunking names its own chunks (their "
                                "'id'), so leave the flag out")
    found, renamed = {}, {}
    for chunk, place in placed.items():
        stable = f"{place.doc}@{place.start}-{place.end}"
        if not OPEN.is_id(stable):
            raise DatasetFileError(f"{place.where} (chunk {show(chunk)}): its stable ID "
                                   f"{show(stable)} is not {OPEN.expected}")
        if stable in found:
            raise DatasetFileError(f"{place.where} (chunk {show(chunk)}): it lies at the "
                                   f"place of {found[stable].where} ({show(stable)}): two "
                                   "chunks at one place cannot have stable IDs")
        found[stable], renamed[chunk] = place, stable
    return found, renamed


def read_chunks(path, *, layout="auto", doc_field="source", stable=False, max_bytes):
    """``({chunk: Placed}, layout)``: the chunks of the file at ``path``, in file order, and
    the layout they were read in (see the module docstring); a chunk ID met twice is refused
    with both places. ``stable``: each chunk named by its place (:func:`stable_ids`)."""
    if layout not in LAYOUTS:
        raise DatasetFileError(f"layout must be one of {', '.join(LAYOUTS)}; got {show(layout)}")
    placed, chosen = {}, None if layout == "auto" else layout
    for at, record in _items(path, max_bytes):
        if type(record) is not dict:
            raise DatasetFileError(f"{at}: a chunk must be an object; got {show(record)}")
        found = layout_of(record)
        if chosen is None:
            if found is None:
                raise DatasetFileError(f"{at}: not a chunk of any known layout (ragscore: id, "
                                       "doc, start, end; LlamaIndex: id_, start_char_idx; "
                                       "LangChain: page_content, metadata.start_index)")
            chosen = found
        elif layout == "auto" and found != chosen:
            raise DatasetFileError(f"{at}: a {found or 'unknown'} chunk in a {chosen} "
                                   "chunking (one layout a file)")
        read = _READERS[chosen](record, at, doc_field)
        if read is None:
            continue
        chunk, doc, start, end, text, fields = read
        if chunk in placed:
            raise DatasetFileError(f"{at}: duplicate chunk id {show(chunk)} (first at "
                                   f"{placed[chunk].where})")
        placed[chunk] = Placed(doc, start, end, None, text, at, fields)
    if not placed:
        raise DatasetFileError(f"{where(path)}: holds no chunks")
    return (stable_ids(placed, chosen)[0] if stable else placed), chosen
