"""The label audit, on tiny datasets built by hand and saved and loaded as a user's would be."""
import copy

import pytest

from ragscore.io.dataset import Dataset
from ragscore.folders import load_dataset, save_dataset
from ragscore.tables.audit import (Finding, Unjudged, audit, disputed_labels, is_unanswerable,
                                   normalise_text)

CORPUS = {
    "a": "Release  window\n starts Monday.",
    "b": "Release window starts Monday. ",  # a's text up to whitespace
    "c": "Rollback: switch traffic.",
    "d": "Unrelated note.",
    "e": None,  # open rules: text is optional; two documents without text are not duplicates
    "f": None,
}
CASES = {
    # c is graded 1, below min_relevance 2: judged, not relevant, yet a support source.
    "q1": {"question": "When?", "relevant": {"a": 2, "c": 1, "d": 0},
           "support": {"fact": ("a",), "extra": ("c",)}},
    "q2": {"question": "Which?", "relevant": {"b": 2, "a": 0}, "support": {"fact": ("b",)}},
    "q3": {"question": "Where?", "relevant": {}, "support": {}},  # unanswerable
}
RUNS = {
    "q1": {"S1": {"retrieved": ("a", "e", "d"), "claims": (("fact", ("a",)),)},
           "S2": {"retrieved": ("d", "c"), "claims": (("fact", ("a",)),)}},
    "q2": {"S1": {"retrieved": ("b", "c"), "claims": (("fact", ("b",)),)},
           "S2": {"retrieved": ("f",), "claims": ()}},
    "q3": {"S1": {"retrieved": ("d",), "claims": (("x", ("d",)), ("y", ("d", "c")))},
           "S2": {"retrieved": (), "claims": ()}},
}


@pytest.fixture
def dataset(tmp_path):
    built = Dataset(corpus=CORPUS, cases=CASES, runs=RUNS, name="tiny", ids="open",
                    min_relevance=2)
    return load_dataset(save_dataset(built, tmp_path / "tiny"))


def _of(result, kind):
    return [finding for finding in result.findings if finding.kind == kind]


def test_unjudged_documents_in_the_top_k_per_question_and_system(dataset):
    result = audit(dataset, k=2)
    # judged = any grade, 0 included: d (grade 0 on q1) is judged, e is not.
    assert [(f.case, f.system, f.docs) for f in _of(result, "unjudged")] == [
        ("q1", "S1", ("e",)), ("q2", "S1", ("c",)), ("q2", "S2", ("f",)),
        ("q3", "S1", ("d",))]
    assert result.unjudged == {"S1": Unjudged(unjudged=3, retrieved=5, questions=3),
                               "S2": Unjudged(unjudged=1, retrieved=3, questions=1)}
    assert _of(result, "unjudged")[0].detail == "1 of 2 documents in the top 2 not judged"


def test_the_cutoff_decides_what_is_looked_at(dataset):
    assert audit(dataset, k=1).unjudged["S1"] == Unjudged(unjudged=1, retrieved=3,
                                                          questions=1)  # q3's d only
    assert audit(dataset, k=3).unjudged["S1"] == Unjudged(unjudged=3, retrieved=6,
                                                          questions=3)


def test_near_duplicates_labelled_differently(dataset):
    assert _of(audit(dataset, k=2), "near-duplicate") == [
        Finding("near-duplicate", "q1", None, ("a", "b"),
                "same text, relevant: a; not relevant: b (unjudged)"),
        Finding("near-duplicate", "q2", None, ("b", "a"),
                "same text, relevant: b; not relevant: a (judged not relevant)")]


def test_unanswerable_questions_answered_with_citations(dataset):
    assert _of(audit(dataset, k=2), "answered unanswerable") == [
        Finding("answered unanswerable", "q3", "S1", ("d", "c"),
                "labelled unanswerable; answered with 2 claims citing d, c")]


def test_support_outside_the_relevant_set_under_graded_labels(dataset):
    result = audit(dataset, k=2)
    assert _of(result, "support outside relevant") == [
        Finding("support outside relevant", "q1", None, ("c",),
                "claim 'extra' is supported by c graded 1, below min_relevance 2")]
    assert result.notes == {
        "disputed": "not checked: no case has reviews (dataset format 3 adds them)"}


