"""The count primitives as array kernels: the columnar engine's counterpart of
:class:`ragscore.core.counts.Counts` and :class:`ragscore.core.counts.At`.

:func:`count_columns` turns a :class:`~ragscore.engine.columnar.batch.Batch` into
:class:`CountColumns`, what every run amounts to independent of k (the ranks of relevant
IDs, each claim's cutoff, ...), each field a flat array beside the row it belongs to.
:class:`ArrayAt` gives the primitives at a cutoff k (``hits``, ``first_rank``, ``dcg``,
``supported``, ...) as one value per row, under the names :class:`~ragscore.core.counts.At`
gives them for one question, so a metric's formula reads the same in both engines.

Sums are taken in rank order, one addition at a time (``numpy.bincount`` adds in input
order), and each discount ``log2(rank + 1)`` comes from :func:`math.log2`, as the reference
computes it: the columnar engine's values are the reference's, bit for bit.
"""
from collections import namedtuple
from functools import partial
from math import log2

import numpy as np

from ...core.citations import CITATION_PRIMITIVES
from ...core.nuggets import NUGGET_PRIMITIVES
from .batch import CITATION_COLUMNS, sorted_set
from .batch import member as _member
from .graded_kernels import exp_gains, graded_primitives
from .layout import COLUMNS, PASSED, PLAIN, columns_of
from .nugget_kernels import nugget_primitive, nugget_states, partial_claims

__all__ = ["ArrayAt", "CountColumns", "count_columns"]

#: The columns of the count ``nuggets``: each nugget's row, then what it holds.
NUGGET_COLUMNS = columns_of("nuggets")


class CountColumns(namedtuple("CountColumns", COLUMNS)):
    """Per row (a run; each trial a row): what :class:`~ragscore.core.counts.Counts` holds,
    as arrays, in the columns each count declares (:mod:`~ragscore.engine.columnar.layout`).
    Lists are flat, each item beside its row (``relevant_row[i]`` is the row of
    ``relevant_rank[i]``), in row order and, within a row, in rank order."""

    __slots__ = ()


def _among(groups, values, pair_groups, pair_values, count, width, *, rows=None):
    """For each ``(groups[i], values[i])``: True when it is one of the pairs
    ``(pair_groups, pair_values)`` (``count`` groups, values below ``width``).

    A question is labelled with few relevant IDs, so each group's values are laid out as a
    row of a small table and compared column by column; groups with many values are
    looked up in the sorted pairs instead. ``rows``: ``(row_groups, lengths)`` when
    ``groups`` is each of ``row_groups`` repeated ``lengths`` times (a run's items share its
    question): a table entry is then repeated per row rather than gathered per item."""
    sizes = np.bincount(pair_groups, minlength=count) if len(pair_groups) else np.zeros(count,
                                                                                     np.int64)
    most = int(sizes.max()) if len(sizes) else 0
    if most > 16:
        return _member(groups * width + values, sorted_set(pair_groups * width + pair_values)) >= 0
    narrow = np.int32 if width < 2 ** 31 else np.int64  # fewer bytes to move per item
    order = np.argsort(pair_groups, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    place = np.arange(len(order)) - starts[pair_groups[order]]
    table = np.full((max(most, 1), count), -1, dtype=narrow)
    table[place, pair_groups[order]] = pair_values[order]
    values = values.astype(narrow, copy=False)
    found = np.zeros(len(values), dtype=bool)
    for column in table[:most]:
        expected = column[groups] if rows is None else np.repeat(column[rows[0]], rows[1])
        found |= expected == values
    return found


def _gather(values, found, missing=0):
    """``values[found]``, with ``missing`` where ``found`` is -1."""
    result = np.full(len(found), missing, dtype=values.dtype if len(values) else np.int64)
    hit = found >= 0
    result[hit] = values[found[hit]]
    return result


def _rows_of(offsets):
    """The row of each item of a flat list with ``offsets``."""
    return np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))


