"""The runs of format version 5: one Parquet file, written from columns and read back as
columns or as records.

One row per recorded run (a trial each), in the order a version 4 runs file would list them:

============  ============================================  =====================================
column        type                                          holds
============  ============================================  =====================================
case          string                                        the case's id
system        string                                        the system's name
retrieved     list<int32>                                   the ranking, each ID coded by its
                                                            position in the corpus file (0 first)
claims        list<struct<claim: string,                    the claims and their citations (IDs
              citations: list<string>>>                     as written: they may be outside the
                                                            corpus); null: the answer was not
                                                            assessed
trial         int64                                         the trial number (version 3's key)
delivered     list<int32>                                   the delivered context, coded
answer        string                                        the answer text
latency_ms,   int64 or double                               operation figures
cost
tokens,       int64
retries
failed        bool
sentences     list<struct<text: string,                     the answer as sentences, each with the
              citations: list<string>>>                     IDs it cites (TREC RAG's answers)
response_     int64                                         the length the system declared
length
============  ============================================  =====================================

Only ``case``, ``system`` and ``retrieved`` are always there; a column no run uses is left
out, and a null stands for a key a record leaves out. The file's metadata binds it to its
corpus (``ragscore.corpus``: the count of documents and a hash of their IDs in order), so a
ranking is never decoded against another corpus. pyarrow writes and reads it (measured
against DuckDB and Polars: see ``docs/dataset-format.md``).

:func:`records` turns each row back into the record a JSON line would hold, so the record
reader (:mod:`ragscore.io.read`) applies every rule to it and names the file, the row and
the field of a problem, as it does a line. A file that is not Parquet, is cut short, has an
unknown column or a column of the wrong type, is bound to another corpus or codes a position
outside the corpus is refused here, with a :class:`~ragscore.io.jsonl.DatasetFileError`
naming the file and the column (and the row, the case and the system for a bad code).
"""
import hashlib
import mmap
import os

from ..core.rules import show
from ..core.trials import trial_runs
from ..io.content import check_bytes
from ..io.format import RUN_EXTRAS, RUN_V5
from ..io.jsonl import DatasetFileError, where
from .native import arrow_copy

__all__ = ["CODEC", "Runs", "claims_type", "corpus_key", "has_answer_only", "records",
           "run_chunks", "runs_of", "runs_table", "table_of"]

_META = b"ragscore.corpus"
_LIST_OF_CODES = "a list of corpus positions (list<int32>)"
_INTEGER = "an integer (int64)"
_NUMBER = "a number (int64 or double)"
#: What each column must be: ``(test of its arrow type, what it is in words)``.
_COLUMNS = {
    "case": ("string", "a string"), "system": ("string", "a string"),
    "retrieved": ("codes", _LIST_OF_CODES),
    "claims": ("claims", "a list of (claim: string, citations: list<string>) structs"),
    "trial": ("integer", _INTEGER), "delivered": ("codes", _LIST_OF_CODES),
    "answer": ("string", "a string"), "latency_ms": ("number", _NUMBER),
    "tokens": ("integer", _INTEGER), "cost": ("number", _NUMBER),
    "retries": ("integer", _INTEGER), "failed": ("bool", "true or false (bool)"),
    "sentences": ("sentences", "a list of (text: string, citations: list<string>) structs"),
    "response_length": ("integer", _INTEGER),
}
_REQUIRED = ("case", "system", "retrieved")


def corpus_key(documents):
    """What binds a runs file to its corpus: the count of ``documents`` (IDs in file order: a
    list, or a pyarrow string array) and the first 16 hex digits of the SHA-256 of the IDs,
    one a line.

    >>> corpus_key(["a", "b"])
    '2:911169ddaaf146af'
    >>> from ragscore.engine.columnar.arrow import strings
    >>> corpus_key(strings(["a", "b"]))
    '2:911169ddaaf146af'
    """
    if not isinstance(documents, list) and hasattr(documents, "buffers"):
        digest = hashlib.sha256(_lines(documents))
    else:
        text = "\n".join(documents) + "\n" if len(documents) else ""
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    return f"{len(documents)}:{digest.hexdigest()[:16]}"


