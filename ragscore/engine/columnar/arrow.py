"""Arrow arrays read as numpy arrays through their buffers.

pyarrow's own conversions (``to_numpy``, Python scalars given to compute functions,
``pyarrow.array`` of a list) import pandas on first use, which costs a report about a fifth
of a second; these read the buffers directly, without copying where the layout allows.
"""
import numpy as np

__all__ = ["empty", "fingerprints", "flags", "integers", "numbers", "present", "raw_numbers",
           "strings"]


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


def raw_numbers(array, dtype=np.int64):
    """The values of an arrow integer array as ``dtype``, whatever stands where it holds a
    null (see :func:`present` for where it does not).

    >>> import pyarrow as pa
    >>> raw_numbers(pa.array([3, None, 5], pa.int32()))[[0, 2]].tolist()
    [3, 5]
    """
    kind = _dtype(array.type)
    buffer = array.buffers()[1]
    if buffer is None or not len(array):
        return np.zeros(len(array), dtype=dtype)
    return np.frombuffer(buffer, dtype=kind, count=len(array),
                         offset=kind.itemsize * array.offset).astype(dtype, copy=False)


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


def _window_bytes(data, places, length=None):
    """The 8 bytes of ``data`` (a uint8 array of at least 8) from each of ``places``, as
    little-endian uint64 (a new array); where ``length`` (when given) is under 8, only that
    many of them (the rest zero)."""
    windows = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    if not len(places) or int(places.max()) <= len(data) - 8:
        found = windows[places]
    else:  # near the end of the data: read 8 bytes earlier, shifted
        at = np.minimum(places, len(data) - 8)
        found = windows[at] >> (np.uint64(8) * (places - at).astype(np.uint64))
    if length is not None:
        short = np.flatnonzero(length < 8)
        if len(short):
            keep = (np.uint64(1) << (np.uint64(8) * length[short].astype(np.uint64))) \
                - np.uint64(1)
            found[short] &= keep
    return found


def fingerprints(values):
    """A 64-bit number for each value of a pyarrow string array without nulls, from its
    length and four 8-byte windows (at its start, a third and two thirds of the way, and
    its end: all of a value of up to 32 bytes): equal values have equal numbers; two
    different values may share one (whoever relies on a difference compares those values
    themselves).

    >>> found = fingerprints(strings(["doc-1#chunk-2", "a", "doc-1#chunk-2", "doc-1#chunk-3"]))
    >>> [bool(found[0] == found[other]) for other in (2, 3, 1)]
    [True, False, False]
    """
    import pyarrow as pa

    count = len(values)
    if not count:
        return np.zeros(0, dtype=np.uint64)
    kind = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(values.buffers()[1], dtype=kind, count=count + 1,
                            offset=np.dtype(kind).itemsize * values.offset)
    raw = values.buffers()[2]
    data = np.frombuffer(raw, dtype=np.uint8) if raw is not None else np.zeros(0, np.uint8)
    if len(data) < 8:
        data = np.concatenate([data, np.zeros(8, dtype=np.uint8)])
    starts, length = offsets[:-1], np.diff(offsets)
    found = _window_bytes(data, starts, length)
    found *= np.uint64(0x9E3779B97F4A7C15)
    mixed = length.astype(np.uint64)
    mixed *= np.uint64(0x27D4EB2F165667C5)
    found ^= mixed
    long = length >= 8
    every = bool(long.all())
    if not every and not long.any():
        return found
    at = starts if every else starts[long]
    spare = (length if every else length[long]) - 8
    ends = offsets[1:] if every else offsets[1:][long]
    for part, factor in (((spare // 3), 0xC2B2AE3D27D4EB4F),
                         (((2 * spare) // 3), 0x165667B19E3779F9),
                         (None, 0x85EBCA77C2B2AE63)):
        if part is None:
            window = _window_bytes(data, ends - 8)
        else:
            part += at
            window = _window_bytes(data, part)
        del part
        window *= np.uint64(factor)
        if every:
            found ^= window
        else:
            found[long] ^= window
    return found
