"""Bytes handed to Arrow's readers, in memory Arrow owns.

A Python object given to pyarrow as a source (``pa.py_buffer(data)``, a ``BufferReader`` of
``bytes`` or of an ``mmap``) becomes an ``arrow::py::PyBuffer``, and releasing that takes the
GIL. Arrow's readers keep their source alive in the tasks of its thread pools: the Parquet
dataset scan behind ``pyarrow.parquet.read_table`` drops its last reference to the file
(``ParquetFileFragment`` -> ``FileSource`` -> ``PyBuffer``) on a pool thread, sometimes after
the call has returned. When that moment falls after the interpreter began to finalize (a
command that reads its runs last and then exits), CPython 3.11 ends the thread asking for the
GIL with ``pthread_exit``, whose forced unwind crosses Arrow's ``noexcept`` destructors:
``std::terminate``, "terminate called without an active exception", exit 134 (issue 40).

So every source handed to an Arrow reader here is a copy in Arrow's own memory: released on
any thread, at any moment, without Python. The copy is of the file as stored (compressed
Parquet, or the text of a run file), made once and freed with the reader's last reference.
"""

__all__ = ["arrow_copy"]


def arrow_copy(data):
    """A ``pyarrow.Buffer`` in Arrow's memory holding the bytes of ``data`` (bytes, an mmap
    or any contiguous buffer); no reference to ``data`` is kept.

    >>> buffer = arrow_copy(b"runs")
    >>> buffer.to_pybytes(), buffer.is_mutable
    (b'runs', True)
    """
    import pyarrow as pa

    with memoryview(data) as source, source.cast("B") as view:
        buffer = pa.allocate_buffer(view.nbytes)
        if view.nbytes:
            with memoryview(buffer) as whole, whole.cast("B") as target:
                target[:] = view
    return buffer
