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

from .core.metrics import CONTRACT as METRICS
from .core.metrics import REGISTRY, Metric
from .core.rules import InvalidInputError
from .core.scoring import evaluate, iter_scores
from .core.validation import ids, validate
from .io.course import load_course
from .io.dataset import Dataset, DatasetFileError, load_dataset, save_dataset

# Loaded on first access, so `import ragscore` stays light.
_LAZY = {"score_runs": "ragscore.tables.scores"}
_SUBMODULES = ("reports", "plots", "tables", "render", "workbook", "cli")

__all__ = ["Dataset", "DatasetFileError", "InvalidInputError", "METRICS", "Metric", "REGISTRY",
           "evaluate", "ids", "iter_scores", "load_course", "load_dataset", "save_dataset",
           "score_runs", "validate"]
__version__ = "0.1.0"


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    if name in _SUBMODULES:
        return import_module(f"ragscore.{name}")
    raise AttributeError(f"module 'ragscore' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))
