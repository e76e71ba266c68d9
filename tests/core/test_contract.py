"""The ten behaviours the course contract pins, plus the workbook's table and its boundaries.

Every expected number here is worked out by hand from the course fixture (chapter 4's table).
"""
import pytest

import ragscore
from ragscore import CONTRACT as METRICS
from ragscore import evaluate

# The workbook's eight rows at k=2, written out by hand, in contract order.
WORKBOOK_K2 = {
    ("launch", "A"): (0.5, 1.0, 1.0, 1.0, 1.0, None),
    ("launch", "B"): (0.5, 1.0, 1.0, 0.5, 1.0, None),
    ("rollback", "A"): (0.5, 0.5, 1.0, 1.0, 0.5, None),
    ("rollback", "B"): (1.0, 1.0, 1.0, 1.0, 1.0, None),
    ("owner", "A"): (0.5, 1.0, 0.5, 0.0, 0.0, None),
    ("owner", "B"): (0.5, 1.0, 1.0, 1.0, 1.0, None),
    ("region", "A"): (None, None, None, 0.0, None, False),
    ("region", "B"): (None, None, None, None, None, True),
}


@pytest.mark.parametrize("pair", WORKBOOK_K2)
def test_workbook_table_at_k2(score, pair):
    assert tuple(score(*pair).values()) == WORKBOOK_K2[pair]


def test_result_keys_are_in_contract_order(score):
    assert list(score("launch", "A")) == [
        "precision", "recall", "rr", "support", "coverage", "abstention_correct"]
    assert METRICS == tuple(score("launch", "A"))


# 1. A short list keeps the cutoff as its denominator.
def test_short_list_keeps_cutoff_denominator(score):
    result = score("rollback", "A")  # one item returned, k = 2
    assert (result["precision"], result["recall"]) == (0.5, 0.5)


# 2. Good retrieval does not hide an unsupported extra claim.
def test_good_retrieval_does_not_hide_extra_claim(score):
    result = score("launch", "B")
    assert result["recall"] == 1.0
    assert result["support"] == 0.5
    assert result["coverage"] == 1.0


# 3. A complete, supported answer scores 1 on both answer metrics.
def test_complete_supported_answer(score):
    result = score("rollback", "B")
    assert (result["support"], result["coverage"]) == (1.0, 1.0)


# 4. An existing but wrong citation is not support.
def test_existing_but_wrong_citation_is_not_support(score):
    result = score("owner", "A")
    assert (result["recall"], result["rr"]) == (1.0, 0.5)
    assert (result["support"], result["coverage"]) == (0.0, 0.0)


# 5. A citation outside the visible top-k context is unsupported.
def test_citation_outside_visible_context_is_unsupported(score):
    result = score("rollback", "B", k=1)  # checklist sits at rank 2
    assert (result["support"], result["coverage"]) == (0.5, 0.5)
    assert (result["precision"], result["recall"], result["rr"]) == (1.0, 0.5, 1.0)


# 6. Missing, unknown or partly wrong citations do not count.
@pytest.mark.parametrize("citations", [(), ("unknown",), ("owners", "archive"),
                                       ("archive", "owners")])
def test_missing_unknown_or_mixed_citations_do_not_count(corpus, cases, citations):
    run = {"retrieved": ("owners", "archive"), "claims": (("aurora", citations),)}
    result = evaluate(corpus, cases["owner"], run)
    assert result["support"] == 0.0
    assert result["coverage"] == 0.0


