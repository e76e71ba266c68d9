"""``review status`` and the queue ordered by what decides (``review export --order
decision``, ``review page --order decision``): what the pending judgements can still change
in a verdict, from :func:`ragscore.usecases.pending.decider` (docs/labels.md).

- :func:`review_status`: whether the verdict is settled whatever the pending items say, else
  how many can still move it, rule by rule: a :class:`ReviewStatus`;
- :func:`decision_order`: queue rows marked (``audit``: the question is in the seeded audit
  slice; ``moves``: the rules the item can still move) and ordered: the items that can move
  a rule (those moving more rules first, then in queue order) with the audit slice spread
  evenly among them (:func:`spread`), then the rest in queue order; ``only_deciding`` leaves
  the rest out (never the audit slice).
"""
from collections import namedtuple

from ..core.deciding import FAIL, PASS
from ..render import pending as written
from ..render.writers import Writer, data_writer, writer_table
from ..core.audit_slice import AUDIT_SHARE, audit_cases
from .pending import CAP, decider
from .result import Result

__all__ = ["ReviewStatus", "decision_order", "ordered_queue", "review_status", "spread"]


class ReviewStatus(Result, namedtuple("ReviewStatus", "decider policy dataset")):
    """What the pending items can still change: the ``decider``
    (:class:`~ragscore.usecases.pending.Decider`), the ``policy`` path (``None`` for a
    comparison) and the ``dataset``'s name."""

    __slots__ = ()
    job = "a review status"

    @property
    def verdict(self):
        """``"PASS"`` or ``"FAIL"`` whatever the pending items say, else ``None``."""
        found = self.decider.verdict
        return {PASS: "PASS", FAIL: "FAIL"}.get(found)

    @property
    def said(self):
        return self.decider.notes

    writers = writer_table(Writer("text", written.status_text),
                           data_writer("json", written.status_json))


def review_status(dataset, *, candidate, policy=None, baseline=None, metric=None, k=None,
                  pool_depth=None, citations=False, split="sentence", pattern=None, cap=CAP):
    """The :class:`ReviewStatus` of ``dataset``'s pending items against ``policy`` for
    ``candidate`` (and ``baseline``), or of the sign of the mean paired delta of ``metric``
    at ``k`` between ``candidate`` and ``baseline``."""
    from .reading import loaded

    source = loaded(dataset)
    found = decider(source, candidate=candidate, policy=policy, baseline=baseline,
                    metric=metric, k=k, pool_depth=pool_depth, citations=citations,
                    split=split, pattern=pattern, cap=cap)
    return ReviewStatus(found, None if policy is None else str(policy), source.name or "")


def decision_order(rows, found, *, audit=(), only_deciding=False):
    """``rows`` (queue rows) marked with ``audit`` (its question is in ``audit``) and
    ``moves`` (the rules of ``found``, a Decider, the item can move) and ordered as the
    module docstring says."""
    audit = set(audit)
    marked = []
    for position, row in enumerate(rows):
        moves = found.movers.get((row["kind"], row["case"], row["key"]), [])
        marked.append((position, dict(row, audit=row["case"] in audit, moves=list(moves))))
    sample = [row for _, row in marked if row["audit"]]
    deciding = sorted(((position, row) for position, row in marked
                       if not row["audit"] and row["moves"]),
                      key=lambda pair: (-len(pair[1]["moves"]), pair[0]))
    rest = [row for _, row in marked if not row["audit"] and not row["moves"]]
    return spread(sample, [row for _, row in deciding]) + ([] if only_deciding else rest)


def spread(sample, rows):
    """``rows`` with the ``sample`` spread evenly among them (the m-th of A sample rows at
    place floor((m + 1/2) (A + D) / A) of the A + D), so a reviewer who stops early has
    judged the same share of each.

    >>> spread(["a1", "a2"], ["d1", "d2", "d3"])
    ['d1', 'a1', 'd2', 'a2', 'd3']
    >>> spread(["a1"], [])
    ['a1']
    """
    total = len(sample) + len(rows)
    places = {int((m + 0.5) * total / len(sample)) for m in range(len(sample))} \
        if sample else set()
    chosen, others = iter(sample), iter(rows)
    return [next(chosen) if place in places else next(others) for place in range(total)]


def ordered_queue(source, rows, *, order=None, policy=None, candidate=None, baseline=None,
                  metric=None, k=None, audit_share=None, seed=None, only_deciding=False,
                  pool_depth=None, citations=False, split="sentence", pattern=None):
    """``rows`` as ``review export`` writes them for ``order`` (``None``: as queued;
    ``"decision"``: :func:`decision_order` against ``policy`` or the comparison), refusing
    ordering options given without ``--order decision``."""
    from ..core.rules import InvalidInputError, show

    given = [flag for flag, value in (("--policy", policy), ("--candidate", candidate),
                                      ("--baseline", baseline), ("--metric", metric),
                                      ("--audit-share", audit_share), ("--seed", seed),
                                      ("--only-deciding", only_deciding or None))
             if value is not None]
    if order is None:
        if given:
            raise InvalidInputError(f"{given[0]} orders the queue by what decides; it needs "
                                    "--order decision")
        return rows
    if order != "decision":
        raise InvalidInputError(f"--order must be decision; got {show(order)}")
    if candidate is None:
        raise InvalidInputError("--order decision needs --candidate B (and --policy P, or "
                                "--metric M with --baseline A)")
    found = decider(source, candidate=candidate, policy=policy, baseline=baseline,
                    metric=metric, k=k, pool_depth=pool_depth, citations=citations,
                    split=split, pattern=pattern)
    audit = audit_cases(source.cases, share=AUDIT_SHARE if audit_share is None else
                        audit_share, seed=0 if seed is None else seed)
    return decision_order(rows, found, audit=audit, only_deciding=only_deciding)
