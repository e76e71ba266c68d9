"""Vital nugget score: vital nuggets supported, a partial one counting half (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED
from .base import RATE, Metric


def nugget_vital(at, k):
    """V = (vital nuggets assigned ``support`` + 0.5 x vital nuggets assigned
    ``partial_support``, at k) / (vital nuggets), as nuggetizer's ``vital_score``.

    n/a when the question has no vital nugget (nuggetizer writes 0.0: ``--na-as-zero``) or
    a vital nugget is not assigned for this answer yet.

    >>> from ragscore.core.counts import At, count
    >>> from ragscore.core.nuggets import case_nuggets
    >>> nuggets = case_nuggets((), {"switch": {"rollback"}, "smoke": {"checklist"}})
    >>> answer = count({"rollback", "checklist"}, {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                ("rollback",), (("switch", ("rollback",)),), nuggets=nuggets,
    ...                assigned={"smoke": "partial_support"})
    >>> nugget_vital(At(answer, 1), 1)
    0.75
    """
    return (at.vital_support + 0.5 * at.vital_partial) / at.n_vital


METRIC = Metric(name="nugget_vital", label="V", kind=RATE, stage="reference",
                formula=nugget_vital,
                defined=lambda at: (at.n_vital > 0) & (at.vital_open == 0),
                undefined="the question has no vital nugget", needs_labels=True,
                waiting=lambda at: at.vital_open > 0, waiting_reason=NOT_ASSIGNED,
                zero_by="nuggetizer")
