"""Strict nugget score over all nuggets: the share of nuggets the answer supports (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED
from .base import RATE, Metric


def nugget_strict_all(at, k):
    """A strict = (nuggets assigned ``support`` at k) / (nuggets, vital and okay), as
    nuggetizer's ``strict_all_score``; ``partial_support`` counts 0. With every nugget vital
    and assigned by the strict rule alone it equals coverage.

    n/a when the question has no nugget (nuggetizer writes 0.0: ``--na-as-zero``) or a
    nugget is not assigned for this answer yet.

    >>> from ragscore.core.counts import At, count
    >>> from ragscore.core.nuggets import case_nuggets
    >>> nuggets = case_nuggets(({"id": "free", "importance": "okay"},),
    ...                        {"switch": {"rollback"}, "smoke": {"checklist"}})
    >>> answer = count({"rollback", "checklist"}, {"switch": {"rollback"}, "smoke": {"checklist"}},
    ...                ("rollback",), (("switch", ("rollback",)),), nuggets=nuggets,
    ...                assigned={"free": "support"})
    >>> nugget_strict_all(At(answer, 1), 1)
    0.6666666666666666
    """
    return (at.vital_support + at.okay_support) / (at.n_vital + at.n_okay)


METRIC = Metric(name="nugget_strict_all", label="A strict", kind=RATE, stage="reference",
                formula=nugget_strict_all,
                defined=lambda at: (at.n_vital + at.n_okay > 0)
                & (at.vital_open + at.okay_open == 0),
                undefined="the question has no nugget", needs_labels=True,
                waiting=lambda at: at.vital_open + at.okay_open > 0,
                waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer")
