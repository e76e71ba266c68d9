"""Every exercise: right, wrong, wrong-type and missing answers, with numpy and pandas scalars.

The right answers below are worked by hand from the course data (and, where it states them,
the workbook); the package holds only their salted digests.
"""
import math
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

import pytest

from ragscore.core.rules import InvalidInputError
from ragscore.workbook.exercises import CHOICE, COUNT, EXERCISES, RATE, ROUNDING, YES_NO, \
    about, canonical, check

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "instructor.md"

#: exercise -> (kind, the right answer worked by hand, a likely mistake, another wrong answer)
HAND = {
    "01.1": (COUNT, 4, 5, 7),             # monday, switch, smoke, aurora; region expects none
    "01.2": (COUNT, 3, 2, 0),             # launch B (bonus), owner A (aurora), region A (region)
    "01.3": (CHOICE, "unsupported", "refused", None),  # valid input; the claim unsupported
    "02.1": (RATE, 2 / 3, 1.0, 0.1),      # 2 hits / 3 slots
    "02.2": (RATE, 5 / 12, 1.0, 0.2),     # owner: owners at rank 3, 1/3; launch: rank 2, 1/2
    "02.3": (RATE, 2 / 3, 0.5, 0.2),      # A's P@1: 1, 1, 0 and region n/a, out of the slice
    "03.1": (RATE, 1 / 3, 2 / 3, 0.1),    # monday supported; bonus and switch not: 1/3
    "03.2": (COUNT, 3, 4, 0),             # k = 1: monday, switch, aurora; not bonus, smoke
    "03.3": (COUNT, 0, 4, 2),             # archive labelled for none of B's five claims
    "04.1": (RATE, 0.75, 5 / 6, 0.2),     # (1 + 1 + 1) / (1 + 2 + 1)
    "04.2": (COUNT, 2, 1, 5),             # k = 1: launch and rollback support
    "04.3": (RATE, 3 / 5, 0.8, 0.2),      # k = 1, B: monday, switch, aurora of 5 claims
    "04.4": (RATE, 0.5, 0.375, 0.1),      # (1 + 0.5 + 0) / 3; region is n/a
    "05.1": (RATE, 1 / 3, 0.0, 0.2),      # k = 1: switch only; smoke's checklist ranked 2nd
    "05.2": (RATE, 5 / 6, 5 / 12, 0.3),   # first notes only, hits / 1: 1, 1, 0 (A); 1, 1, 1 (B)
    "05.3": (RATE, 0.75, 2 / 3, 0.3),     # k = 1: A 1, 1/2, 0; B 1, 2/2 (smoke counts), 1
    "06.1": (CHOICE, "corpus_sha256", "questions_sha256", None),  # a note's text
    "06.2": (COUNT, 4, 1, 8),             # k = 1: launch A, launch B, rollback B, owner B
    "06.3": (COUNT, 2, 1, 3),             # support regression, and launch's 1 unsupported > 0
    "07.1": (RATE, 0.5, 1.0, 0.2),        # (1 / log2 2) / (2 / log2 2): glacier 1, moraine 2
    "07.2": (RATE, 0.5, 1 / 3, 0.2),      # (1/2 + 1 + 0) / 3, recip_rank uncut, q3 as 0
    "08.1": (COUNT, 8, 9, 3),             # rerank: 1 + 1 + 1 + 1 + 1 + 3
    "08.2": (COUNT, 4, 8, 30),            # 12 improved of 46, 8 of the 28 held-out
    "08.3": (RATE, 3 / 4, 7 / 8, 0.2),    # claims: (7/8 - 1/2) / (1 - 1/2) = 3/4
    "09.1": (COUNT, 13, 14, 3),           # 14 rows; terse's launch joins draft's: 13
    "09.2": (RATE, 2 / 5, 1 / 3, 0.9),    # draft: launch 1/2, rollback 1/2, owner 0/1
    "09.3": (RATE, 3 / 4, 2 / 3, 0.9),    # launch 1 of 1, rollback 2 of 2, owner 0 of 1
    "10.1": (COUNT, 4, 2, 9),             # switch cut at 62, smoke at 112: 2 + 2 partial pairs
    "10.2": (COUNT, 2, 3, 7),             # k = 3: (b) r@0 + r@62 hold 47-90, (d) r@62 + r@112
    "10.3": (COUNT, 2, 0, 7),             # the smoke sentence and its evidence, one char later
    "11.1": (RATE, 0.5, 2 / 3, 0.9),      # (1 + 0 + 0.5) / 3: switch, smoke not, order partial
    "11.2": (CHOICE, "cite", "sentence", None),  # W: cite 0.625, sentence 0.375, order 0.25
    "11.3": (RATE, 0.6, 0.75, 0.2),       # (1 + 0 + 0.5 x 1) / (2 + 0.5 x 1)
}


