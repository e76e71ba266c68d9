"""Exercise checks for the workbook's chapters, with the answers kept out of the learner's cells.

Each exercise has an ID (``"02.1"``: chapter 2, exercise 1), a kind, a salted SHA-256 digest of
its answer in canonical form, hints for the likely mistakes and a general hint. A notebook cell
reads ``check("02.1", answer)``; the answer itself is written only in the instructor guide
(``docs/instructor-guide.md``), which a test checks against the digests.

Kinds and their canonical forms (what is hashed):

- ``rate``: a number from 0 to 1, rounded to two decimals (``2/3``, ``0.667`` and ``0.67``
  are all ``"0.67"``);
- ``count``: a whole number (``3`` or ``3.0``, never ``True``);
- ``yes/no``: ``True`` or ``False`` (``"yes"`` / ``"no"``);
- ``choice``: one of the exercise's listed options, as text.

Plain Python numbers, numpy and pandas scalars, ``Fraction`` and ``Decimal`` are accepted.
``None``, ``pd.NA`` and NaN count as "not answered yet". Any other type gets a message saying
what to type; an unknown exercise ID raises :class:`InvalidInputError`.
"""
import hashlib
import math
from collections import namedtuple
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real

from ..core.rules import InvalidInputError, show

RATE, COUNT, YES_NO, CHOICE = "rate", "count", "yes/no", "choice"

