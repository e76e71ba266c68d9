"""ragscore: score a RAG system's recorded runs against a grounded, human-reviewed test set.

The scoring core (:func:`ids`, :func:`validate`, :func:`evaluate`) needs only the standard
library; table-producing functions load pandas on first use.

>>> import ragscore
>>> course = ragscore.load_course()
>>> ragscore.evaluate(course.corpus, course.cases["owner"], course.runs["owner"]["A"])["rr"]
0.5
"""
from importlib import import_module

from .claims import abstention_correct, count_supported, coverage_rate, is_supported, \
    support_rate
from .batch import iter_scores, score_runs
from .course import COURSE_PATH, load_course
from .dataset import Dataset, DatasetFileError, load_dataset, save_dataset
from .display import format_value, text_table
from .retrieval import precision_at_k, recall_at_k, reciprocal_rank_at_k
from .scoring import METRICS, evaluate, metric_labels, score_validated
from .validation import InvalidInputError, Validated, check_k, ids, validate, \
    validate_case, validate_corpus, validate_run

# Names whose modules import pandas or matplotlib at the top: loaded on first access, so
# `import ragscore` stays light.
_LAZY = {
    "aggregates": "ragscore.reports",
    "compare": "ragscore.reports",
    "question_table": "ragscore.reports",
    "render": "ragscore.reports",
    "sweep": "ragscore.reports",
    "plot_deltas": "ragscore.plots",
    "plot_heatmap": "ragscore.plots",
    "plot_sweep": "ragscore.plots",
}

__all__ = [
    "COURSE_PATH", "Dataset", "DatasetFileError", "InvalidInputError", "METRICS", "Validated",
    "abstention_correct", "check_k", "count_supported", "coverage_rate", "evaluate",
    "format_value", "ids", "is_supported", "iter_scores", "load_course", "load_dataset", "metric_labels",
    "precision_at_k", "recall_at_k", "reciprocal_rank_at_k", "save_dataset", "score_runs",
    "score_validated",
    "support_rate", "text_table", "validate", "validate_case", "validate_corpus",
    "validate_run", *_LAZY,
]
__version__ = "0.1.0"


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ragscore' has no attribute {name!r}")
