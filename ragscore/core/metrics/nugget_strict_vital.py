"""Strict vital nugget score: the share of vital nuggets the answer supports (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED, vital_defined, vital_waiting
from .base import RATE, Metric


def nugget_strict_vital(at, k):
    """V strict = (vital nuggets assigned ``support`` at k) / (vital nuggets), as
    nuggetizer's ``strict_vital_score``; ``partial_support`` counts 0.

    n/a when the question has no vital nugget (nuggetizer writes 0.0: ``--na-as-zero``) or
    a vital nugget is not assigned for this answer yet.

    Vital nuggets: one assigned ``support``, one ``partial_support``: 1 / 2.

    >>> from ragscore.core.counts import At, Counts
    >>> states = ((0, 1, 1, 1, 1),
    ...           (1, 1, 1, 0, 1),
    ...           (2, 0, 1, 0, 0))  # (position, vital, assigned, full, half)
    >>> answer = Counts((), 1, (), 1, 1, 1, nuggets=states)
    >>> nugget_strict_vital(At(answer, 1), 1)
    0.5
    """
    return at.vital_support / at.n_vital


METRIC = Metric(name="nugget_strict_vital", label="V strict", kind=RATE, stage="reference",
                formula=nugget_strict_vital, defined=vital_defined,
                undefined="the question has no vital nugget", needs_labels=True,
                waiting=vital_waiting, waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer",
                order=180, group="nugget", shown_when="nuggets", na_by_labels=True)
