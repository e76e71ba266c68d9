"""Ordinary memory pages while a batch is counted.

On Linux numpy advises the kernel to back every array of 4 MB or more with transparent huge
pages (``madvise(MADV_HUGEPAGE)``). Where the kernel compacts memory to find a huge page
when one is first touched (``/sys/kernel/mm/transparent_hugepage/defrag`` set to
``madvise``, the common default), each new large array waits for that compaction. The
columnar engine's arrays are many, large and short-lived, so while it counts it asks for
ordinary pages, and gives numpy its setting back afterwards.

Measured on the project's 2-core virtual machines (100,000 questions x 2 systems, 100
retrieved, ``benchmarks/bench_end_to_end.py``): counting a folder took 6.3 s with huge
pages and 4.6 s without. numpy's own switch, the environment variable
``NUMPY_MADVISE_HUGEPAGE``, wins when it is set: a user who asks for huge pages gets them.

pyarrow's default allocator (mimalloc) commits each arena it reserves at once, which on
these machines costs the kernel's time for memory the batch never touches: ``ragscore
eval`` on 1.75 million run lines (``benchmarks/bench_shapes.py``, msmarco at 1x, one CPU)
took 3.1 to 4.4 s of system time with it and 0.5 to 0.7 s with jemalloc or the system
allocator, whose peak memory was also lower (about 450 MiB against 600). So within the block
pyarrow allocates from jemalloc (the system allocator where pyarrow is built without it),
and its default comes back afterwards; ``ARROW_DEFAULT_MEMORY_POOL``, pyarrow's own switch,
wins when it is set.
"""
import contextlib
import os

__all__ = ["ordinary_pages"]

SWITCH = "NUMPY_MADVISE_HUGEPAGE"
ARROW_SWITCH = "ARROW_DEFAULT_MEMORY_POOL"


@contextlib.contextmanager
def ordinary_pages():
    """Within the block numpy does not ask for huge pages (unless ``NUMPY_MADVISE_HUGEPAGE``
    says otherwise); numpy's previous setting is restored on leaving.

    >>> import numpy as np
    >>> with ordinary_pages():
    ...     int(np.zeros(1 << 20).sum())
    0
    """
    switch = None if SWITCH in os.environ else _numpy_switch()
    previous = switch(False) if switch is not None else None
    pool = None if ARROW_SWITCH in os.environ else _arrow_pool()
    try:
        yield
    finally:
        if switch is not None:
            switch(previous)
        if pool is not None:
            pool()


def _numpy_switch():
    """numpy's setter of the advice (returning the previous setting), or ``None``."""
    try:
        from numpy._core import multiarray  # numpy 2
    except ImportError:  # numpy 1.26
        from numpy.core import multiarray
    return getattr(multiarray, "_set_madvise_hugepage", None)


def _arrow_pool():
    """Make jemalloc (else the system allocator) pyarrow's pool; return what puts the
    previous pool back."""
    import pyarrow as pa

    previous = pa.default_memory_pool()
    try:
        chosen = pa.jemalloc_memory_pool()
    except NotImplementedError:  # a pyarrow built without jemalloc
        chosen = pa.system_memory_pool()
    pa.set_memory_pool(chosen)
    return lambda: pa.set_memory_pool(previous)
