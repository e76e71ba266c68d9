"""The columnar reading of a TREC run file laid out plainly: the same rankings as the line
reader (:class:`~ragscore.io.importers.trec.RunReader`), in array operations.

A file is read this way when every line holds six fields, one separator byte (a space or a
tab) between them and no other whitespace, and no line is blank or a ``#`` comment (but
those opening the file):
pyarrow's CSV reader splits it as C's ``isspace`` would. Anything else, and any problem at
all (a bad ID, a score that is not wholly a number, ``nan``, a docno ranked twice, a ranking
too long, a tag met in an earlier file, a docno outside a known corpus), sends the file to
the line reader, which reads it again and names the first problem with its line. So the
rules and their messages live once, in the line reader; this module only finds out, in bulk,
that there is nothing to say.
"""
import os

import numpy as np

from ...core.rules import OPEN
from ..arrow import flags, numbers
from ..batch import has_repeats, sorted_set

#: Bytes that C's isspace treats as separators, besides the space, the tab and the line end.
_OTHER_SPACE = (b"\r", b"\x0b", b"\x0c")
_COLUMNS = ["qid", "q0", "docno", "rank", "score", "tag"]


def _plain_layout(data):
    """The separator (``" "`` or ``"\\t"``) of a plainly laid-out file, else ``None``."""
    first = data[:data.find(b"\n")] if b"\n" in data else data
    separator = b"\t" if b"\t" in first else b" "
    other = b" " if separator == b"\t" else b"\t"
    if (not data or data.startswith((b"\n", b"#", b"\xef\xbb\xbf")) or other in data
            or any(byte in data for byte in _OTHER_SPACE) or b"\n\n" in data
            or b"\n#" in data):
        return None
    return separator.decode()


def read_plain_run(reader, path):
    """``(origin, rankings, unjudged)`` of the run file at ``path`` as
    :meth:`RunReader._read_lines` gives them, or ``None`` when the file is not laid out
    plainly or holds anything the line reader must name."""
    try:
        size = os.stat(path).st_size
    except (OSError, TypeError, ValueError):
        return None
    if not size or size > reader.max_bytes:
        return None
    from ._common import open_input

    with open_input(path, reader.max_bytes) as handle:
        data = handle.read()
    if len(data) > reader.max_bytes:
        return None
    comments = 0
    while data.startswith(b"#") and b"\n" in data:  # comment lines opening the file
        data = data[data.index(b"\n") + 1:]
        comments += 1
    separator = _plain_layout(data)
    if separator is None:
        return None
    columns = _columns(data, separator)
    del data
    if columns is None:
        return None
    return _rankings(reader, path, comments, *columns)


def _columns(data, separator):
    """``(qids, docnos, scores, tags)``: pyarrow arrays and the scores as float64, or
    ``None`` when the file does not parse as six plain fields a line."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyarrow import csv

    try:
        table = csv.read_csv(
            pa.BufferReader(data),
            read_options=csv.ReadOptions(column_names=_COLUMNS, block_size=1 << 24),
            parse_options=csv.ParseOptions(delimiter=separator, quote_char=False,
                                           double_quote=False, escape_char=False,
                                           newlines_in_values=False, ignore_empty_lines=False),
            convert_options=csv.ConvertOptions(
                column_types={name: pa.string() for name in _COLUMNS},
                include_columns=["qid", "docno", "score", "tag"], strings_can_be_null=False,
                quoted_strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if not table.num_rows:
        return None
    try:
        scores = pc.cast(table.column("score").combine_chunks(), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # a score that is not a plain decimal (0x10, 1_0, high): line by line
    return (table.column("qid").combine_chunks(), table.column("docno").combine_chunks(),
            numbers(scores, np.float64), table.column("tag").combine_chunks())


def _encoded(column):
    """``(codes, values)``: each value's position among the distinct values (in order of
    first appearance) and those values (a pyarrow array)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column)
    return numbers(encoded.indices), encoded.dictionary


def _all_ids(values):
    import pyarrow.compute as pc

    if flags(pc.starts_with(values, "#")).any():
        return False
    return all(map(OPEN.is_id, values.to_pylist()))


