"""Test sets on disk, in one place to import from: the format (:mod:`ragscore.io.format`),
the records a save writes (:mod:`ragscore.io.write`) and the checks of a dataset
(:mod:`ragscore.io.check`). See ``docs/dataset-format.md``. Folders are loaded and saved in
every format version by :mod:`ragscore.folders` (``ragscore.load_dataset``,
``ragscore.save_dataset``), which gives io the engine's Parquet runs codec.

>>> check_dataset(Dataset(corpus={"a": "Text."}, cases={}, runs={}))
"""
from .check import check_dataset
from .format import INDEX, Dataset, dataset_index, dataset_records
from .jsonl import MAX_FILE_BYTES, DatasetFileError
from .write import dataset_files

__all__ = ["Dataset", "DatasetFileError", "INDEX", "MAX_FILE_BYTES", "check_dataset",
           "dataset_files", "dataset_index", "dataset_records"]
