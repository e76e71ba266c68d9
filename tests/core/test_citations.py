"""Graded citation support counted by hand (ragscore.core.citations): TREC RAG's weighted
precision and recall, ALCE's recall and precision with redundant citations, and what the
labels leave unknown."""
import pytest

from ragscore.core.citations import CitedClaim, check_cited, citation_counts
from ragscore.core.counts import count
from ragscore.core.metrics import REGISTRY, na_reason
from ragscore.core.rules import InvalidInputError

MEASURES = ("citation_precision", "citation_recall", "alce_precision", "alce_recall")


def measured(*claims):
    counts = count(set(), None, (), (), cited=citation_counts(claims))
    return {name: REGISTRY[name].value(counts, 2) for name in MEASURES}


def claim(*grades, joint=None, without=None):
    return CitedClaim(tuple(grades), joint, tuple(without or (None,) * len(grades)))


def test_an_answer_of_four_sentences_by_hand():
    # S1 cites full + partial, S2 one passage graded none, S3 nothing, S4 two partial
    # passages a reviewer judged to support it together.
    # weighted precision: (1 + 0.5 + 0 + 0.5 + 0.5) / 5 = 0.5
    # recall: S1 alone has a full citation: 1 / 4
    # ALCE recall: S1 (full) and S4 (judged) supported: 2 / 4
    # ALCE precision: S1's partial is redundant (the full one supports without it); S4
    # needs both (neither alone, nor the other alone, supports); S2's counts 0: 3 / 5
    assert measured(claim("full", "partial"), claim("none"), claim(),
                    claim("partial", "partial", joint="supported")) == {
        "citation_precision": 0.5, "citation_recall": 0.25, "alce_precision": 0.6,
        "alce_recall": 0.5}


def test_a_citation_not_graded_yet_waits():
    counts = count(set(), None, (), (), cited=citation_counts([claim("full", None)]))
    assert REGISTRY["citation_precision"].value(counts, 2) is None
    assert na_reason(REGISTRY["citation_precision"], counts, 2) == \
        "a citation is not graded yet"
    assert REGISTRY["citation_recall"].value(counts, 2) == 1.0  # its full citation decides
    waiting = count(set(), None, (), (), cited=citation_counts([claim("partial", None)]))
    assert REGISTRY["citation_recall"].value(waiting, 2) is None


def test_alce_is_na_where_the_labels_do_not_say():
    # two partial passages, nobody judged the pair: joint support unknown
    assert measured(claim("partial", "partial"))["alce_recall"] is None
    # supported together, but whether two of three are enough is not judged
    found = measured(claim("partial", "partial", "partial", joint="supported"))
    assert found["alce_recall"] == 1.0 and found["alce_precision"] is None
    # judged: without the first, the other two still support it: the first is redundant
    found = measured(claim("partial", "partial", "partial", joint="supported",
                           without=("supported", "unsupported", "unsupported")))
    assert found["alce_precision"] == 2 / 3


def test_an_answer_that_cites_nothing():
    found = measured(claim(), claim())
    assert found["citation_precision"] is None and found["alce_precision"] is None
    assert found["citation_recall"] == 0.0 and found["alce_recall"] == 0.0


def test_no_grades_at_all_is_na_not_zero():
    counts = count(set(), None, (), (("c", ("a",)),))
    assert all(REGISTRY[name].value(counts, 2) is None for name in MEASURES)


def test_citation_labels_are_checked():
    with pytest.raises(InvalidInputError, match="a grade and a judgement of the others"):
        check_cited([CitedClaim(("great",), None, (None,))])
    with pytest.raises(InvalidInputError, match="a grade and a judgement of the others"):
        check_cited([CitedClaim(("full",), None, ())])