def test_every_exercise_is_worked_here():
    assert sorted(HAND) == sorted(EXERCISES)
    for name, (kind, *_) in HAND.items():
        assert EXERCISES[name].kind == kind, name


def _scalars(kind, value):
    """The same answer as the types a learner's cell may hold."""
    if kind == RATE:
        return [value, np.float64(value), np.float32(value), pd.array([value], "Float64")[0],
                Fraction(value).limit_denominator(12), Decimal(str(round(value, 4)))]
    if kind == COUNT:
        return [value, np.int64(value), pd.array([value], "Int64")[0], float(value),
                pd.Series([value]).sum()]
    if kind == YES_NO:
        return [value, np.bool_(value), pd.array([value], "boolean")[0]]
    return [value, value.upper(), f" {value} ", np.str_(value)]


@pytest.mark.parametrize("name", sorted(HAND))
def test_right_answers_in_every_type(name):
    kind, right, *_ = HAND[name]
    for answer in _scalars(kind, right):
        feedback = check(name, answer)
        assert feedback.status == "correct", (answer, feedback.message)
        assert feedback.message.startswith("Correct: ")


@pytest.mark.parametrize("name", sorted(HAND))
def test_the_likely_mistake_gets_its_own_hint(name):
    exercise = EXERCISES[name]
    kind, right, mistake, other = HAND[name]
    feedback = check(name, mistake)
    assert feedback.status == "wrong"
    assert feedback.message.startswith("Not quite: you gave ")
    assert any(hint in feedback.message for hint in exercise.mistakes.values()), feedback
    assert exercise.hint not in feedback.message
    if other is not None:
        general = check(name, other)
        assert general.status == "wrong"
        assert general.message.endswith(exercise.hint)


@pytest.mark.parametrize("name", sorted(HAND))
def test_missing_answers(name):
    for answer in (None, pd.NA, float("nan"), np.nan, np.float64("nan")):
        feedback = check(name, answer)
        assert feedback.status == "missing", answer
        assert feedback.message.startswith("Not answered yet: replace ")
    assert "<NA>" in check(name, pd.NA).message


WRONG_TYPES = {
    RATE: [("2/3", "remove the quotes"), ("0.5", "remove the quotes"),
           ("half", "type a number from 0 to 1"), (True, "True is a yes/no answer"),
           (np.bool_(False), "is a yes/no answer"), ([0.5], "type a number from 0 to 1"),
           (2, "A rate lies between 0 and 1"), (float("inf"), "type a number from 0 to 1")],
    COUNT: [("2", "remove the quotes"), (True, "True is a yes/no answer"),
            (0.75, "A count is a whole number"), (-1, "A count is a whole number"),
            ("two", "type a whole number")],
    YES_NO: [("False", "You typed the text 'False'"), ("no", "type True or False"),
             (0, "This exercise asks yes or no"), (np.int64(1), "asks yes or no")],
    CHOICE: [(1, "Type one of '"), ("lunch", "'lunch' is not one of the choices"),
             (True, "Type one of")],
}