def count_columns(batch):
    """The :class:`CountColumns` of a :class:`~ragscore.engine.columnar.batch.Batch`: the
    kernels that count what :func:`ragscore.core.counts.count` counts, for every row at once."""
    width = max(len(batch.ids), 1)
    rows, cases = batch.rows, batch.row_case
    n_retrieved = np.diff(batch.retrieved_offsets)
    element_row = _rows_of(batch.retrieved_offsets)
    element_rank = np.arange(len(batch.retrieved_doc)) - batch.retrieved_offsets[element_row] + 1
    element_case = cases[element_row]

    is_relevant = _among(element_case, batch.retrieved_doc, batch.relevant_case,
                         batch.relevant_doc, len(batch.n_relevant), width,
                         rows=(cases, n_retrieved))
    relevant_row, relevant_rank = element_row[is_relevant], element_rank[is_relevant]

    # gains: graded cases, every ID graded above 0 (grade as gain); binary, 1 per relevant
    if batch.graded.any():
        positive_keys = batch.positive_case * width + batch.positive_doc
        order = np.argsort(positive_keys, kind="stable")
        positive_keys, positive_grades = positive_keys[order], batch.positive_grade[order]
        graded_row = batch.graded[element_case]
        at = _member(element_case * width + batch.retrieved_doc, positive_keys)
        is_gain = np.where(graded_row, at >= 0, is_relevant)
        gain_row, gain_rank = element_row[is_gain], element_rank[is_gain]
        gain_grade = np.where(graded_row, _gather(positive_grades, at, 1), 1)[is_gain]
    else:  # binary labels: a gain of 1 at each relevant rank
        gain_row, gain_rank = relevant_row, relevant_rank
        gain_grade = np.ones(len(relevant_row), dtype=np.int64)

    # the ideal ranking of graded cases: every grade above 0, largest first
    ideal_order = np.lexsort((-batch.positive_grade, batch.positive_case))

    if batch.complete.all():  # every passage judged: nothing to look up
        judged_row = judged_rank = np.zeros(0, dtype=np.int64)
    else:
        is_judged = _among(element_case, batch.retrieved_doc, batch.judged_case,
                           batch.judged_doc, len(batch.n_relevant), width,
                           rows=(cases, n_retrieved))
        judged_row, judged_rank = element_row[is_judged], element_rank[is_judged]

    supported, stale, stated, partial = _claims(batch, width, relevant_row, relevant_rank,
                                                batch.retrieved_doc[is_relevant], element_row,
                                                element_rank)
    nuggets = nugget_states(batch, stated, partial)
    exposed_row, exposed_cutoff = _exposed(batch, width, element_row, element_rank)
    low, high = _delivered_span(batch, width, element_row, element_rank, n_retrieved)
    n_claims = np.diff(batch.claim_offsets)
    answerability = batch.answerability[cases]  # stated where the labels alone do not say it
    implied = ((batch.n_relevant > 0) | (batch.n_expected > 0))[cases].astype(np.int64)
    return CountColumns(
        rows=rows, row_case=cases, n_relevant=batch.n_relevant[cases], n_retrieved=n_retrieved,
        assessed=batch.assessed, n_claims=np.where(batch.assessed, n_claims, 0),
        labelled=batch.labelled[cases], n_expected=batch.n_expected[cases],
        relevant_row=relevant_row, relevant_rank=relevant_rank,
        gain_row=gain_row, gain_rank=gain_rank, gain_grade=gain_grade,
        graded=batch.graded[cases], graded_case=batch.graded,
        ideal_case=batch.positive_case[ideal_order],
        ideal_grade=batch.positive_grade[ideal_order],
        supported_row=supported[0], supported_cutoff=supported[1],
        stale_row=stale[0], stale_cutoff=stale[1],
        exposed_row=exposed_row, exposed_cutoff=exposed_cutoff,
        context_recorded=batch.recorded, context_low=low, context_high=high,
        pooled=~batch.complete[cases], n_judged=batch.n_judged[cases],
        judged_row=judged_row, judged_rank=judged_rank,
        answerability=answerability, stated=answerability != implied,
        explicit=batch.explicit, **dict(zip(NUGGET_COLUMNS, nuggets)), cited=batch.cited,
        **{name: getattr(batch, name) for name in (*PASSED, *CITATION_COLUMNS.values())})


