"""Every exercise: right, wrong, wrong-type and missing answers, with numpy and pandas scalars.

The right answers below are worked by hand from the course data (and, where it states them,
the workbook); the package holds only their salted digests.
"""
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragscore.core.rules import InvalidInputError
from ragscore.workbook.exercises import CHOICE, COUNT, EXERCISES, RATE, YES_NO, about, check

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "instructor-guide.md"

#: exercise -> (kind, the right answer worked by hand, a likely mistake, another wrong answer)
HAND = {
    "01.1": (COUNT, 2, 1, 7),            # rollback expects switch and smoke
    "01.2": (YES_NO, False, True, None),  # 'ghost' is not in the corpus: refused
    "01.3": (YES_NO, False, True, None),  # an unknown citation is valid input
    "02.1": (RATE, 2 / 3, 1.0, 0.1),      # 2 hits / 3 slots
    "02.2": (RATE, 0.0, 0.5, 0.25),       # archive first, not relevant
    "02.3": (RATE, 1.0, 0.5, 0.25),       # rollback first, relevant: 1/1
    "03.1": (RATE, 0.5, 1.0, 0.25),       # (checklist, rollback) at k = 1: smoke only, 1/2
    "03.2": (YES_NO, False, True, None),  # archive is not labelled for aurora
    "03.3": (COUNT, 2, 3, 0),             # monday and switch
    "04.1": (RATE, 0.75, 5 / 6, 0.2),     # (1 + 1 + 1) / (1 + 2 + 1)
    "04.2": (COUNT, 2, 1, 5),             # k = 1: launch and rollback support
    "04.3": (CHOICE, "rollback", "launch", "owner"),  # smoke's checklist is ranked 2nd
    "04.4": (RATE, 0.5, 0.375, 0.1),      # (1 + 0.5 + 0) / 3; region is n/a
    "05.1": (RATE, 1.0, 0.0, 0.3),        # owners alone now suffices: 1/1
    "05.2": (RATE, 1.0, 1 / 3, 0.3),      # P@3 with the defect: 1 hit / 1 returned
    "05.3": (YES_NO, False, True, None),  # an import error proves nothing
    "06.1": (YES_NO, False, True, None),  # region A makes a claim
    "06.2": (COUNT, 1, 0, 3),             # one rule fails: exit code 1 (0 pass, 2 bad input)
    "06.3": (COUNT, 4, 5, 2),             # every rule but no support regression
    "07.1": (RATE, 0.0, 0.5, 0.25),       # tide first: RR@1 = 0 (1/3 is trec_eval's)
    "07.2": (COUNT, 1, 0, 2),             # only q3 has no note graded 2
    "08.1": (COUNT, 0, 8, 3),             # rerank-guarded filters restricted chunks
    "08.2": (YES_NO, True, False, None),  # support 1.00 and a disclosure
    "08.3": (COUNT, 28, 46, 30),          # 46 questions, 18 dev
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
    CHOICE: [(1, "Type one of 'launch', 'rollback', 'owner', 'region'"),
             ("lunch", "'lunch' is not one of the choices"), (True, "Type one of")],
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


def test_feedback_shows_only_its_message():
    feedback = check("02.1", None)
    assert repr(feedback) == str(feedback) == feedback.message
    assert "0.67" not in check("02.1", 0.1).message   # the answer is never revealed


def test_no_answer_is_stored_in_plain_sight():
    for name, exercise in EXERCISES.items():
        assert re.fullmatch(r"[0-9a-f]{64}", exercise.digest), name
        assert check(name, HAND[name][1]).message.split()[1] not in exercise.mistakes, name


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
