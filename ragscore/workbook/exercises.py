"""Exercise checks for the workbook's chapters, with the answers kept out of the learner's cells.

Each exercise has an ID (``"02.1"``: chapter 2, exercise 1), a kind, a salted SHA-256 digest of
its answer in canonical form, hints for the likely mistakes and a general hint. A notebook cell
reads ``check("02.1", answer)``; the answer itself is written only in the instructor notes
(``docs/instructor.md``), which a test checks against the digests. A rate answered with
its digits cut off instead of rounded (0.66 for 2/3) gets the rounding hint
(:data:`ROUNDING`).

After a first attempt (an answer of the right type, right or wrong), ``solution("02.1")``
shows the worked solution, and a wrong answer's feedback offers it; before any attempt it
only says to try first. The solutions are the instructor notes' reasoning, stored scrambled
(:mod:`ragscore.workbook.solutions`) so that no listing or repr shows one by accident.

Kinds and their canonical forms (what is hashed):

- ``rate``: a number from 0 to 1, rounded to two decimals as the tables round, a half away
  from zero (``2/3``, ``0.667`` and ``0.67`` are all ``"0.67"``; ``5/8`` is ``"0.63"``);
- ``count``: a whole number (``3`` or ``3.0``, never ``True``);
- ``yes/no``: ``True`` or ``False`` (``"yes"`` / ``"no"``);
- ``choice``: one of the exercise's listed options, as text.

Plain Python numbers, numpy and pandas scalars, ``Fraction`` and ``Decimal`` are accepted.
``None``, ``pd.NA`` and NaN count as "not answered yet". Any other type gets a message saying
what to type; an unknown exercise ID raises :class:`InvalidInputError`.

No exercise is a plain yes or no, nor a choice of two: a wrong reply to one would give the
answer away (the ``yes/no`` kind is still checked, for a question that needs it).
"""
import hashlib
import math
from collections import namedtuple
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real

from ..core.rules import InvalidInputError, show
from ..render.text import fixed
from .exercise_list import CHOICE, COUNT, EXERCISES, RATE, YES_NO, Exercise, _exercise
from .feedback import Feedback

__all__ = ["CHOICE", "COUNT", "EXERCISES", "Exercise", "Feedback", "RATE", "YES_NO", "about",
           "canonical", "check", "digest", "solution"]

#: How each kind's answers are compared, in the words the learner reads.
TOLERANCE = {
    RATE: ("rates are compared after rounding to two decimals, a half rounded up as in the "
           "tables (2/3, 0.667 and 0.67 all count)"),
    COUNT: "counts must be exact whole numbers",
    YES_NO: "type True or False",
    CHOICE: "type one of the listed names, in quotes",
}

#: What to type, for a wrong-type message.
WHAT_TO_TYPE = {
    RATE: "a number from 0 to 1 without quotes, such as 0.5 or 1/2",
    COUNT: "a whole number without quotes, such as 3",
    YES_NO: "True or False, without quotes",
    CHOICE: "one of the listed names in quotes",
}

_PEPPER = "ragscore-workbook-v1"

#: The hint for a rate one hundredth away from the answer: usually digits cut off instead of
#: rounded. Its example (1/6) is no exercise's answer.
ROUNDING = ("You are one hundredth away, and it looks like rounding: round to two decimals "
            "instead of cutting digits off (1/6 = 0.1666... is 0.17, not 0.16; a half rounds up, "
            "as in the tables: 1/8 = 0.125 is 0.13), or type the fraction itself, such as 1/6, "
            "and let Python divide.")


#: The exercises attempted in this session (:func:`check` saw an answer of the right type):
#: :func:`solution` shows their worked solutions, and no others.
ATTEMPTED = set()




def digest(exercise_id, salt, canonical):
    """The salted SHA-256 of an answer's canonical form.

    >>> digest("00.0", "salt", "0.50")[:12]
    'f59be60e135d'
    """
    text = f"{_PEPPER}:{exercise_id}:{salt}:{canonical}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_missing(answer):
    if answer is None or type(answer).__name__ in ("NAType", "NaTType"):
        return True
    try:
        return isinstance(answer, (Real, Decimal)) and math.isnan(answer)
    except (TypeError, ValueError):
        return False


def _is_bool(answer):
    return isinstance(answer, bool) or type(answer).__name__ in ("bool_", "bool")


def _number(answer):
    """A float for a real number (not a bool), else ``None``."""
    if _is_bool(answer) or not isinstance(answer, (Real, Decimal)):
        return None
    return float(answer)


def _text_as_number(text):
    try:
        return float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        return None


