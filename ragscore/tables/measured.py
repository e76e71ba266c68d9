"""Named measures from Python: ``measure_table(dataset, measures="P@10 nDCG@10 AP")``, the
API form of ``ragscore report --measures`` (ir_measures' spelling, see
:mod:`ragscore.core.measures`).

>>> from ragscore.io.course import load_course
>>> table = measure_table(load_course(), measures=["P@2", "RR", "AP@1"])
>>> list(table.columns), table.loc[("launch", "B"), "P@2"]
(['P@2', 'RR', 'AP@1'], 0.5)
>>> [(row["system"], row["measure"], row["method"]) for row in table.attrs["summary"]][:2]
[('A', 'P@2', 'macro'), ('A', 'RR', 'macro')]
"""
import pandas as pd

from ..core.measures import measures_of, score_measures
from ..engine import DEFAULT_ENGINE, count_dataset
from .scores import key_index


def measure_table(dataset, *, measures, k=2, na_as_zero=False, engine=DEFAULT_ENGINE):
    """One row per (case, system), one column per measure (labelled as named; n/a as
    ``None``), scored in one pass of the engine; ``table.attrs["summary"]`` holds the
    declared aggregates per system and measure (method, value, used, left out). ``k`` is
    the cutoff of metrics named without one (``support``); ``AP``, ``nDCG``, ``RR`` without
    ``@k`` are uncut."""
    counted = count_dataset(dataset, engine=engine)
    scored = score_measures(counted, measures_of(measures), default_k=k,
                            na_as_zero=na_as_zero)
    table = pd.DataFrame({label: pd.Series(values, dtype=object)
                          for label, values in scored.columns.items()})
    table.index = key_index(counted.keys)
    table.attrs["summary"] = scored.summary
    return table