def _rankings(reader, path, comments, qids, docnos, scores, tags):
    if np.isnan(scores).any():
        return None
    q_codes, q_values = _encoded(qids)
    t_codes, t_values = _encoded(tags)
    d_codes, d_values = _encoded(docnos)
    if not (_all_ids(q_values) and _all_ids(t_values) and _all_ids(d_values)):
        return None
    q_names, t_names = q_values.to_pylist(), t_values.to_pylist()
    if any(tag in reader.origin for tag in t_names):
        return None
    with np.errstate(over="ignore"):
        stored = scores.astype(np.float32)  # as trec_eval stores a score: a C float
    rows = len(stored)
    keys = t_codes * len(q_names) + q_codes
    order = np.arange(rows)
    starts = _starts(keys)
    if len(sorted_set(keys[starts])) != len(starts):  # a question's lines are apart
        order = np.argsort(keys, kind="stable")
        starts = _starts(keys[order])
    order = _trec_order(order, keys, stored, d_codes, d_values, starts)
    full = np.diff(np.append(starts, rows))
    lengths = full if reader.max_depth is None else np.minimum(full, reader.max_depth)
    group_keys = keys[order[starts]]
    group_tags, group_qids = group_keys // len(q_names), group_keys % len(q_names)
    kept_names = [name in reader.keep for name in q_names]
    kept = np.array(kept_names, dtype=bool)[group_qids] if len(group_qids) else \
        np.zeros(0, dtype=bool)
    if (lengths[kept] > reader.max_ids).any():
        return None
    within = np.arange(rows) - np.repeat(starts, full)  # each row's place in its ranking
    positions = order[within < np.repeat(lengths, full)]
    taken = np.repeat(kept, lengths)
    ranked = d_codes[positions]
    if has_repeats(ranked[taken], lengths[kept]):
        return None
    first_rows = np.full(len(t_names), rows)
    np.minimum.at(first_rows, t_codes, np.arange(rows))
    origin = {name: (path, comments + row + 1)
              for name, row in zip(t_names, first_rows.tolist())}
    shared = _documents(reader, d_codes, d_values, taken, positions)
    if shared is None:
        return None
    rankings = {name: {} for name in t_names}
    unjudged = {name: set() for name in t_names}
    kept_docs = [shared[code] for code in ranked[taken].tolist()]
    start = 0
    for tag, qid, keep, length in zip(group_tags.tolist(), group_qids.tolist(), kept.tolist(),
                                      lengths.tolist()):
        if keep:
            rankings[t_names[tag]][q_names[qid]] = tuple(kept_docs[start:start + length])
            start += length
        else:
            unjudged[t_names[tag]].add(q_names[qid])
    return origin, rankings, unjudged


def _starts(keys):
    """Where each run of equal ``keys`` starts."""
    return np.concatenate([[0], np.flatnonzero(keys[1:] != keys[:-1]) + 1]).astype(np.int64) \
        if len(keys) else np.zeros(0, dtype=np.int64)


def _ascending(stored):
    """The C floats ``stored`` as integers in the same order (-0.0 equal to 0.0)."""
    bits = np.where(stored == 0, np.float32(0), stored).view(np.uint32).astype(np.int64)
    return np.where(bits & 0x80000000, 0xFFFFFFFF - bits, bits | 0x80000000)


def _trec_order(order, keys, stored, d_codes, d_values, starts):
    """``order`` with each question's rows sorted as trec_eval sorts them: score as a C
    float descending, then docno bytes descending. A file already in that order (each
    question's scores falling, ties by docno descending) is left as it is; else every
    question's rows are sorted, the questions of one length as the rows of a matrix."""
    import pyarrow.compute as pc

    def docno_rank():  # each docno's place in byte order
        rank = np.empty(len(d_values), dtype=np.int64)
        rank[numbers(pc.sort_indices(d_values))] = np.arange(len(d_values))
        return rank[d_codes[order]]

    score, key = _ascending(stored)[order], keys[order]
    same = key[1:] == key[:-1]
    wrong = same & (score[1:] > score[:-1])
    ties = same & (score[1:] == score[:-1])
    if not wrong.any() and ties.any():
        docs = docno_rank()
        wrong = ties & (docs[1:] > docs[:-1])
    if not wrong.any():
        return order
    # Tied scores need not sit side by side before the sort, so the docno always breaks ties.
    width = max(len(d_values), 1).bit_length()
    sortable = ((0xFFFFFFFF - score) << width) + ((len(d_values) - 1) - docno_rank())
    lengths = np.diff(np.append(starts, len(order)))
    result = order.copy()
    for length in np.unique(lengths).tolist():
        if length < 2:
            continue
        where = starts[lengths == length][:, None] + np.arange(length)
        places = np.take_along_axis(where, np.argsort(sortable[where], axis=1), axis=1)
        result[where] = order[places]
    return result


def _documents(reader, d_codes, d_values, taken, positions):
    """The ``str`` of each docno code as the rankings keep it, after entering the kept
    rankings' docnos in ``reader.documents`` in order of first appearance in the file (a
    growing corpus); ``None`` when, with a known corpus, one is outside it."""
    kept_rows = np.sort(positions[taken])
    found = np.full(len(d_values), len(d_codes))
    np.minimum.at(found, d_codes[kept_rows], kept_rows)
    codes = np.flatnonzero(found < len(d_codes))
    codes = codes[np.argsort(found[codes], kind="stable")]
    names = d_values.to_pylist()
    if reader.known_as is not None:
        if not all(names[code] in reader.documents for code in codes.tolist()):
            return None
    else:
        setdefault = reader.documents.setdefault
        for code in codes.tolist():
            setdefault(names[code], names[code])
    documents = reader.documents
    return [documents.get(name, name) for name in names]