def canonical(kind, answer, *, options=()):
    """``(canonical form, None)`` for an answer of the right type, else ``(None, message)``.

    >>> canonical(RATE, 1 / 3)
    ('0.33', None)
    >>> canonical(COUNT, True)[1]
    'True is a yes/no answer; this exercise asks for a count: type a whole number without quotes, such as 3.'
    """
    expected = WHAT_TO_TYPE[kind]
    if kind == YES_NO:
        if _is_bool(answer):
            return ("yes" if answer else "no"), None
        if isinstance(answer, str):
            return None, (f"You typed the text {show(answer)}; type {expected} "
                          "(True means yes, False means no).")
        return None, f"This exercise asks yes or no: type {expected}; you gave {show(answer)}."
    if kind == CHOICE:
        if isinstance(answer, str) and answer.strip().lower() in options:
            return answer.strip().lower(), None
        listed = ", ".join(repr(option) for option in options)
        if isinstance(answer, str):
            return None, f"{show(answer)} is not one of the choices; type one of {listed}."
        return None, f"Type one of {listed} (with the quotes); you gave {show(answer)}."
    if _is_bool(answer):
        return None, (f"{answer} is a yes/no answer; this exercise asks for a {kind}: "
                      f"type {expected}.")
    if isinstance(answer, str):
        if _text_as_number(answer) is not None:
            return None, (f"You typed the text {show(answer)} in quotes; remove the quotes "
                          "so that Python computes the number.")
        return None, f"You typed the text {show(answer)}; type {expected}."
    value = _number(answer)
    if value is None or math.isinf(value):
        return None, f"Type {expected}; you gave {show(answer)}."
    if kind == COUNT:
        if value < 0:
            return None, (f"A count is a whole number, 0 or more; you gave {show(answer)}. "
                          "Count the things the question names.")
        if value != int(value):
            return None, (f"A count is a whole number of things; you gave {show(answer)}. "
                          "Count, do not divide.")
        return str(int(value)), None
    if not 0 <= value <= 1:
        return None, (f"A rate lies between 0 and 1; you gave {show(answer)}. "
                      "Did you forget to divide?")
    return fixed(value + 0.0, digits=2), None


def _find(exercise_id):
    if type(exercise_id) is not str or exercise_id not in EXERCISES:
        raise InvalidInputError(
            f"exercise must be one of {', '.join(EXERCISES)}; got {show(exercise_id)}")
    return EXERCISES[exercise_id]


def check(exercise_id, answer):
    """Feedback on ``answer`` to the exercise ``exercise_id``; never says the answer.

    >>> check("02.1", None)
    Not answered yet: replace None with your answer and run the cell again.
    >>> check("02.1", "2/3")
    You typed the text '2/3' in quotes; remove the quotes so that Python computes
    the number.
    """
    exercise = _find(exercise_id)
    if _is_missing(answer):
        what = "None" if answer is None else show(answer)
        note = "" if answer is None else " (a missing value is never the answer here)"
        return Feedback(exercise.id, "missing",
                        f"Not answered yet: replace {what} with your answer{note} and run the "
                        "cell again.")
    form, problem = canonical(exercise.kind, answer, options=exercise.options)
    if problem is not None:
        return Feedback(exercise.id, "wrong type", problem)
    ATTEMPTED.add(exercise.id)
    shown = _shown(exercise.kind, form)
    if digest(exercise.id, exercise.salt, form) == exercise.digest:
        return Feedback(exercise.id, "correct", f"Correct: {shown} is right.",
                        f'To compare your working: solution("{exercise.id}").')
    hint = ROUNDING if _off_by_rounding(exercise, form) else exercise.mistakes.get(form,
                                                                                exercise.hint)
    return Feedback(exercise.id, "wrong", f"Not quite: you gave {shown}. {hint}",
                    f'Try again, or see the worked solution: solution("{exercise.id}").')


def solution(exercise_id):
    """The worked solution to ``exercise_id`` once it has been attempted in this session
    (:func:`check` saw an answer of the right type, right or wrong); before that, a note
    saying to try first. Never the answer before an attempt.

    >>> ATTEMPTED.discard("02.2")  # as in a fresh session
    >>> solution("02.2").status
    'not yet'
    """
    from .solutions import worked

    exercise = _find(exercise_id)
    if exercise.id not in ATTEMPTED:
        return Feedback(exercise.id, "not yet",
                        f"Try exercise {exercise.id} first: put your answer in its cell and "
                        f"run check(\"{exercise.id}\", answer). The worked solution opens "
                        "after your first attempt, right or wrong.")
    return Feedback(exercise.id, "solution", f"Worked solution to {exercise.id}: "
                                             f"{worked(exercise)}")


def _shown(kind, form):
    """A canonical form as the learner typed it: ``True``/``False`` for a yes/no answer."""
    return {"yes": "True", "no": "False"}[form] if kind == YES_NO else form


def _off_by_rounding(exercise, form):
    """True when ``form`` is the rate's answer with its digits cut off instead of rounded
    (2/3 typed as 0.66): the exercise's ``cut`` digest. An answer exact at two decimals
    (0.75) has none, since cutting cannot have caused a slip there, and a reply one
    hundredth away gets the ordinary hints, which do not say how near it is."""
    return exercise.kind == RATE and exercise.cut is not None and digest(
        exercise.id, exercise.salt, form) == exercise.cut


def about(exercise_id):
    """One line saying what kind of answer an exercise wants and how it is compared.

    >>> about("02.1")
    'Exercise 02.1 wants a rate: rates are compared after rounding to two decimals, a half rounded up as in the tables (2/3, 0.667 and 0.67 all count).'
    """
    exercise = _find(exercise_id)
    return f"Exercise {exercise.id} wants a {exercise.kind}: {TOLERANCE[exercise.kind]}."
