"""The ID rule on a whole column: every distinct value checked at once, by the rule object the
record path checks one ID with.

:class:`~ragscore.core.rules.IdRules` states each rule twice over one object: ``pattern``
for Python's ``re`` (a record at a time) and ``column_pattern`` with ``max_length`` for RE2
(pyarrow's ``match_substring_regex``), which ``tests/engine/columnar/test_idcheck.py`` holds
equal for every code point. A column is checked on its dictionary (its distinct values), so
each ID is read once however often it is repeated.
"""
import numpy as np

from .arrow import flags, numbers

__all__ = ["all_ids", "id_flags"]


def id_flags(values, rules):
    """For each value of the pyarrow string array ``values`` (no nulls): True when it is an
    ID under ``rules`` (a numpy bool array).

    >>> from ragscore.core.rules import OPEN
    >>> from ragscore.engine.columnar.arrow import strings
    >>> id_flags(strings(["d1", "", "a b", "a\\tb", "a" * 513]), OPEN).tolist()
    [True, False, True, False, False]
    """
    import pyarrow.compute as pc

    found = flags(pc.match_substring_regex(values, rules.column_pattern))
    found &= numbers(pc.utf8_length(values)) <= rules.max_length
    return found


def all_ids(values, rules):
    """True when every value of the pyarrow string array ``values`` (no nulls) is an ID under
    ``rules``: 1 to ``rules.max_length`` characters matching ``rules.column_pattern``.

    >>> from ragscore.core.rules import COURSE, OPEN
    >>> from ragscore.engine.columnar.arrow import strings
    >>> all_ids(strings(["d1", "FBIS3-1 x"]), OPEN), all_ids(strings(["d1", " x"]), OPEN)
    (True, False)
    >>> all_ids(strings(["launch", "Launch"]), COURSE), all_ids(strings(["a" * 33]), COURSE)
    (False, False)
    """
    import pyarrow.compute as pc

    if not len(values):
        return True
    if values.null_count:
        return False
    size = numbers(pc.binary_length(values))  # bytes: at least the characters, at most 4x
    if int(size.min()) < 1:
        return False
    if int(size.max()) > rules.max_length and \
            int(numbers(pc.utf8_length(values)).max()) > rules.max_length:
        return False
    if rules.plain_bytes is not None and _plain(values, *rules.plain_bytes):
        return True  # every byte one of the rule's plain bytes: IDs whatever their order
    return bool(np.all(flags(pc.match_substring_regex(values, rules.column_pattern))))


def _plain(values, low, high):
    """True when every byte of the values of the pyarrow string array ``values`` lies from
    ``low`` to ``high`` (read from its data buffer)."""
    import pyarrow as pa

    raw = values.buffers()[2]
    if raw is None:
        return False
    kind = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(values.buffers()[1], dtype=kind, count=len(values) + 1,
                            offset=np.dtype(kind).itemsize * values.offset)
    data = np.frombuffer(raw, dtype=np.uint8)[int(offsets[0]):int(offsets[-1])]
    return bool(len(data)) and int(data.min()) >= low and int(data.max()) <= high
