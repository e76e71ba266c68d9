"""Reviewers' judgements of a test set's labels: items, disputes and agreement.

A case may carry ``reviews`` (format version 3): records ``{"reviewer", "doc", "decision",
"note"}`` judging whether a document is relevant to the question, or ``{"reviewer",
"system", "claim", "decision", "note"}`` judging whether a system's claim is supported. An
**item** is what is judged, keyed as ``(case, ("doc", doc))`` or
``(case, ("claim", system, claim))``. A version 5 judgement (:mod:`ragscore.core.labels`,
passed as ``judgements``) is the item ``(case, (kind, key))``, each reviewer's current
decision read: a relevance grade above 0, ``supported``, ``answerable``, a nugget's
``support`` and a citation's ``full`` positive; grade 0 or below, ``unsupported``, ``not a
claim``, ``unanswerable``, ``not_support`` and ``none`` negative; ``unsure`` and the partial
levels (``partial_support``, ``partial``) are left out of the yes/no agreement, and
:func:`draft_agreement` compares machine drafts with people on every level, as TREC does.

- :func:`review_items`: per item, each reviewer's decision;
- :func:`disputed`: the items with two different decisions, and the cases holding one. A
  dispute is never resolved here: no majority vote, no "last reviewer wins" between people;
- :func:`agreement`: per pair of reviewers, the items both judged, their percent agreement
  and Cohen's kappa, in exact fractions;
- :func:`draft_agreement`: per kind, how often a person's decision equals a machine's draft
  of the same item exactly, separately for people who judged from scratch (``human``) and
  for those who edited the draft (``post-edited``): TREC RAG's agreement figures.

Categories: "relevant" and "supported" are the **positive** decision, "not relevant",
"unsupported" and (for an answer's claim text) "not a claim" the **negative** one, so document and claim judgements are counted together
on one yes/no scale.
"""
from collections import namedtuple
from fractions import Fraction
from itertools import combinations

from .labels import JUDGE_PREFIX, KINDS, current, is_machine
from .rules import InvalidInputError

POSITIVE = frozenset({"relevant", "supported", "answerable", "support", "full"})
NEGATIVE = frozenset({"not relevant", "unsupported", "not a claim", "unanswerable",
                      "not_support", "none"})
#: Decisions no yes/no agreement can count.
UNCOUNTED = frozenset({"unsure", "partial_support", "partial"})

NO_SHARED_ITEMS = "no item judged by both"
ONE_CATEGORY = ("chance agreement is 1: both reviewers gave every shared item the same one "
                "category")


class Disputes(namedtuple("Disputes", "items cases")):
    """``items``: ``{item: {reviewer: decision}}`` of the disputed items, in order of first
    review; ``cases``: the names of the cases holding any disputed item, in case order."""

    __slots__ = ()


class Agreement(namedtuple("Agreement", "first second items agreed po pe kappa reason")):
    """Agreement of two reviewers (``first`` < ``second`` by name) over the ``items`` both
    judged: ``agreed`` of them got the same category. ``po``, ``pe`` and ``kappa`` are exact
    :class:`~fractions.Fraction` values, or ``None`` when undefined, with ``reason`` saying
    why (``""`` when all are defined)."""

    __slots__ = ()


def item_of(case_name, review):
    """The item one review record judges.

    >>> item_of("launch", {"reviewer": "ana", "doc": "launch", "decision": "relevant"})
    ('launch', ('doc', 'launch'))
    >>> item_of("launch", {"reviewer": "ana", "system": "A", "claim": "monday",
    ...                    "decision": "supported"})
    ('launch', ('claim', 'A', 'monday'))
    """
    if "doc" in review:
        return case_name, ("doc", review["doc"])
    if "text" in review:  # a judgement of an answer's claim (format version 4)
        return case_name, ("text", review["text"])
    return case_name, ("claim", review["system"], review["claim"])