def _claims(batch, width, relevant_row, relevant_rank, relevant_doc, element_row,
            element_rank):
    """``((rows, cutoffs) of supported claims, (rows, cutoffs) of stale ones, (rows, labels,
    cutoffs) of supported claims naming an expected claim, (rows, labels, cutoffs) of
    claims stating one only in part)``: the supported-claim rule of
    :func:`ragscore.core.counts.claim_cutoff` for every claim.

    A claim is supported from the largest visible rank of its citations when it has a
    citation and every cited ID is labelled for it (losers left out) and visible: within
    the ranking among the relevant IDs (at its rank), or, where the delivered context was
    recorded, a relevant ID delivered (at rank 1). A claim a reviewer vouched for is
    labelled by its own citations (losers left out), visible at their first rank in the
    ranking (or 1 when delivered). A supported claim whose citations are all superseded
    chunks is stale instead. A claim stating its expected claim in part counts from the k
    at which every citation is visible (its first rank, or 1 when delivered), none on the
    losing side of a conflict."""
    claims = len(batch.claim_label)
    claim_row = _rows_of(batch.claim_offsets)
    citation_claim = _rows_of(batch.citation_offsets)
    citations = np.diff(batch.citation_offsets)
    label = batch.claim_label[citation_claim]
    docs = batch.citation_doc
    labelled_keys = sorted_set(batch.labelled_label * width + batch.labelled_doc)
    is_labelled = (label >= 0) & (_member(label * width + docs, labelled_keys) >= 0)
    row = claim_row[citation_claim]
    # visible ranks: relevant IDs by their rank in the ranking ...
    visible_keys = relevant_row * width + relevant_doc
    order = np.argsort(visible_keys, kind="stable")
    found = _member(row * width + docs, visible_keys[order])
    rank = _gather(relevant_rank[order], found)
    recorded = batch.recorded[row]
    if recorded.any():  # ... or, where the delivered context was recorded, relevant and
        delivered_row = _rows_of(batch.delivered_offsets)  # delivered IDs at rank 1
        delivered = _member(row * width + docs, sorted_set(
            delivered_row * width + batch.delivered_doc)) >= 0
        relevant = _member(batch.row_case[row] * width + docs, sorted_set(
            batch.relevant_case * width + batch.relevant_doc)) >= 0
        rank = np.where(recorded, np.where(delivered & relevant, 1, 0), rank)
    if batch.claim_vouched.any():
        vouched = batch.claim_vouched[citation_claim] & (label < 0)  # not an expected claim
        is_labelled |= vouched & ~(_member(batch.row_case[row] * width + docs, sorted_set(
            batch.loser_case * width + batch.loser_doc)) >= 0)
        rank = np.where(vouched, _first_ranks(batch, width, row, docs, element_row,
                                              element_rank), rank)
    good = is_labelled & (rank > 0)
    bad = np.bincount(citation_claim[~good], minlength=claims) > 0
    cutoff = np.zeros(claims, dtype=np.int64)
    np.maximum.at(cutoff, citation_claim, rank)
    supported = (citations > 0) & ~bad
    all_superseded = np.bincount(citation_claim[~batch.superseded_doc[docs]],
                                 minlength=claims) == 0
    is_stale = supported & all_superseded
    is_supported = supported & ~all_superseded
    named = is_supported & (batch.claim_label >= 0)
    return ((claim_row[is_supported], cutoff[is_supported]),
            (claim_row[is_stale], cutoff[is_stale]),
            (claim_row[named], batch.claim_label[named], cutoff[named]),
            partial_claims(batch, width, claim_row, citation_claim, row, docs, citations,
                           element_row, element_rank, _first_ranks))


def _first_ranks(batch, width, row, docs, element_row, element_rank):
    """For each ``(row, doc)``: the first rank of ``doc`` in the row's ranking (0: not
    there), or where the delivered context was recorded 1 when delivered, else 0."""
    keys = element_row * width + batch.retrieved_doc
    order = np.lexsort((element_rank, keys))  # each key's first rank first
    keys, ranks = keys[order], element_rank[order]
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    found = _gather(ranks[first], _member(row * width + docs, keys[first]))
    recorded = batch.recorded[row]
    if recorded.any():
        delivered_row = _rows_of(batch.delivered_offsets)
        delivered = _member(row * width + docs, sorted_set(
            delivered_row * width + batch.delivered_doc)) >= 0
        found = np.where(recorded, delivered.astype(np.int64), found)
    return found


