"""Reviewers' judgements of a test set's labels: items, disputes and agreement, each kind of
decision on its own scale.

A case may carry ``reviews`` (format version 3): records ``{"reviewer", "doc", "decision",
"note"}`` judging whether a document is relevant to the question, or ``{"reviewer",
"system", "claim", "decision", "note"}`` judging whether a system's claim is supported. An
**item** is what is judged, keyed as ``(case, ("doc", doc))`` or
``(case, ("claim", system, claim))`` (format 4's answer claims: ``(case, ("text",
text))``). A version 5 judgement (:mod:`ragscore.core.labels`, passed as ``judgements``) is
the item ``(case, (kind, key))``, each reviewer's current decision read as it was given.

The **kind** of an item is the first word of its key (``doc``, ``claim``, ``text``, or a
judgement kind), and each kind has its own scale (:data:`SCALES`): relevance grades (0, 1,
2, ...: ordinal), support (``supported`` / ``unsupported`` / ``not a claim``),
answerability (``answerable`` / ``unanswerable`` / ``unsure``), nugget assignments
(``support`` / ``partial_support`` / ``not_support``), citation support (``full`` /
``partial`` / ``none``), evidence, format 3's ``relevant`` / ``not relevant`` and
``supported`` / ``unsupported``. Every level is a decision of its own: ``partial_support``
is not left out, and grades 1 and 2 differ.

- :func:`review_items`: per item, each reviewer's decision;
- :func:`disputed`: the items with two different decisions, and the cases holding one. A
  dispute is never resolved here: no majority vote, no "last reviewer wins" between people;
- :func:`agreement`: per kind and pair of reviewers, the items both judged, their percent
  agreement and Cohen's kappa, in exact fractions (never pooled across kinds);
- :func:`alpha`: per kind, Krippendorff's alpha over the people who judged it (ordinal for
  grades, nominal otherwise);
- :func:`draft_agreement`: per kind, how often a person's decision equals a machine's draft
  of the same item exactly, separately for people who judged from scratch (``human``) and
  for those who edited the draft (``post-edited``): TREC RAG's agreement figures.
"""
from collections import namedtuple
from fractions import Fraction
from itertools import combinations

from .agreement import ALPHA_UNDEFINED, NO_SHARED_ITEMS, ONE_CATEGORY, ONE_VALUE, \
    cohen_kappa, krippendorff_alpha
from .labels import JUDGE_PREFIX, KINDS, current, is_machine
from .rules import InvalidInputError

__all__ = ["ALPHA_UNDEFINED", "Agreement", "Alpha", "Disputes", "NO_SHARED_ITEMS",
           "ONE_CATEGORY", "ONE_VALUE", "SCALES", "agreement", "alpha", "disputed",
           "draft_agreement", "is_positive", "item_of", "kappa_of", "kind_of",
           "review_items"]

POSITIVE = frozenset({"relevant", "supported", "answerable", "support", "full"})
NEGATIVE = frozenset({"not relevant", "unsupported", "not a claim", "unanswerable",
                      "not_support", "none"})
#: The level of each kind's decision scale for Krippendorff's alpha: relevance grades are
#: ordered (ordinal); every other kind's decisions are categories (nominal).
SCALES = {**{name: "ordinal" if kind.decisions is None else "nominal"
             for name, kind in KINDS.items()},
          "doc": "nominal", "claim": "nominal", "text": "nominal"}


class Disputes(namedtuple("Disputes", "items cases")):
    """``items``: ``{item: {reviewer: decision}}`` of the disputed items, in order of first
    review; ``cases``: the names of the cases holding any disputed item, in case order."""

    __slots__ = ()


class Agreement(namedtuple("Agreement", "kind first second items agreed po pe kappa reason")):
    """Agreement of two reviewers (``first`` < ``second`` by name) on one ``kind`` of item,
    over the ``items`` of that kind both judged: ``agreed`` of them got the same decision.
    ``po``, ``pe`` and ``kappa`` are exact :class:`~fractions.Fraction` values, or
    ``None`` when undefined, with ``reason`` saying why (``""`` when all are defined)."""

    __slots__ = ()


class Alpha(namedtuple("Alpha", "kind level items reviewers values alpha reason")):
    """Krippendorff's alpha of one ``kind`` of item at its ``level`` (``ordinal`` or
    ``nominal``): over the ``items`` of that kind people judged, by ``reviewers`` people,
    from ``values`` decisions (those on items judged twice or more); ``alpha`` an exact
    :class:`~fractions.Fraction`, or ``None`` with ``reason``."""

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


def kind_of(item):
    """The kind of an item: the first word of its key (its decision scale, :data:`SCALES`).

    >>> kind_of(("launch", ("doc", "launch"))), kind_of(("q1", ("nugget", "0a1b")))
    ('doc', 'nugget')
    """
    return item[1][0]


def _records(cases, judgements=()):
    """``(item, record)`` of every review and every current judgement, decisions as given
    (a relevance grade stays a grade)."""
    for case_name, case in cases.items():
        for review in case.get("reviews", ()):
            yield item_of(case_name, review), review
    for (kind, case_name, key), by_reviewer in current(judgements).items.items():
        for record in by_reviewer.values():
            yield (case_name, (kind, key)), record


