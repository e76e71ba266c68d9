"""The review editor: its logic on plain values, then the panel driven by .value and click()."""
import copy
from pathlib import Path

import pytest

import ragscore
from ragscore.core.rules import InvalidInputError
from ragscore.workbook.review import claim_review_rows, context_rows, disagreements, \
    judgement_of, record_judgement, review_html, trial_run
from ragscore.workbook.widgets import review_editor

PRACTICE = Path(__file__).resolve().parents[2] / "fixtures" / "practice"


@pytest.fixture(scope="module")
def _practice_once():
    return ragscore.load_dataset(PRACTICE)


@pytest.fixture
def practice(_practice_once):
    return copy.deepcopy(_practice_once)


# ---- logic ---------------------------------------------------------------------------------

def test_context_is_the_delivered_list_with_ranks(practice):
    # visitor-registration, rerank: the context builder dropped onboarding#visitors (rank 2)
    # and delivered rank 4 instead (see tests/io/test_practice.py).
    rows = context_rows(practice, "visitor-registration", "rerank", k=3)
    run = practice.runs["visitor-registration"]["rerank"]
    assert [row["chunk"] for row in rows] == list(run["delivered"])
    assert "onboarding#visitors" not in [row["chunk"] for row in rows]
    assert rows[0]["text"] == practice.corpus[rows[0]["chunk"]]


def test_context_without_delivered_is_the_top_k(course):
    rows = context_rows(course, "rollback", "B", k=2)
    assert [(row["chunk"], row["rank"]) for row in rows] == [
        (doc, str(rank)) for rank, doc in enumerate(course.runs["rollback"]["B"]["retrieved"][:2],
                                                    start=1)]


def test_claim_rows_show_yours_and_the_others(practice):
    rows = claim_review_rows(practice, "annual-days", "baseline", "ana")
    assert rows == [
        {"claim": "22-days", "citations": "leave@2025#annual", "yours": "not judged",
         "note": "", "others": "(none)", "disputed": "no"},
        {"claim": "roster-two-weeks", "citations": "leave@2025#annual", "yours": "supported",
         "note": "same wording in 2025",
         "others": "ben: unsupported (cites only the superseded edition)", "disputed": "yes"}]


def test_disagreements_list_documents_and_claims(practice):
    assert disagreements(practice, "annual-days") == [
        {"item": "doc leave@2025#annual", "decisions": "ana: relevant; ben: not relevant"},
        {"item": "baseline claim roster-two-weeks",
         "decisions": "ana: supported; ben: unsupported"}]
    assert disagreements(practice, "oncall-change") == []


def test_record_judgement_returns_a_new_dataset(practice):
    before = copy.deepcopy(practice.cases["annual-days"])
    after = record_judgement(practice, "annual-days", "baseline", "22-days", "cara",
                             "unsupported", "the 2026 edition says 25")
    assert practice.cases["annual-days"] == before          # the input is untouched
    assert after.cases["oncall-change"] is practice.cases["oncall-change"]
    assert after.cases["annual-days"]["reviews"][:-1] == before["reviews"]
    assert after.cases["annual-days"]["reviews"][-1] == {
        "reviewer": "cara", "system": "baseline", "claim": "22-days",
        "decision": "unsupported", "note": "the 2026 edition says 25"}


def test_record_judgement_replaces_in_place_and_withdraws(practice):
    reviews = practice.cases["annual-days"]["reviews"]
    changed = record_judgement(practice, "annual-days", "baseline", "roster-two-weeks", "ana",
                               "unsupported", "changed my mind")
    assert len(changed.cases["annual-days"]["reviews"]) == len(reviews)
    assert changed.cases["annual-days"]["reviews"][6]["decision"] == "unsupported"
    assert disagreements(changed, "annual-days") == [
        {"item": "doc leave@2025#annual", "decisions": "ana: relevant; ben: not relevant"}]
    withdrawn = record_judgement(practice, "annual-days", "baseline", "roster-two-weeks", "ana",
                                 None)
    assert judgement_of(withdrawn, "annual-days", "baseline", "roster-two-weeks", "ana") == \
        (None, "")
    assert len(withdrawn.cases["annual-days"]["reviews"]) == len(reviews) - 1


