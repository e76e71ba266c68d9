"""Nugget score over all nuggets: supported nuggets, a partial one counting half (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED
from .base import RATE, Metric


def nugget_all(at, k):
    """A = (nuggets assigned ``support`` + 0.5 x nuggets assigned ``partial_support``, at k)
    / (nuggets, vital and okay), as nuggetizer's ``all_score``.

    n/a when the question has no nugget (nuggetizer writes 0.0: ``--na-as-zero``) or a
    nugget is not assigned for this answer yet.

    >>> from ragscore.core.counts import At, count
    >>> from ragscore.core.nuggets import case_nuggets
    >>> nuggets = case_nuggets(({"id": "free", "importance": "okay"},),
    ...                        {"switch": {"rollback"}, "smoke": {"checklist"}})
    >>> answer = count({"rollback", "checklist"}, {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                ("rollback",), (("switch", ("rollback",)),), nuggets=nuggets,
    ...                assigned={"free": "partial_support"})
    >>> nugget_all(At(answer, 1), 1)
    0.5
    """
    return (at.vital_support + at.okay_support + 0.5 * (at.vital_partial + at.okay_partial)) \
        / (at.n_vital + at.n_okay)


METRIC = Metric(name="nugget_all", label="A", kind=RATE, stage="reference",
                formula=nugget_all,
                defined=lambda at: (at.n_vital + at.n_okay > 0)
                & (at.vital_open + at.okay_open == 0),
                undefined="the question has no nugget", needs_labels=True,
                waiting=lambda at: at.vital_open + at.okay_open > 0,
                waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer")
