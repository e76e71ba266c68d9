"""Disputes and their adjudication: which items people decided differently, and which of
those an adjudicator settled.

A **dispute** is an item (``(kind, case, key)``) whose people's current decisions
(:func:`ragscore.core.labels.current`, machines' drafts left out) differ, adjudicators'
decisions left out. It is **settled** when an adjudicator decided the item
(:func:`ragscore.core.labels.is_adjudicator`: a decision recorded with role ``adjudicator``,
or by a reviewer the folder names): that decision is the one scored
(:func:`ragscore.core.labels.resolved`), the others stay beside it. Otherwise it is **open**
and scored the conservative way, as before. Nothing is settled by a vote or by the latest.

Agreement is measured **before adjudication**: :func:`before_adjudication` leaves the
adjudicators' decisions out, so settling a dispute never raises the agreement reported.

Standard library only.
"""
from collections import namedtuple

from .labels import current, decision_of, is_adjudicator, is_machine

__all__ = ["Dispute", "before_adjudication", "disputes", "said"]


def said(decision):
    """A decision as a reviewer reads it (a support decision with what it states).

    >>> said(("supported", "monday")), said(("unsupported", None)), said(2)
    ('supported, states monday', 'unsupported', '2')
    """
    if type(decision) is tuple:
        return decision[0] + (f", states {decision[1]}" if decision[1] else "")
    return str(decision)


class Dispute(namedtuple("Dispute", "item decisions settled_by decision")):
    """One disputed ``item``: ``decisions`` (``{reviewer: decision}``, the people who
    disagree, in order of judgement), ``settled_by`` (the adjudicator, or ``None`` while
    open) and the ``decision`` that settled it (``None`` while open)."""

    __slots__ = ()

    @property
    def open(self):
        return self.settled_by is None


def disputes(records, adjudicators=()):
    """Every :class:`Dispute` of ``records``, in order of first judgement.

    >>> records = [{"kind": "answerability", "case": "q", "key": "k" * 16, "reviewer": r,
    ...             "origin": "human", "decision": d} for r, d in (
    ...     ("ana", "answerable"), ("ben", "unanswerable"))]
    >>> [(found.open, found.decisions) for found in disputes(records)]
    [(True, {'ana': 'answerable', 'ben': 'unanswerable'})]
    >>> settled = records + [dict(records[0], reviewer="cat", role="adjudicator")]
    >>> [(found.settled_by, found.decision) for found in disputes(settled)]
    [('cat', 'answerable')]
    """
    found = []
    for item, by_reviewer in current(records).items.items():
        people = {name: record for name, record in by_reviewer.items()
                  if not is_machine(record)}
        judges = [record for record in people.values() if is_adjudicator(record, adjudicators)]
        others = {name: decision_of(record) for name, record in people.items()
                  if not is_adjudicator(record, adjudicators)}
        if len(set(map(repr, others.values()))) < 2:
            continue
        if judges:
            last = judges[-1]
            found.append(Dispute(item, others, last["reviewer"], decision_of(last)))
        else:
            found.append(Dispute(item, others, None, None))
    return found


def before_adjudication(records, adjudicators=()):
    """``records`` without the adjudicators' decisions: what agreement is measured on.

    >>> before_adjudication([{"reviewer": "cat", "role": "adjudicator", "origin": "human"},
    ...                      {"reviewer": "ana", "origin": "human"}])
    [{'reviewer': 'ana', 'origin': 'human'}]
    """
    return [record for record in records if not is_adjudicator(record, adjudicators)]
