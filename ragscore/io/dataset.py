"""Test sets on disk, in one place to import from: the format (:mod:`ragscore.io.format`),
the reader (:mod:`ragscore.io.read`), the writer (:mod:`ragscore.io.write`) and the checks
(:mod:`ragscore.io.check`). See ``docs/dataset-format.md``.

>>> from ragscore.io.course import COURSE_PATH
>>> load_dataset(COURSE_PATH).name
'course'
"""
from .check import check_dataset, validate_folder
from .format import INDEX, Dataset, dataset_index, dataset_records
from .jsonl import MAX_FILE_BYTES, DatasetFileError
from .read import load_dataset
from .write import dataset_files, save_dataset

__all__ = ["Dataset", "DatasetFileError", "INDEX", "MAX_FILE_BYTES", "check_dataset",
           "dataset_files", "dataset_index", "dataset_records", "load_dataset", "save_dataset",
           "validate_folder"]
