"""Strict vital nugget score: the share of vital nuggets the answer supports (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED
from .base import RATE, Metric


def nugget_strict_vital(at, k):
    """V strict = (vital nuggets assigned ``support`` at k) / (vital nuggets), as
    nuggetizer's ``strict_vital_score``; ``partial_support`` counts 0.

    n/a when the question has no vital nugget (nuggetizer writes 0.0: ``--na-as-zero``) or
    a vital nugget is not assigned for this answer yet.

    >>> from ragscore.core.counts import At, count
    >>> from ragscore.core.nuggets import case_nuggets
    >>> nuggets = case_nuggets(({"id": "free", "importance": "okay"},),
    ...                        {"switch": {"rollback"}, "smoke": {"checklist"}})
    >>> answer = count({"rollback", "checklist"}, {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                ("rollback",), (("switch", ("rollback",)),), nuggets=nuggets,
    ...                assigned={"free": "support"})
    >>> nugget_strict_vital(At(answer, 1), 1)
    0.5
    """
    return at.vital_support / at.n_vital


METRIC = Metric(name="nugget_strict_vital", label="V strict", kind=RATE, stage="reference",
                formula=nugget_strict_vital,
                defined=lambda at: (at.n_vital > 0) & (at.vital_open == 0),
                undefined="the question has no vital nugget", needs_labels=True,
                waiting=lambda at: at.vital_open > 0, waiting_reason=NOT_ASSIGNED,
                zero_by="nuggetizer")