def _exposed(batch, width, element_row, element_rank):
    """``(rows, cutoffs)``: for each restricted chunk a row exposes to its caller, the
    smallest k from which it is exposed (cited or delivered: 1; else its rank)."""
    if not len(batch.restricted_doc):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    restricted_keys = sorted_set(batch.restricted_case * width + batch.restricted_doc)
    claim_row = _rows_of(batch.claim_offsets)
    citation_row = claim_row[_rows_of(batch.citation_offsets)]
    delivered_row = _rows_of(batch.delivered_offsets)
    shown = ~batch.recorded[element_row]  # the ranking counts only when nothing was delivered
    row = np.concatenate([citation_row, delivered_row, element_row[shown]])
    doc = np.concatenate([batch.citation_doc, batch.delivered_doc, batch.retrieved_doc[shown]])
    cutoff = np.concatenate([np.ones(len(citation_row) + len(delivered_row), dtype=np.int64),
                             element_rank[shown]])
    keep = _member(batch.row_case[row] * width + doc, restricted_keys) >= 0
    row, doc, cutoff = row[keep], doc[keep], cutoff[keep]
    order = np.lexsort((cutoff, doc, row))
    row, doc, cutoff = row[order], doc[order], cutoff[order]
    first = np.ones(len(row), dtype=bool)
    first[1:] = (row[1:] != row[:-1]) | (doc[1:] != doc[:-1])
    row, cutoff = row[first], cutoff[first]
    order = np.lexsort((cutoff, row))
    return row[order], cutoff[order]


def _delivered_span(batch, width, element_row, element_rank, n_retrieved):
    """``(low, high)`` per row, as :func:`ragscore.core.counts.delivered_span` gives it
    (``0, 0`` where no delivered context was recorded)."""
    low = np.zeros(batch.rows, dtype=np.int64)
    high = np.zeros(batch.rows, dtype=np.int64)
    if not batch.recorded.any():
        return low, high
    delivered_row = _rows_of(batch.delivered_offsets)
    sizes = np.diff(batch.delivered_offsets)
    keys = element_row * width + batch.retrieved_doc
    order = np.argsort(keys, kind="stable")
    found = _member(delivered_row * width + batch.delivered_doc, keys[order])
    missing = np.bincount(delivered_row[found < 0], minlength=batch.rows) > 0
    rank = _gather(element_rank[order], found)
    largest = np.zeros(batch.rows, dtype=np.int64)
    np.maximum.at(largest, delivered_row, rank)
    recorded = batch.recorded
    empty = recorded & (sizes == 0)
    prefix = recorded & (sizes > 0) & ~missing & (largest == sizes)
    low[empty & (n_retrieved == 0)] = 1
    high[empty & (n_retrieved == 0)] = -1
    low[prefix] = largest[prefix]
    high[prefix] = np.where(sizes[prefix] == n_retrieved[prefix], -1, largest[prefix])
    return low, high


_DISCOUNTS = [0.0]  # log2(rank + 1) for rank 1, 2, ... (index 0 unused), from math.log2


def discounts(most):
    """``log2(rank + 1)`` for ranks 0 to ``most`` (rank 0 unused), each from
    :func:`math.log2` as the reference computes it."""
    while len(_DISCOUNTS) <= most:
        _DISCOUNTS.append(log2(len(_DISCOUNTS) + 1))
    return np.array(_DISCOUNTS[:most + 1])


class ArrayAt:
    """The count primitives at cutoff ``k``, one value per row, under the names of
    :class:`ragscore.core.counts.At`; each computed when a formula first reads it."""

    def __init__(self, columns, k):
        self.columns, self.k = columns, k
        self._found = {}

    def __getattr__(self, name):
        if name.startswith("_") or name not in _PRIMITIVES:
            raise AttributeError(name)
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = _PRIMITIVES[name](self.columns, self.k)
        return found


def _count_within(rows, values, k, size):
    """Per row: how many of ``values`` (beside their ``rows``) are at most ``k``."""
    return np.bincount(rows[values <= k], minlength=size)


