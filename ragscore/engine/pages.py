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
"""
import contextlib
import os

__all__ = ["ordinary_pages"]

SWITCH = "NUMPY_MADVISE_HUGEPAGE"


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
    try:
        yield
    finally:
        if switch is not None:
            switch(previous)


def _numpy_switch():
    """numpy's setter of the advice (returning the previous setting), or ``None``."""
    try:
        from numpy._core import multiarray  # numpy 2
    except ImportError:  # numpy 1.26
        from numpy.core import multiarray
    return getattr(multiarray, "_set_madvise_hugepage", None)