def test_a_claim_of_a_later_trial_can_be_judged(practice):
    # pay-proposals, rerank: trial 2 adds the claim 'calibration'.
    assert [c for c, _ in trial_run(practice, "pay-proposals", "rerank", trial=2)["claims"]] \
        == ["15-october", "calibration"]
    after = record_judgement(practice, "pay-proposals", "rerank", "calibration", "ana",
                             "supported")
    assert judgement_of(after, "pay-proposals", "rerank", "calibration", "ana") == \
        ("supported", "")


@pytest.mark.parametrize("change, message", [
    ({"claim": "bonus"}, r"claim must be one of the claims 'baseline' makes on case "
                         r"'annual-days' \(22-days, roster-two-weeks\); got 'bonus'"),
    ({"reviewer": "  "}, "reviewer must be a non-blank string \\(your name\\); got '  '"),
    ({"decision": "relevant"}, "decision must be one of supported, unsupported \\(or None to "
                               "withdraw a judgement\\); got 'relevant'"),
    ({"note": None}, "note must be a string; got None"),
    ({"system": "nobody"}, "system must be one of baseline, rerank, rerank-guarded for case "
                           "'annual-days'; got 'nobody'"),
])
def test_record_judgement_refuses_bad_input(practice, change, message):
    options = {"case": "annual-days", "system": "baseline", "claim": "22-days",
               "reviewer": "cara", "decision": "supported", "note": "", **change}
    with pytest.raises(InvalidInputError, match=message):
        record_judgement(practice, options["case"], options["system"], options["claim"],
                         options["reviewer"], options["decision"], options["note"])


def test_trial_out_of_range_is_refused(practice):
    with pytest.raises(InvalidInputError, match="trial must be an int from 1 to 3 for case "
                                                "'pay-proposals', system 'rerank'; got 4"):
        trial_run(practice, "pay-proposals", "rerank", trial=4)


def test_review_html_highlights_a_disputed_claim(practice):
    page = review_html(practice, "annual-days", "baseline", "ana", k=3)
    assert '<tr class="ragscore-disputed" data-claim="roster-two-weeks">' in page
    assert '<tr data-claim="22-days">' in page
    assert "Full-time staff get 22 days of annual leave." in page      # the answer text
    assert "delivered context" in page
    # named under the heading, not in a sixth column (which ran off a page at 200%)
    assert "(your judgement as ana; disputed, shaded: roster-two-weeks)</p>" in page
    assert "<th>disputed</th>" not in page and "<th>others</th>" in page
    assert "<th>note</th>" not in page      # a note is shown with its decision


def test_review_html_shows_your_note_with_your_decision(practice):
    after = record_judgement(practice, "annual-days", "baseline", "roster-two-weeks", "ana",
                             "unsupported", "cited copy was not delivered")
    page = review_html(after, "annual-days", "baseline", "ana", k=3)
    assert "<td>unsupported (note: cited copy was not delivered)</td>" in page


# ---- the panel -----------------------------------------------------------------------------

def _saved_copy(dataset, tmp_path):
    folder = tmp_path / "practice"
    ragscore.save_dataset(dataset, folder)
    return ragscore.load_dataset(folder), folder


def test_review_editor_starts_as_described(practice):
    panel = review_editor(practice, reviewer="ana", case="annual-days", system="baseline", k=3)
    assert repr(panel) == ("review editor: case annual-days, system baseline, trial 1 of 1, "
                           "reviewer ana")
    assert panel.claim.options == ("22-days", "roster-two-weeks")
    assert panel.save.disabled
    assert "No path given" in panel.status.value
    panel.claim.value = "roster-two-weeks"
    assert (panel.decision.value, panel.note.value) == ("supported", "same wording in 2025")
    assert 'class="ragscore-disputed" data-claim="roster-two-weeks"' in panel.view.value


def test_review_editor_saves_judgements(practice, tmp_path):
    dataset, folder = _saved_copy(practice, tmp_path)
    panel = review_editor(dataset, path=folder, reviewer="cara", case="annual-days",
                          system="baseline", k=3)
    panel.note.value = "the 2026 edition says 25 days"
    panel.decision.value = "unsupported"
    assert "not saved yet" in panel.status.value
    panel.claim.value = "roster-two-weeks"
    panel.decision.value = "unsupported"
    panel.save.click()
    assert "Saved the dataset" in panel.status.value
    reviews = ragscore.load_dataset(folder).cases["annual-days"]["reviews"]
    assert reviews[-2:] == (
        {"reviewer": "cara", "system": "baseline", "claim": "22-days", "decision": "unsupported",
         "note": "the 2026 edition says 25 days"},
        {"reviewer": "cara", "system": "baseline", "claim": "roster-two-weeks",
         "decision": "unsupported", "note": ""})
    assert reviews[:-2] == practice.cases["annual-days"]["reviews"]
    assert dataset.cases["annual-days"]["reviews"] == practice.cases["annual-days"]["reviews"]


