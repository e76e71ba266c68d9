"""What reaches Arrow's readers is Arrow's own memory, never a view of a Python object
(issue 40): a reader's thread pool may drop its source after the call, even while the
interpreter finalizes, and releasing a Python object there needs the GIL (the abort
:mod:`ragscore.engine.native` describes).

Each test hands a reader Python memory that refuses to be closed or resized while anything
views it (an ``mmap``, a ``bytearray``), keeps every source the reader was given alive, and
then closes or resizes that memory: a reader still viewing it raises ``BufferError``."""
import json
import mmap

import pyarrow.parquet as pq
import pytest
from pyarrow import csv

import ragscore
from ragscore.engine import parquet
from ragscore.engine.columnar import trec
from ragscore.engine.native import arrow_copy
from ragscore.io.jsonl import MAX_FILE_BYTES


@pytest.fixture
def handed(monkeypatch):
    """Every source given to pyarrow's Parquet and CSV readers, kept alive."""
    sources = []

    def keeping(function):
        def reader(source, *args, **kwargs):
            sources.append(source)
            return function(source, *args, **kwargs)
        return reader

    monkeypatch.setattr(pq, "read_table", keeping(pq.read_table))
    monkeypatch.setattr(pq, "ParquetFile", keeping(pq.ParquetFile))
    monkeypatch.setattr(csv, "read_csv", keeping(csv.read_csv))
    return sources


def test_a_copy_holds_the_bytes_and_no_view_of_them():
    data = bytearray(b"qid docno")
    copied = arrow_copy(data)
    data += b"!"  # resizable: nothing views it
    assert copied.to_pybytes() == b"qid docno" and copied.size == 9
    assert arrow_copy(b"").size == 0
    assert arrow_copy(memoryview(b"abcd")[1:3]).to_pybytes() == b"bc"


@pytest.fixture
def runs_file(tmp_path):
    folder = ragscore.save_dataset(ragscore.load_course(), tmp_path / "course")
    index = json.loads((folder / "dataset.json").read_text())
    return folder, folder / index["files"]["runs"], list(ragscore.load_course().corpus)


def test_a_runs_file_is_read_from_a_copy_not_from_its_memory_map(runs_file, handed):
    _, path, documents = runs_file
    with open(path, "rb") as handle:
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        table = parquet.table_of(path, mapped, documents)
        mapped.close()  # BufferError if a source handed to pyarrow viewed the map
    assert handed and table.num_rows == 8  # the course: 4 questions, 2 systems


def test_the_answer_check_reads_a_copy_and_closes_its_map(runs_file, handed, monkeypatch):
    folder, _, _ = runs_file
    maps, original = [], mmap.mmap

    def mapping(*args, **kwargs):
        maps.append(original(*args, **kwargs))
        return maps[-1]

    monkeypatch.setattr(parquet.mmap, "mmap", mapping)
    assert parquet.has_answer_only(folder, max_bytes=MAX_FILE_BYTES) is False
    assert handed and len(maps) == 1
    assert maps[0].closed  # closed as soon as it was copied


def test_a_trec_file_is_split_from_a_copy(handed):
    data = bytearray(b"q1 0 d1 1\nq1 0 d2 0\n")
    table = trec.table_of(data, " ", ["qid", "iter", "docno", "rel"], ["qid", "docno", "rel"])
    data += b"q2 0 d3 1\n"  # BufferError if the CSV reader's source viewed it
    assert handed and table.column("docno").to_pylist() == ["d1", "d2"]
