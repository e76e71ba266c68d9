"""An imported TREC dataset kept in columns: its corpus, cases and runs as read-only mappings
over :class:`~ragscore.engine.columnar.trec_columns.TrecColumns`, and the files of its
dataset folder written from the columns.

``ragscore import trec`` reads the files straight into columns; the dataset it saves holds
:class:`TrecCorpus`, :class:`TrecCases` and :class:`TrecRuns`, which answer every question a
dict would (each value built when asked), so whatever reads a dataset reads this one. The
folder's files are then made from the arrays (:func:`trec_files`): the JSON Lines the
standard library's encoder writes for the same records and the Parquet runs
:func:`~ragscore.engine.parquet.run_chunks` writes, byte for byte
(``tests/engine/columnar/test_trec_folder.py`` compares the two writers' folders). Every rule
a save checks was screened as the columns were read, with the same rule objects.
"""
from collections.abc import Mapping, ValuesView

import numpy as np

from .arrow import integers, strings

__all__ = ["TrecCases", "TrecCorpus", "TrecRuns", "as_dicts", "columns_of", "trec_files"]


class _Columns(Mapping):
    """A read-only mapping over :class:`TrecColumns` (``columns``)."""

    __slots__ = ("columns", "_index")

    def __init__(self, columns):
        self.columns, self._index = columns, None

    def _positions(self):
        if self._index is None:
            self._index = {key: place for place, key in enumerate(self._keys())}
        return self._index

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())

    def __contains__(self, key):
        return key in self._positions()

    def __getitem__(self, key):
        return self._value(self._positions()[key])

    def __repr__(self):
        return f"<{type(self).__name__}: {len(self):,} entries, kept in columns>"


class TrecCorpus(_Columns):
    """The corpus: each docno to ``None`` (no text), in corpus order."""

    __slots__ = ()

    def _keys(self):
        return self.columns.docnos.to_pylist()

    def __len__(self):
        return len(self.columns.docnos)

    def _value(self, place):
        return None


class TrecCases(_Columns):
    """The cases: each judged question to ``{"question": "", "relevant": {docno: grade}}``."""

    __slots__ = ("_starts",)

    def _keys(self):
        return self.columns.cases

    def _value(self, place):
        columns = self.columns
        if getattr(self, "_starts", None) is None:
            self._starts = np.searchsorted(columns.judged_case,
                                           np.arange(len(columns.cases) + 1))
        start, end = self._starts[place], self._starts[place + 1]
        docs = columns.docnos.take(integers(columns.judged_doc[start:end])).to_pylist()
        return {"question": "", "relevant": dict(zip(docs, columns.judged_grade[start:end]
                                                     .tolist()))}


class TrecRuns(_Columns):
    """The runs: each case with runs to ``{system: {"retrieved": (docno, ...)}}``."""

    __slots__ = ("_rows",)

    def _keys(self):
        if getattr(self, "_rows", None) is None:
            row_case = self.columns.row_case
            firsts = np.flatnonzero(np.diff(row_case, prepend=-1)) if len(row_case) else \
                np.zeros(0, dtype=np.int64)
            self._rows = (firsts, [self.columns.cases[case]
                                   for case in row_case[firsts].tolist()])
        return self._rows[1]

    def _value(self, place):
        return _Systems(self.columns, *self._bounds(place))

    def _bounds(self, place):
        firsts = self._rows[0]
        end = firsts[place + 1] if place + 1 < len(firsts) else len(self.columns.row_case)
        return int(firsts[place]), int(end)

    def values(self):
        return _RunValues(self)


class _RunValues(ValuesView):
    """:meth:`TrecRuns.values` without a lookup by name."""

    def __iter__(self):
        runs = self._mapping
        runs._keys()
        for place in range(len(runs)):
            yield runs._value(place)


class _Systems(Mapping):
    """One case's runs: each system to ``{"retrieved": (docno, ...)}``."""

    __slots__ = ("columns", "start", "end")

    def __init__(self, columns, start, end):
        self.columns, self.start, self.end = columns, start, end

    def __len__(self):
        return self.end - self.start

    def __iter__(self):
        systems = self.columns.systems
        return iter([systems[code] for code in
                     self.columns.row_system[self.start:self.end].tolist()])

    def __getitem__(self, system):
        columns = self.columns
        for row in range(self.start, self.end):
            if columns.systems[int(columns.row_system[row])] == system:
                codes = columns.ranked[columns.offsets[row]:columns.offsets[row + 1]]
                return {"retrieved": tuple(columns.docnos.take(integers(codes)).to_pylist())}
        raise KeyError(system)


