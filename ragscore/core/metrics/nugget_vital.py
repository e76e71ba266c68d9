"""Vital nugget score: vital nuggets supported, a partial one counting half (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED, vital_defined, vital_waiting
from .base import RATE, Metric


def nugget_vital(at, k):
    """V = (vital nuggets assigned ``support`` + 0.5 x vital nuggets assigned
    ``partial_support``, at k) / (vital nuggets), as nuggetizer's ``vital_score``.

    n/a when the question has no vital nugget (nuggetizer writes 0.0: ``--na-as-zero``) or
    a vital nugget is not assigned for this answer yet.

    Vital nuggets: one assigned ``support``, one ``partial_support``: (1 + 0.5) / 2.

    >>> from ragscore.core.counts import At, Counts
    >>> states = ((0, 1, 1, 1, 1),
    ...           (1, 1, 1, 0, 1),
    ...           (2, 0, 1, 0, 0))  # (position, vital, assigned, full, half)
    >>> answer = Counts((), 1, (), 1, 1, 1, nuggets=states)
    >>> nugget_vital(At(answer, 1), 1)
    0.75
    """
    return (at.vital_support + 0.5 * at.vital_partial) / at.n_vital


METRIC = Metric(name="nugget_vital", label="V", kind=RATE, stage="reference",
                formula=nugget_vital, defined=vital_defined,
                undefined="the question has no vital nugget", needs_labels=True,
                waiting=vital_waiting, waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer",
                order=200, group="nugget", shown_when="nuggets", na_by_labels=True)
