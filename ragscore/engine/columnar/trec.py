"""The columnar reading of TREC run and qrels files laid out plainly: the same rankings and
judgements as the line readers (:class:`~ragscore.importers.trec.RunReader`,
:func:`~ragscore.importers.trec.read_qrels`), in array operations.

A file is read this way when every line holds six fields (a qrels line four), one separator
byte (a space or a tab) between them and no other whitespace, and no line is blank or a
``#`` comment (but those opening the file): pyarrow's CSV reader splits it as C's
``isspace`` would. A blank line reads as a row whose qid is empty and a comment line as one
whose qid starts with ``#``; the qid check refuses both. Anything else, and any problem at
all (a bad ID, a score that is not wholly a number, ``nan``, a docno ranked twice, a ranking
too long, a tag met in an earlier file, a docno outside a known corpus, a grade that is not
an integer), sends the file to the line reader, which reads it again and names the first
problem with its line. So the rules and their messages live once, in the line readers; this
module only finds out, in bulk, that there is nothing to say. Each screen is named after the
line reader's rule it mirrors (:data:`~ragscore.core.record_rules.TREC_RULES`).
"""
import io
import os
from itertools import filterfalse

import numpy as np

from ...core.rules import OPEN
from ...io.input_bytes import read_in_full
from ..native import arrow_copy
from .arrow import flags, integers, numbers
from .batch import has_repeats, sorted_set
from .idcheck import all_ids
from .screens import Unclean, screen

#: Bytes that C's isspace treats as separators, besides the space, the tab and the line end.
_OTHER_SPACE = (b"\r", b"\x0b", b"\x0c")
_COLUMNS = ["qid", "q0", "docno", "rank", "score", "tag"]
QRELS_COLUMNS = ["qid", "iter", "docno", "rel"]


def _plain_layout(data, *, whole=True):
    """The separator (``" "`` or ``"\\t"``) of a plainly laid-out file (its start only,
    unless ``whole``: the rest is checked as it is read), else ``None``."""
    first = data[:data.find(b"\n")] if b"\n" in data else data
    separator = b"\t" if b"\t" in first else b" "
    other = b" " if separator == b"\t" else b"\t"
    if not data or data.startswith((b"\n", b"#", b"\xef\xbb\xbf")):
        return None  # a blank or "#" line inside the file: screen_ids
    if whole and (other in data or any(byte in data for byte in _OTHER_SPACE)
                  or separator * 2 in data):  # an empty field, which the line reader misses
        return None
    return separator.decode()


def read_plain_run(reader, path):
    """``(origin, rankings, unjudged)`` of the run file at ``path`` as
    :meth:`RunReader._read_lines` gives them, or ``None`` when the file is not laid out
    plainly or holds anything the line reader must name."""
    try:
        return screened_run(reader, path)
    except Unclean:
        return None


def screened_run(reader, path):
    """:func:`read_plain_run`, raising :class:`~ragscore.engine.columnar.screens.Unclean`
    (naming the rule whose screen failed, or ``None`` for a layout) where that returns
    ``None``."""
    columns, comments = run_columns(path, reader.max_bytes)
    found = _rankings(reader, path, comments, *columns)
    read_in_full(path)
    return found


def read_plain_qrels(path, documents, *, max_bytes, max_ids, is_grade):
    """``{qid: {docno: grade}}`` of the qrels file at ``path`` as
    :func:`~ragscore.importers.trec.read_qrels` reads it line by line (and each new
    docno entered in ``documents`` in order of first appearance), or ``None`` when the
    file is not laid out plainly or holds anything the line reader must name: a bad ID, a
    grade that is not wholly an integer, a document judged twice for one question, a
    question judging more than ``max_ids`` documents. ``is_grade``: the line reader's rule
    for a grade's text (true for a whole number)."""
    try:
        return screened_qrels(path, documents, max_bytes=max_bytes, max_ids=max_ids,
                              is_grade=is_grade)
    except Unclean:
        return None


