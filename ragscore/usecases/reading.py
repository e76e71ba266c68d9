"""What every use case that scores runs reads first: a test set's counted runs, once.

``dataset`` is a folder's path, a loaded :class:`~ragscore.io.format.Dataset` or counted
runs already in hand; the options say how it is counted (``engine``, ``unit``, ``dedupe``,
``drafts``) and which rows a job looks at (``split``, ``system``). A split or a system that
the test set does not have is refused naming the ones it has.
"""
from ..core.rules import InvalidInputError, check_k, show
from ..engine import DEFAULT_ENGINE, Counted
from ..io.jsonl import where

__all__ = ["counted_runs", "cutoff", "is_path", "loaded", "no_runs", "only_split",
           "only_system", "paths"]


def is_path(value):
    """True for a file or folder's path (text or a path object)."""
    return isinstance(value, (str, bytes)) or hasattr(value, "__fspath__")


def paths(*values):
    """The values that are paths (an output may be none of them): a loaded dataset or
    ``None`` left out."""
    return tuple(value for value in values if is_path(value))


def no_runs(folder):
    """The error for a test set whose runs file holds no run: there is nothing to score."""
    return InvalidInputError(f"{where(folder)}: its runs file holds no runs; nothing to score "
                             "(add one line per case and system, see docs/dataset-format.md)")


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


def only_split(counted, split):
    """The rows of the questions of ``split`` (``None``: every row)."""
    if split is None:
        return counted
    from ..tables.summary import restrict, slice_members

    members = slice_members(counted, "split")
    if split not in members:
        raise InvalidInputError(f"--split must be one of the dataset's splits "
                                f"({', '.join(members)}); got {show(split)}")
    return restrict(counted, members[split])


def only_system(counted, system):
    """The rows of ``system`` only (``None``: every row), else a clear error naming the
    systems."""
    if system is None:
        return counted
    names = counted.systems
    if system not in names:
        raise InvalidInputError(f"--system must be one of the dataset's systems "
                                f"({', '.join(names)}); got {show(system)}")
    return counted.take(counted.positions(system))


def counted_runs(dataset, *, engine=DEFAULT_ENGINE, unit="chunk", dedupe=False,
                 drafts=False, split=None, system=None):
    """The counted runs of ``dataset`` (a folder's path, a Dataset or counted runs), read
    and checked once by ``engine``, restricted to ``split`` and ``system`` when given; a
    test set with no run is refused (nothing to score). A folder's counting shows a
    progress line when standard error is a terminal."""
    from ..engine import count_dataset, count_folder  # at call time: the engine seam

    if isinstance(dataset, Counted):
        counted = dataset
    elif is_path(dataset):
        from ..render.progress import Progress

        with Progress("reading and counting the runs") as shown:
            counted = count_folder(dataset, engine=engine, unit=unit, dedupe=dedupe,
                                   progress=shown, drafts=drafts)
    else:
        counted = count_dataset(dataset, engine=engine, unit=unit, dedupe=dedupe,
                                drafts=drafts)
    if not counted.keys:
        raise no_runs(dataset if not isinstance(dataset, Counted) else "the runs")
    return only_system(only_split(counted, split), system)
