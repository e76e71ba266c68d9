"""Per-question rows of a run log in partitions: a Dask DataFrame, one row per question.

Each partition's rows are the per-question table of one process
(:func:`~ragscore.tables.scores.scores_frame`) for that partition's runs, its ``(case,
system)`` index made the ``case`` index and a ``system`` column (Dask keeps one index
level); n/a stays ``<NA>`` in the nullable columns. The partitions are scored by
:func:`ragscore.engine.partitions.map_counted`, which refuses a question split across two.
"""
from functools import partial

from ..core.metrics import select
from ..engine import DEFAULT_ENGINE
from ..engine.partitions import check_inputs, map_counted
from ..engine.reference import ReferenceCounted
from .scores import scores_frame

__all__ = ["question_rows"]


#: The dtype of the case index and the system column: Arrow strings, as Dask keeps text.
NAMES = "string[pyarrow]"


def _rows(counted, *, k, metrics, na_as_zero):
    """One partition's rows: its per-question table, ``system`` a column, both names typed
    as Dask types text (so that the rows write to Parquet as they are)."""
    rows = scores_frame(counted, k=k, metrics=metrics,
                        na_as_zero=na_as_zero).reset_index(level="system")
    rows["system"] = rows["system"].astype(NAMES)
    rows.index = rows.index.astype(NAMES)
    return rows


def question_rows(test_set, frame, *, k, metrics, engine=DEFAULT_ENGINE, na_as_zero=False):
    """The per-question rows of the run log ``frame`` (a Dask DataFrame of run records)
    scored against ``test_set``: a Dask DataFrame indexed by ``case``, with a ``system``
    column (both Arrow strings) and one nullable column per metric (``Float64``, ``boolean``, ``Int64``; n/a is
    ``<NA>``), lazily computed; the rows of one partition are what
    :func:`~ragscore.tables.scores.question_table` gives for its runs.
    """
    check_inputs(test_set, frame, engine=engine, k=k)
    rows = partial(_rows, k=k, metrics=[metric.name for metric in select(metrics)],
                   na_as_zero=na_as_zero)
    meta = rows(ReferenceCounted([], [], rules=test_set.rules))  # no rows, the same columns
    return map_counted(test_set, frame, rows, meta=meta, engine=engine)
