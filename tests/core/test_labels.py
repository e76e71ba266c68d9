"""Judgement records: their checks (every message), their keys, who replaces whom, and how
several reviewers' decisions make one, by hand."""
import hashlib

import pytest

from ragscore.core.labels import (check_record, claim_key, content_key, current, judged_case,
                                  passage_key, question_key, resolve, resolved, tally)

KEY = "0123456789abcdef"


def record(**changes):
    found = {"kind": "support", "case": "q1", "key": KEY, "claim": "opens monday",
             "citations": ["p1"], "decision": "supported", "reviewer": "ana",
             "date": "2026-12-04", "origin": "human", "batch": "fedcba9876543210"}
    found.update(changes)
    return {name: value for name, value in found.items() if value is not None}


def test_a_key_is_a_hash_of_the_content():
    assert content_key("claim", "a", ["k"]) == hashlib.sha256(
        b'["claim","a",["k"]]').hexdigest()[:16]
    assert passage_key("p1", "Text.") != passage_key("p1", "Text, edited.")
    assert passage_key("p1", None) != passage_key("p2", None)
    assert claim_key("a", ["x", "y"]) == claim_key("a", ["y", "x"])
    assert claim_key("a", ["x"]) != claim_key("b", ["x"])
    assert question_key("When?") != question_key("When ?")


@pytest.mark.parametrize("changes, message", [
    ({"kind": "rating"}, "field 'kind' must be one of relevance, support, answerability, "
                         "span-relevance, evidence, nugget, citation; got 'rating'"),
    ({"doc": "p1"}, "unknown field 'doc' for a support judgement"),
    ({"batch": None}, "field 'batch' is missing"),
    ({"case": " "}, "field 'case' must be a non-blank string; got ' '"),
    ({"key": "xyz"}, "field 'key' must be 16 hex digits (a content hash); got 'xyz'"),
    ({"date": "04/12/2026"}, "field 'date' must be a date YYYY-MM-DD; got '04/12/2026'"),
    ({"origin": "robot"}, "field 'origin' must be one of human, llm-draft, post-edited; got "
                          "'robot'"),
    ({"citations": ["p1", "p1"]}, "field 'citations' must be an array of distinct passage "
                                  "IDs; got ['p1', 'p1']"),
    ({"decision": "maybe"}, "field 'decision' must be one of supported, unsupported, not a "
                            "claim; got 'maybe'"),
    ({"decision": "unsupported", "states": "monday"}, "field 'states' belongs to a supported "
                                                      "claim only"),
    ({"note": 3}, "field 'note' must be a string; got 3"),
])
def test_a_broken_record_is_refused_naming_the_field(changes, message):
    with pytest.raises(ValueError, match="^line 7: " + message.replace("(", r"\(")
                       .replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        check_record(record(**changes), "line 7")


def test_a_relevance_decision_is_a_whole_number_grade():
    relevance = record(kind="relevance", claim=None, citations=None, doc="p1", decision=2)
    assert check_record(relevance, "line 1")["decision"] == 2
    with pytest.raises(ValueError, match="field 'decision' must be a grade .* got 'relevant'"):
        check_record(dict(relevance, decision="relevant"), "line 1")
    with pytest.raises(ValueError, match="got True"):
        check_record(dict(relevance, decision=True), "line 1")


def test_the_same_reviewer_replaces_their_own_decision_another_sits_beside():
    ana_first = record(decision="supported")
    ben = record(reviewer="ben", decision="unsupported")
    ana_again = record(decision="not a claim")
    found = current([ana_first, ben, ana_again])
    assert found.replaced == 1
    assert found.items[("support", "q1", KEY)] == {"ben": ben, "ana": ana_again}


def test_one_decision_from_several_reviewers_the_conservative_way():
    # relevance: the lowest grade
    assert resolve("relevance", [2, 0, 1]) == 0
    # support: a decision (and what it states) only when every reviewer gave exactly it
    assert resolve("support", [("supported", "monday")] * 2) == ("supported", "monday")
    assert resolve("support", [("supported", "monday"), ("unsupported", None)]) == (
        "unsupported", None)
    assert resolve("support", [("not a claim", None), ("unsupported", None)]) == (
        "unsupported", None)
    # answerability: agreement, else unsure
    assert resolve("answerability", ["answerable", "unsure"]) == "unsure"


def test_a_machines_draft_never_scores_unless_asked_and_then_never_over_a_person():
    person = record()
    draft = record(reviewer="judge:overlap", origin="llm-draft", decision="unsupported")
    other = record(key="1111111111111111", reviewer="judge:overlap", origin="llm-draft")
    assert resolved([person, draft, other]) == {("support", "q1", KEY): ("supported", None)}
    assert resolved([person, draft, other], machines=True) == {
        ("support", "q1", KEY): ("supported", None),
        ("support", "q1", "1111111111111111"): ("supported", None)}


def test_judged_grades_fill_what_the_labels_leave_out_and_never_override_them():
    case = {"relevant": ("a",), "support": {"x": ("a",)}}
    assert judged_case(case, {"a": 0, "b": 2}, None, min_relevance=2)["relevant"] == {
        "a": 2, "b": 2}
    # a question labelled unanswerable keeps nothing relevant
    assert judged_case({"relevant": (), "support": {}}, {"b": 1, "c": 0}, None)["relevant"] \
        == {"c": 0}
    # judged unanswerable, nothing judged relevant: no claim is expected there
    assert judged_case({"relevant": ()}, {}, "unanswerable") == {
        "relevant": (), "answerability": "unanswerable", "support": {}}
    # unsure leaves it as its labels say
    assert judged_case({"relevant": ()}, {}, "unsure") == {"relevant": ()}
    assert case == {"relevant": ("a",), "support": {"x": ("a",)}}  # not changed


def test_a_tally_counts_kinds_origins_reviewers_and_replacements():
    records = [record(), record(reviewer="judge:x", origin="llm-draft"),
               record(decision="unsupported"), record(kind="answerability", claim=None,
                                                      citations=None, decision="unsure")]
    assert tally(records) == (4, {"support": 3, "answerability": 1},
                              {"human": 3, "llm-draft": 1}, 2, 1)
