"""How a test set travels to Dask's workers: once, as one block of bytes.

A test set of a million questions is millions of small Python objects (a dict per case,
tuples of IDs). Hashing them, or pickling them once per partition, is what kept a client
busy for minutes before any task ran; pickling them once is still seconds. So
:func:`shipped` wraps the test set in a :class:`Packed`, which serialises its fields with
:mod:`marshal` (the standard library's serialiser of plain values: dicts, lists, tuples,
sets, strings, numbers; a few times faster than pickle on them) the first time Dask sends
it, and keeps those bytes: a worker handing it on to another worker sends the same bytes,
and each worker rebuilds the test set once, when a task first reads it. The bytes exist
only in memory, between the client and its own workers; a test set holding anything
:mod:`marshal` does not take is left to Dask's own serialisation.

With a distributed client the test set is scattered to every worker (``broadcast=True``,
``hash=False``: nothing is hashed); without one, it is a delayed object under a fixed
name, shared by the threads of the local scheduler without being copied.

>>> from ragscore.io.course import load_course
>>> course = load_course()
>>> import copy
>>> copy.deepcopy(Packed(course)).dataset() == course  # made again from its bytes
True
"""
import marshal
import threading
from uuid import uuid4

from ..io.format import Dataset

__all__ = ["Packed", "shipped"]


class Packed:
    """A :class:`~ragscore.io.format.Dataset` that crosses processes as the :mod:`marshal`
    bytes of its fields, made once; :meth:`dataset` gives it back (rebuilt at most once
    per process that receives it)."""

    def __init__(self, dataset, *, payload=None, name=None):
        self._dataset, self._payload = dataset, payload
        self.name = name or f"ragscore-test-set-{uuid4().hex}"
        self._lock = threading.Lock()

    def __reduce__(self):
        if self._payload is None:
            try:
                self._payload = marshal.dumps(tuple(self._dataset))
            except ValueError:  # something marshal does not take: Dask's pickle sends it
                return (Packed, (self._dataset,), {"name": self.name})
        return (_unpickled, (self._payload, self.name))

    def __setstate__(self, state):
        self.name = state["name"]

    def __sizeof__(self):  # what Dask counts in a worker's memory
        return object.__sizeof__(self) + len(self._payload or b"")

    def dataset(self):
        """The test set (rebuilt from the bytes by the first task that asks)."""
        if self._dataset is None:
            with self._lock:
                if self._dataset is None:
                    self._dataset = _loaded(self._payload)
        return self._dataset


def _unpickled(payload, name):
    return Packed(None, payload=payload, name=name)


def _loaded(payload):
    """The :class:`~ragscore.io.format.Dataset` of :mod:`marshal` bytes."""
    return Dataset(*marshal.loads(payload))


def shipped(test_set):
    """``test_set`` (a :class:`~ragscore.io.format.Dataset`) as one object of a Dask graph,
    a :class:`Packed` sent to each worker once (see the module docstring): a future of a
    running distributed client, or a delayed object. Its runs stay behind: the run log
    brings its own."""
    import dask

    packed = Packed(test_set._replace(runs={}))
    try:
        from dask.distributed import default_client

        client = default_client()
    except (ImportError, ValueError):  # no distributed, or no client running
        return dask.delayed(packed, name=packed.name, traverse=False)
    return client.scatter([packed], broadcast=True, hash=False)[0]
