"""Writing a dataset folder: one writer, for every dataset however it was made.

Records are JSON Lines written by the standard library's encoder (``ensure_ascii=False``,
one object per line, a batch of lines at a time), into content-addressed files under one
atomic index (:mod:`ragscore.io.store`). A dataset is checked (:func:`~ragscore.io.check.
check_dataset`) before anything is written.
"""
import json

from ..core.rules import InvalidInputError, show
from .check import check_dataset
from .format import VERSION, dataset_index, dataset_records
from .store import LAYOUTS, folder_lock, write_dataset_folder

__all__ = ["dataset_chunks", "dataset_files", "save_dataset", "update_dataset"]

_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_BATCH = 2000


def _chunks(records_, kind="data"):
    """JSON Lines as bytes, a batch of lines at a time (a large file never sits whole in
    memory); a text that cannot be UTF-8 (a lone surrogate) is refused naming its record."""
    batch, held = [], []
    for record in records_:
        batch.append(_ENCODE(record))
        held.append(record)
        if len(batch) == _BATCH:
            yield _encoded(batch, held, kind)
            batch, held = [], []
    if batch:
        yield _encoded(batch, held, kind)


def _encoded(lines, records_, kind):
    try:
        return ("\n".join(lines) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        for line, record in zip(lines, records_):
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as error:
                name = ", ".join(f"{key} {show(record[key])}" for key in ("id", "case", "system")
                                 if key in record)
                raise InvalidInputError(
                    f"{kind} record {name or show(record)}: holds a lone surrogate "
                    f"({show(line[error.start:error.end])}), which is not Unicode text and "
                    "cannot be written as UTF-8") from None
        raise  # pragma: no cover (one of the lines fails when the batch does)


def dataset_chunks(dataset):
    """``{kind: iterable of bytes}``: the data files :func:`save_dataset` writes."""
    return {kind: _chunks(records_, kind) for kind, records_ in dataset_records(dataset).items()}


def dataset_files(dataset):
    """``{kind: bytes}``: the data files :func:`save_dataset` writes for ``dataset``."""
    return {kind: b"".join(chunks) for kind, chunks in dataset_chunks(dataset).items()}


def save_dataset(dataset, path, *, overwrite=False, codec=None, version=VERSION):
    """Write ``dataset`` as a dataset folder at ``path`` in format ``version`` (5 unless
    told); return the path.

    The dataset is validated before anything is written (:func:`check_dataset`). The write
    is atomic (see :mod:`ragscore.io.store`): a reader never sees half a dataset, a failed
    or killed save leaves the old version intact, and ``overwrite=True`` replaces only a
    ragscore dataset. Nothing in the folder says it was checked: every reading checks it
    again. Version 5 keeps the runs in Parquet, written by ``codec`` (the engine's Parquet
    runs codec, which :func:`ragscore.folders.save_dataset` passes); an older ``version``
    (2 to 4, where it can say everything the dataset holds) writes every file in JSON Lines.
    """
    check_dataset(dataset)
    index = dataset_index(dataset, version)
    parquet = LAYOUTS[version]["runs"] != ".jsonl"
    if parquet and codec is None:
        raise InvalidInputError(f"format version {version} keeps its runs in Parquet: save "
                                "with ragscore.save_dataset (ragscore.folders), which writes "
                                "Parquet with pyarrow")

    def files():
        chunks = dataset_chunks(dataset)
        if parquet:
            try:
                chunks["runs"] = codec.chunks(dataset)
            except UnicodeEncodeError:  # a lone surrogate: refused naming its record
                for _ in _chunks(dataset_records(dataset)["runs"], "runs"):
                    pass
                raise
        return chunks

    return write_dataset_folder(files, index, path, overwrite=overwrite)


def update_dataset(path, change, *, codec=None):
    """Read the dataset folder at ``path``, apply ``change`` and save what it returns, all
    under the folder's lock (:func:`~ragscore.io.store.folder_lock`): a command that reads,
    changes and writes a folder this way never loses another's work, and sees it.

    ``change(dataset)`` returns the new dataset, or ``None`` to write nothing; what it
    raises propagates and nothing is written. Returns what ``change`` returned. ``codec``:
    the Parquet runs codec of :func:`save_dataset` (:func:`ragscore.folders.update_dataset`
    passes it).
    """
    from .read import load_dataset

    with folder_lock(path):
        changed = change(load_dataset(path, codec=codec))
        if changed is not None:
            save_dataset(changed, path, overwrite=True, codec=codec)
    return changed