@pytest.mark.parametrize("name", sorted(HAND))
def test_wrong_types_say_what_to_type(name):
    kind = HAND[name][0]
    for answer, message in WRONG_TYPES[kind]:
        feedback = check(name, answer)
        assert feedback.status == "wrong type", answer
        assert message.lower() in feedback.message.lower(), (answer, feedback.message)


def test_rates_round_to_two_decimals():
    assert check("02.1", 0.667).correct and check("02.1", 0.67).correct
    assert check("02.1", 0.6749).correct
    assert not check("02.1", 0.66).correct and not check("02.1", 0.68).correct
    assert "rounding to two decimals" in about("02.1")


def test_a_half_rounds_up_as_the_tables_show_it():
    """5/8 = 0.625 and 1/8 = 0.125 by hand: the hundredths digit goes up (0.63, 0.13), as the
    tables print them; Python's round() would give 0.62 and 0.12."""
    assert canonical(RATE, 5 / 8) == ("0.63", None) and canonical(RATE, 0.625) == ("0.63", None)
    assert canonical(RATE, 1 / 8) == ("0.13", None)
    # 04.4's likely slip, region counted as 0: (1 + 0.5 + 0 + 0) / 4 = 0.375, shown 0.38
    assert "region" in check("04.4", 1.5 / 4).message
    assert "a half rounds up" in ROUNDING


@pytest.mark.parametrize("name", sorted(n for n in HAND if HAND[n][0] == RATE))
def test_only_digits_cut_off_get_the_rounding_hint(name):
    """The rounding hint goes to the answer with its digits cut off where that differs from
    it rounded (2/3: 0.66, not 0.67), and to nothing else: not to a reply one hundredth
    above (the walkthrough on 78eb80e: 0.68 for 2/3 was told to round instead of cutting),
    nor one below an answer exact at two decimals (0.74 for 3/4 cannot be cut digits, and
    "one hundredth away" would give the answer away; the walkthrough on 95fe99d)."""
    exact = HAND[name][1]
    cut, right = math.floor(exact * 100 + 1e-9) / 100, round(exact, 2)
    if cut != right:
        feedback = check(name, cut)
        assert feedback.status == "wrong" and feedback.message.endswith(ROUNDING), cut
    for far in {round(right + step, 2) for step in (0.01, -0.01, -0.02, 0.02)} - {cut}:
        if 0 <= far <= 1:
            assert ROUNDING not in check(name, far).message, far


def test_the_rounding_hint_of_02_1():
    """The walkthrough's case: 2/3 cut to 0.66 is told about rounding, not about slots."""
    message = check("02.1", 0.66).message
    assert "round" in message and "slots" not in message


#: Words that would settle a yes/no exercise if a hint said them.
YES_NO_GIVEAWAYS = {"01.3": ("valid input", "not refused", "is accepted"),
                    "03.3": ("unsupported", "not supported")}


def states(kind, answer, text):
    """True when ``text`` writes ``answer`` out: a rate as 0.67 or as its fraction, a count
    as a number standing alone (not a cutoff such as k = 2), a yes/no as True/False, a choice
    by name."""
    if kind == RATE:
        forms = [f"{answer:.2f}", str(Fraction(answer).limit_denominator(40))]
        return any(re.search(rf"(?<![\d/.]){re.escape(form)}(?![\d/])", text) for form in forms)
    if kind == COUNT:
        return bool(re.search(rf"(?<![\d.,/=@] )(?<![\d.,/=@]){answer}(?![\d.,/@])(?! of \d)",
                              re.sub(r"(k =|step|chapter) \d+", "", text)))
    if kind == YES_NO:
        return bool(re.search(r"\b(True|False)\b", text))
    return answer.split("_")[0] in text.lower()