def _is_machine(review):
    """True for a machine's decision: a ``judge:NAME`` reviewer, or a draft's origin."""
    return review["reviewer"].startswith(JUDGE_PREFIX) or review.get("origin") == "llm-draft"


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
    records), and the cases that hold any: any two different decisions on the item's own
    scale (grades 1 and 2, ``support`` and ``partial_support``). Nothing is resolved: a
    disputed item stays disputed whatever the number of reviewers on each side.

    >>> cases = {"launch": {"reviews": (
    ...     {"reviewer": "ana", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "launch", "decision": "not relevant", "note": ""})},
    ...     "owner": {}}
    >>> disputed(cases).cases
    ('launch',)
    """
    decisions = {}
    for item, review in _records(cases, judgements):
        if item[1][0] in KINDS and _is_machine(review):
            continue  # a machine's draft disagreeing is agreement to report, not a dispute
        decisions.setdefault(item, set()).add(review["decision"])
    judged = review_items(cases, judgements)
    items = {item: judged[item] for item, seen in decisions.items() if len(seen) > 1}
    held = {case_name for case_name, _ in items}
    return Disputes(items=items, cases=tuple(name for name in cases if name in held))


def is_positive(decision):
    """True for a positive decision ("relevant", "supported", ...), False for a negative
    one: the yes/no reading of format 3's words, kept for callers that want it; agreement
    compares decisions as they are, each kind on its own scale.

    >>> is_positive("supported"), is_positive("not relevant")
    (True, False)
    """
    if decision in POSITIVE:
        return True
    if decision in NEGATIVE:
        return False
    raise InvalidInputError(f"a review decision must be one of "
                            f"{', '.join(sorted(POSITIVE | NEGATIVE))}; got {decision!r}")


#: Cohen's kappa of two reviewers' decisions (:func:`ragscore.core.agreement.cohen_kappa`).
kappa_of = cohen_kappa


def _by_kind(items):
    """``{kind: {item: {reviewer: decision}}}``, kinds in order of first appearance."""
    kinds = {}
    for item, judged in items.items():
        kinds.setdefault(kind_of(item), {})[item] = judged
    return kinds


def agreement(cases, judgements=()):
    """One :class:`Agreement` per kind of item and pair of reviewers who judged that kind
    (kinds in order of first review; names sorted, pairs in sorted order), over the items of
    that kind both judged, decisions compared as they are (a grade with a grade, a level
    with a level): percent agreement ``po``, chance agreement ``pe`` and Cohen's
    ``kappa = (po - pe) / (1 - pe)`` (see :func:`ragscore.core.agreement.cohen_kappa` for
    the formula and when it is undefined). A machine's drafts are a reviewer here, so that
    their agreement with people is reported beside every other pair's. Never pooled across
    kinds: a relevance grade and an answerability decision are not one scale.

    >>> cases = {"launch": {"reviews": (
    ...     {"reviewer": "ben", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "launch", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "archive", "decision": "not relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "archive", "decision": "relevant", "note": ""})}}
    >>> found = agreement(cases)[0]
    >>> found.kind, found.first, found.second, found.items, found.agreed, str(found.po)
    ('doc', 'ana', 'ben', 2, 1, '1/2')
    """
    rows = []
    for kind, items in _by_kind(review_items(cases, judgements)).items():
        reviewers = sorted({reviewer for judged in items.values() for reviewer in judged})
        for first, second in combinations(reviewers, 2):
            pairs = [(judged[first], judged[second]) for judged in items.values()
                     if first in judged and second in judged]
            po, pe, kappa, reason = cohen_kappa(pairs)
            rows.append(Agreement(kind=kind, first=first, second=second, items=len(pairs),
                                  agreed=sum(1 for a, b in pairs if a == b), po=po, pe=pe,
                                  kappa=kappa, reason=reason))
    return rows


def alpha(cases, judgements=()):
    """One :class:`Alpha` per kind of item (in order of first review): Krippendorff's alpha
    of the people's decisions on that kind's items, ordinal for relevance grades and
    nominal otherwise (:data:`SCALES`; the formula:
    :func:`ragscore.core.agreement.krippendorff_alpha`). A machine's drafts are left out:
    their agreement with people is the kappa of :func:`agreement` and
    :func:`draft_agreement`.

    >>> cases = {"q": {"reviews": (
    ...     {"reviewer": "ana", "doc": "a", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "a", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "b", "decision": "relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "b", "decision": "not relevant", "note": ""},
    ...     {"reviewer": "ana", "doc": "c", "decision": "not relevant", "note": ""},
    ...     {"reviewer": "ben", "doc": "c", "decision": "not relevant", "note": ""})}}
    >>> found = alpha(cases)[0]
    >>> found.kind, found.level, found.items, found.values, str(found.alpha)
    ('doc', 'nominal', 3, 6, '4/9')
    """
    people = {}
    for item, review in _records(cases, judgements):
        if not _is_machine(review):
            people.setdefault(item, {})[review["reviewer"]] = review["decision"]
    rows = []
    for kind, items in _by_kind(people).items():
        level = SCALES.get(kind, "nominal")
        value, pairable, reason = krippendorff_alpha(
            [list(judged.values()) for judged in items.values()], level=level)
        rows.append(Alpha(kind=kind, level=level, items=len(items),
                          reviewers=len({reviewer for judged in items.values()
                                         for reviewer in judged}),
                          values=pairable, alpha=value, reason=reason))
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
