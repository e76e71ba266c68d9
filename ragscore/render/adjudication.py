"""Disputes open and settled, for ``ragscore audit`` (:mod:`ragscore.core.adjudication`)."""
from ..core.adjudication import disputes, said as _said
from .escape import text

__all__ = ["dispute_data", "dispute_lines"]


def dispute_lines(dataset):
    """Lines listing each dispute, open or settled by an adjudicator, with every decision
    (none when there is no dispute).

    >>> from ragscore.io.dataset import Dataset
    >>> records = tuple({"kind": "answerability", "case": "q", "key": "k" * 16, "reviewer":
    ...     name, "origin": "human", "decision": said} for name, said in (("ana",
    ...     "answerable"), ("ben", "unsure")))
    >>> dispute_lines(Dataset(corpus={}, cases={}, runs={}, judgements=records))[1]
    '  open: answerability, case q, item kkkkkkkkkkkkkkkk: ana answerable; ben unsure'
    """
    found = disputes(dataset.judgements, tuple(dataset.adjudicators or ()))
    if not found:
        return []
    still = sum(1 for dispute in found if dispute.open)
    lines = [f"Disputes: {still} open, {len(found) - still} settled by an adjudicator (an "
             "open one scores the conservative way; a settled one scores the adjudicator's "
             "decision)"]
    for dispute in found:
        kind, case, key = dispute.item
        said = "; ".join(f"{text(name)} {text(_said(decision))}"
                         for name, decision in dispute.decisions.items())
        line = f"  {'open' if dispute.open else 'settled'}: {kind}, case {text(case)}, item " \
               f"{key}: {said}"
        if not dispute.open:
            line += (f"; settled by {text(dispute.settled_by)}: "
                     f"{text(_said(dispute.decision))}")
        lines.append(line)
    return lines


def dispute_data(dataset):
    """Each dispute as a JSON-ready dict: kind, case, key, decisions, settled_by, decision."""
    return [{"kind": dispute.item[0], "case": dispute.item[1], "key": dispute.item[2],
             "decisions": {name: _said(decision) for name, decision in dispute.decisions.items()},
             "settled_by": dispute.settled_by,
             "decision": None if dispute.open else _said(dispute.decision)}
            for dispute in disputes(dataset.judgements, tuple(dataset.adjudicators or ()))]
