"""What a recorded run adds (format version 3), worked by hand: delivered context, access
groups, superseded and conflicting sources, repeated trials."""
from ragscore.core.aggregate import aggregates, macro
from ragscore.core.counts import count, delivered_span
from ragscore.core.metrics import REGISTRY
from ragscore.core.trials import Trials, combine, spread, value_of
from ragscore.engine.reference import ReferenceCounted, count_runs

SUPPORT = REGISTRY["support"]
STALE = REGISTRY["stale_support"]
DISCLOSURES = REGISTRY["disclosures"]
DIFFERS = REGISTRY["context_differs"]
UNSUPPORTED = REGISTRY["unsupported"]
RECALL = REGISTRY["recall"]


def test_delivered_context_is_what_claims_may_cite():
    # a and b are both retrieved in the top 2, but only a was handed to the answer stage:
    # the claim citing b is unsupported at every k, the one citing a supported at every k.
    counts = count({"a", "b"}, {"x": {"a"}, "y": {"b"}}, ("a", "b", "c"),
                   (("x", ("a",)), ("y", ("b",))), delivered=("a",))
    assert [SUPPORT.value(counts, k) for k in (1, 2, 3)] == [0.5, 0.5, 0.5]
    assert [UNSUPPORTED.value(counts, k) for k in (1, 2, 3)] == [1, 1, 1]
    # {a} is the top 1 and nothing else: differs at k = 2 and 3, not at 1
    assert [DIFFERS.value(counts, k) for k in (1, 2, 3)] == [False, True, True]


def test_without_delivered_context_the_top_k_is_visible():
    counts = count({"a", "b"}, {"x": {"a"}, "y": {"b"}}, ("a", "b"),
                   (("x", ("a",)), ("y", ("b",))))
    assert [SUPPORT.value(counts, k) for k in (1, 2)] == [0.5, 1.0]
    assert DIFFERS.value(counts, 2) is None


def test_delivered_span_by_hand():
    assert delivered_span(("b", "a"), ("a", "b", "c")) == (2, 2)
    assert delivered_span(("a", "b", "c"), ("c", "b", "a")) == (3, -1)  # every k from 3
    assert delivered_span(("a", "c"), ("a", "b", "c")) == (0, 0)  # not a prefix: never
    assert delivered_span(("z",), ("a",)) == (0, 0)  # not retrieved at all
    assert delivered_span((), ()) == (1, -1)  # nothing retrieved, nothing delivered


def test_a_claim_citing_the_losing_side_is_unsupported():
    # both passages are labelled as support, but the case declares "old" the loser
    support = {"fee": {"old", "new"}}
    losing = count({"old", "new"}, support, ("old", "new"), (("fee", ("old",)),),
                   losers=frozenset({"old"}))
    winning = count({"old", "new"}, support, ("old", "new"), (("fee", ("new",)),),
                    losers=frozenset({"old"}))
    assert SUPPORT.value(losing, 2) == 0.0
    assert SUPPORT.value(winning, 2) == 1.0


def test_disclosures_count_exposed_restricted_chunks():
    # "pay" is open, "salaries" restricted for this caller, retrieved at rank 2
    leak = count({"pay"}, {"rate": {"pay"}}, ("pay", "salaries"), (("rate", ("pay",)),),
                 restricted=frozenset({"salaries"}))
    assert [DISCLOSURES.value(leak, k) for k in (1, 2)] == [0, 1]
    assert SUPPORT.value(leak, 2) == 1.0  # fully supported, and still a disclosure
    # cited: exposed from k = 1, even though retrieved only at rank 3
    cited = count({"pay"}, {"rate": {"pay"}}, ("pay", "x", "salaries"),
                  (("rate", ("pay",)), ("bonus", ("salaries",))),
                  restricted=frozenset({"salaries"}))
    assert DISCLOSURES.value(cited, 1) == 1
    # delivered: exposed at every k although never retrieved; a retrieved restricted chunk
    # that was not delivered is not exposed
    shown = count({"pay"}, {}, ("hr-only",), (), delivered=("salaries",),
                  restricted=frozenset({"salaries", "hr-only"}))
    assert [DISCLOSURES.value(shown, k) for k in (1, 2)] == [1, 1]


def test_stale_support_only_when_every_citation_is_superseded():
    support = {"fee": {"v1", "v2"}}
    old = count({"v1", "v2"}, support, ("v1", "v2"), (("fee", ("v1",)),),
                superseded=frozenset({"v1"}))
    both = count({"v1", "v2"}, support, ("v1", "v2"), (("fee", ("v1", "v2")),),
                 superseded=frozenset({"v1"}))
    assert (SUPPORT.value(old, 2), STALE.value(old, 2), UNSUPPORTED.value(old, 2)) == (0.0, 1.0, 0)
    assert (SUPPORT.value(both, 2), STALE.value(both, 2)) == (1.0, 0.0)


def _recall_counts(retrieved):
    return count(frozenset({"a"}), {}, retrieved, ())


def test_trials_are_one_question_in_a_mean():
    # q1 twice: recall@1 1.0 then 0.0 -> 0.5 for the question; q2 once: 1.0
    q1 = Trials((_recall_counts(("a",)), _recall_counts(("b",))))
    q2 = _recall_counts(("a",))
    row = macro(RECALL, ReferenceCounted([("q1", "S"), ("q2", "S")], [q1, q2]), k=1,
                slice_name="answerable")
    assert (row.value, row.used, row.left_out) == (0.75, 2, 0)


def test_combine_and_spread_by_hand():
    assert combine("rate", [0.5, None, 1.0]) == 0.75
    assert combine("yes/no", [True, True]) is True
    assert combine("yes/no", [True, None, False]) is False
    assert combine("count", [0, 3, 1]) == 3
    assert combine("rate", [None, None]) is None
    three = Trials((_recall_counts(("a",)), _recall_counts(("a",)), _recall_counts(("b",))))
    result = spread(RECALL, three, 1)
    assert (result.trials, result.low, result.high, result.agree) == (3, 0.0, 1.0, 2)
    assert abs(result.mean - 2 / 3) < 1e-12
    assert value_of(RECALL, three, 1) == result.mean


def test_count_runs_takes_trials_as_a_list_and_reports_ops():
    corpus = {"a": "A.", "b": "B."}
    cases = {"q": {"relevant": ("a",), "support": {"x": ("a",)}}}
    runs = {"q": {"S": [
        {"trial": 1, "retrieved": ("a",), "claims": (("x", ("a",)),), "latency_ms": 120},
        {"trial": 2, "retrieved": ("b",), "claims": (), "latency_ms": 80, "failed": False},
    ]}}
    counted = count_runs(corpus, cases, runs)
    assert counted.keys == [("q", "S")]
    assert type(counted.counts[0]) is Trials and len(counted.counts[0]) == 2
    assert "trials" in counted.features
    assert counted.ops == {("q", "S"): [{"latency_ms": 120},
                                        {"latency_ms": 80, "failed": False}]}
    # one question in the aggregate, with support the mean of 1.0 and n/a (no claims): 1.0
    rows = {row.metric: row for row in aggregates(counted, k=1,
                                                  metrics=(RECALL, SUPPORT))
            if row.method == "macro"}
    assert (rows["recall"].value, rows["recall"].used) == (0.5, 1)
    assert (rows["support"].value, rows["support"].used) == (1.0, 1)