def test_the_right_citation_alone_counts(corpus, cases):
    run = {"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}
    assert evaluate(corpus, cases["owner"], run)["support"] == 1.0


# 7. Abstention is scored apart from the missing retrieval and support values.
def test_abstention_is_separate_from_missing_metrics(score):
    abstained = score("region", "B")
    assert abstained["recall"] is None
    assert abstained["support"] is None
    assert abstained["abstention_correct"] is True
    answered = score("region", "A")
    assert answered["abstention_correct"] is False
    assert answered["support"] == 0.0


# 8. Abstaining on an answerable question is zero coverage, not a success.
def test_answerable_abstention_has_zero_coverage(corpus, cases):
    result = evaluate(corpus, cases["owner"], {"retrieved": (), "claims": ()})
    assert result["coverage"] == 0.0
    assert result["support"] is None
    assert result["abstention_correct"] is None
    assert (result["precision"], result["recall"], result["rr"]) == (0.0, 0.0, 0.0)


# 9. Duplicate documents and duplicate claims are refused.
def test_duplicate_documents_are_rejected(corpus, cases):
    with pytest.raises(ValueError, match=r"run\['retrieved'\]\[1\] must be unique"):
        evaluate(corpus, cases["owner"], {"retrieved": ("owners", "owners"), "claims": ()})


def test_duplicate_claims_are_rejected(corpus, cases):
    run = {"retrieved": ("owners",), "claims": (("aurora", ("owners",)),) * 2}
    with pytest.raises(ValueError, match=r"run\['claims'\]\[1\]\[0\] must be unique"):
        evaluate(corpus, cases["owner"], run)


# 10. Invalid labels and cutoffs are refused.
def test_support_label_outside_relevant_is_rejected(corpus, cases, runs):
    case = dict(cases["owner"], support={"aurora": ("archive",)})
    with pytest.raises(ValueError, match=r"case\['support'\]\['aurora'\]\[0\] must be a "
                                         r"source within case\['relevant'\]; got 'archive'"):
        evaluate(corpus, case, runs["owner"]["B"])


@pytest.mark.parametrize("k", [0, True, False, 1.5, 101, -1, "2", None, 2.0])
def test_invalid_cutoffs_are_rejected(score, k):
    with pytest.raises(ValueError, match=r"k must be an int from 1 to 100; got "):
        score("owner", "B", k=k)


# Boundaries: k = 1 and k = 100, lists of exactly 100 and 101 IDs.
def test_k_equal_1_scores_only_the_first_slot(score):
    assert tuple(score("owner", "A", k=1).values()) == (0.0, 0.0, 0.0, 0.0, 0.0, None)
    assert tuple(score("owner", "B", k=1).values()) == (1.0, 1.0, 1.0, 1.0, 1.0, None)


def test_k_equal_100_keeps_100_as_denominator(score):
    result = score("rollback", "B", k=100)
    assert result["precision"] == 2 / 100
    assert (result["recall"], result["rr"], result["support"]) == (1.0, 1.0, 1.0)


def _big_corpus(size):
    return {f"doc-{n}": f"Note number {n}." for n in range(size)}


def test_lists_of_exactly_100_ids_are_accepted():
    corpus = _big_corpus(150)
    hundred = tuple(f"doc-{n}" for n in range(100))
    case = {"relevant": hundred, "support": {"all": hundred}}
    claims = tuple((f"c{n}", ("doc-0",)) for n in range(99)) + (("all", hundred),)
    result = evaluate(corpus, case, {"retrieved": hundred, "claims": claims}, k=100)
    assert (result["precision"], result["recall"], result["rr"]) == (1.0, 1.0, 1.0)
    assert result["support"] == 1 / 100  # only "all" is labelled; c0..c98 are not
    assert result["coverage"] == 1.0


@pytest.mark.parametrize("field", ["relevant", "retrieved", "citations", "sources"])
def test_lists_of_101_ids_are_refused(field):
    corpus = _big_corpus(150)
    many = tuple(f"doc-{n}" for n in range(101))
    case = {"relevant": ("doc-0",), "support": {"x": ("doc-0",)}}
    run = {"retrieved": ("doc-0",), "claims": ()}
    if field == "relevant":
        case = {"relevant": many, "support": {"x": ("doc-0",)}}
    elif field == "sources":
        case = {"relevant": ("doc-0",), "support": {"x": many}}
    elif field == "retrieved":
        run = {"retrieved": many, "claims": ()}
    else:
        run = {"retrieved": ("doc-0",), "claims": (("x", many),)}
    with pytest.raises(ValueError, match=r"must be a tuple of at most 100 IDs; got '101 items'"):
        evaluate(corpus, case, run)


def test_101_claims_are_refused(corpus, cases):
    claims = tuple((f"c{n}", ()) for n in range(101))
    with pytest.raises(ValueError, match=r"run\['claims'\] must be a tuple of at most 100 "
                                         r"\(claim, citations\) pairs; got '101 pairs'"):
        evaluate(corpus, cases["owner"], {"retrieved": (), "claims": claims})


def test_100_claims_are_accepted(corpus, cases):
    claims = (("aurora", ("owners",)),) + tuple((f"c{n}", ()) for n in range(99))
    result = evaluate(corpus, cases["owner"], {"retrieved": ("owners",), "claims": claims})
    assert result["support"] == 1 / 100
    assert result["coverage"] == 1.0


@pytest.mark.slow
def test_a_million_document_corpus_is_accepted():
    corpus = _big_corpus(1_000_000)
    case = {"relevant": ("doc-999999",), "support": {"x": ("doc-999999",)}}
    run = {"retrieved": ("doc-5", "doc-999999"), "claims": (("x", ("doc-999999",)),)}
    assert tuple(evaluate(corpus, case, run, k=2).values()) == (0.5, 1.0, 0.5, 1.0, 1.0, None)
    table = ragscore.score_runs(corpus, {"q": case}, {"q": {"s": run}}, k=1)
    assert table.loc[("q", "s"), "support"] == 0.0  # doc-999999 is at rank 2, outside k=1


def test_evaluate_does_not_change_its_inputs(course):
    import copy
    before = copy.deepcopy((course.corpus, course.cases, course.runs))
    for case in course.cases:
        for system in course.runs[case]:
            evaluate(course.corpus, course.cases[case], course.runs[case][system], k=1)
    assert (course.corpus, course.cases, course.runs) == before


def test_k_is_keyword_only(corpus, cases, runs):
    with pytest.raises(TypeError):
        evaluate(corpus, cases["owner"], runs["owner"]["B"], 2)  # noqa: the API forbids this
