"""Chapter 9's review panel scores the learner's own decisions as they are made."""
from pathlib import Path

import pytest

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


def test_back_takes_the_last_decision_back():
    """A misclick is taken back (the walkthrough on 25ac52f: only re-running the cell could):
    the item is shown again and the scores are redrawn without it."""
    panel = answer_queue_editor(ragscore.load_dataset(ANSWERS), system="draft",
                                reviewer="learner", date="2026-12-04", k=2)
    assert panel.back.disabled
    with pytest.raises(ValueError, match="nothing to take back"):
        panel.undo()
    panel.buttons["0 not relevant"].click()
    panel.buttons["supported, states monday"].click()   # "... Monday [1]" cites launch
    second = panel.current()
    panel.buttons["not a claim"].click()                 # meant: unsupported
    # "not a claim" is left out: support 1 of 1, coverage 1 of 1
    assert _row("launch", "1.00", "1.00") in panel.scores.value
    assert "3 of 10 judged" in panel.status.value
    panel.back.click()
    assert panel.current() == second and "2 of 10 judged" in panel.status.value
    assert _row("launch", "n/a", "n/a") in panel.scores.value   # its second claim waits again
    panel.buttons["unsupported"].click()
    assert _row("launch", "0.50", "1.00") in panel.scores.value  # as decided first time right
    for _ in range(3):
        panel.back.click()
    assert panel.back.disabled and panel.current()["doc"] == "archive"


def test_without_k_the_panel_scores_nothing():
    panel = answer_queue_editor(ragscore.load_dataset(ANSWERS), system="draft",
                                reviewer="learner", date="2026-12-04")
    assert panel.scores.value == "" and "<table" not in panel.snapshot()


def test_when_the_queue_is_done_the_panel_says_what_it_recorded():
    """Chapter 11's queue for terse (pool depth 0): one item, terse's rollback answer against
    the nugget order; one click, and the panel lists that judgement in words and says that
    nothing was written (no folder)."""
    from ragscore.io.queue_file import add_judgements, read_decisions

    answers = ragscore.load_dataset(ANSWERS)
    decisions = (ANSWERS.parent / "answers-decisions.csv").read_text(encoding="utf-8")
    dataset = add_judgements(answers, read_decisions(decisions, answers, kind="csv"))
    nuggets = {"rollback": ({"id": "switch", "importance": "vital"},
                            {"id": "order", "text": "The smoke test runs after the switch",
                             "importance": "okay"})}
    dataset = dataset._replace(cases={name: dict(case, nuggets=nuggets.get(name, ()))
                                      if name == "rollback" else case
                                      for name, case in dataset.cases.items()})
    panel = answer_queue_editor(dataset, system="terse", reviewer="learner",
                                date="2026-12-05", pool_depth=0)
    assert panel.current()["nugget"] == "order"    # the reviewed claims need nothing more
    assert "Done." not in panel.view.value
    panel.buttons["partial support"].click()
    assert panel.current() is None
    shown = panel.view.value
    assert "The queue is empty" in shown
    assert "You recorded 1 judgement as learner on 2026-12-05:" in shown
    assert "<li><code>rollback</code>, nugget <code>order</code>: partial support</li>" in shown
    assert "Nothing is saved: the panel was given no folder" in shown
