"""The nugget kernels of the columnar engine: each row's nuggets and their assignments
(:func:`ragscore.core.nuggets.nugget_states`), and the nugget primitives at k
(:data:`ragscore.core.nuggets.NUGGET_PRIMITIVES`), for every row at once.

A row whose nuggets are its case's expected claims, all vital and assigned by the strict
rule alone, is read from the claim counts (``n_expected``, the supported claims); a row whose
nuggets are explicit (its case lists nuggets, reviewers assigned some, or a claim states
one in part) gets one entry per nugget: ``(nugget_row, nugget_position, nugget_vital,
nugget_assigned, nugget_full, nugget_half)``, ordered by row, then by the nugget's place in
its case, as the reference lists them.
"""
import numpy as np

from .batch import member as _member
from .batch import sorted_set

__all__ = ["nugget_primitive", "nugget_states", "partial_claims"]


def partial_claims(batch, width, claim_row, citation_claim, row, docs, citations, element_row,
                   element_rank, first_ranks):
    """``(rows, labels, cutoffs)`` of the claims stating their expected claim in part (span
    labels): from the k at which every citation is visible (``first_ranks``: the kernel that
    finds each citation's first rank), none cited on the losing side of a conflict (as
    :func:`ragscore.core.counts.count` reads them)."""
    chosen = (batch.claim_partial >= 0) & (citations > 0)
    if not chosen.any():
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    seen = first_ranks(batch, width, row, docs, element_row, element_rank)
    loser = _member(batch.row_case[row] * width + docs, sorted_set(
        batch.loser_case * width + batch.loser_doc)) >= 0
    claims = len(batch.claim_label)
    unseen = np.bincount(citation_claim[(seen == 0) | loser], minlength=claims) > 0
    cutoff = np.zeros(claims, dtype=np.int64)
    np.maximum.at(cutoff, citation_claim, seen)
    chosen &= ~unseen
    return claim_row[chosen], batch.claim_partial[chosen], cutoff[chosen]


def nugget_states(batch, stated, partial):
    """``(rows, positions, vital, assigned, full, half)`` of each nugget of each row whose
    nuggets are explicit (:func:`ragscore.core.nuggets.nugget_states`), in row order, each
    row's in its case's order:
    a reviewer's assignment (code 2 support from k = 1, 1 partial, 0 not), else for an
    expected claim on an assessed answer the strict rule's cutoff (``stated``) and the
    partial one (``partial``), else not assigned."""
    rows = np.flatnonzero(batch.explicit)
    if not len(rows):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty, empty, empty
    cases = len(batch.n_relevant)
    sizes = np.bincount(batch.nugget_case, minlength=cases)
    order = np.argsort(batch.nugget_case, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    per_row = sizes[batch.row_case[rows]]
    row = np.repeat(rows, per_row)
    within = np.arange(len(row)) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    nugget = order[starts[batch.row_case[row]] + within]
    count = max(len(batch.nugget_case), 1)
    code = np.full(len(row), -1, dtype=np.int64)
    if len(batch.assigned_row):
        keys = batch.assigned_row * count + batch.assigned_nugget
        order_keys = np.argsort(keys, kind="stable")
        found = _member(row * count + nugget, keys[order_keys])
        code = np.where(found >= 0, batch.assigned_code[order_keys][np.maximum(found, 0)], -1)
    label = batch.nugget_label[nugget]
    derived = (code < 0) & (label >= 0) & batch.assessed[row]
    labels = max(len(batch.label_case), 1)
    full = _cutoff_of(row * labels + label, stated[0] * labels + stated[1], stated[2])
    part = _cutoff_of(row * labels + label, partial[0] * labels + partial[1], partial[2])
    half = np.where((full > 0) & ((part == 0) | (full < part)), full, part)
    full = np.where(code >= 0, (code == 2).astype(np.int64), np.where(derived, full, 0))
    half = np.where(code >= 0, (code >= 1).astype(np.int64), np.where(derived, half, 0))
    assigned = ((code >= 0) | derived).astype(np.int64)
    vital = batch.nugget_vital[nugget].astype(np.int64)
    return row, within, vital, assigned, full, half


def _cutoff_of(keys, found_keys, cutoffs):
    """For each of ``keys``: the cutoff beside it among ``found_keys`` (unique), else 0."""
    if not len(found_keys):
        return np.zeros(len(keys), dtype=np.int64)
    order = np.argsort(found_keys, kind="stable")
    found = _member(keys, found_keys[order])
    return np.where(found >= 0, cutoffs[order][np.maximum(found, 0)], 0)


def nugget_primitive(columns, k, vital, state):
    """Per row: nuggets of one importance in ``state`` at k, as
    :class:`ragscore.core.nuggets.NuggetPrimitives` counts them (a row whose nuggets are not
    explicit: its expected claims, vital, assigned by the strict rule)."""
    c = columns
    if vital:
        implicit = {"all": c.n_expected,
                    "support": np.where(c.assessed, np.bincount(
                        c.supported_row[c.supported_cutoff <= k], minlength=c.rows), 0),
                    "partial": np.zeros(c.rows, dtype=np.int64),
                    "open": np.where(c.assessed, 0, c.n_expected)}[state]
    else:
        implicit = np.zeros(c.rows, dtype=np.int64)
    chosen = c.nugget_vital == vital
    supported = (c.nugget_full > 0) & (c.nugget_full <= k)
    if state == "support":
        chosen &= supported
    elif state == "partial":
        chosen &= ~supported & (c.nugget_half > 0) & (c.nugget_half <= k)
    elif state == "open":
        chosen &= c.nugget_assigned == 0
    explicit = np.bincount(c.nugget_row[chosen], minlength=c.rows)
    return np.where(c.explicit, explicit, implicit)
