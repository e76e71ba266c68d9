"""Passage text for TREC RAG runs: the MS MARCO v2.1 segmented corpus layout, and answers
whose ``references`` carry their segments.

An answer file names the segments it cites by ID only (``"references":
["msmarco_v2.1_doc_29_677149#3_1637632", ...]``), so a test set imported from it has
passages without text, and a reviewer cannot judge a citation without reading the passage.
Two sources give the text:

- ``--corpus FILE`` (``.jsonl`` or ``.jsonl.gz``): one segment a line, as the TREC RAG track
  distributes the MS MARCO v2.1 segmented corpus: ``{"docid", "url", "title", "headings",
  "segment", "start_char", "end_char"}``. Only the segments the test set names are read
  whole (the others are skipped after their ``docid``); each keeps ``segment`` as its text.
  A needed line without a string ``segment``, or a segment given twice, is refused with the
  file, the line and the field.
- a reference given as that same object instead of its ID (:func:`reference_list`).

Segments the test set names and neither gives stay without text, and are counted.
"""
import gzip
import json
import re

from ..core.rules import OPEN, show
from ..io.jsonl import DatasetFileError, where
from ._common import open_input, unicode_problem

__all__ = ["SEGMENT_FIELDS", "read_segments", "reference_list"]

#: The fields of a segment in the MS MARCO v2.1 segmented corpus.
SEGMENT_FIELDS = ("docid", "url", "title", "headings", "segment", "start_char", "end_char")
#: The largest corpus file read (the whole segmented corpus is about 25 GB compressed).
SEGMENT_FILE_BYTES = 1 << 37
_DOCID = re.compile(rb'"docid"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _segment(record, place, *, what="the segment"):
    """``(ID, text)`` of one segment object, checked."""
    if type(record) is not dict:
        raise DatasetFileError(f"{place}: {what} must be an object; got {show(record)}")
    unknown = sorted(str(key) for key in record if key not in SEGMENT_FIELDS)
    if unknown:
        raise DatasetFileError(f"{place}: {what} has an unknown field {show(unknown[0])} (the "
                               f"MS MARCO v2.1 segment layout: {', '.join(SEGMENT_FIELDS)})")
    docid = record.get("docid")
    if type(docid) is not str or not OPEN.is_id(docid) or unicode_problem(docid):
        raise DatasetFileError(f"{place}: field 'docid' must be a segment ID "
                               f"({OPEN.expected}); got {show(docid)}")
    text = record.get("segment")
    if type(text) is not str or unicode_problem(text):
        raise DatasetFileError(f"{place}: field 'segment' must be the segment's text; got "
                               f"{show(text)}")
    return docid, text


def reference_list(value, place):
    """``(IDs, {ID: text})`` of an answer's ``references``: each an ID, or a segment object
    in the corpus layout (its ``docid`` and ``segment``); an ID twice is refused."""
    from ._common import id_list

    if type(value) is not list:
        raise DatasetFileError(f"{place}: field 'references' must be a list of segment IDs or "
                               f"segments; got {show(value)}")
    ids, texts = [], {}
    for position, item in enumerate(value):
        if type(item) is dict:
            docid, text = _segment(item, place, what=f"field 'references'[{position}]")
            ids.append(docid)
            texts[docid] = text
        else:
            ids.append(item)
    return id_list(ids, "field 'references'", place), texts


def read_segments(path, wanted, *, max_bytes=SEGMENT_FILE_BYTES):
    """``{ID: text}`` of the segments of ``wanted`` that the corpus file at ``path`` holds
    (see the module docstring)."""
    found, lines = {}, {}
    with open_input(path, max_bytes) as raw:
        handle = gzip.GzipFile(fileobj=raw) if str(path).endswith(".gz") else raw
        try:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                match = _DOCID.search(line)
                if match is None:
                    raise DatasetFileError(f"{where(path, number)}: field 'docid' is missing "
                                           "(a segment of the MS MARCO v2.1 segmented corpus: "
                                           f"{', '.join(SEGMENT_FIELDS)})")
                try:
                    docid = json.loads(b'"' + match.group(1) + b'"')
                except (ValueError, RecursionError):
                    docid = None
                if docid not in wanted:
                    continue
                try:
                    record = json.loads(line)
                except RecursionError:
                    raise DatasetFileError(f"{where(path, number)}: not JSON (nested too "
                                           "deeply)") from None
                except ValueError as error:
                    raise DatasetFileError(f"{where(path, number)}: not JSON ({error})"
                                           ) from None
                docid, text = _segment(record, where(path, number))
                if docid in found:
                    raise DatasetFileError(f"{where(path, number)}: field 'docid': segment "
                                           f"{show(docid)} is given twice (first on line "
                                           f"{lines[docid]})")
                found[docid], lines[docid] = text, number
        except (OSError, EOFError) as error:  # a broken gzip stream
            raise DatasetFileError(f"{where(path)}: cannot be read ({error})") from None
    return found
