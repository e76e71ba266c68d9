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

from ...core.rules import OPEN
from ..batch import has_repeats

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
        scores = pc.cast(table.column("score"), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # a score that is not a plain decimal (0x10, 1_0, high): line by line
    return (table.column("qid").combine_chunks(), table.column("docno").combine_chunks(),
            scores.combine_chunks().to_numpy(zero_copy_only=False),
            table.column("tag").combine_chunks())


def _encoded(column):
    """``(codes, names)``: each value's position among the distinct values (in order of
    first appearance) and those values as ``str``."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column)
    return encoded.indices.to_numpy(zero_copy_only=False), encoded.dictionary.to_pylist()


def _all_ids(names):
    return all(map(OPEN.is_id, names)) and not any(name.startswith("#") for name in names)


def _rankings(reader, path, comments, qids, docnos, scores, tags):
    import numpy as np

    if np.isnan(scores).any():
        return None
    q_codes, q_names = _encoded(qids)
    t_codes, t_names = _encoded(tags)
    d_codes, d_names = _encoded(docnos)
    if not (_all_ids(q_names) and _all_ids(t_names) and _all_ids(d_names)):
        return None
    if any(tag in reader.origin for tag in t_names):
        return None
    with np.errstate(over="ignore"):
        stored = scores.astype(np.float32)  # as trec_eval stores a score: a C float
    rows = len(stored)
    keys = t_codes.astype(np.int64) * len(q_names) + q_codes
    order = np.arange(rows)
    starts = _starts(keys)
    if len(np.unique(keys[starts])) != len(starts):  # a question's lines are apart
        order = np.argsort(keys, kind="stable")
        starts = _starts(keys[order])
    order = _trec_order(order, keys, stored, d_codes, d_names, starts)
    full = np.diff(np.append(starts, rows))
    lengths = full if reader.max_depth is None else np.minimum(full, reader.max_depth)
    group_keys = keys[order[starts]]
    group_tags, group_qids = group_keys // len(q_names), group_keys % len(q_names)
    kept = np.fromiter((q_names[q] in reader.keep for q in group_qids.tolist()), dtype=bool,
                       count=len(group_qids))
    if (lengths[kept] > reader.max_ids).any():
        return None
    within = np.arange(rows) - np.repeat(starts, full)  # each row's place in its ranking
    chosen = within < np.repeat(lengths, full)
    positions = order[chosen]
    taken = np.repeat(kept, lengths)
    ranked = d_codes[positions]
    if has_repeats(ranked[taken], lengths[kept]):
        return None
    first_rows = np.unique(t_codes, return_index=True)[1]
    origin = {t_names[code]: (path, comments + row + 1)
              for code, row in enumerate(first_rows.tolist())}
    if not _documents(reader, d_codes, d_names, taken, positions):
        return None
    shared = [reader.documents.get(name, name) for name in d_names]
    rankings = {name: {} for name in t_names}
    unjudged = {name: set() for name in t_names}
    kept_names = [shared[code] for code in ranked[taken].tolist()]
    start = 0
    for tag, qid, keep, length in zip(group_tags.tolist(), group_qids.tolist(), kept.tolist(),
                                      lengths.tolist()):
        if keep:
            rankings[t_names[tag]][q_names[qid]] = tuple(kept_names[start:start + length])
            start += length
        else:
            unjudged[t_names[tag]].add(q_names[qid])
    return origin, rankings, unjudged


def _starts(keys):
    """Where each run of equal ``keys`` starts."""
    import numpy as np

    return np.concatenate([[0], np.flatnonzero(keys[1:] != keys[:-1]) + 1]) if len(keys) \
        else np.zeros(0, dtype=np.int64)


def _trec_order(order, keys, stored, d_codes, d_names, starts):
    """``order`` with each question's rows sorted as trec_eval sorts them (score as a C
    float descending, then docno bytes descending); only questions out of that order are
    sorted."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    score, key = stored[order], keys[order]
    same = key[1:] == key[:-1]
    down = score[1:] < score[:-1]
    tie = np.flatnonzero(same & (score[1:] == score[:-1]))
    wrong = same & ~down
    if len(tie):
        names = pa.array(d_names)
        later = pc.take(names, pa.array(d_codes[order[tie + 1]]))
        earlier = pc.take(names, pa.array(d_codes[order[tie]]))
        wrong[tie] = ~pc.less(later, earlier).to_numpy(zero_copy_only=False)
    if not wrong.any():
        return order
    marks = np.zeros(len(order), dtype=np.int64)
    marks[starts] = 1
    group = np.cumsum(marks) - 1
    bad_groups = np.unique(group[1:][wrong])
    rows = np.flatnonzero(np.isin(group, bad_groups))
    rank = np.empty(len(d_names), dtype=np.int64)  # each docno's place in byte order
    rank[pc.sort_indices(pa.array(d_names)).to_numpy()] = np.arange(len(d_names))
    chosen = order[rows]
    resorted = chosen[np.lexsort((-rank[d_codes[chosen]], -stored[chosen], group[rows]))]
    order = order.copy()
    order[rows] = resorted
    return order


def _documents(reader, d_codes, d_names, taken, positions):
    """Enter the kept rankings' docnos in ``reader.documents`` in order of first appearance
    in the file (a growing corpus); with a known corpus, False when one is outside it."""
    import numpy as np

    kept_rows = np.sort(positions[taken])
    codes = d_codes[kept_rows]
    found, first = np.unique(codes, return_index=True)
    names = [d_names[code] for code in found[np.argsort(first)].tolist()]
    if reader.known_as is not None:
        return all(name in reader.documents for name in names)
    setdefault = reader.documents.setdefault
    for name in names:
        setdefault(name, name)
    return True