def test_findings_come_in_kind_order_and_the_dataset_is_unchanged(dataset):
    before = copy.deepcopy(dataset)
    kinds = [finding.kind for finding in audit(dataset, k=2).findings]
    assert kinds == ["unjudged"] * 4 + ["near-duplicate"] * 2 + ["answered unanswerable",
                                                                 "support outside relevant"]
    assert dataset == before


def test_course_lists_are_checked_by_validation_not_by_the_audit(course):
    result = audit(course, k=2)
    assert result.notes["support outside relevant"].startswith(
        "not checked: every case lists its relevant documents")
    assert _of(result, "near-duplicate") == []
    assert [(f.case, f.system, f.docs) for f in _of(result, "answered unanswerable")] == [
        ("region", "A", ("archive",))]  # B abstains on region: no finding


def test_a_corpus_without_text_says_duplicates_were_not_checked():
    bare = Dataset(corpus={"a": None, "b": None},
                   cases={"q": {"question": "?", "relevant": ("a",)}},
                   runs={"q": {"S": {"retrieved": ("b",)}}}, ids="open")
    result = audit(bare, k=2)
    assert result.notes["near-duplicate"] == "not checked: the corpus records no text"
    assert result.findings == (Finding("unjudged", "q", "S", ("b",),
                                       "1 of 1 document in the top 2 not judged"),)


# ---- disputed labels (the hook for dataset format 3's reviews) ---------------------------

REVIEWS = [
    {"reviewer": "ana", "doc": "a", "decision": "relevant", "note": ""},
    {"reviewer": "ben", "doc": "a", "decision": "not relevant", "note": "too vague"},
    {"reviewer": "ana", "doc": "c", "decision": "relevant", "note": ""},
    {"reviewer": "ben", "doc": "c", "decision": "relevant", "note": ""},
    {"reviewer": "ana", "system": "S1", "claim": "fact", "decision": "supported", "note": ""},
    {"reviewer": "cy", "system": "S1", "claim": "fact", "decision": "unsupported", "note": ""},
]


def test_disputed_labels_are_items_with_two_decisions():
    assert disputed_labels({"reviews": REVIEWS}) == [
        (("doc", "a"), {"ana": "relevant", "ben": "not relevant"}),
        (("claim", "S1", "fact"), {"ana": "supported", "cy": "unsupported"})]
    assert disputed_labels({"reviews": []}) == []
    assert disputed_labels({}) == []


def test_audit_reports_disputes_when_cases_carry_reviews():
    cases = copy.deepcopy(CASES)
    cases["q1"]["reviews"] = REVIEWS
    result = audit(Dataset(corpus=CORPUS, cases=cases, runs=RUNS, ids="open",
                           min_relevance=2), k=2)
    assert _of(result, "disputed") == [
        Finding("disputed", "q1", None, ("a",),
                "document label disputed: ana relevant, ben not relevant"),
        Finding("disputed", "q1", "S1", (), "claim 'fact' disputed: ana supported, "
                                            "cy unsupported")]
    assert "disputed" not in result.notes


# ---- the small rules ---------------------------------------------------------------------

def test_normalise_text_only_touches_whitespace():
    assert normalise_text(" a\t b\n\nc ") == "a b c"
    assert normalise_text("A b") != normalise_text("a b")


def test_unanswerable_means_nothing_relevant_and_no_claim_expected():
    assert is_unanswerable({"relevant": (), "support": {}})
    assert is_unanswerable({"relevant": {"a": 1}}, min_relevance=2)
    assert not is_unanswerable({"relevant": {"a": 2}}, min_relevance=2)
    assert not is_unanswerable({"relevant": ("a",), "support": {"x": ("a",)}})


def test_the_practice_collection_end_to_end():
    """Through load_dataset (format version 3): reviews, trials and restricted notes."""
    from pathlib import Path

    import ragscore

    practice = ragscore.load_dataset(Path(__file__).resolve().parents[2] / "fixtures" /
                                     "practice")
    result = audit(practice, k=3)
    # the collection's author counted 5 items ana and ben decided differently
    assert sum(1 for finding in result.findings if finding.kind == "disputed") == 5
    answered = {(f.case, f.system) for f in result.findings if f.kind == "answered unanswerable"}
    assert ("outage-cause", "baseline") in answered