def _lines(ids):
    """The UTF-8 bytes of the pyarrow string array ``ids``, each followed by a line end."""
    import pyarrow.compute as pc

    from .columnar.arrow import strings

    if not len(ids):
        return b""
    joined = pc.binary_join_element_wise(ids, strings([""])[0], strings(["\n"])[0])
    return memoryview(joined.buffers()[2])[_start(joined, 0):_start(joined, len(joined))]


def _start(values, place):
    import numpy as np
    import pyarrow as pa

    kind = np.int64 if pa.types.is_large_string(values.type) else np.int32
    return int(np.frombuffer(values.buffers()[1], dtype=kind, count=1,
                             offset=np.dtype(kind).itemsize * (values.offset + place))[0])


# ---- writing --------------------------------------------------------------------------------

class Runs:
    """Runs as columns, ready to write: ``case`` and ``system`` (lists of str, or pyarrow
    string arrays, one per row), ``offsets`` and ``codes`` (the rankings, flat), and
    ``extra`` (column name to a pyarrow array, one value per row). ``documents``: the corpus
    IDs in file order (a list, or a pyarrow string array)."""

    def __init__(self, documents, case, system, offsets, codes, extra=None):
        self.documents, self.case, self.system = documents, case, system
        self.offsets, self.codes, self.extra = offsets, codes, extra or {}


