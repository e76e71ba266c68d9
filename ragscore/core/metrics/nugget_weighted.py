"""Weighted nugget score W: a vital nugget weighs 1, an okay one 0.5 (TREC RAG)."""
from ..nuggets import NOT_ASSIGNED, all_defined, all_waiting
from .base import RATE, Metric


def nugget_weighted(at, k):
    """W = (sum over vital nuggets of s + 0.5 x sum over okay nuggets of s) / (vital nuggets
    + 0.5 x okay nuggets), s = 1 for ``support``, 0.5 for ``partial_support``, 0 otherwise,
    at k.

    With only vital nuggets W is V; with only okay ones, A. n/a when the question has no
    nugget (``--na-as-zero`` counts 0.0) or a nugget is not assigned for this answer yet.

    Two vital nuggets (one supported, one not) and an okay one assigned ``partial_support``:
    W = (1 + 0 + 0.5 x 0.5) / (2 + 0.5 x 1) = 1.25 / 2.5 = 0.5.

    >>> from ragscore.core.counts import At, Counts
    >>> states = ((0, 1, 1, 1, 1),
    ...           (1, 1, 1, 0, 0),
    ...           (2, 0, 1, 0, 1))  # (position, vital, assigned, full, half)
    >>> answer = Counts((), 1, (), 1, 1, 1, nuggets=states)
    >>> nugget_weighted(At(answer, 1), 1)
    0.5
    """
    return (at.vital_support + 0.5 * at.vital_partial
            + 0.5 * (at.okay_support + 0.5 * at.okay_partial)) / (at.n_vital + 0.5 * at.n_okay)


METRIC = Metric(name="nugget_weighted", label="W", kind=RATE, stage="reference",
                formula=nugget_weighted, defined=all_defined,
                undefined="the question has no nugget", needs_labels=True,
                waiting=all_waiting, waiting_reason=NOT_ASSIGNED, zero_by="nuggetizer",
                order=220, group="nugget", shown_when="nuggets", na_by_labels=True)
