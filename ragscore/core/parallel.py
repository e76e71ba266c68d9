"""Two processes for one large batch: the second half counted by a forked child.

The child sends its result back over a pipe as JSON (plain data, never pickle), with
counts laid out as columns, so a row costs a few C-speed operations on each side rather
than a Python loop. Used by :func:`~ragscore.core.scoring.count_runs` and the dataset
reader when asked for ``jobs=2`` on a large batch.

Errors keep their order: an error in the first half wins (it comes first in the input);
otherwise the child's error is raised here, as the same class and message.
"""
import json
import os
import sys
from functools import partial

from .counts import Counts
from .rules import InvalidInputError
from .trials import Trials

#: Fields holding a tuple of ints in every :class:`Counts`.
_INT_TUPLES = frozenset({"relevant_ranks", "claim_cutoffs", "exposed", "stale_cutoffs"})
_new_counts = partial(tuple.__new__, Counts)


def can_fork():
    """True where a child process can be forked safely: ``os.fork`` exists and this
    process runs no other Python thread (a notebook kernel does, so it counts alone)."""
    import threading  # here, not at import: ``import ragscore`` stays light

    return hasattr(os, "fork") and threading.active_count() == 1


def default_jobs():
    """The processes a large batch uses unless told: 2 on Linux with at least two CPUs
    this process may run on (where forking is cheap and well behaved), else 1."""
    if not sys.platform.startswith("linux") or not hasattr(os, "sched_getaffinity"):
        return 1
    return 2 if len(os.sched_getaffinity(0)) >= 2 else 1


def counts_columns(counted):
    """A list of :class:`Counts` (or :class:`Trials`) as JSON-ready columns.

    >>> counts_columns([Counts((2,), 1, (), 0, 0, 3)])["columns"][:3]
    [[(2,)], [1], [()]]
    """
    sizes, flat = [], []
    for counts in counted:
        if type(counts) is Trials:
            sizes.append(len(counts))
            flat.extend(counts)
        else:
            sizes.append(0)
            flat.append(counts)
    columns = [list(column) for column in zip(*flat)] or [[] for _ in Counts._fields]
    return {"sizes": sizes if any(sizes) else None, "rows": len(sizes), "columns": columns}


def counts_from_columns(payload):
    """The list :func:`counts_columns` was given, from its JSON-decoded columns.

    >>> payload = json.loads(json.dumps(counts_columns([Counts((2,), 1, (), 0, 0, 3)])))
    >>> counts_from_columns(payload)[0][:6]
    ((2,), 1, (), 0, 0, 3)
    """
    columns = payload["columns"]
    for position, name in enumerate(Counts._fields):
        column = columns[position]
        if name in _INT_TUPLES:
            columns[position] = list(map(tuple, column))
        elif name == "gains" and column.count(None) != len(column):
            columns[position] = [None if gains is None else tuple(map(tuple, gains))
                                 for gains in column]
        elif name in ("ideal", "delivered_span") and column.count(None) != len(column):
            columns[position] = [None if value is None else tuple(value) for value in column]
    flat = list(map(_new_counts, zip(*columns)))
    sizes = payload["sizes"]
    if sizes is None:
        return flat
    counted, start = [], 0
    for size in sizes:
        if size:
            counted.append(Trials(flat[start:start + size]))
            start += size
        else:
            counted.append(flat[start])
            start += 1
    return counted


_NAN = float("nan")


def packed_values(columns, *, kinds):
    """``{name: values}`` (each value a number, a bool or ``None``) packed for the pipe: per
    column the hex text of its values as doubles, ``None`` as NaN. ``kinds`` maps each
    name to its metric's kind (rate, yes/no, count), which :func:`unpacked_values` needs
    back. Writing and reading 300,000 values this way takes about a third of the time
    their JSON numbers take.

    >>> packed = packed_values({"rr": [0.5, None]}, kinds={"rr": "rate"})
    >>> unpacked_values(json.loads(json.dumps(packed)))
    {'rr': [0.5, None]}
    """
    from array import array  # here, not at import: ``import ragscore`` stays light

    return {name: [kinds[name], array("d", [_NAN if value is None else value
                                            for value in values]).tobytes().hex()]
            for name, values in columns.items()}


def unpacked_values(packed):
    """The columns :func:`packed_values` was given: a rate as a ``float``, a yes/no as a
    ``bool``, a count as an ``int``, NaN as ``None``."""
    from array import array

    columns = {}
    for name, (kind, text) in packed.items():
        values = array("d", bytes.fromhex(text)).tolist()
        if kind == "yes/no":
            columns[name] = [None if value != value else value == 1.0 for value in values]
        elif kind == "count":
            columns[name] = [None if value != value else int(value) for value in values]
        else:
            columns[name] = [None if value != value else value for value in values]
    return columns


def in_two(first, second, *, encode, decode, error=InvalidInputError):
    """``(first(), decode(json of encode(second())))``, ``second`` run in a forked child.

    An exception in ``first`` kills the child and propagates. An ``InvalidInputError``
    in the child is raised here as ``error`` with its message; anything else the child
    hits is a ``RuntimeError`` naming it.
    """
    import signal

    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (runs in the child process)
        os.close(reader)
        code = 0
        try:
            try:
                payload = {"result": encode(second())}
            except InvalidInputError as problem:
                payload = {"error": str(problem)}
            except BaseException as problem:  # reported by the parent, never swallowed
                payload, code = {"crash": f"{type(problem).__name__}: {problem}"}, 1
            with os.fdopen(writer, "wb") as pipe:
                pipe.write(json.dumps(payload).encode("utf-8"))
        finally:
            os._exit(code)
    os.close(writer)
    try:
        mine = first()
    except BaseException:
        os.kill(child, signal.SIGKILL)
        os.close(reader)
        os.waitpid(child, 0)
        raise
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    try:
        payload = json.loads(data)
    except ValueError:
        raise RuntimeError("the second process ended without sending its result") from None
    if "error" in payload:
        raise error(payload["error"])
    if "crash" in payload:
        raise RuntimeError(f"the second process failed: {payload['crash']}")
    return mine, decode(payload["result"])