def _records(cases, judgements=()):
    for case_name, case in cases.items():
        for review in case.get("reviews", ()):
            yield item_of(case_name, review), review
    for (kind, case_name, key), by_reviewer in current(judgements).items.items():
        for record in by_reviewer.values():
            decision = record["decision"]
            if kind == "relevance":
                decision = "relevant" if decision > 0 else "not relevant"
            yield (case_name, (kind, key)), dict(record, decision=decision)


def review_items(cases, judgements=()):
    """``{item: {reviewer: decision}}``: every reviewed item of ``cases`` (a dataset's
    ``cases``), in order of first review, its reviewers in order of first judgement.

    A reviewer who judged the same item twice keeps the later record here (an editor
    replaces a reviewer's judgement); :func:`disputed` still sees both decisions.

    >>> cases = {"launch": {"reviews": (
    ...     {"reviewer": "ana", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "launch", "decision": "not relevant", "note": ""})}}
    >>> review_items(cases)
    {('launch', ('doc', 'launch')): {'ana': 'relevant', 'ben': 'not relevant'}}
    """
    items = {}
    for item, review in _records(cases, judgements):
        items.setdefault(item, {})[review["reviewer"]] = review["decision"]
    return items


def disputed(cases, judgements=()):
    """The items given two different decisions (by two reviewers, or by one reviewer in two
    records), and the cases that hold any. Nothing is resolved: a disputed item stays
    disputed whatever the number of reviewers on each side.

    >>> cases = {"launch": {"reviews": (
    ...     {"reviewer": "ana", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "launch", "decision": "not relevant", "note": ""})},
    ...     "owner": {}}
    >>> disputed(cases).cases
    ('launch',)
    """
    decisions = {}
    for item, review in _records(cases, judgements):
        if item[1][0] in KINDS and review["reviewer"].startswith(JUDGE_PREFIX):
            continue  # a machine's draft disagreeing is agreement to report, not a dispute
        decisions.setdefault(item, set()).add(review["decision"])
    judged = review_items(cases, judgements)
    items = {item: judged[item] for item, seen in decisions.items() if len(seen) > 1}
    held = {case_name for case_name, _ in items}
    return Disputes(items=items, cases=tuple(name for name in cases if name in held))


def is_positive(decision):
    """True for "relevant" and "supported", False for "not relevant" and "unsupported".

    >>> is_positive("supported"), is_positive("not relevant")
    (True, False)
    """
    if decision in POSITIVE:
        return True
    if decision in NEGATIVE:
        return False
    raise InvalidInputError(f"a review decision must be one of "
                            f"{', '.join(sorted(POSITIVE | NEGATIVE))}; got {decision!r}")


def kappa_of(pairs):
    """``(po, pe, kappa, reason)`` of two reviewers' categories over the same items, given
    as ``(first is positive, second is positive)`` pairs. Cohen's kappa:

        po    = (items given the same category) / n
        pe    = sum over the two categories of first's share * second's share
              = (p1 * p2 + (n - p1) * (n - p2)) / n**2
        kappa = (po - pe) / (1 - pe)

    where n is the number of items both judged and p1, p2 how many each called positive.

    Undefined (``None``, with the reason) when no item was judged by both (n = 0), and
    kappa alone when pe = 1 (both gave every item one and the same category).

    Four items, first + + - -, second + - - -: po = 3/4, pe = (2*1 + 2*3)/16 = 1/2,
    kappa = (3/4 - 1/2)/(1 - 1/2) = 1/2.

    >>> kappa_of([(True, True), (True, False), (False, False), (False, False)])
    (Fraction(3, 4), Fraction(1, 2), Fraction(1, 2), '')
    >>> kappa_of([(True, True), (True, True)])[2:]
    (None, 'chance agreement is 1: both reviewers gave every shared item the same one category')
    """
    n = len(pairs)
    if not n:
        return None, None, None, NO_SHARED_ITEMS
    po = Fraction(sum(1 for a, b in pairs if a == b), n)
    first = sum(1 for a, _ in pairs if a)
    second = sum(1 for _, b in pairs if b)
    pe = Fraction(first * second + (n - first) * (n - second), n * n)
    if pe == 1:
        return po, pe, None, ONE_CATEGORY
    return po, pe, (po - pe) / (1 - pe), ""


