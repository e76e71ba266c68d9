"""Reviews: items, disputes and agreement, each figure worked by hand."""
from fractions import Fraction
from pathlib import Path

import pytest

import ragscore
from ragscore.core.reviews import NO_SHARED_ITEMS, ONE_CATEGORY, agreement, disputed, \
    is_positive, kappa_of, review_items

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"


def doc(reviewer, name, decision, note=""):
    return {"reviewer": reviewer, "doc": name, "decision": decision, "note": note}


def claim(reviewer, system, name, decision, note=""):
    return {"reviewer": reviewer, "system": system, "claim": name, "decision": decision,
            "note": note}


# A tiny example, worked by hand. Four items, ana first, ben second:
#   q1 doc a   relevant / relevant          ++
#   q1 doc b   relevant / not relevant      +-   disputed
#   q2 A/x     unsupported / unsupported    --
#   q2 A/y     unsupported / unsupported    --
# n = 4, agreed 3: po = 3/4. ana positive 2 of 4, ben positive 1 of 4:
# pe = (2*1 + 2*3)/16 = 8/16 = 1/2; kappa = (3/4 - 1/2)/(1 - 1/2) = 1/2.
# cara judged only q1 doc a (relevant): with ana one shared item ++, po = 1, pe = 1*1/1 = 1,
# kappa undefined; with ben the same.
TINY = {
    "q1": {"reviews": (doc("ana", "a", "relevant"), doc("ben", "a", "relevant"),
                       doc("ana", "b", "relevant"), doc("ben", "b", "not relevant"),
                       doc("cara", "a", "relevant"))},
    "q2": {"reviews": (claim("ben", "A", "x", "unsupported"),
                       claim("ana", "A", "x", "unsupported"),
                       claim("ana", "A", "y", "unsupported"),
                       claim("ben", "A", "y", "unsupported"))},
    "q3": {},
}


def test_review_items_keys_documents_and_claims():
    items = review_items(TINY)
    assert list(items) == [("q1", ("doc", "a")), ("q1", ("doc", "b")),
                           ("q2", ("claim", "A", "x")), ("q2", ("claim", "A", "y"))]
    assert items[("q1", ("doc", "a"))] == {"ana": "relevant", "ben": "relevant",
                                           "cara": "relevant"}
    assert items[("q2", ("claim", "A", "x"))] == {"ben": "unsupported", "ana": "unsupported"}


def test_disputed_items_and_cases():
    found = disputed(TINY)
    assert found.items == {("q1", ("doc", "b")): {"ana": "relevant", "ben": "not relevant"}}
    assert found.cases == ("q1",)


def test_a_dispute_is_not_resolved_by_a_majority():
    cases = {"q": {"reviews": (doc("ana", "a", "relevant"), doc("ben", "a", "relevant"),
                               doc("cara", "a", "relevant"), doc("dan", "a", "not relevant"))}}
    assert disputed(cases).cases == ("q",)


def test_one_reviewer_contradicting_themself_is_a_dispute():
    cases = {"q": {"reviews": (doc("ana", "a", "relevant"), doc("ana", "a", "not relevant"))}}
    assert review_items(cases) == {("q", ("doc", "a")): {"ana": "not relevant"}}
    assert disputed(cases).cases == ("q",)


def test_agreement_on_the_tiny_example():
    rows = {(row.first, row.second): row for row in agreement(TINY)}
    assert list(rows) == [("ana", "ben"), ("ana", "cara"), ("ben", "cara")]
    ana_ben = rows[("ana", "ben")]
    assert (ana_ben.items, ana_ben.agreed) == (4, 3)
    assert (ana_ben.po, ana_ben.pe, ana_ben.kappa) == (Fraction(3, 4), Fraction(1, 2),
                                                       Fraction(1, 2))
    assert ana_ben.reason == ""
    ana_cara = rows[("ana", "cara")]
    assert (ana_cara.items, ana_cara.po, ana_cara.pe) == (1, 1, 1)
    assert (ana_cara.kappa, ana_cara.reason) == (None, ONE_CATEGORY)


def test_kappa_is_undefined_without_shared_items():
    cases = {"q": {"reviews": (doc("ana", "a", "relevant"), doc("ben", "b", "relevant"))}}
    (row,) = agreement(cases)
    assert (row.items, row.po, row.pe, row.kappa, row.reason) == (0, None, None, None,
                                                                 NO_SHARED_ITEMS)


def test_kappa_of_opposite_single_categories_is_defined():
    # every item: first positive, second negative. po = 0, pe = (2*0 + 0*2)/4 = 0, kappa = 0.
    assert kappa_of([(True, False), (True, False)]) == (0, 0, 0, "")


def test_perfect_agreement_with_both_categories():
    # ++ and --: po = 1, pe = (1*1 + 1*1)/4 = 1/2, kappa = (1 - 1/2)/(1/2) = 1.
    assert kappa_of([(True, True), (False, False)])[2] == 1


def test_is_positive_refuses_an_unknown_decision():
    with pytest.raises(ValueError, match="a review decision must be one of answerable, full, "
                                         "none, not a claim, not relevant, not_support, "
                                         "relevant, support, supported, unanswerable, "
                                         "unsupported; got 'maybe'"):
        is_positive("maybe")


# The practice collection (fixtures/practice), ana and ben, as worked by the data's author
# in tests/io/test_practice.py and checked here by hand:
# 27 items judged by both on 7 questions; both positive a = 16, both negative d = 6,
# ana only positive b = 3 (leave@2025#annual, roster-two-weeks, security-faq#laptop-loss),
# ben only positive c = 2 (escorted, l4-band): disputed b + c = 5.
# po = (16 + 6)/27 = 22/27.
# ana positive 16 + 3 = 19 (negative 8); ben positive 16 + 2 = 18 (negative 9);
# pe = (19*18 + 8*9)/27**2 = (342 + 72)/729 = 414/729 = 46/81.
# kappa = (22/27 - 46/81)/(1 - 46/81) = (66 - 46)/(81 - 46) = 20/35 = 4/7.
@pytest.fixture(scope="module")
def practice():
    return ragscore.load_dataset(PRACTICE)


def test_practice_agreement_between_ana_and_ben(practice):
    (row,) = agreement(practice.cases)
    assert (row.first, row.second, row.items, row.agreed) == ("ana", "ben", 27, 22)
    assert (row.po, row.pe, row.kappa) == (Fraction(22, 27), Fraction(46, 81), Fraction(4, 7))


def test_practice_disputes(practice):
    found = disputed(practice.cases)
    assert sorted(found.items) == sorted([
        ("annual-days", ("doc", "leave@2025#annual")),
        ("annual-days", ("claim", "baseline", "roster-two-weeks")),
        ("lost-laptop-and-phone", ("doc", "security-faq#laptop-loss")),
        ("visitor-registration", ("claim", "rerank", "escorted")),
        ("salary-band", ("claim", "rerank", "l4-band"))])
    assert found.cases == ("annual-days", "lost-laptop-and-phone", "visitor-registration",
                           "salary-band")


def test_practice_kappa_matches_scikit_learn(practice):
    metrics = pytest.importorskip("sklearn.metrics")
    items = [judged for judged in review_items(practice.cases).values()
             if {"ana", "ben"} <= set(judged)]
    first = [is_positive(judged["ana"]) for judged in items]
    second = [is_positive(judged["ben"]) for judged in items]
    assert metrics.cohen_kappa_score(first, second) == pytest.approx(4 / 7)
