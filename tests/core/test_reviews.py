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
# Each kind on its own (issue 40: never pooled). Documents: n = 2, agreed 1, po = 1/2; ana
# relevant 2 of 2, ben relevant 1 of 2: pe = (2*1 + 0*1)/4 = 1/2; kappa = 0.
# Claims: n = 2, both unsupported twice: po = 1, pe = 1, kappa undefined.
# cara judged only q1 doc a (relevant): with ana one shared item ++, po = 1, pe = 1*1/1 = 1,
# kappa undefined; with ben the same. (Pooled, as before issue 40, the four items gave
# po 3/4, pe 1/2, kappa 1/2: a figure of no scale.)
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
    rows = {(row.kind, row.first, row.second): row for row in agreement(TINY)}
    assert list(rows) == [("doc", "ana", "ben"), ("doc", "ana", "cara"), ("doc", "ben", "cara"),
                          ("claim", "ana", "ben")]
    ana_ben = rows[("doc", "ana", "ben")]
    assert (ana_ben.items, ana_ben.agreed) == (2, 1)
    assert (ana_ben.po, ana_ben.pe, ana_ben.kappa) == (Fraction(1, 2), Fraction(1, 2), 0)
    assert ana_ben.reason == ""
    ana_cara = rows[("doc", "ana", "cara")]
    assert (ana_cara.items, ana_cara.po, ana_cara.pe) == (1, 1, 1)
    assert (ana_cara.kappa, ana_cara.reason) == (None, ONE_CATEGORY)
    claims = rows[("claim", "ana", "ben")]
    assert (claims.items, claims.agreed, claims.po, claims.pe) == (2, 2, 1, 1)
    assert (claims.kappa, claims.reason) == (None, ONE_CATEGORY)


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
# Per kind (issue 40: never pooled; pooled, the 27 gave kappa 4/7):
# documents, 19 items: ana relevant 15 (not 4), ben relevant 13 (not 6), disputed
# leave@2025#annual and security-faq#laptop-loss (ana relevant): both relevant 13, both not
# 4, agreed 17; po = 17/19; pe = (15*13 + 4*6)/19**2 = 219/361;
# kappa = (323/361 - 219/361)/(142/361) = 104/142 = 52/71.
# claims, 8 items: ana supported 4 (unsupported 4), ben supported 5 (unsupported 3),
# disputed roster-two-weeks (ana supported), escorted and l4-band (ben supported): both
# supported 3, both not 2, agreed 5; po = 5/8; pe = (4*5 + 4*3)/64 = 1/2;
# kappa = (5/8 - 1/2)/(1/2) = 1/4.
@pytest.fixture(scope="module")
def practice():
    return ragscore.load_dataset(PRACTICE)


def test_practice_agreement_between_ana_and_ben(practice):
    documents, claims = agreement(practice.cases)
    assert (documents.kind, documents.first, documents.second, documents.items,
            documents.agreed) == ("doc", "ana", "ben", 19, 17)
    assert (documents.po, documents.pe, documents.kappa) == (Fraction(17, 19),
                                                             Fraction(219, 361),
                                                             Fraction(52, 71))
    assert (claims.kind, claims.items, claims.agreed) == ("claim", 8, 5)
    assert (claims.po, claims.pe, claims.kappa) == (Fraction(5, 8), Fraction(1, 2),
                                                    Fraction(1, 4))
    assert documents.agreed + claims.agreed == 22  # the pooled figure's 22 of 27


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
    for kind, expected in (("doc", 52 / 71), ("claim", 1 / 4)):
        items = [judged for item, judged in review_items(practice.cases).items()
                 if item[1][0] == kind and {"ana", "ben"} <= set(judged)]
        first = [judged["ana"] for judged in items]
        second = [judged["ben"] for judged in items]
        assert metrics.cohen_kappa_score(first, second) == pytest.approx(expected)
    assert is_positive("relevant") and not is_positive("unsupported")
