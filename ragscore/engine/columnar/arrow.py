"""Arrow arrays read as numpy arrays through their buffers.

pyarrow's own conversions (``to_numpy``, Python scalars given to compute functions,
``pyarrow.array`` of a list) import pandas on first use, which costs a report about a fifth
of a second; these read the buffers directly, without copying where the layout allows.
"""
import numpy as np

__all__ = ["empty", "flags", "integers", "numbers", "present", "strings"]


def _bits(buffer, offset, length):
    """A packed bitmap (least significant bit first) as a numpy bool array."""
    if not length:
        return np.zeros(0, dtype=bool)
    first, last = offset // 8, (offset + length + 7) // 8
    raw = np.frombuffer(buffer, dtype=np.uint8, count=last - first, offset=first)
    unpacked = np.unpackbits(raw, bitorder="little")
    start = offset - 8 * first
    return unpacked[start:start + length].astype(bool)


#: numpy's names of arrow's floating types (``str`` of an arrow integer type is numpy's name).
_FLOATS = {"halffloat": "float16", "float": "float32", "double": "float64"}


def _dtype(kind):
    """The numpy dtype of an arrow integer or floating type (without pyarrow's pandas shim,
    which imports pandas).

    >>> import pyarrow as pa
    >>> _dtype(pa.int32()), _dtype(pa.uint8()), _dtype(pa.float64())
    (dtype('int32'), dtype('uint8'), dtype('float64'))
    """
    name = str(kind)
    return np.dtype(_FLOATS.get(name, name))


def numbers(array, dtype=np.int64):
    """The values of an arrow integer or floating array without nulls, as ``dtype``.

    >>> import pyarrow.compute as pc
    >>> numbers(pc.utf8_length(strings(["ab", ""])))
    array([2, 0])
    """
    if array.null_count:
        raise ValueError("an array with nulls has no plain numbers")
    kind = _dtype(array.type)
    buffer = array.buffers()[1]
    if buffer is None or not len(array):
        return np.zeros(len(array), dtype=dtype)
    values = np.frombuffer(buffer, dtype=kind, count=len(array),
                           offset=kind.itemsize * array.offset)
    return values.astype(dtype, copy=False)


def flags(array):
    """The values of an arrow boolean array without nulls, as a numpy bool array."""
    if array.null_count:
        raise ValueError("an array with nulls has no plain flags")
    return _bits(array.buffers()[1], array.offset, len(array))


def present(array):
    """Where an arrow array holds a value (not null), as a numpy bool array."""
    if not array.null_count:
        return np.ones(len(array), dtype=bool)
    validity = array.buffers()[0]
    if validity is None:  # an array of the null type: nothing present
        return np.zeros(len(array), dtype=bool)
    return _bits(validity, array.offset, len(array))


def strings(values):
    """A pyarrow string array of a list of ``str`` (built from its buffers)."""
    import pyarrow as pa

    encoded = [value.encode("utf-8") for value in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum([len(item) for item in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def integers(values):
    """A pyarrow int64 array of a numpy integer array (built from its buffer)."""
    import pyarrow as pa

    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def empty(kind):
    """An empty pyarrow array of type ``kind``."""
    import pyarrow as pa

    return pa.nulls(0, kind)
