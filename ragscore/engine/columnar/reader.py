"""Reading a dataset folder in bulk: the columnar engine's reader.

DuckDB reads each JSON Lines file into typed columns (measured here about twice as fast as
pyarrow's JSON reader, and it reads ``support``, a map of claim to sources, which pyarrow
cannot), and every rule the record-by-record reader applies (:mod:`ragscore.io.read`) is
checked on whole columns, with the same rule objects (:mod:`ragscore.core.rules`): ID
patterns, list limits, uniqueness, membership in the corpus, the labels' consistency.

DuckDB's reader is lenient where JSON is not (a number read where a string is expected, an
unknown key skipped, a trailing comma accepted), so each file is also held to what its
values imply: every string in JSON is written between two unescaped quotes, every key is
followed by a colon and the members of an object or an array are separated by commas, so
the quotes, colons and commas of a file must number exactly what the values read from it
account for (plus those inside the strings). A lenient reading always breaks one of those
counts; a ``\\u`` escape, which could hide a quote, sends the file to the other reader.

Whatever this reader cannot read cleanly (a version 3 folder, a document-level or deduped
reading, any broken rule or count) it leaves to the record-by-record reader, which reads the
folder again and names the first problem with its file, line and field: the rules and their
messages are written once.
"""
import contextlib
import mmap
import os

from ...io.content import check_bytes
from ...io.read import close_all, open_version
from .screens import Unclean, byte_counts, check_cases, check_corpus, check_runs

__all__ = ["read_batch", "screened_batch"]

_RUN_COLUMNS = {"case": "VARCHAR", "system": "VARCHAR", "retrieved": "VARCHAR[]",
                "claims": "STRUCT(claim VARCHAR, citations VARCHAR[])[]"}
_CASE_COLUMNS = {"id": "VARCHAR", "question": "VARCHAR", "relevant": "JSON",
                 "support": "MAP(VARCHAR, VARCHAR[])"}
_CORPUS_COLUMNS = {"id": "VARCHAR", "text": "VARCHAR", "source": "VARCHAR",
                   "version": "VARCHAR"}


def read_batch(path, *, unit="chunk", dedupe=False, max_bytes):
    """The :class:`~ragscore.engine.columnar.batch.Batch` of the dataset folder at ``path``,
    read in bulk, or ``None`` when it must be read record by record
    (:func:`~ragscore.engine.columnar.batch.encode`)."""
    try:
        return screened_batch(path, unit=unit, dedupe=dedupe, max_bytes=max_bytes)
    except Unclean:
        return None


def screened_batch(path, *, unit="chunk", dedupe=False, max_bytes):
    """:func:`read_batch`, raising :class:`~ragscore.engine.columnar.screens.Unclean` where
    that returns ``None``: its ``rule`` names the record rule whose screen sent the folder to
    the record reader (``None``: the folder's layout or reading is not one this reader
    takes)."""
    if unit != "chunk" or dedupe:
        raise Unclean
    from ..parquet import CODEC

    try:
        folder, index, opened, reader, minimum = open_version(path, max_bytes, CODEC)
    except (OSError, ValueError):
        raise Unclean from None  # the record reader names the problem
    with contextlib.ExitStack() as stack:
        try:
            if reader.version in (3, 4) or "judgements" in opened:
                raise Unclean  # record by record: version 3 extras, judgements to apply
            parquet = reader.layout["runs"] == ".parquet"
            paths = {kind: str(opened[kind][0]) for kind in opened}
            data = {kind: _mapped(opened[kind][1], stack) for kind in opened}
            for kind, raw in data.items():  # against the hash each name carries
                check_bytes(*opened[kind], raw)
            if any(len(raw) > max_bytes for raw in data.values()):
                raise Unclean  # grew past the limit: the record reader says so
        except (OSError, ValueError):
            raise Unclean from None  # the record reader names the problem
        finally:
            close_all(opened)
        return _read(paths, data, rules=reader.rules, minimum=minimum,
                     notes=tuple(index.get("notes", ())), version=reader.version,
                     parquet=parquet)


