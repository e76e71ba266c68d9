"""The claim metrics, on hand-worked cases, and their agreement with evaluate."""
import pytest

from ragscore import evaluate
from ragscore.claims import abstention_correct, count_supported, coverage_rate, \
    is_supported, support_rate

SUPPORT = {"switch": {"rollback"}, "smoke": {"checklist"}, "both": {"rollback", "checklist"}}
VISIBLE = {"rollback", "checklist"}


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


def test_count_supported_counts_each_supported_pair():
    claims = (("switch", ("rollback",)), ("smoke", ("rollback",)), ("both", ("checklist",)))
    assert count_supported(claims, SUPPORT, VISIBLE) == 2
    assert count_supported((), SUPPORT, VISIBLE) == 0


def test_rates_and_their_undefined_cases():
    two_claims = (("a", ()), ("b", ()))
    assert support_rate(1, two_claims) == 0.5
    assert support_rate(0, two_claims) == 0.0
    assert support_rate(0, ()) is None
    assert coverage_rate(1, SUPPORT) == 1 / 3
    assert coverage_rate(3, SUPPORT) == 1.0
    assert coverage_rate(0, {}) is None


def test_abstention_only_defined_on_unanswerable_cases():
    assert abstention_correct((), {}) is True
    assert abstention_correct((("x", ()),), {}) is False
    assert abstention_correct((), SUPPORT) is None
    assert abstention_correct((("switch", ("rollback",)),), SUPPORT) is None


def test_claim_functions_agree_with_evaluate():
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
                    supported = count_supported(claims, SUPPORT, visible)
                    assert scores["support"] == support_rate(supported, claims)
                    assert scores["coverage"] == coverage_rate(supported, SUPPORT)


def test_order_of_unrelated_claims_never_matters():
    corpus = {"rollback": "Switch back.", "checklist": "Smoke test."}
    case = {"relevant": ("rollback", "checklist"),
            "support": {"switch": ("rollback",), "smoke": ("checklist",)}}
    claims = (("switch", ("rollback",)), ("smoke", ("rollback",)), ("extra", ()))
    run = {"retrieved": ("rollback", "checklist"), "claims": claims}
    reversed_run = dict(run, claims=claims[::-1])
    assert evaluate(corpus, case, run) == evaluate(corpus, case, reversed_run)