def screened_qrels(path, documents, *, max_bytes, max_ids, is_grade):
    """:func:`read_plain_qrels`, raising :class:`~ragscore.engine.columnar.screens.Unclean`
    where that returns ``None``."""
    table, _ = plain_table(path, max_bytes, QRELS_COLUMNS, ["qid", "docno", "rel"])
    q_codes, q_values = _encoded(table.column("qid").combine_chunks())
    d_codes, d_values = _encoded(table.column("docno").combine_chunks())
    r_codes, r_values = _encoded(table.column("rel").combine_chunks())
    q_names, d_names = q_values.to_pylist(), d_values.to_pylist()
    r_names = r_values.to_pylist()
    screen_ids(q_values)
    screen_ids(d_values)
    screen(all(map(is_grade, r_names)), "trec.grade")
    order = np.argsort(q_codes, kind="stable")  # questions in order of first appearance
    starts = starts_of(q_codes[order])
    counts = np.diff(np.append(starts, len(order)))
    screen(not len(counts) or counts.max() <= max_ids, "trec.judged_limit")
    pairs = q_codes[order].astype(np.int64) * len(d_names) + d_codes[order]
    screen(len(sorted_set(pairs)) == len(pairs), "trec.judged_once")
    shared = list(map(documents.setdefault, d_names, d_names))  # every row is kept
    grades = [int(rel) for rel in r_names]
    docs = [shared[code] for code in d_codes[order].tolist()]
    given = [grades[code] for code in r_codes[order].tolist()]
    judged = {}
    for qid, start, count in zip(q_names, starts.tolist(), counts.tolist()):
        judged[qid] = dict(zip(docs[start:start + count], given[start:start + count]))
    read_in_full(path)
    return judged


def plain_table(path, max_bytes, names, included, *, numbers_in=()):
    """``(table, comment lines skipped)``: :func:`table_of` of a plainly laid-out file at
    ``path``, read by pyarrow's CSV reader a block at a time through :class:`_PlainFile`
    (each block checked as it passes: the file is read once and never held whole)."""
    with _PlainFile(path, max_bytes) as plain:
        table = table_of(plain, plain.separator, names, included, numbers_in=numbers_in)
        if plain.broken:
            raise Unclean
        return table, plain.comments


class _PlainFile(io.RawIOBase):
    """A plainly laid-out file, read a block at a time, the ``#`` lines opening it skipped
    (``comments`` counts them) and each block checked as it passes (:func:`_plain_layout`'s
    rules over the whole file: one ``separator``, no other byte C's ``isspace`` reads but
    the line end, no empty field). :class:`Unclean` when the file cannot be opened or its
    start breaks a rule; ``broken`` once a later block does (the reader is then told the
    file ended)."""

    _FIRST = 1 << 20

    def __init__(self, path, max_bytes):
        super().__init__()
        from ...io.jsonl import open_regular

        try:
            size = os.stat(path).st_size
        except (OSError, TypeError, ValueError):
            raise Unclean from None
        if not size or size > max_bytes:
            raise Unclean
        try:  # not counted as it is read: the progress line hears of it when it is done
            self._handle = open_regular(path, max_bytes)
        except (OSError, ValueError):
            raise Unclean from None  # the line reader names the problem
        self.max_bytes, self.broken, self.comments = max_bytes, False, 0
        try:
            self._start()
        except BaseException:
            self._handle.close()
            raise

    def _more(self):
        block = self._handle.read(self._FIRST)
        self._total += len(block)
        return block

    def _start(self):
        self._total = 0
        data, start = self._more(), 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:  # more to read before a whole line (or the end) is seen
                more = self._more()
                if not more:
                    break
                data += more
            elif data.startswith(b"#", start):  # a comment line opening the file
                self.comments, start = self.comments + 1, end + 1
            else:
                break
        data = data[start:]
        separator = _plain_layout(data, whole=False)
        if separator is None or self._total > self.max_bytes:
            raise Unclean
        self.separator, self._last = separator, b""
        self._pending = self._checked(data)

    def _checked(self, block):
        """``block`` when it keeps the layout (read after what came before), else nothing
        (and the file is broken)."""
        separator = self.separator.encode()
        other = b" " if separator == b"\t" else b"\t"
        if (other in block or any(byte in block for byte in _OTHER_SPACE)
                or separator * 2 in self._last + block[:1] or separator * 2 in block
                or self._total > self.max_bytes):
            self.broken = True
            return b""
        if block:
            self._last = block[-1:]
        return block

    def readable(self):
        return True

    def readinto(self, buffer):
        if self.broken:
            return 0
        if self._pending:
            block, self._pending = self._pending[:len(buffer)], self._pending[len(buffer):]
        else:
            block = self._handle.read(len(buffer))
            self._total += len(block)
            block = self._checked(block)
        buffer[:len(block)] = block
        return len(block)

    def close(self):
        if not self.closed:
            self._handle.close()
        super().close()