def test_the_answer_detector_notices_a_planted_answer():
    assert states(RATE, 2 / 3, "Not quite. The answer is 2/3.")
    assert states(RATE, 2 / 3, "It is 0.67 here.")
    assert not states(RATE, 2 / 3, "0.50 is one hit in two slots")
    assert states(COUNT, 4, "There are 4 expected claims.")
    assert not states(COUNT, 4, "at k = 4 the list is longer; 46 questions; 0.45")
    assert states(YES_NO, False, "The answer is False.")
    assert states(CHOICE, "corpus_sha256", "The corpus holds the text.")


@pytest.mark.parametrize("name", sorted(HAND))
def test_no_hint_states_its_answer(name):
    exercise = EXERCISES[name]
    kind, right, *_ = HAND[name]
    hints = [exercise.hint, *exercise.mistakes.values()] + ([ROUNDING] if kind == RATE else [])
    for hint in hints:
        assert not states(kind, right, hint), hint
        for words in YES_NO_GIVEAWAYS.get(name, ()):
            assert words not in hint, hint


def test_feedback_shows_only_its_message():
    feedback = check("02.1", None)
    assert repr(feedback) == str(feedback) == feedback.message
    assert "0.67" not in check("02.1", 0.1).message   # the answer is never revealed


def test_no_answer_is_stored_in_plain_sight():
    for name, exercise in EXERCISES.items():
        assert re.fullmatch(r"[0-9a-f]{64}", exercise.digest), name
        kind, right, *_ = HAND[name]
        form, _ = canonical(kind, right, options=exercise.options)
        assert form not in exercise.mistakes, name


@pytest.fixture
def yes_no_exercise(monkeypatch):
    """A yes/no exercise (the workbook has none left: a wrong yes gives away the no), whose
    answer, worked by hand, is False."""
    from ragscore.workbook import exercises

    planted = exercises._exercise("00.1", YES_NO, "0a0b0c",
                                  exercises.digest("00.1", "0a0b0c", "no"), "Read step 1.")
    monkeypatch.setitem(EXERCISES, "00.1", planted)
    return "00.1"


def test_a_yes_no_answer_is_echoed_as_typed(yes_no_exercise):
    assert check(yes_no_exercise, True).message.startswith("Not quite: you gave True. ")
    assert check(yes_no_exercise, False).message == "Correct: False is right."
    for answer, message in WRONG_TYPES[YES_NO]:
        assert message.lower() in check(yes_no_exercise, answer).message.lower(), answer


def test_no_exercise_can_be_settled_by_elimination():
    """A yes/no exercise, or a choice of two, tells a learner who got it wrong the answer."""
    for name, exercise in EXERCISES.items():
        assert exercise.kind != YES_NO, name
        assert exercise.kind != CHOICE or len(exercise.options) >= 3, name


def test_a_negative_count_is_told_a_count_is_never_negative():
    message = check("01.1", -1).message
    assert "0 or more" in message and "divide" not in message
    assert "Count, do not divide" in check("01.1", 1.5).message


@pytest.mark.parametrize("bad", ["99.9", None, 2.1, "2.1"])
def test_an_unknown_exercise_is_an_invalid_input(bad):
    with pytest.raises(InvalidInputError, match=r"exercise must be one of 01\.1, .*; got "):
        check(bad, 1)
    with pytest.raises(ValueError, match="exercise must be one of"):
        about(bad)


def test_the_instructor_guide_gives_every_answer():
    """Each exercise's row in the guide reads `| 02.1 | 0.67 | ...`, and that answer checks."""
    rows = dict(re.findall(r"^\| (\d\d\.\d) \| `([^`]+)` \|", GUIDE.read_text(), re.M))
    assert sorted(rows) == sorted(EXERCISES)
    for name, text in rows.items():
        kind, right, *_ = HAND[name]
        answer = {"True": True, "False": False}.get(text, text)
        if kind in (RATE, COUNT):
            answer = float(Fraction(text))
        elif kind == CHOICE:
            answer = text.strip("'\"")
        assert check(name, answer).correct, (name, text)
        assert check(name, right).correct