def columns_of(dataset):
    """The :class:`TrecColumns` a dataset's corpus, cases and runs all view, else ``None``."""
    corpus, cases, runs = dataset.corpus, dataset.cases, dataset.runs
    if type(corpus) is TrecCorpus and type(cases) is TrecCases and type(runs) is TrecRuns \
            and corpus.columns is cases.columns is runs.columns:
        return corpus.columns
    return None


def as_dicts(dataset):
    """``dataset`` with any corpus, cases or runs kept in columns made the dicts they stand
    for (a dataset whose parts no longer all view the same columns is saved as any other)."""
    changes = {}
    for name in ("corpus", "cases"):
        if isinstance(getattr(dataset, name), _Columns):
            changes[name] = dict(getattr(dataset, name))
    if isinstance(dataset.runs, _Columns):
        changes["runs"] = {case: dict(systems) for case, systems in dataset.runs.items()}
    return dataset._replace(**changes) if changes else dataset


# ---- the files -------------------------------------------------------------------------------

def _scalar(text):
    return strings([text])[0]


def _json_strings(values):
    """Each ID of the pyarrow string array ``values`` as a JSON string, as the standard
    library's encoder writes it with ``ensure_ascii=False`` (an ID has no control
    character: only the backslash and the quote are escaped)."""
    import pyarrow.compute as pc

    if _holds(values, b"\\") or _holds(values, b'"'):
        values = pc.replace_substring(pc.replace_substring(values, "\\", "\\\\"), '"', '\\"')
    return pc.binary_join_element_wise(_scalar('"'), values, _scalar('"'), _scalar(""))


def _holds(values, byte):
    """True when some value of the pyarrow string array ``values`` holds ``byte``."""
    if not len(values) or values.buffers()[2] is None:
        return False
    data = memoryview(values.buffers()[2])[_bounds(values, 0):_bounds(values, len(values))]
    return bytes(data).find(byte) >= 0 if len(data) < (1 << 16) else \
        any(bytes(data[start:start + (1 << 24)]).find(byte) >= 0
            for start in range(0, len(data), 1 << 24))


def _data(lines):
    """The bytes of the pyarrow string array ``lines``, one after the other (a view of its
    data buffer)."""
    if not len(lines):
        return b""
    return memoryview(lines.buffers()[2])[_bounds(lines, 0):_bounds(lines, len(lines))]


def _bounds(lines, place):
    """Where value ``place`` of the string array ``lines`` starts in its data buffer."""
    import pyarrow as pa

    kind = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    return int(np.frombuffer(lines.buffers()[1], dtype=kind, count=1,
                             offset=np.dtype(kind).itemsize * (lines.offset + place))[0])


def _corpus_file(columns):
    import pyarrow.compute as pc

    lines = pc.binary_join_element_wise(_scalar('{"id": '), _json_strings(columns.docnos),
                                        _scalar("}\n"), _scalar(""))
    return _data(lines)


def _cases_file(columns):
    import pyarrow as pa
    import pyarrow.compute as pc

    grades = pc.cast(integers(columns.judged_grade), pa.string())
    docs = _json_strings(columns.docnos.take(integers(columns.judged_doc)))
    entries = pc.binary_join_element_wise(docs, grades, _scalar(": "))
    bounds = np.searchsorted(columns.judged_case, np.arange(len(columns.cases) + 1))
    relevant = pc.binary_join(pa.ListArray.from_arrays(integers(bounds).cast(pa.int32()),
                                                       entries), _scalar(", "))
    names = _json_strings(strings(columns.cases))
    lines = pc.binary_join_element_wise(
        _scalar('{"id": '), names, _scalar(', "question": "", "relevant": {'), relevant,
        _scalar("}}\n"), _scalar(""))
    return _data(lines)


def trec_files(columns):
    """``{kind: [bytes]}``: the corpus, cases and runs files of the dataset folder of
    :class:`TrecColumns`, as a save of the same dataset writes them."""
    from ..pages import ordinary_pages

    with ordinary_pages():
        return _files(columns)


def _files(columns):
    from ..parquet import Runs, run_chunks

    case = strings(columns.cases).take(integers(columns.row_case))
    system = strings(columns.systems).take(integers(columns.row_system))
    runs = Runs(columns.docnos, case, system, columns.offsets.astype(np.int32),
                columns.ranked.astype(np.int32))
    return {"corpus": [_corpus_file(columns)], "cases": [_cases_file(columns)],
            "runs": run_chunks(runs)}