def table_of(data, separator, names, included, *, numbers_in=()):
    """The ``included`` columns of a file of plain fields named ``names`` (its bytes, or a
    file object to read them from), as strings (a pyarrow table), but those named in
    ``numbers_in``, read as float64 (as ``pyarrow.compute.cast`` reads a string: no text
    is taken for a null, ``nan`` is NaN); :class:`Unclean` when a line does not hold
    exactly those fields, and ``Unclean("trec.score")`` when a number is not one."""
    import pyarrow as pa
    from pyarrow import csv

    try:
        table = csv.read_csv(
            # Arrow's memory (ragscore.engine.native); a file read a block at a time as it is
            data if isinstance(data, io.IOBase) else pa.BufferReader(arrow_copy(data)),
            read_options=csv.ReadOptions(column_names=names, block_size=1 << 24),
            parse_options=csv.ParseOptions(delimiter=separator, quote_char=False,
                                           double_quote=False, escape_char=False,
                                           newlines_in_values=False, ignore_empty_lines=False),
            convert_options=csv.ConvertOptions(
                column_types={name: pa.float64() if name in numbers_in else pa.string()
                              for name in names},
                include_columns=included, strings_can_be_null=False,
                quoted_strings_can_be_null=False, null_values=[]))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        if numbers_in and "conversion error" in str(error):
            # a score that is not a plain decimal (0x10, 1_0, high): line by line
            raise Unclean("trec.score") from None
        raise Unclean from None
    if not table.num_rows:
        raise Unclean
    return table


def run_columns(path, max_bytes):
    """``((qids, docnos, scores, tags), comment lines skipped)`` of the plainly laid-out
    run file at ``path``: pyarrow arrays and the scores as float64 (:class:`Unclean` when
    the file does not parse as six plain fields a line)."""
    table, comments = plain_table(path, max_bytes, _COLUMNS, ["qid", "docno", "score", "tag"],
                                  numbers_in=("score",))
    return (table.column("qid").combine_chunks(), table.column("docno").combine_chunks(),
            numbers(table.column("score").combine_chunks(), np.float64),
            table.column("tag").combine_chunks()), comments


