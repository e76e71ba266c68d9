"""Chapter 9's review panel scores the learner's own decisions as they are made."""
from pathlib import Path

import ragscore
from ragscore.workbook.answer_review import answer_queue_editor

ANSWERS = Path(__file__).resolve().parents[2] / "fixtures" / "answers"


def _row(case, support, coverage):
    cells = "".join(f'<td class="na">{value}</td>' if value == "n/a" else f"<td>{value}</td>"
                    for value in (support, coverage))
    return f"<tr><td>{case}</td><td>draft</td>{cells}</tr>"


def test_each_decision_redraws_draft_scored_at_k_2():
    panel = answer_queue_editor(ragscore.load_dataset(ANSWERS), system="draft",
                                reviewer="learner", date="2026-12-04", k=2)
    # nothing decided: every answer waits, so support and coverage are n/a, never 0
    for case in ("launch", "rollback", "owner", "region"):
        assert _row(case, "n/a", "n/a") in panel.scores.value
    assert "n/a" in panel.snapshot()
    # launch: the pooled archive note, then draft's two sentences
    assert (panel.current()["kind"], panel.current()["doc"]) == ("relevance", "archive")
    panel.buttons["0 not relevant"].click()
    panel.buttons["supported, states monday"].click()   # "... Monday [1]" cites launch
    assert _row("launch", "n/a", "n/a") in panel.scores.value   # one claim still waits
    panel.buttons["unsupported"].click()                 # "... planned well in advance [2]"
    # support 1 of 2 claims = 0.50; coverage: monday stated and supported, 1 of 1 = 1.00
    assert _row("launch", "0.50", "1.00") in panel.scores.value
    assert _row("rollback", "n/a", "n/a") in panel.scores.value
    assert _row("launch", "0.50", "1.00") in panel.snapshot()


def test_without_k_the_panel_scores_nothing():
    panel = answer_queue_editor(ragscore.load_dataset(ANSWERS), system="draft",
                                reviewer="learner", date="2026-12-04")
    assert panel.scores.value == "" and "<table" not in panel.snapshot()
