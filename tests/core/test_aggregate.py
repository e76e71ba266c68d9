"""Declared aggregates over counts, worked by hand."""
from ragscore.core.aggregate import aggregates, count_yes, is_answerable, macro, pooled, \
    sweep_means
from ragscore.core.counts import Counts, count
from ragscore.core.metrics import REGISTRY, select
from ragscore.engine.reference import ReferenceCounted


def view(*counts):
    """The counts as the engine's view of one system's questions."""
    return ReferenceCounted([(f"q{n}", "A") for n in range(len(counts))], counts)

# Three answerable questions and one unanswerable one, written out as counts.
A = Counts((1,), 1, (1,), 1, 1, 2)            # hit at 1; its one claim supported from k=1
B = Counts((2, 3), 2, (2,), 3, 2, 3)          # hits at 2 and 3; 1 of 3 claims, from k=2
C = Counts((), 1, (), 0, 1, 0)                # empty list, empty answer
U = Counts((), 0, (), 1, 0, 1)                # unanswerable, answered anyway


def test_answerable_means_something_relevant_or_expected():
    assert [is_answerable(c) for c in (A, B, C, U)] == [True, True, True, False]


def test_macro_leaves_na_out_and_says_so():
    support = macro(REGISTRY["support"], view(A, B, C), k=2, slice_name="answerable")
    assert support.value == (1 + 1 / 3) / 2         # C made no claim: n/a, left out
    assert (support.used, support.left_out, support.denominator) == (2, 1, 2)
    assert support.description == ("mean support over the 2 answerable questions where it "
                                   "is defined; 1 left out as n/a (the answer makes no claims)")


def test_pooled_sums_numerators_and_denominators():
    recall = pooled(REGISTRY["recall"], view(A, B, C), k=2, slice_name="answerable")
    assert (recall.numerator, recall.denominator, recall.value) == (2, 4, 0.5)
    support = pooled(REGISTRY["support"], view(A, B, C), k=1, slice_name="answerable")
    assert (support.numerator, support.denominator) == (1, 4)  # B's claim needs k=2


def test_count_of_yes_on_the_unanswerable_slice():
    row = count_yes(REGISTRY["abstention_correct"], view(U, count(set(), {}, (), ())), k=2,
                    slice_name="unanswerable")
    assert (row.numerator, row.denominator, row.value) == (1, 2, 0.5)
    assert row.description == ("1 of 2 unanswerable questions answered with no claims "
                               "(correct abstention)")


def test_aggregates_lists_macro_then_pooled_then_counts():
    rows = aggregates(view(A, B, C, U), k=2, metrics=select())
    assert [(r.metric, r.method) for r in rows] == [
        ("precision", "macro"), ("recall", "macro"), ("rr", "macro"), ("support", "macro"),
        ("coverage", "macro"), ("recall", "pooled"), ("support", "pooled"),
        ("abstention_correct", "count")]


def test_sweep_reads_the_same_counts_at_every_k():
    means = sweep_means(view(A, B, C, U), max_k=3, metrics=select(("recall", "coverage")))
    assert [row["recall"] for row in means] == [(1 + 0 + 0) / 3, (1 + 0.5 + 0) / 3,
                                                (1 + 1 + 0) / 3]
    assert [row["coverage"] for row in means] == [(1 + 0 + 0) / 3, (1 + 0.5 + 0) / 3,
                                                  (1 + 0.5 + 0) / 3]


def test_na_as_zero_averages_retrieval_over_every_question_like_trec_eval():
    # U has nothing relevant: its recall is n/a, counted 0 over all four questions
    row = macro(REGISTRY["recall"], view(A, B, C, U), k=3, slice_name="all", na_as_zero=True)
    assert row.value == (1 + 1 + 0 + 0) / 4
    assert row.description == ("mean R@3 over all 4 questions; n/a counted as 0 "
                               "(trec_eval's convention)")
    rows = aggregates(view(A, B, C, U), k=3, metrics=select(("recall", "support")),
                      na_as_zero=True)
    support = next(r for r in rows if r.metric == "support" and r.method == "macro")
    assert support.slice == "answerable" and support.left_out == 1  # answers keep n/a


def test_the_reason_an_answer_metric_is_na():
    retrieval_only = count({"a"}, None, ("a",), None)
    row = macro(REGISTRY["support"], view(retrieval_only), k=2, slice_name="answerable")
    assert row.value is None and row.description.endswith("(answer not assessed)")
