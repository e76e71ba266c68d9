"""The IR measures of issue 44 by hand: Rprec, ERR@k, RBP, nDCG with exponential gains and
the relevance level ``rel``, each value worked out in a comment (tests/importers/
test_measure_peers.py holds them to pytrec_eval and ir_measures)."""
import pytest

from ragscore.core.counts import count, retrieval_counts
from ragscore.core.measures import parse_measure, parse_trec_measure
from ragscore.core.metrics import get
from ragscore.core.rules import InvalidInputError

# a ranking x, a, c, b, d; grades a=2, b=1, c=0, d=3 (x unjudged); relevant at level 1: a, b, d
GRADED = count({"a", "b", "d"}, None, ("x", "a", "c", "b", "d"), None,
               grades={"a": 2, "b": 1, "c": 0, "d": 3})


def test_rprec_reads_the_top_r_over_r():
    # R = 3: the top 3 (x, a, c) hold a: 1/3; at grade 2 or above R = 2 (a, d), top 2: a: 1/2
    assert get("rprec").value(GRADED, 1000) == 1 / 3
    assert get("rprec(rel=2)").value(GRADED, 1000) == 1 / 2
    # cut at 1 (trec_eval -M 1): nothing relevant in the top 1, over R
    assert get("rprec").value(GRADED, 1) == 0.0


def test_err_is_gdevals_cascade():
    # R = (2**g - 1) / 16: a (rank 2) 3/16, b (rank 4) 1/16, d (rank 5) 7/16
    expected = 3 / 16 / 2 + (13 / 16) * (1 / 16) / 4 + (13 / 16) * (15 / 16) * (7 / 16) / 5
    assert get("err").value(GRADED, 10) == pytest.approx(expected, abs=1e-15)
    assert get("err").value(GRADED, 3) == 3 / 16 / 2  # only a within the top 3
    # a grade above 4 is beyond ERR's scale: n/a, as gdeval refuses it
    assert get("err").value(count({"a"}, None, ("a",), None, grades={"a": 5}), 3) is None


def test_rbp_binary_at_the_level_with_persistence():
    # level 1: relevant ranks 2, 4, 5: 0.2 * (0.8 + 0.8**3 + 0.8**4) = 0.34432
    assert get("rbp").value(GRADED, 1000) == pytest.approx(0.34432, abs=1e-15)
    # p=0.5, level 2: ranks 2 and 5: 0.5 * (0.5 + 0.5**4) = 0.28125
    assert get("rbp(p=0.5,rel=2)").value(GRADED, 1000) == 0.28125
    assert get("rbp").value(retrieval_counts(("x",), set()), 5) is None


def test_exponential_ndcg_weighs_high_grades_more():
    # gains 2**g - 1: a 3 at rank 2, d 7 at rank 5, b 1 at rank 4; ideal 7, 3, 1
    from math import log2
    dcg = 3 / log2(3) + 1 / log2(5) + 7 / log2(6)
    ideal = 7 + 3 / log2(3) + 1 / log2(4)
    assert get("ndcg(dcg=exp-log2)").value(GRADED, 10) == pytest.approx(dcg / ideal, abs=1e-15)
    binary = retrieval_counts(("x", "a"), {"a", "b"})  # binary labels: the same as nDCG
    assert get("ndcg(dcg=exp-log2)").value(binary, 5) == get("ndcg").value(binary, 5)


def test_relevance_level_reads_the_grades_not_min_relevance():
    # level 2: a (rank 2) and d (rank 5): P@5 2/5, AP (1/2 + 2/5) / 2, RR 1/2, R@4 1/2
    assert get("precision(rel=2)").value(GRADED, 5) == 2 / 5
    assert get("ap(rel=2)").value(GRADED, 1000) == (1 / 2 + 2 / 5) / 2
    assert get("rr(rel=2)").value(GRADED, 1000) == 1 / 2
    assert get("recall(rel=2)").value(GRADED, 4) == 1 / 2
    # level 4: nothing graded so high: n/a with the level said
    assert get("precision(rel=4)").value(GRADED, 5) is None
    assert get("precision(rel=4)").undefined == "nothing is labelled relevant at grade 4 or above"
    # binary labels have grade 1: level 2 finds nothing relevant
    assert get("precision(rel=2)").value(retrieval_counts(("a",), {"a"}), 1) is None