def agreement(cases, judgements=()):
    """One :class:`Agreement` per pair of reviewers (names sorted; pairs in sorted order),
    over the items both judged, decisions read as positive or negative (see
    :func:`is_positive`): percent agreement ``po``, chance agreement ``pe`` and Cohen's
    ``kappa = (po - pe) / (1 - pe)`` (see :func:`kappa_of` for the formula and when it is
    undefined).

    >>> cases = {"launch": {"reviews": (
    ...     {"reviewer": "ben", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "archive", "decision": "not relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "archive", "decision": "relevant", "note": ""})}}
    >>> found = agreement(cases)[0]
    >>> found.first, found.second, found.items, found.agreed, str(found.po), str(found.kappa)
    ('ana', 'ben', 2, 1, '1/2', '0')
    """
    items = review_items(cases, judgements)
    reviewers = sorted({reviewer for judged in items.values() for reviewer in judged})
    rows = []
    for first, second in combinations(reviewers, 2):
        pairs = [(is_positive(judged[first]), is_positive(judged[second]))
                 for judged in items.values() if first in judged and second in judged
                 and judged[first] not in UNCOUNTED and judged[second] not in UNCOUNTED]
        po, pe, kappa, reason = kappa_of(pairs)
        rows.append(Agreement(first=first, second=second, items=len(pairs),
                              agreed=sum(1 for a, b in pairs if a == b), po=po, pe=pe,
                              kappa=kappa, reason=reason))
    return rows


class DraftAgreement(namedtuple("DraftAgreement", "kind origin pairs agreed")):
    """How often people agreed exactly with machine drafts of one ``kind``: over ``pairs``
    (a draft and a person's current judgement of the same item), ``agreed`` gave the same
    decision; ``origin`` is the people's (``human``: judged from scratch; ``post-edited``:
    edited the draft)."""

    __slots__ = ()

    @property
    def share(self):
        """``agreed / pairs`` as an exact fraction, or ``None`` without pairs."""
        return Fraction(self.agreed, self.pairs) if self.pairs else None


def draft_agreement(judgements):
    """One :class:`DraftAgreement` per kind and people's origin that has pairs, in kind
    order: each machine draft of an item against each person's current judgement of it,
    decisions compared exactly (every level counts: ``partial_support`` against ``support``
    is a disagreement), as TREC RAG reports its assessors against GPT-4o (56% from scratch,
    72% post-edited in 2024).

    >>> records = [{"kind": "nugget", "case": "q", "key": "k", "reviewer": r, "origin": o,
    ...             "decision": d} for r, o, d in (("judge:gpt", "llm-draft", "support"),
    ...                                            ("ana", "post-edited", "support"),
    ...                                            ("ben", "human", "partial_support"))]
    >>> [(row.kind, row.origin, row.pairs, row.agreed) for row in draft_agreement(records)]
    [('nugget', 'human', 1, 0), ('nugget', 'post-edited', 1, 1)]
    """
    found = {}
    for (kind, _, _), by_reviewer in current(judgements).items.items():
        drafts = [record for record in by_reviewer.values() if is_machine(record)]
        people = [record for record in by_reviewer.values() if not is_machine(record)]
        for draft in drafts:
            for person in people:
                pairs, agreed = found.get((kind, person["origin"]), (0, 0))
                found[kind, person["origin"]] = (pairs + 1,
                                                 agreed + (draft["decision"] == person["decision"]))
    order = list(KINDS)
    return [DraftAgreement(kind, origin, pairs, agreed)
            for (kind, origin), (pairs, agreed) in sorted(
                found.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))]
