"""Dataset folders in every format version: load, save, upgrade, validate.

The layers split a folder's work in two. :mod:`ragscore.io` reads and writes files with the
standard library: the index, the JSON Lines of the test set (corpus, cases), the folder
protocol (content-hashed names, one lock, one atomic index replace) and every record rule.
The runs of format version 5 are a Parquet file, which only the engine encodes and decodes
(:mod:`ragscore.engine.parquet`, pyarrow, imported when a folder's runs are Parquet). This
module, above both, hands io that codec: so ``ragscore.load_dataset`` and ``ragscore.save_dataset`` read
every version and write version 5, and io itself never imports an array library.

>>> from ragscore.io.course import COURSE_PATH
>>> load_dataset(COURSE_PATH).systems
('A', 'B')
"""
from .io.jsonl import MAX_FILE_BYTES

__all__ = ["load_dataset", "save_dataset", "upgrade_folder", "validate_folder"]


def _codec():
    from .engine.parquet import CODEC

    return CODEC


def load_dataset(path, *, max_bytes=MAX_FILE_BYTES):
    """Read and validate the dataset folder at ``path`` (any format version); return a
    :class:`~ragscore.io.format.Dataset`. Every rule is checked on every read; the first
    problem raises :class:`~ragscore.io.jsonl.DatasetFileError` (a ``ValueError``) naming
    the file, the line (or a Parquet file's row, case and system) and the field."""
    from .io.read import load_dataset as read

    return read(path, max_bytes=max_bytes, codec=_codec())


def save_dataset(dataset, path, *, overwrite=False):
    """Write ``dataset`` as a dataset folder at ``path`` in format version 5 (the test set in
    JSON Lines, the runs in one Parquet file); return the path. Checked before anything is
    written, written atomically (see :func:`ragscore.io.write.save_dataset`)."""
    from .io.write import save_dataset as write

    return write(dataset, path, overwrite=overwrite, codec=_codec())


def upgrade_folder(path, *, max_bytes=MAX_FILE_BYTES):
    """Rewrite the dataset folder at ``path`` in format version 5, in place (read and checked
    as any reading checks it, then saved atomically: a reader sees the old version or the
    new one). Returns ``(version before, version after)``."""
    from .io.read import open_version, close_all

    _, index, opened, _, _ = open_version(path, max_bytes, _codec())
    close_all(opened)
    before = index["version"]
    save_dataset(load_dataset(path, max_bytes=max_bytes), path, overwrite=True)
    return before, 5


def validate_folder(path, *, max_bytes=None):
    """Check every file of the dataset folder at ``path`` against the shipped JSON Schemas,
    record by record (a Parquet file's rows as the records they hold), then load it; see
    :func:`ragscore.io.check.validate_folder`."""
    from .io.check import validate_folder as validate

    return validate(path, max_bytes=max_bytes, codec=_codec())