def _encoded(column):
    """``(codes, values)``: each value's position among the distinct values (in order of
    first appearance) and those values (a pyarrow array)."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column)
    return numbers(encoded.indices), encoded.dictionary


def screen_ids(values):
    """Screen the distinct values ``values`` (a pyarrow string array) of a qid, docno or tag
    column: each an ID under the open rules (the rule checked on the whole column,
    :func:`~ragscore.engine.columnar.idcheck.all_ids`); one starting with ``#`` (a comment
    line inside the file) is a layout the line reader reads."""
    import pyarrow.compute as pc

    if flags(pc.starts_with(values, "#")).any():
        raise Unclean
    screen(all_ids(values, OPEN), "trec.id")


def _rankings(reader, path, comments, qids, docnos, scores, tags):
    screen(not np.isnan(scores).any(), "trec.score")
    q_codes, q_values = _encoded(qids)
    t_codes, t_values = _encoded(tags)
    d_codes, d_values = _encoded(docnos)
    q_names, t_names, d_names = q_values.to_pylist(), t_values.to_pylist(), d_values.to_pylist()
    for values in (q_values, t_values, d_values):
        screen_ids(values)
    screen(not any(tag in reader.origin for tag in t_names), "trec.tag_once")
    with np.errstate(over="ignore"):
        stored = scores.astype(np.float32)  # as trec_eval stores a score: a C float
    rows = len(stored)
    keys = t_codes * len(q_names) + q_codes
    order = None  # the file's own order, until a sort is needed
    starts = starts_of(keys)
    if len(sorted_set(keys[starts])) != len(starts):  # a question's lines are apart
        order = np.argsort(keys, kind="stable")
        starts = starts_of(keys[order])
    order = trec_order(order, keys, stored, d_codes, d_values, starts)
    if order is None:
        order = np.arange(rows)
    full = np.diff(np.append(starts, rows))
    lengths = full if reader.max_depth is None else np.minimum(full, reader.max_depth)
    group_keys = keys[order[starts]]
    group_tags, group_qids = group_keys // len(q_names), group_keys % len(q_names)
    kept_names = [name in reader.keep for name in q_names]
    kept = np.array(kept_names, dtype=bool)[group_qids] if len(group_qids) else \
        np.zeros(0, dtype=bool)
    screen(not (lengths[kept] > reader.max_ids).any(), "trec.ranking_limit")
    within = np.arange(rows) - np.repeat(starts, full)  # each row's place in its ranking
    positions = order[within < np.repeat(lengths, full)]
    taken = np.repeat(kept, lengths)
    ranked = d_codes[positions]
    screen(not has_repeats(ranked[taken], lengths[kept]), "trec.ranked_once")
    first_rows = np.full(len(t_names), rows)
    np.minimum.at(first_rows, t_codes, np.arange(rows))
    origin = {name: (path, comments + row + 1)
              for name, row in zip(t_names, first_rows.tolist())}
    if reader.known_as is not None:  # every line of a kept question, cut or not, as the
        judged_rows = order[np.repeat(kept, full)]  # line reader checks them
        screen(reader.documents.keys() >= set(
            d_names[code] for code in sorted_set(d_codes[judged_rows]).tolist()),
            "trec.known_corpus")
    shared = _documents(reader, d_codes, d_names, taken, positions)
    rankings = {name: {} for name in t_names}
    unjudged = {name: set() for name in t_names}
    # one take over the object array, in C, sliced into tuples (a list of every docno would
    # be traversed by each garbage collection while the tuples are made)
    kept_docs = shared[ranked[taken]]
    start = 0
    for tag, qid, keep, length in zip(group_tags.tolist(), group_qids.tolist(), kept.tolist(),
                                      lengths.tolist()):
        if keep:
            rankings[t_names[tag]][q_names[qid]] = tuple(kept_docs[start:start + length])
            start += length
        else:
            unjudged[t_names[tag]].add(q_names[qid])
    return origin, rankings, unjudged


def starts_of(keys):
    """Where each run of equal ``keys`` starts."""
    return np.concatenate([[0], np.flatnonzero(keys[1:] != keys[:-1]) + 1]).astype(np.int64) \
        if len(keys) else np.zeros(0, dtype=np.int64)


def _ascending(stored):
    """The C floats ``stored`` as unsigned 32-bit integers in the same order (-0.0 equal to
    0.0): a positive float's bits with the sign bit set, a negative float's bits inverted.

    >>> _ascending(np.array([-1.5, -0.0, 0.0, 2.0], dtype=np.float32)).tolist()
    [1077936127, 2147483648, 2147483648, 3221225472]
    """
    bits = (stored + np.float32(0)).view(np.uint32)  # -0.0 + 0.0 is 0.0
    return bits ^ ((np.uint32(0) - (bits >> np.uint32(31))) | np.uint32(0x80000000))


def trec_order(order, keys, stored, d_codes, d_values, starts):
    """``order`` (``None``: the file's own order) with each question's rows sorted as
    trec_eval sorts them: score as a C float descending, then docno bytes descending.

    Scores are sorted only when some question's fall out of order (every question's rows,
    those of one length as the rows of a matrix); docnos are compared only where scores tie:
    the tied neighbours first (a file in trec_eval's order is left as it is), and if some
    are out of order, each run of tied rows is sorted by docno (pyarrow's stable sort over
    those rows alone). No sort of every distinct docno. ``keys``: each row's question (rows
    of one question are consecutive in ``order``); ``starts``: where each question starts;
    ``d_codes``: each row's docno as a position in ``d_values`` (a pyarrow string array,
    or a chunked one).
    """
    score = _ascending(stored)
    in_order = score if order is None else score[order]
    key = keys if order is None else keys[order]
    same = key[1:] == key[:-1]
    if (same & (in_order[1:] > in_order[:-1])).any():
        order = _score_order(order, score, starts)
        in_order = score[order]
    return _tie_order(order, same & (in_order[1:] == in_order[:-1]), d_codes, d_values)


def _score_order(order, score, starts):
    """``order`` with each question's rows by score descending (stable: tied rows keep
    their order; a docno listed twice, the second cut by ``max_depth``, keeps its first
    line)."""
    sortable = 0xFFFFFFFF - (score if order is None else score[order]).astype(np.int64)
    lengths = np.diff(np.append(starts, len(score)))
    result = np.arange(len(score)) if order is None else order.copy()
    for length in sorted_set(lengths).tolist():
        if length < 2:
            continue
        where = starts[lengths == length][:, None] + np.arange(length)
        places = np.take_along_axis(where, np.argsort(sortable[where], axis=1, kind="stable"),
                                    axis=1)
        result[where] = places if order is None else order[places]
    return result


def _tie_order(order, tie, d_codes, d_values):
    """``order`` (``None``: the file's) with each run of tied rows (``tie[i]``: rows ``i``
    and ``i + 1`` of ``order`` tie) sorted by docno bytes, descending."""
    import pyarrow as pa
    import pyarrow.compute as pc

    pairs = np.flatnonzero(tie)
    if not len(pairs):
        return order
    rows = np.arange(len(tie) + 1) if order is None else order
    left, right = d_codes[rows[pairs]], d_codes[rows[pairs + 1]]
    apart = left != right  # a docno listed twice is in order with itself
    if not apart.any() or not flags(pc.less(take_strings(d_values, left[apart]),
                                            take_strings(d_values, right[apart]))).any():
        return order  # every tie already in trec_eval's order
    tied = np.zeros(len(rows), dtype=bool)
    tied[pairs] = tied[pairs + 1] = True
    places = np.flatnonzero(tied)
    goes_on = np.zeros(len(places), dtype=bool)
    goes_on[1:] = tie[places[1:] - 1]  # the row ties with the one before it
    table = pa.Table.from_arrays(
        [integers(np.cumsum(~goes_on)), take_strings(d_values, d_codes[rows[places]])],
        names=["run", "docno"])
    sorted_places = numbers(pc.sort_indices(
        table, sort_keys=[("run", "ascending"), ("docno", "descending")]))
    result = rows.copy()
    result[places] = rows[places[sorted_places]]
    return result


def take_strings(values, codes):
    """The values at ``codes`` (a numpy integer array) of the pyarrow array ``values``, or of
    a chunked one (each taken from its own chunk: pyarrow would join the chunks first).

    >>> import pyarrow as pa
    >>> from ragscore.engine.columnar.arrow import strings
    >>> both = pa.chunked_array([strings(["a", "b"]), strings(["c", "d", "e"])])
    >>> take_strings(both, np.array([4, 0, 2, 1])).to_pylist()
    ['e', 'a', 'c', 'b']
    """
    import pyarrow as pa

    if not isinstance(values, pa.ChunkedArray):
        return values.take(integers(codes))
    bounds = np.cumsum([0] + [len(chunk) for chunk in values.chunks])
    which = np.searchsorted(bounds, codes, side="right") - 1
    order = np.argsort(which, kind="stable")
    parts = [values.chunk(chunk).take(integers(codes[order][which[order] == chunk]
                                               - bounds[chunk]))
             for chunk in sorted_set(which).tolist()]
    if not parts:
        return pa.chunked_array([], type=values.type).combine_chunks()
    joined = pa.concat_arrays(parts)
    back = np.empty(len(order), dtype=np.int64)
    back[order] = np.arange(len(order))
    return joined.take(integers(back))


def _documents(reader, d_codes, d_names, taken, positions):
    """The docno of each code (an object array of the ``str`` values ``d_names``, so that
    the rankings are taken from it in C), after entering the kept rankings' docnos in
    ``reader.documents`` in order of first appearance in the file (a growing corpus; a
    known corpus is left as it is). A docno already in ``reader.documents`` keeps its place
    and its ``str``, so that the dataset's checks meet the corpus's own objects."""
    documents = reader.documents
    shared = np.empty(len(d_names), dtype=object)
    if reader.known_as is not None:
        shared[:] = list(map(documents.get, d_names, d_names))
        return shared
    if len(positions) == len(d_codes) and taken.all():
        # every row is kept, so the codes' order (first appearance) is the corpus's order
        shared[:] = list(map(documents.setdefault, d_names, d_names))
        return shared
    kept_rows = positions[taken]  # each code's first row is their least, in any order
    found = np.full(len(d_names), len(d_codes))
    np.minimum.at(found, d_codes[kept_rows], kept_rows)
    codes = np.flatnonzero(found < len(d_codes))
    codes = codes[np.argsort(found[codes], kind="stable")]
    first_seen = [d_names[code] for code in codes.tolist()]
    missing = list(filterfalse(documents.__contains__, first_seen))
    documents.update(zip(missing, missing))
    shared[:] = list(map(documents.get, d_names, d_names))
    return shared
