"""The audit's text and JSON: every kind under its heading, n/a kinds say why."""
import json

from ragscore.render.audit import audit_json, render_audit
from ragscore.tables.audit import Audit, Finding, Unjudged

RESULT = Audit(
    k=3,
    findings=(Finding("unjudged", "q1", "S", ("x", "y"), "2 of 3 documents in the top 3 "
                                                         "not judged"),
              Finding("support outside relevant", "q2", None, ("z",),
                      "claim 'c' is supported by z graded 1, below min_relevance 2")),
    unjudged={"S": Unjudged(2, 3, 1)},
    notes={"disputed": "not checked: no case has reviews (dataset format 3 adds them)"})


def test_text_lists_each_kind_with_its_count_or_why_it_was_not_checked():
    lines = render_audit(RESULT, name="tiny").splitlines()
    assert lines[0].startswith("Label audit of tiny at k=3: 2 findings")
    assert lines[2:6] == [
        "Unjudged documents in the top 3 (judged = listed in 'relevant', at any grade, 0 "
        "included): 1",
        "  S: 2 of 3 retrieved documents unjudged, in 1 question",
        "  q1 S: x, y (2 of 3 documents in the top 3 not judged)",
        ""]
    assert "Near-duplicate documents (same text up to whitespace) labelled differently " \
           "for a question: 0" in lines
    assert "  q2: z (claim 'c' is supported by z graded 1, below min_relevance 2)" in lines
    assert lines[-1] == ("Disputed labels (reviewers decided differently): not checked: no "
                         "case has reviews (dataset format 3 adds them)")


def test_json_keeps_system_null_for_a_label_finding():
    data = json.loads(audit_json(RESULT, name="tiny"))
    assert data["findings"][1]["system"] is None
    assert data["findings"][0]["docs"] == ["x", "y"]
    assert data["unjudged"] == {"S": {"unjudged": 2, "retrieved": 3, "questions": 1}}
    assert data["notes"] == {"disputed": RESULT.notes["disputed"]}