def _first_rank(columns, k):
    ranks = np.full(columns.rows, np.inf)
    rows = columns.relevant_row
    if len(rows):
        first = np.ones(len(rows), dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        ranks[rows[first]] = columns.relevant_rank[first]
    return ranks


def _precision_sum(columns, k):
    rows, ranks = columns.relevant_row, columns.relevant_rank
    start = np.ones(len(rows), dtype=bool)
    start[1:] = rows[1:] != rows[:-1]
    begins = np.flatnonzero(start)
    found = np.arange(len(rows)) - np.repeat(begins, np.diff(np.append(begins, len(rows)))) + 1
    within = ranks <= k
    return np.bincount(rows[within], weights=found[within] / ranks[within],
                       minlength=columns.rows)


def _gained(grades, gains):
    """``grades`` as gains: as they are, or through ``gains`` (e.g. ``2 ** grade - 1``)."""
    return grades if gains is None else gains(grades)


def _dcg(columns, k, *, gains=None):
    within = columns.gain_rank <= k
    ranks = columns.gain_rank[within]
    table = discounts(int(ranks.max()) if len(ranks) else 0)
    return np.bincount(columns.gain_row[within],
                       weights=_gained(columns.gain_grade[within], gains) / table[ranks],
                       minlength=columns.rows)


def _ideal_dcg(columns, k, *, gains=None):
    cases = columns.graded_case
    # binary labels: grade 1 at ranks 1 .. min(k, relevant), summed in order
    most = int(min(k, columns.n_relevant.max())) if columns.rows else 0
    table = discounts(max(most, 1))
    binary = np.concatenate([[0.0], np.cumsum(1 / table[1:most + 1])])
    ideal = binary[np.minimum(columns.n_relevant, most)]
    if cases.any():
        starts = np.ones(len(columns.ideal_case), dtype=bool)
        starts[1:] = columns.ideal_case[1:] != columns.ideal_case[:-1]
        begins = np.flatnonzero(starts)
        place = np.arange(len(columns.ideal_case)) - np.repeat(
            begins, np.diff(np.append(begins, len(columns.ideal_case)))) + 1
        within = place <= k
        table = discounts(int(place[within].max()) if within.any() else 0)
        graded = np.bincount(columns.ideal_case[within],
                             weights=_gained(columns.ideal_grade[within], gains) /
                             table[place[within]], minlength=len(cases))
        ideal = np.where(cases[columns.row_case], graded[columns.row_case], ideal)
    return ideal


def _plain(name):
    """The primitive that reads the per-row column ``name`` as it is, at any k."""
    return lambda columns, k: getattr(columns, name)


_PRIMITIVES = {
    **{name: _plain(name) for name in PLAIN},
    "returned": lambda c, k: np.minimum(c.n_retrieved, k),
    "hits": lambda c, k: _count_within(c.relevant_row, c.relevant_rank, k, c.rows),
    "first_rank": _first_rank,
    "precision_sum": _precision_sum,
    "dcg": _dcg,
    "ideal_dcg": _ideal_dcg,
    # exponential gains (2 ** grade - 1; a grade 1 gains 1, so binary labels are unchanged)
    "exp_dcg": partial(_dcg, gains=exp_gains),
    "exp_ideal_dcg": partial(_ideal_dcg, gains=exp_gains),
    **graded_primitives(ArrayAt),
    "supported": lambda c, k: _count_within(c.supported_row, c.supported_cutoff, k, c.rows),
    "stale": lambda c, k: _count_within(c.stale_row, c.stale_cutoff, k, c.rows),
    "exposures": lambda c, k: _count_within(c.exposed_row, c.exposed_cutoff, k, c.rows),
    "judged": lambda c, k: np.where(
        c.pooled, _count_within(c.judged_row, c.judged_rank, k, c.rows),
        np.minimum(c.n_retrieved, k)),
    "any_judged": lambda c, k: ~c.pooled | (c.n_judged > 0),
    "answerable": lambda c, k: c.answerability != 0,
    **{name: (lambda vital, state: lambda c, k: nugget_primitive(c, k, vital, state))(vital,
                                                                                     state)
       for name, (vital, state, _) in NUGGET_PRIMITIVES.items()},
    **{name: _plain(CITATION_COLUMNS[field]) for name, (field, _) in CITATION_PRIMITIVES.items()},
}
