"""The counts behind every metric, and the supported-claim rule, on hand-worked cases."""
import pytest

from ragscore import evaluate
from ragscore.core.counts import At, Counts, claim_cutoff, count, retrieval_counts

SUPPORT = {"switch": {"rollback"}, "smoke": {"checklist"}, "both": {"rollback", "checklist"}}
VISIBLE = {"rollback", "checklist"}
RELEVANT = {"rollback", "checklist"}


def is_supported(claim, citations, support, visible):
    """The rule at the cutoff that shows exactly ``visible`` (ranked alphabetically)."""
    retrieved = tuple(sorted(visible))
    counts = count(RELEVANT, support, retrieved, ((claim, citations),))
    return At(counts, max(1, len(retrieved))).supported == 1


@pytest.mark.parametrize("claim, citations, visible, expected", [
    ("switch", ("rollback",), VISIBLE, True),
    ("switch", (), VISIBLE, False),                      # no citation
    ("switch", ("checklist",), VISIBLE, False),          # labelled for another claim
    ("switch", ("rollback", "checklist"), VISIBLE, False),  # one bad citation spoils it
    ("switch", ("rollback",), {"checklist"}, False),     # not in the visible context
    ("both", ("rollback", "checklist"), VISIBLE, True),
    ("both", ("rollback",), VISIBLE, True),              # any subset of its labels
    ("both", ("rollback", "checklist"), {"rollback"}, False),
    ("bonus", ("rollback",), VISIBLE, False),            # claim not expected at all
    ("switch", ("unknown",), VISIBLE, False),
])
def test_is_supported(claim, citations, visible, expected):
    assert is_supported(claim, citations, SUPPORT, visible) is expected


@pytest.mark.parametrize("citations, labelled, rank_of, cutoff", [
    (("a",), {"a"}, {"a": 3}, 3),                  # supported from k = 3 on
    (("a", "b"), {"a", "b"}, {"a": 4, "b": 2}, 4),  # the deepest citation decides
    (("a", "b"), {"a"}, {"a": 1, "b": 2}, None),    # b is not labelled for the claim
    (("a",), {"a"}, {}, None),                      # a was never retrieved
    ((), {"a"}, {"a": 1}, None),                    # no citation
])
def test_claim_cutoff(citations, labelled, rank_of, cutoff):
    assert claim_cutoff(citations, labelled, rank_of) == cutoff


def test_count_supported_counts_each_supported_pair():
    claims = (("switch", ("rollback",)), ("smoke", ("rollback",)), ("both", ("checklist",)))
    assert At(count(RELEVANT, SUPPORT, ("rollback", "checklist"), claims), 2).supported == 2
    assert At(count(RELEVANT, SUPPORT, ("rollback", "checklist"), ()), 2).supported == 0


def test_counts_of_rollback_b_by_hand():
    counts = count(RELEVANT, {"switch": {"rollback"}, "smoke": {"checklist"}},
                   ("rollback", "checklist"),
                   (("switch", ("rollback",)), ("smoke", ("checklist",))))
    assert counts == Counts(relevant_ranks=(1, 2), n_relevant=2, claim_cutoffs=(1, 2),
                            n_claims=2, n_expected=2, n_retrieved=2)
    assert [At(counts, k).hits for k in (1, 2, 3)] == [1, 2, 2]
    assert [At(counts, k).supported for k in (1, 2, 3)] == [1, 2, 2]


def test_ranks_beyond_any_cutoff_are_kept():
    counts = retrieval_counts(("x", "y", "z", "a"), {"a", "b"})
    assert counts.relevant_ranks == (4,) and counts.n_relevant == 2
    assert counts.n_retrieved == 4


def test_claim_counts_agree_with_evaluate():
    corpus = {"rollback": "Switch back.", "checklist": "Smoke test.", "archive": "Old."}
    case = {"relevant": ("rollback", "checklist"),
            "support": {name: tuple(sorted(docs)) for name, docs in SUPPORT.items()}}
    citation_choices = [(), ("rollback",), ("checklist",), ("archive",),
                        ("rollback", "checklist"), ("nowhere",)]
    for retrieved in [(), ("rollback",), ("checklist", "rollback"), ("archive", "checklist")]:
        for k in (1, 2):
            visible = set(retrieved[:k])
            for first in citation_choices:
                for second in citation_choices:
                    claims = (("switch", first), ("both", second), ("extra", first))
                    scores = evaluate(corpus, case, {"retrieved": retrieved, "claims": claims},
                                      k=k)
                    # independent arithmetic: a claim counts when it is labelled and every
                    # citation is labelled for it and visible
                    by_hand = sum(1 for claim, cited in claims if claim in SUPPORT and cited
                                  and all(doc in SUPPORT[claim] and doc in visible
                                          for doc in cited))
                    assert scores["support"] == by_hand / 3
                    assert scores["coverage"] == by_hand / 3


def test_order_of_unrelated_claims_never_matters():
    corpus = {"rollback": "Switch back.", "checklist": "Smoke test."}
    case = {"relevant": ("rollback", "checklist"),
            "support": {"switch": ("rollback",), "smoke": ("checklist",)}}
    claims = (("switch", ("rollback",)), ("smoke", ("rollback",)), ("extra", ()))
    run = {"retrieved": ("rollback", "checklist"), "claims": claims}
    reversed_run = dict(run, claims=claims[::-1])
    assert evaluate(corpus, case, run) == evaluate(corpus, case, reversed_run)


def test_graded_counts_rank_each_graded_id_once():
    # b (grade 2) at rank 2 and c (grade 1) at rank 3 are graded; relevant at grade >= 2: b only
    counts = count({"b"}, None, ("a", "b", "c"), None, grades={"a": 0, "b": 2, "c": 1})
    assert counts.relevant_ranks == (2,) and counts.gains == ((2, 2), (3, 1))
    assert counts.ideal == (2, 1)


def test_a_relevant_id_graded_zero_is_still_ranked():
    # count() taken alone: an ID called relevant though graded 0 is ranked all the same
    counts = count({"a"}, None, ("x", "a"), None, grades={"a": 0})
    assert counts.relevant_ranks == (2,) and counts.gains == ()
