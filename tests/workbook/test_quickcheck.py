"""Each chapter's quick check: one right choice, feedback written for every choice, a panel
whose click shows that feedback, and a stored view that does not say which choice is right."""
from pathlib import Path

import pytest

from ragscore.workbook.quickcheck import LETTERS, QUICK_CHECKS, feedback, feedback_html, \
    question_html, \
    quick_check

CHAPTERS = sorted(p.name[:2] for p in
                  (Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.py"))


def test_every_chapter_has_one():
    assert sorted(QUICK_CHECKS) == CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_one_right_choice_and_feedback_for_each(chapter):
    found = QUICK_CHECKS[chapter]
    assert 3 <= len(found.choices) <= len(LETTERS)
    assert sum(choice.right for choice in found.choices) == 1
    texts = [choice.feedback for choice in found.choices]
    assert len(set(texts)) == len(texts) and all(len(text) > 20 for text in texts)
    for choice in found.choices:
        assert choice.feedback.startswith("Right:") == choice.right, choice


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_stored_view_does_not_say_which_is_right(chapter):
    shown = question_html(chapter)
    assert "Right" not in shown and "data-right" not in shown
    for choice in QUICK_CHECKS[chapter].choices:
        assert choice.feedback[:30] not in shown


def test_a_click_shows_the_feedback_of_that_choice():
    panel = quick_check("02")
    assert repr(panel) == "quick check, chapter 2: no answer yet" and panel.feedback.value == ""
    panel.choice.value = "A"
    assert 'data-right="false"' in panel.feedback.value and "three slots" in panel.feedback.value
    panel.choice.value = "B"
    assert 'data-right="true"' in panel.feedback.value
    assert "Right: one hit over k = 3 slots" in panel.feedback.value
    assert repr(panel) == "quick check, chapter 2: B"
    assert "Quick check." in panel.snapshot() and "Right" not in panel.snapshot()


def test_the_right_letter_varies():
    """A learner who always picks the same letter must not be right most of the time: no
    letter is right in more than a third of the chapters (rounded up), and at least three
    letters are right somewhere."""
    right = [LETTERS[[choice.right for choice in QUICK_CHECKS[chapter].choices].index(True)]
             for chapter in CHAPTERS]
    assert max(right.count(letter) for letter in LETTERS) <= -(-len(CHAPTERS) // 3), right
    assert len(set(right)) >= 3, right


def test_the_answer_of_chapter_2_by_hand():
    # one relevant note returned, k = 3: 1 hit / 3 slots = 0.33
    right = [choice.text for choice in QUICK_CHECKS["02"].choices if choice.right]
    assert right == ["0.33"]


@pytest.mark.parametrize("chapter, letter, message", [
    ("99", "A", r"chapter must be one of 01, .*; got '99'"),
    (2, "A", r"chapter must be one of 01, .*; got 2"),
    ("02", "E", r"choice must be one of A, B, C, D; got 'E'"),
    ("02", None, r"choice must be one of A, B, C, D; got None"),
])
def test_an_unknown_chapter_or_choice_is_refused(chapter, letter, message):
    with pytest.raises(ValueError, match=message):
        feedback(chapter, letter)


def test_the_feedback_shown_needs_no_kernel():
    """Each letter's feedback is drawn when the panel is built and the buttons are linked to
    it in the browser: a click shows the feedback without a round trip to a busy kernel."""
    panel = quick_check("02")
    assert panel.shown.selected_index is None
    assert [child.value.endswith(feedback_html("02", letter))
            for letter, child in zip(LETTERS, panel.shown.children)] == [True] * 4
    assert (panel.link.source, panel.link.target) == ((panel.choice, "index"),
                                                       (panel.shown, "selected_index"))
    assert panel.shown in panel.children and panel.feedback not in panel.children
