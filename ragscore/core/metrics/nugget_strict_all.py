"""Strict nugget score over all nuggets: the share of nuggets the answer supports (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED, all_defined, all_waiting
from .base import RATE, Metric


def nugget_strict_all(at, k):
    """A strict = (nuggets assigned ``support`` at k) / (nuggets, vital and okay), as
    nuggetizer's ``strict_all_score``; ``partial_support`` counts 0. With every nugget vital
    and assigned by the strict rule alone it equals coverage.

    n/a when the question has no nugget (nuggetizer writes 0.0: ``--na-as-zero``) or a
    nugget is not assigned for this answer yet.

    A vital nugget assigned ``support``, an okay one ``partial_support``, an okay one
    ``not_support``: 1 / 3.

    >>> from ragscore.core.counts import At, Counts
    >>> states = ((0, 1, 1, 1, 1),
    ...           (1, 0, 1, 0, 1),
    ...           (2, 0, 1, 0, 0))  # (position, vital, assigned, full, half)
    >>> answer = Counts((), 1, (), 1, 1, 1, nuggets=states)
    >>> nugget_strict_all(At(answer, 1), 1)
    0.3333333333333333
    """
    return (at.vital_support + at.okay_support) / (at.n_vital + at.n_okay)


METRIC = Metric(name="nugget_strict_all", label="A strict", kind=RATE, stage="reference",
                formula=nugget_strict_all, defined=all_defined,
                undefined="the question has no nugget", needs_labels=True,
                waiting=all_waiting, waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer",
                order=190, group="nugget", shown_when="nuggets", na_by_labels=True)