def test_review_editor_highlights_a_new_disagreement(practice, tmp_path):
    dataset, folder = _saved_copy(practice, tmp_path)
    panel = review_editor(dataset, path=folder, reviewer="cara", case="oncall-change",
                          system="rerank", k=3)
    assert "No disagreements on this question." in panel.view.value
    panel.claim.value = "monday-10"          # ana and ben: supported
    panel.decision.value = "unsupported"
    assert 'class="ragscore-disputed" data-claim="monday-10"' in panel.view.value
    assert {"item": "rerank claim monday-10",
            "decisions": "ana: supported; ben: supported; cara: unsupported"} \
        in panel.disagreements()
    panel.save.click()
    # cara judged a claim: her pairs join the claims' (per kind since issue 40: documents
    # ana-ben; claims ana-ben, ana-cara, ben-cara)
    table = ragscore.reports.agreement_table(ragscore.load_dataset(folder))
    assert list(zip(table.kind, table.first, table.second)) == [
        ("doc", "ana", "ben"), ("claim", "ana", "ben"), ("claim", "ana", "cara"),
        ("claim", "ben", "cara")]


def test_review_editor_follows_trials_and_reviewers(practice):
    panel = review_editor(practice, reviewer="ana", case="pay-proposals", system="rerank")
    assert repr(panel).endswith("trial 1 of 3, reviewer ana")
    assert not panel.trial.disabled
    panel.trial.value = 2
    assert panel.claim.options == ("15-october", "calibration")
    assert "trial 2 of 3" in panel.view.value
    panel.case.value = "annual-days"
    assert (panel.system.value, panel.trial.value, panel.trial.disabled) == ("rerank", 1, True)
    panel.system.value = "baseline"
    panel.claim.value = "roster-two-weeks"
    panel.reviewer.value = "ben"
    assert (panel.decision.value, panel.note.value) == ("unsupported",
                                                        "cites only the superseded edition")


def test_review_editor_refuses_to_record_without_a_name(practice):
    panel = review_editor(practice, case="annual-days", system="baseline")
    panel.decision.value = "supported"
    assert "Not recorded: reviewer must be a non-blank string" in panel.status.value
    assert panel.dataset() is practice


def test_a_note_without_a_decision_records_nothing_and_says_so(practice):
    panel = review_editor(practice, reviewer="cara", case="annual-days", system="baseline")
    panel.note.value = "still reading"
    assert panel.dataset() is practice
    assert "choose supported or unsupported to record it" in panel.status.value
    panel.decision.value = "unsupported"
    assert panel.dataset().cases["annual-days"]["reviews"][-1]["note"] == "still reading"


def test_a_note_typed_without_enter_reaches_the_record(practice):
    """The note box sends every keystroke (a browser sends nothing until Enter or a click
    elsewhere when continuous_update is off), and each keystroke updates the judgement."""
    panel = review_editor(practice, reviewer="cara", case="annual-days", system="baseline")
    assert panel.note.continuous_update
    panel.decision.value = "supported"
    for typed in ("s", "sa", "same text"):
        panel.note.value = typed
    assert panel.dataset().cases["annual-days"]["reviews"][-1]["note"] == "same text"


def test_review_editor_reports_a_refused_save(course, tmp_path):
    (tmp_path / "notes.txt").write_text("not a dataset")
    panel = review_editor(course, path=tmp_path, reviewer="ana", case="owner", system="A")
    panel.decision.value = "unsupported"
    panel.save.click()
    assert "Not saved: " in panel.status.value
    assert "not a ragscore dataset (no dataset.json); refusing to replace it" in \
        panel.status.value
    assert (tmp_path / "notes.txt").read_text() == "not a dataset"


def test_review_editor_snapshot_repeats_its_summary(course):
    panel = review_editor(course, reviewer="ana", case="owner", system="A")
    snapshot = panel.snapshot()
    assert "review editor: case owner, system A, trial 1 of 1, reviewer ana." in snapshot
    assert '<tr data-claim="aurora">' in snapshot and "top 2 retrieved" in snapshot
    assert snapshot == review_editor(course, reviewer="ana", case="owner",
                                     system="A").snapshot()
