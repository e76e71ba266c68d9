"""What every use case reads first: a test set's counted runs (once), a cutoff checked
against its ID rules, a dataset loaded from a folder, and which inputs are paths.

``dataset`` is a folder's path, a loaded :class:`~ragscore.io.format.Dataset` or counted
runs already in hand; the options say how it is counted (``engine``, ``unit``, ``dedupe``,
``drafts``) and which rows a job looks at (``split``, ``system``). A split or a system that
the test set does not have is refused naming the ones it has.
"""
from ..core.rules import InvalidInputError, check_k, show
from ..engine import DEFAULT_ENGINE

__all__ = ["counted_runs", "cutoff", "is_path", "loaded", "paths"]


def is_path(value):
    """True for a file or folder's path (text or a path object)."""
    return isinstance(value, (str, bytes)) or hasattr(value, "__fspath__")


def paths(*values):
    """The values that are paths (an output may be none of them): a loaded dataset or
    ``None`` left out."""
    return tuple(value for value in values if is_path(value))


def cutoff(k, rules, *, option="k"):
    """``k`` (an int, or its text as typed) as an int within ``rules``, else a clear error
    naming ``option``."""
    try:
        return check_k(int(k), rules=rules)
    except (ValueError, TypeError, OverflowError, InvalidInputError):
        raise InvalidInputError(f"{option} must be a whole number from 1 to {rules.max_k}; "
                                f"got {show(k)}") from None


def loaded(dataset):
    """``dataset`` as a loaded :class:`~ragscore.io.format.Dataset` (a folder's path is read
    once, every rule checked)."""
    from ..io.format import Dataset

    if isinstance(dataset, Dataset):
        return dataset
    from ..folders import load_dataset

    return load_dataset(dataset)


def counted_runs(dataset, *, engine=DEFAULT_ENGINE, unit="chunk", dedupe=False,
                 drafts=False, split=None, system=None):
    """The counted runs of ``dataset`` (a folder's path, a Dataset or counted runs), read
    and checked once by ``engine``, restricted to ``split`` and ``system`` when given
    (:func:`~ragscore.engine.count_scope`); a folder's counting shows a progress line when
    standard error is a terminal."""
    from ..engine import count_scope  # at call time: the engine seam
    from ..render.progress import Progress

    with Progress("reading and counting the runs") as shown:
        return count_scope(dataset, engine=engine, unit=unit, dedupe=dedupe, drafts=drafts,
                           split=split, system=system, progress=shown)
