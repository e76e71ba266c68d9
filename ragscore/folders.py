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

__all__ = ["load_dataset", "save_dataset", "update_dataset", "upgrade_folder",
           "validate_folder"]


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
    from .engine.columnar.trec_folder import as_dicts, columns_of

    columns = columns_of(dataset) if hasattr(dataset, "corpus") else None
    if columns is not None:  # an imported TREC dataset kept in columns: written from them
        from .engine.columnar.trec_folder import trec_files
        from .io.format import check_index, dataset_index
        from .io.store import write_dataset_folder

        index = dataset_index(dataset)
        check_index(index, "dataset")  # its name, description and notes, as any save checks
        return write_dataset_folder(lambda: trec_files(columns), index, path,
                                    overwrite=overwrite)
    from .io.write import save_dataset as write

    if hasattr(dataset, "corpus"):
        dataset = as_dicts(dataset)
    return write(dataset, path, overwrite=overwrite, codec=_codec())


def update_dataset(path, change):
    """Read the dataset folder at ``path``, apply ``change`` and save what it returns, all
    under the folder's lock: two commands that change one folder take turns and neither loses
    the other's work (see :func:`ragscore.io.write.update_dataset`). ``change(dataset)``
    returns the new dataset, or ``None`` to write nothing. Returns what ``change`` returned."""
    from .io.write import update_dataset as update

    return update(path, change, codec=_codec())


def upgrade_folder(path, *, max_bytes=MAX_FILE_BYTES):
    """Rewrite the dataset folder at ``path`` in format version 5, in place (read and checked
    as any reading checks it, then saved atomically: a reader sees the old version or the new
    one). What is saved is the folder as it is under its lock: a save by another command
    between the read and the write is read again, never lost; a broken folder is left as it
    is. Version 4 judgements of answer claims become version 5 support judgements
    (:func:`ragscore.io.judgements.upgrade_reviews`); one whose claim no run makes any more
    stays in its case's reviews, as version 5 can hold it, so nothing a reviewer did is lost.
    Returns ``(version before, version after)``."""
    from .io.store import folder_lock

    index = _index(path, max_bytes)
    dataset = load_dataset(path, max_bytes=max_bytes)
    with folder_lock(path):
        now = _index(path, max_bytes)
        if now != index:  # saved meanwhile: the version now under the lock is the one
            index, dataset = now, load_dataset(path, max_bytes=max_bytes)
        save_dataset(_reviews_upgraded(dataset), path, overwrite=True)
    return index["version"], 5


def _index(path, max_bytes):
    """The checked index of the folder at ``path`` as it is now."""
    from .io.read import close_all, open_version

    _, index, opened, _, _ = open_version(path, max_bytes, _codec())
    close_all(opened)
    return index


def _reviews_upgraded(dataset):
    """``dataset`` with its version 4 judgements (text reviews in its cases) made version 5
    judgements where some run of their case still makes the claim; the others kept."""
    from .io.answers import claims_by_case
    from .io.format import uses_version_4
    from .io.judgements import upgrade_reviews

    if not uses_version_4(dataset):
        return dataset
    claims_of = claims_by_case(dataset)
    upgraded, records, dropped = upgrade_reviews(dataset, claims_of)
    cases = upgraded.cases
    if dropped:
        cases = dict(cases)
        for name, case in dataset.cases.items():
            made = {text for text, _, _ in claims_of(name)}
            kept = tuple(review for review in case.get("reviews") or ()
                         if "text" in review and review["text"] not in made)
            if kept:
                cases[name] = dict(cases[name],
                                   reviews=tuple(cases[name].get("reviews", ())) + kept)
    return upgraded._replace(cases=cases, judgements=records + tuple(dataset.judgements))


def validate_folder(path, *, max_bytes=None):
    """Check every file of the dataset folder at ``path`` against the shipped JSON Schemas,
    record by record (a Parquet file's rows as the records they hold), then load it; see
    :func:`ragscore.io.check.validate_folder`."""
    from .io.check import validate_folder as validate

    return validate(path, max_bytes=max_bytes, codec=_codec())