def _mapped(handle, stack):
    """The bytes of an open file, memory-mapped (read from the page cache as they are
    searched: no copy of a large file in the process's memory); closed with ``stack``."""
    size = os.fstat(handle.fileno()).st_size
    if not size:
        return b""
    mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    stack.callback(_close, mapped)
    return mapped


def _close(mapped):
    try:
        mapped.close()
    except BufferError:  # a view still held (by an exception's traceback): closed when freed
        pass


def _read(paths, data, *, rules, minimum, notes, version, parquet=False):
    import duckdb

    texts = [raw for kind, raw in data.items() if not (parquet and kind == "runs")]
    for raw in texts:
        if raw[:3] == b"\xef\xbb\xbf" or (byte_counts(raw, b"\\")[0]
                                           and raw.find(b"\\u") >= 0):
            raise Unclean
    connection = duckdb.connect()
    connection.execute(f"SET threads={max(len(os.sched_getaffinity(0)), 1)}")
    try:
        corpus = _table(connection, paths["corpus"], _CORPUS_COLUMNS)
        cases = _table(connection, paths["cases"], _CASE_COLUMNS, extra=(
            ", json_type(relevant) AS shape"
            ", CASE WHEN json_type(relevant) = 'ARRAY' THEN relevant::VARCHAR[] END AS listed"
            ", CASE WHEN json_type(relevant) = 'OBJECT' THEN relevant::MAP(VARCHAR, JSON) END"
            " AS graded"), keep=("id", "question", "support"))
        runs = None if parquet else _table(connection, paths["runs"], _RUN_COLUMNS)
    except duckdb.Error:  # not JSON, or not of the types the columns name
        raise Unclean("record.shape") from None
    finally:
        connection.close()
    ids = check_corpus(corpus, data["corpus"], rules, version)
    labels = check_cases(cases, data["cases"], rules, minimum, ids)
    if parquet:
        runs = _Columns(_parquet_runs(paths["runs"], data["runs"], ids))
        return check_runs(runs, None, rules, ids, labels, notes)
    return check_runs(runs, data["runs"], rules, ids, labels, notes)


def _parquet_runs(path, data, ids):
    """The runs table of a version 5 folder, when it holds only what the bulk reader reads
    (rankings and claims): its checks (:func:`~ragscore.engine.parquet.table_of`)
    passed, a ``claims`` column of nulls where it has none."""
    import pyarrow as pa

    from ..parquet import claims_type, table_of

    try:
        table = table_of(path, data, ids)
    except ValueError:
        raise Unclean from None  # the record reader names the problem
    if not set(table.column_names) <= set(_RUN_COLUMNS):
        raise Unclean  # run records (trials, answers, ...): read record by record
    if "claims" not in table.column_names:
        table = table.append_column("claims", pa.nulls(table.num_rows, claims_type()))
    return table


def _table(connection, path, columns, *, extra="", keep=None):
    typed = "{" + ", ".join(f"'{name}': '{kind}'" for name, kind in columns.items()) + "}"
    selected = ", ".join(f'"{name}"' for name in (keep or columns))
    quoted = path.replace("'", "''")
    table = connection.sql(
        f"SELECT {selected}{extra} FROM read_json('{quoted}', format='newline_delimited', "
        f"columns={typed}, maximum_object_size=1073741824)").to_arrow_table(batch_size=1 << 30)
    return _Columns(table)


class _Columns:
    """The columns of a table read by DuckDB, each one arrow array (not chunked)."""

    def __init__(self, table):
        self.num_rows = table.num_rows
        self._columns = {name: _one_array(table.column(name)) for name in table.column_names}

    def column(self, name):
        return self._columns[name]


def _one_array(column):
    """A chunked column as one array: its only chunk as it is (``combine_chunks`` would copy
    it), else the chunks joined."""
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


# ---- checks on columns ------------------------------------------------------------------------