def runs_of(dataset):
    """The :class:`Runs` of a checked dataset's ``runs`` (every trial a row), in one pass."""
    import numpy as np

    documents = list(dataset.corpus)
    position = {doc: place for place, doc in enumerate(documents)}.__getitem__
    case, system, lengths, codes = [], [], [], []
    found = {key: [] for key in ("claims",) + RUN_EXTRAS + RUN_V5}
    rows = 0
    for case_name, per_case in dataset.runs.items():
        for name, trials in per_case.items():
            for run in trial_runs(trials):
                case.append(case_name)
                system.append(name)
                retrieved = run["retrieved"]
                lengths.append(len(retrieved))
                codes.extend(map(position, retrieved))
                for key in found:
                    if key in run:
                        found[key].append((rows, run[key]))
                rows += 1
    offsets = np.zeros(rows + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    extra = {key: _column(key, rows, values, position) for key, values in found.items()
             if values}
    return Runs(documents, case, system, offsets, np.array(codes, dtype=np.int32), extra)


def _column(key, rows, values, position):
    """The pyarrow array of the extra column ``key``: ``values`` are ``(row, value)`` for
    the rows that hold one (null elsewhere)."""
    import pyarrow as pa

    filled = [None] * rows
    for row, value in values:
        filled[row] = value
    if key == "claims":
        return pa.array([None if claims is None else
                         [{"claim": claim, "citations": list(citations)}
                          for claim, citations in claims] for claims in filled],
                        type=claims_type())
    if key == "sentences":
        return pa.array([None if pairs is None else
                         [{"text": text, "citations": list(citations)}
                          for text, citations in pairs] for pairs in filled],
                        type=sentences_type())
    if key == "delivered":
        return pa.array([None if ids is None else [position(doc) for doc in ids]
                         for ids in filled], type=pa.list_(pa.int32()))
    if key == "answer":
        return pa.array(filled, type=pa.string())
    if key == "failed":
        return pa.array(filled, type=pa.bool_())
    whole = all(type(value) is int for _, value in values)
    return pa.array(filled, type=pa.int64() if whole else pa.float64())


def claims_type():
    import pyarrow as pa

    return pa.list_(pa.struct([pa.field("claim", pa.string()),
                               pa.field("citations", pa.list_(pa.string()))]))


def sentences_type():
    import pyarrow as pa

    return pa.list_(pa.struct([pa.field("text", pa.string()),
                               pa.field("citations", pa.list_(pa.string()))]))


def runs_table(runs):
    """The pyarrow table of :class:`Runs`, its metadata binding it to the corpus."""
    import pyarrow as pa

    retrieved = pa.ListArray.from_arrays(pa.array(runs.offsets, type=pa.int32()),
                                         pa.array(runs.codes, type=pa.int32()))
    columns = {"case": _strings(runs.case), "system": _strings(runs.system),
               "retrieved": retrieved}
    columns.update((key, runs.extra[key]) for key in _COLUMNS if key in runs.extra)
    table = pa.table(columns)
    return table.replace_schema_metadata({_META: corpus_key(runs.documents).encode()})


def _strings(values):
    """A pyarrow string array of ``values`` (a list of ``str``, or one already)."""
    import pyarrow as pa

    return values if isinstance(values, pa.Array) else pa.array(values, type=pa.string())


def run_chunks(runs):
    """The bytes of the Parquet file of :class:`Runs` (a list of one buffer)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(runs_table(runs), sink, compression="zstd", write_statistics=False,
                   use_dictionary=["case", "system"])
    return [memoryview(sink.getvalue())]


# ---- reading --------------------------------------------------------------------------------

def read_table(path, handle, documents):
    """The table of the runs file ``path`` (open as ``handle``): see :func:`table_of`."""
    size = os.fstat(handle.fileno()).st_size
    if not size:
        check_bytes(path, handle, b"")  # the bytes read against the hash the name carries
        return table_of(path, b"", documents)
    with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        check_bytes(path, handle, data)
        return table_of(path, data, documents)


def table_of(path, data, documents):
    """The table of the runs file ``path`` whose bytes are ``data``: its columns and their
    types checked, and its binding to ``documents`` (the corpus IDs in file order: a list,
    or a pyarrow string array). pyarrow reads a copy of ``data`` in its own memory
    (:mod:`ragscore.engine.native`: never a Python object its threads would release), so
    ``data`` is free again when this returns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:  # the file alone (pq.read_table would import pyarrow.dataset, and pandas with it)
        table = pq.ParquetFile(pa.BufferReader(arrow_copy(data))).read()
    except (pa.ArrowException, OSError, ValueError) as error:
        reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
        raise DatasetFileError(f"{where(path)}: not a readable Parquet file of runs "
                               f"({show(reason, limit=200)[1:-1]})") from None
    _check_schema(path, table.schema)
    metadata = table.schema.metadata or {}
    key = corpus_key(documents)
    if metadata.get(_META, b"").decode("utf-8", "replace") != key:
        raise DatasetFileError(
            f"{where(path)}: its rankings are coded against another corpus (metadata "
            f"'ragscore.corpus' is {show(metadata.get(_META, b'').decode('utf-8', 'replace'))}"
            f"; the corpus it is saved with gives {key!r})")
    return table


def _check_schema(path, schema):
    import pyarrow as pa

    for name in schema.names:
        if name not in _COLUMNS:
            raise DatasetFileError(f"{where(path)}: unknown column {show(name)}; expected only "
                                   f"{tuple(_COLUMNS)}")
    if len(set(schema.names)) != len(schema.names):
        raise DatasetFileError(f"{where(path)}: a column is named twice: {schema.names}")
    for name in _REQUIRED:
        if name not in schema.names:
            raise DatasetFileError(f"{where(path)}: missing column {name!r}")
    tests = {"string": lambda kind: pa.types.is_string(kind) or pa.types.is_large_string(kind),
             "integer": pa.types.is_integer, "bool": pa.types.is_boolean,
             "number": lambda kind: pa.types.is_integer(kind) or pa.types.is_floating(kind),
             "codes": lambda kind: pa.types.is_list(kind) and pa.types.is_integer(
                 kind.value_type),
             "claims": lambda kind: kind == claims_type(),
             "sentences": lambda kind: kind == sentences_type()}
    for field in schema:
        test, described = _COLUMNS[field.name]
        if not tests[test](field.type):
            raise DatasetFileError(f"{where(path)}: column {field.name!r} must be {described}; "
                                   f"got {field.type}")


def records(path, handle, documents, *, max_bytes=None):
    """``(row number, record)`` for each row of the runs file, the record as a JSON line
    would hold it (a null leaves its key out; codes decoded to the corpus IDs)."""
    import numpy as np

    table = read_table(path, handle, documents)
    names = table.column_names
    columns = {name: table.column(name).to_pylist() for name in names
               if name not in ("retrieved", "delivered")}
    cases, systems = columns["case"], columns["system"]
    shared = np.empty(len(documents), dtype=object)
    shared[:] = documents
    for name in ("retrieved", "delivered"):
        if name in names:
            columns[name] = _decoded(path, table.column(name).combine_chunks(), shared, name,
                                     cases, systems)
    for row in range(table.num_rows):
        record = {}
        for name in names:
            value = columns[name][row]
            if value is not None:
                record[name] = value
        yield row + 1, record


def _decoded(path, lists, documents, name, cases, systems):
    """Each list of codes (a pyarrow list array) as the list of IDs it codes (``None`` where
    the list is null); a code outside the corpus, or a null inside a list, is refused naming
    the row, the case, the system and the field."""
    import numpy as np

    import pyarrow as pa

    offsets = np.asarray(lists.offsets.to_numpy(), dtype=np.int64)
    values = lists.values
    starts, ends = offsets[:-1].tolist(), offsets[1:].tolist()
    present = np.asarray(lists.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    codes = np.asarray(values.fill_null(-1).to_numpy(), dtype=np.int64) if len(values) else \
        np.zeros(0, dtype=np.int64)
    bad = np.flatnonzero((codes < 0) | (codes >= len(documents)))
    if len(bad):
        item = int(bad[0])
        row = int(np.searchsorted(offsets, item, side="right")) - 1
        got = values[item].as_py() if isinstance(values, pa.Array) else None
        raise DatasetFileError(
            f"{where(path, row + 1, 'row')} (case {show(cases[row])}, system "
            f"{show(systems[row])}): key {name!r} item {item - starts[row]} must be the "
            f"position of a document in the corpus (0 to {len(documents) - 1}); got "
            f"{show(got)}")
    flat = documents[codes].tolist()
    return [flat[start:end] if keep else None
            for start, end, keep in zip(starts, ends, present.tolist())]


def has_answer_only(path, *, max_bytes):
    """True when some row of a version 5 folder's runs file records ``answer`` or
    ``sentences`` and no ``claims`` (claims to derive from the answer); False when none does
    or the folder cannot be read (its reader then names the problem)."""
    from pathlib import Path

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from ..io.jsonl import open_regular, read_json
    from ..io.store import INDEX

    try:
        folder = Path(path)
        with open_regular(folder / INDEX, max_bytes) as handle:
            index = read_json(handle, INDEX, max_bytes)
        name = folder / os.path.basename(str(index["files"]["runs"]))
        with open_regular(name, max_bytes) as handle:  # a regular file only: never a FIFO
            size = os.fstat(handle.fileno()).st_size
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else \
                    memoryview(b"") as mapped:
                data = arrow_copy(mapped)  # in Arrow's memory: see ragscore.engine.native
        names = pq.ParquetFile(pa.BufferReader(data)).schema_arrow.names
        answers = [name for name in ("answer", "sentences") if name in names]
        if not answers:
            return False
        columns = answers + (["claims"] if "claims" in names else [])
        table = pq.read_table(data, columns=columns)
        answered = pc.is_valid(table.column(answers[0]))
        for name in answers[1:]:
            answered = pc.or_(answered, pc.is_valid(table.column(name)))
        if "claims" in columns:
            answered = pc.and_(answered, pc.is_null(table.column("claims")))
        return bool(pc.any(answered).as_py())
    except Exception:  # noqa: BLE001 (anything wrong: the reader says what)
        return False


class _Codec:
    """What :mod:`ragscore.io` asks of the runs of a version 5 folder (see
    :func:`ragscore.io.read.open_version`)."""

    records = staticmethod(records)

    @staticmethod
    def chunks(dataset):
        """The bytes of the runs file of a checked ``dataset``."""
        return run_chunks(runs_of(dataset))


#: The Parquet runs codec, passed to :mod:`ragscore.io` by the layers that read and write.
CODEC = _Codec()
