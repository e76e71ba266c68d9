"""Worked solutions after an attempt, never before: `solution("02.1")` says to try first until
`check` has seen an answer of the right type, then shows the instructor notes' row; a wrong
answer's feedback offers it. The package's scrambled copy is the notes' rows, and shows no
answer in plain text."""
import importlib.util
import re
from fractions import Fraction
from pathlib import Path

import pytest

from ragscore.workbook import exercises
from ragscore.workbook.exercises import EXERCISES, check, solution
from ragscore.workbook.solutions import SCRAMBLED, scramble, unscramble

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_session(monkeypatch):
    monkeypatch.setattr(exercises, "ATTEMPTED", set())


def _tool():
    spec = importlib.util.spec_from_file_location("build_solutions",
                                                  ROOT / "tools" / "build_solutions.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_before_any_attempt_the_solution_says_to_try_first():
    shown = solution("02.1")
    assert shown.status == "not yet" and "0.67" not in repr(shown) and "2/3" not in repr(shown)
    assert shown.message.startswith('Try exercise 02.1 first: put your answer in its cell and '
                                  'run check("02.1", answer).')


@pytest.mark.parametrize("answer", [None, "2/3", True, float("nan")])
def test_no_answer_or_the_wrong_type_is_not_an_attempt(answer):
    check("02.1", answer)
    assert solution("02.1").status == "not yet"


def test_a_wrong_answer_offers_the_worked_solution_which_then_opens():
    feedback = check("02.1", 1.0)
    assert feedback.status == "wrong" and "0.67" not in repr(feedback)
    assert repr(feedback).endswith('\nTry again, or see the worked solution: solution("02.1").')
    shown = solution("02.1")
    assert shown.status == "solution"
    assert shown.message.startswith("Worked solution to 02.1: the answer is 2/3 = 0.67. ")
    assert "2 hits over k = 3 slots" in shown.message
    assert solution("02.2").status == "not yet"          # only the exercise attempted


def test_a_right_answer_opens_it_too_to_compare_the_working():
    feedback = check("01.3", "unsupported")
    assert feedback.correct and feedback.offer == 'To compare your working: solution("01.3").'
    assert solution("01.3").message.startswith("Worked solution to 01.3: the answer is "
                                               "'unsupported'.")


def test_an_unknown_exercise_is_refused():
    with pytest.raises(ValueError, match=r"exercise must be one of 01\.1, .*; got '99\.9'"):
        solution("99.9")


def test_the_package_holds_the_notes_rows():
    tool = _tool()
    texts = tool.solution_texts()
    assert sorted(texts) == sorted(SCRAMBLED) == sorted(EXERCISES)
    for name, text in texts.items():
        assert unscramble(EXERCISES[name], SCRAMBLED[name]) == text, (
            f"{name}: run python tools/build_solutions.py")
    source = (ROOT / "ragscore" / "workbook" / "solutions.py").read_text()
    assert tool.written(texts) == source


def test_each_solution_states_the_answer_that_checks():
    for name, exercise in EXERCISES.items():
        exercises.ATTEMPTED.add(name)
        text = solution(name).message
        stated = re.match(rf"Worked solution to {name}: the answer is ([^ .]+|'[^']+')",
                          text).group(1).strip("'")
        answer = {"True": True, "False": False}.get(stated, stated)
        if exercise.kind in ("rate", "count"):
            answer = float(Fraction(stated))
        assert check(name, answer).correct, (name, stated)


def test_nothing_stored_shows_a_solution_in_plain_text():
    source = (ROOT / "ragscore" / "workbook" / "solutions.py").read_text()
    for name, exercise in EXERCISES.items():
        text = unscramble(exercise, SCRAMBLED[name])
        for words in re.findall(r"[A-Za-z]{6,}", text)[:5]:
            assert words not in SCRAMBLED[name]
        assert "the answer is" not in source.split("# --- scrambled solutions ---")[1]
    assert repr(EXERCISES["02.1"]).count("2 hits") == 0


def test_scrambling_is_keyed_by_exercise():
    first, second = EXERCISES["02.1"], EXERCISES["02.2"]
    assert scramble(first, "same text") != scramble(second, "same text")
    assert unscramble(first, scramble(first, "é, 【1】 and 1/3")) == "é, 【1】 and 1/3"
