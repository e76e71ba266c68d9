"""ragscore: score a RAG system's recorded runs against a grounded, human-reviewed test set.

The contract (:func:`ids`, :func:`validate`, :func:`evaluate`) needs only the standard
library; :func:`score_runs` and the submodules :mod:`ragscore.reports` and
:mod:`ragscore.plots` load pandas and matplotlib on first use.

>>> import ragscore
>>> course = ragscore.load_course()
>>> ragscore.evaluate(course.corpus, course.cases["owner"], course.runs["owner"]["A"])["rr"]
0.5
"""
from importlib import import_module

# Every public name is loaded on first access, so `import ragscore` runs no module of the
# package: the command line (ragscore.__main__) starts under its Ctrl-C handling at once.
_LAZY = {"CONTRACT": "ragscore.core.metrics", "REGISTRY": "ragscore.core.metrics",
         "Metric": "ragscore.core.metrics", "InvalidInputError": "ragscore.core.rules",
         "evaluate": "ragscore.core.scoring", "ids": "ragscore.core.validation",
         "validate": "ragscore.core.validation", "load_course": "ragscore.io.course",
         "Dataset": "ragscore.io.format", "DatasetFileError": "ragscore.io.jsonl",
         "load_dataset": "ragscore.folders", "save_dataset": "ragscore.folders",
         "score_runs": "ragscore.tables.scores", "gate": "ragscore.usecases.gate",
         "record": "ragscore.recording"}
_SUBMODULES = ("reports", "plots", "tables", "render", "workbook", "cli", "engine", "io", "core",
               "usecases")

#: The public names: one for the contract's six metrics (CONTRACT), one for every metric
#: (REGISTRY), one way to score one run (evaluate) and one to score many (score_runs), and
#: the release gate as a call for a test suite (gate), and a recorder of a live system (record).
#: Every refusal is an InvalidInputError (a ValueError); ragscore.DatasetFileError, its
#: subclass for files (naming the file and line), stays importable from here.
__all__ = ["CONTRACT", "Dataset", "InvalidInputError", "Metric", "REGISTRY", "evaluate", "gate",
           "ids", "load_course", "load_dataset", "record", "save_dataset", "score_runs",
           "validate"]
__version__ = "0.1.0"


def __getattr__(name):
    if name in _LAZY:
        value = globals()[name] = getattr(import_module(_LAZY[name]), name)
        return value
    if name in _SUBMODULES:
        return import_module(f"ragscore.{name}")
    raise AttributeError(f"module 'ragscore' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))
