"""Nugget score over all nuggets: supported nuggets, a partial one counting half (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED, all_defined, all_waiting
from .base import RATE, Metric


def nugget_all(at, k):
    """A = (nuggets assigned ``support`` + 0.5 x nuggets assigned ``partial_support``, at k)
    / (nuggets, vital and okay), as nuggetizer's ``all_score``.

    n/a when the question has no nugget (nuggetizer writes 0.0: ``--na-as-zero``) or a
    nugget is not assigned for this answer yet.

    A vital nugget assigned ``support``, an okay one ``partial_support``, an okay one
    ``not_support``: (1 + 0.5 + 0) / 3.

    >>> from ragscore.core.counts import At, Counts
    >>> states = ((0, 1, 1, 1, 1),
    ...           (1, 0, 1, 0, 1),
    ...           (2, 0, 1, 0, 0))  # (position, vital, assigned, full, half)
    >>> answer = Counts((), 1, (), 1, 1, 1, nuggets=states)
    >>> nugget_all(At(answer, 1), 1)
    0.5
    """
    return (at.vital_support + at.okay_support + 0.5 * (at.vital_partial + at.okay_partial)) \
        / (at.n_vital + at.n_okay)


METRIC = Metric(name="nugget_all", label="A", kind=RATE, stage="reference",
                formula=nugget_all, defined=all_defined,
                undefined="the question has no nugget", needs_labels=True,
                waiting=all_waiting, waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer",
                order=210, group="nugget", shown_when="nuggets", na_by_labels=True)