#: How each kind's answers are compared, in the words the learner reads.
TOLERANCE = {
    RATE: "rates are compared after rounding to two decimals (2/3, 0.667 and 0.67 all count)",
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


class Exercise(namedtuple("Exercise", "id kind salt digest mistakes hint options")):
    """One exercise: ``mistakes`` maps a likely wrong answer (canonical form) to its hint;
    ``hint`` is for any other wrong answer; ``options`` lists the choices of a ``choice``."""

    __slots__ = ()


class Feedback(namedtuple("Feedback", "exercise status message")):
    """The result of :func:`check`: ``status`` is one of ``correct``, ``wrong``,
    ``wrong type`` or ``missing``; a notebook shows only ``message``."""

    __slots__ = ()

    @property
    def correct(self):
        return self.status == "correct"

    def __repr__(self):
        return self.message

    __str__ = __repr__


def digest(exercise_id, salt, canonical):
    """The salted SHA-256 of an answer's canonical form.

    >>> digest("00.0", "salt", "0.50")[:12]
    'f59be60e135d'
    """
    text = f"{_PEPPER}:{exercise_id}:{salt}:{canonical}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _exercise(exercise_id, kind, salt, answer_digest, hint, mistakes=None, options=()):
    return Exercise(exercise_id, kind, salt, answer_digest, dict(mistakes or {}), hint,
                    tuple(options))


CASES = ("launch", "rollback", "owner", "region")

#: Every exercise of the workbook, by ID. The answers are in docs/instructor-guide.md.
EXERCISES = {exercise.id: exercise for exercise in (
    _exercise("01.1", COUNT, "b41f0c",
              "01068f7e4094c930bdc0bc8a6460e415396c4f8eb62f165988aba209c800cfcf",
              "Count the claim IDs in the rollback question's 'expected claims' column "
              "(step 3), not the claims a system made.",
              {"1": "1 is how many claims system A made on rollback; the question asks "
                    "what the reviewer expected (step 3).",
               "5": "5 is the number of notes in the corpus; count expected claims instead."}),
    _exercise("01.2", YES_NO, "5e02aa",
              "2d15fbac60046a01f79a5bee7cf7b14ea585990fe6da275e13833a322fbc4ac6",
              "Every retrieved ID must be a note of the corpus (step 2).",
              {"yes": "Look at the corpus table: is 'ghost' one of the five notes? A retrieved "
                      "ID outside the corpus is refused."}),
    _exercise("01.3", YES_NO, "c7d913",
              "e940cfa78c7a63429f9389cb60d0db6118dea94fb35361056b525197c423d3a6",
              "Step 6 ends with a citation to a note that does not exist: read what happens.",
              {"yes": "Validation checks shape, not truth: a citation to an unknown note is "
                      "valid input, and the scorer marks that claim unsupported."}),
    _exercise("02.1", RATE, "2a9d47",
              "6f67c741c37e83ff0d4cd2300ba82954150ac7f2d03ac3218ec71b8b5c450d76",
              "P@3 has three slots: count the relevant notes in the top 3 and divide by 3.",
              {"1.00": "1.00 divides by the two notes returned; P@k keeps k = 3 slots even "
                       "for a short list.",
               "0.33": "Count again: both notes rollback B retrieved are relevant.",
               "0.50": "0.50 would be one hit in two slots; here k = 3 and both retrieved "
                       "notes are relevant."}),
    _exercise("02.2", RATE, "91be0c",
              "afec36c792a19f3b629aefd749e2d12563bee2aeca829186bac02ad32c876065",
              "At k = 1 only the first retrieved note is visible.",
              {"0.50": "0.50 is RR@2 (owners is at rank 2); at k = 1 rank 2 is out of view.",
               "1.00": "owner A ranks archive first, and archive is not relevant."}),
    _exercise("02.3", RATE, "0d6e55",
              "6f7206bd22636401ec4e2cfeffe82c56b3d623facd5dcf729607679a3af5d951",
              "P@1 has one slot; is the note in it relevant?",
              {"0.50": "0.50 is P@2 for rollback A; P@1 has a single slot.",
               "0.00": "rollback A's first (and only) note is rollback, which is relevant."}),
    _exercise("03.1", RATE, "e4c2b8",
              "1011b45524b5408b369ef10fdd6f657ad9c9a593412a3839d3e6a4e0e5d19f75",
              "Coverage is supported expected claims divided by expected claims; at k = 1 "
              "only the first retrieved note is visible.",
              {"1.00": "At k = 1 only checklist is in view, so switch's citation to rollback "
                       "(now ranked second) does not count.",
               "0.00": "smoke cites checklist, which is now ranked first and labelled for it."}),
    _exercise("03.2", YES_NO, "7f1a30",
              "62c471c987238bb01748ebbe2e1ddbf234016babc0dd08facfb85418fdca4964",
              "Every cited note must be labelled for the claim and be in the top k.",
              {"yes": "One good citation does not cancel a bad one: archive is not labelled "
                      "for aurora, so the claim is unsupported."}),
    _exercise("03.3", COUNT, "a3305d",
              "2d3cc914b01aa5eebbab7d37e53f134256122965cccff6786383ddc52325cc85",
              "Go through A's four runs claim by claim and apply the strict rule.",
              {"3": "owner A retrieved owners but cited archive: that claim is unsupported.",
               "4": "region A's claim cites archive, which supports nothing on an "
                    "unanswerable question."}),
    _exercise("04.1", RATE, "5b7e91",
              "eec0434fdce32a40bf286c1d7d5d2b5a071431a0233540d6e8314cba76897a56",
              "Pooled recall sums hits over the answerable questions and divides by the sum "
              "of relevant notes.",
              {"0.83": "0.83 is the macro mean (each question weighs the same); pooled "
                       "divides total hits by total relevant notes.",
               "0.50": "rollback has two relevant notes; count every relevant note of the "
                       "three answerable questions."}),
    _exercise("04.2", COUNT, "6c04fe",
              "c3456b7509f12af2307d7cb2db6fd2d260d23be66b044198ec4f53d6b73483a0",
              "Compare A and B at k = 1 claim by claim: which citations fall out of view?",
              {"1": "1 is the count at k = 2; at k = 1 rollback B's citation to checklist "
                    "(ranked second) no longer counts.",
               "3": "region's support becomes n/a ('no longer defined'): n/a is not a "
                    "regression.",
               "0": "Look at launch: B's support is 0.50 against A's 1.00 at any k."}),
    _exercise("04.3", CHOICE, "f0c8d2",
              "949cf47fbf4ec51a0c057f7152086a70db30ec0c6e8ac7741a4be616adde0c8b",
              "At k = 1 only the first retrieved note is visible: whose second citation "
              "drops out of view?",
              {"launch": "launch regresses at k = 2 as well; the question asks for the new one.",
               "region": "region's support becomes n/a because B abstains, which is correct on "
                         "an unanswerable question; that is not a regression."},
              options=CASES),
    _exercise("04.4", RATE, "19aa6e",
              "7f2d2482cf70723fa3ff31a43da33f75e8f9096ef871063f4d34a5920c8c2359",
              "Average A's coverage over the questions where it is defined.",
              {"0.38": "region is unanswerable: its coverage is n/a and stays out of the "
                       "mean; it is not a 0.",
               "0.67": "0.67 is A's mean support; the question asks about coverage."}),
    _exercise("05.1", RATE, "d8e4b0",
              "ee1ab1a389e1a1832334a1bd08dfc703f7851c207e6bfcfa18da0e7ab5a8d15c",
              "Under that defect one labelled, visible citation is enough.",
              {"0.00": "0.00 is what the correct scorer gives; the defect accepts any single "
                       "good citation, and owners is one."}),
    _exercise("05.2", RATE, "4e6f12",
              "c55ff84562b0a1f7f74140b487863ab9174f2ac842afc2e96fae30a7f88e8fcd",
              "With the defect, P@k divides by the notes returned (when fewer than k), not "
              "by k.",
              {"0.33": "0.33 is the correct P@3 (one hit in three slots); the defect divides "
                       "by the one note returned."}),
    _exercise("05.3", YES_NO, "b9c3e7",
              "b241f00d6797a7bdbd5eadcb0bc17c1fa8a70960ecb9dcd4d5a2b152cf445b51",
              "A defect counts as caught only when a test fails an assertion.",
              {"yes": "An import error shows that the copy is broken, not that a test checks "
                      "the rule; it proves nothing about the defect."}),
    _exercise("06.1", YES_NO, "2d5f8c",
              "2f61dfc6ba03cc16bfe5865e4090b7ef067834a61ebca420119099ec4a70369e",
              "Look at region A in the gate's output: did it decline the unanswerable question?",
              {"yes": "region A makes a claim on an unanswerable question, so its abstention "
                      "is not correct."}),
    _exercise("06.2", COUNT, "6a41c0",
              "e91e11a43c6c095aca73b231eff4a8bf69659d412715f0c10d2bde5e82c9ce74",
              "The gate exits 0 when every rule passes, 1 when a rule fails, 2 on bad input.",
              {"0": "One rule failed (no support regression, because of launch), so the gate "
                    "does not exit 0.",
               "2": "2 is for bad input (a policy or a system that cannot be judged); here "
                    "every rule was judged and one failed."}),
    _exercise("06.3", COUNT, "c2d817",
              "882542400e109f0b4d11e92a8eec15dd78347ac4ddc211fee4b12961e4469f1b",
              "Count the PASS lines in the gate's output for B against A.",
              {"5": "One rule fails: no support regression, because of launch.",
               "3": "The minor rule (at most one unsupported claim) passes: B has exactly one."}),
    _exercise("07.1", RATE, "c7e1a9",
              "a15107cd9b44a79722012afe5fbea84624dc0493d4d80afa28903da31447730d",
              "RR@1 looks only at the first note dense returned for q1.",
              {"0.50": "1/2 is trec_eval's recip_rank, which looks past k; at k = 1 only the "
                       "first note counts.",
               "1.00": "The first note dense returned for q1 is tide, which is not relevant."}),
    _exercise("07.2", COUNT, "4b90d2",
              "86a9599ccf7740dd2b3f5b2136cac44c02766be3f13f931ba333dbf351815fe7",
              "Count the questions with no note graded 2 or more.",
              {"0": "With --na-as-zero nothing is left out; our default mean leaves out the "
                    "questions where nothing is relevant.",
               "3": "q1 and q2 each have a note graded 2; only one question has none."}),
    _exercise("08.1", COUNT, "5e0b3d",
              "d089a4b41bfa7f389c5981ca91377b54b04ba16f11b81668927f45e247b0a317",
              "rerank-guarded has no row in step 2's table, which lists only the questions "
              "with a disclosure.",
              {"8": "8 is rerank's total; rerank-guarded filters restricted chunks out.",
               "9": "9 is baseline's total; rerank-guarded filters restricted chunks out."}),
    _exercise("08.2", YES_NO, "91ac4f",
              "b01c633faf73ee63feddbd0b6330562ab5dea2acc2ce32ab29e77ec93e8508aa",
              "Read the support column of card-request under rerank in step 2.",
              {"no": "Its support is 1.00: every claim is supported, and it still discloses."}),
    _exercise("08.3", COUNT, "d37a28",
              "5111b8b3786cb698dd5190d026302234ed82e8632213802ebdbdcea846803a7e",
              "The first line of the held-out comparison says how many questions it used.",
              {"46": "46 is every question, dev included; the held-out split has fewer.",
               "18": "18 is the dev split.",
               "24": "24 is n for recall in the statistics: the held-out questions where both "
                     "systems are defined; the split itself has more."}),
)}


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
        if value != int(value) or value < 0:
            return None, (f"A count is a whole number of things; you gave {show(answer)}. "
                          "Count, do not divide.")
        return str(int(value)), None
    if not 0 <= value <= 1:
        return None, (f"A rate lies between 0 and 1; you gave {show(answer)}. "
                      "Did you forget to divide?")
    return f"{round(value + 0.0, 2):.2f}", None


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
    You typed the text '2/3' in quotes; remove the quotes so that Python computes the number.
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
    if digest(exercise.id, exercise.salt, form) == exercise.digest:
        return Feedback(exercise.id, "correct", f"Correct: {form} is right.")
    hint = exercise.mistakes.get(form, exercise.hint)
    return Feedback(exercise.id, "wrong", f"Not quite: you gave {form}. {hint}")


def about(exercise_id):
    """One line saying what kind of answer an exercise wants and how it is compared.

    >>> about("02.1")
    'Exercise 02.1 wants a rate: rates are compared after rounding to two decimals (2/3, 0.667 and 0.67 all count).'
    """
    exercise = _find(exercise_id)
    return f"Exercise {exercise.id} wants a {exercise.kind}: {TOLERANCE[exercise.kind]}."
