"""Writing a dataset folder: one writer, for every dataset however it was made.

Records are JSON Lines written by the standard library's encoder (``ensure_ascii=False``,
one object per line, a batch of lines at a time), into content-addressed files under one
atomic index (:mod:`ragscore.io.store`). A dataset is checked (:func:`~ragscore.io.check.
check_dataset`) before anything is written.
"""
import json

from ..core.rules import InvalidInputError

from .check import check_dataset
from .format import VERSION, dataset_index, dataset_records
from .store import LAYOUTS, write_dataset_folder

__all__ = ["dataset_chunks", "dataset_files", "save_dataset"]

_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_BATCH = 2000


def _chunks(records_):
    """JSON Lines as bytes, a batch of lines at a time (a large file never sits whole in
    memory)."""
    batch = []
    for record in records_:
        batch.append(_ENCODE(record))
        if len(batch) == _BATCH:
            yield ("\n".join(batch) + "\n").encode("utf-8")
            batch = []
    if batch:
        yield ("\n".join(batch) + "\n").encode("utf-8")


def dataset_chunks(dataset):
    """``{kind: iterable of bytes}``: the data files :func:`save_dataset` writes."""
    return {kind: _chunks(records_) for kind, records_ in dataset_records(dataset).items()}


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
            chunks["runs"] = codec.chunks(dataset)
        return chunks

    return write_dataset_folder(files, index, path, overwrite=overwrite)