def test_names_and_defaults():
    assert parse_measure("RBP(p=0.8)").metric == "rbp"  # the default leaves no parameter
    assert parse_measure("nDCG(dcg='exp-log2')@10").metric == "ndcg(dcg=exp-log2)"
    assert parse_measure("P(rel=1)@10").metric == "precision(rel=1)"  # said: kept
    assert [m.label for m in parse_trec_measure("P.5,10")] == ["P@5", "P@10"]
    assert [m.trec_name for m in parse_trec_measure("Rprec")] == ["Rprec"]


@pytest.mark.parametrize("text, words", [
    ("P(rel=x)@10", "'P(rel=x)@10': measure P: parameter rel must be a whole number from 1 "
                    "to 1000 (the lowest grade counted relevant); got 'x' (such as "
                    "P(rel=2)@10)"),
    ("P(level=2)@10", "measure P has no parameter 'level'; it takes rel: P(rel=2)@10"),
    ("RBP(p=1)", "parameter p must be a number strictly between 0 and 1"),
    ("nDCG(dcg=exp)@10", "parameter dcg must be log2 (gain = grade) or exp-log2"),
    ("ERR(rel=2)@10", "measure ERR takes no parameters"),
    ("ERR", "'ERR' needs a cutoff, such as ERR@10"),
    ("P(rel=2,rel=3)@10", "parameters are written name=value, each once"),
])
def test_bad_parameters_name_the_measure_and_a_valid_form(text, words):
    with pytest.raises(InvalidInputError, match="^--measures") as error:
        parse_measure(text)
    assert words in str(error.value)


@pytest.mark.parametrize("text, closest", [
    ("P10", "closest: P.10, P, map_cut.10"),
    ("MAP", "closest: map"),
    ("ndcg_cut", None),  # trec_eval's default cutoffs: accepted
])
def test_trec_spellings_trec_eval_lacks_are_refused_with_the_closest(text, closest):
    if closest is None:
        assert [m.k for m in parse_trec_measure(text)] == [5, 10, 15, 20, 30, 100, 200, 500,
                                                          1000]
        return
    with pytest.raises(InvalidInputError, match=f"^-m: trec_eval has no measure '{text}'"):
        parse_trec_measure(text)
    with pytest.raises(InvalidInputError) as error:
        parse_trec_measure(text)
    assert closest in str(error.value)


# judged a, b (relevant), x, y (not), p listed at -1 (pooled, not judged); u unjudged
POOLED = count({"a", "b"}, None, ("x", "p", "a", "u", "b"), None,
               grades={"a": 1, "b": 1, "x": 0, "y": 0, "p": -1},
               judged={"a", "b", "x", "y", "p"})


def test_bpref_skips_what_is_not_judged():
    # R = 2, N = 2 (x, y; p is not judged): a has x above (1 - 1/2), b has x above (p and u
    # skipped): (0.5 + 0.5) / 2
    assert get("bpref").value(POOLED, 1000) == 0.5
    # every passage judged (course rules): no pool, n/a with the reason
    assert get("bpref").value(retrieval_counts(("a",), {"a"}), 10) is None
    assert "every passage is judged" in get("bpref").undefined


def test_infap_counts_the_pooled_but_unjudged():
    eps = 1e-5
    # a at rank 3: none relevant above, x not relevant, p pooled: 1/3 + (2/3)(2/2)(e/(1+2e))
    # b at rank 5: a, x, p above: 1/5 + (4/5)(3/4)((1+e)/(2+2e)) = 1/5 + 3/10
    first = 1 / 3 + (2 / 3) * (2 / 2) * (eps / (1 + 2 * eps))
    second = 1 / 5 + (4 / 5) * (3 / 4) * ((1 + eps) / (2 + 2 * eps))
    assert get("infap").value(POOLED, 1000) == pytest.approx((first + second) / 2, abs=1e-15)
