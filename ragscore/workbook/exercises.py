"""Exercise checks for the workbook's chapters, with the answers kept out of the learner's cells.

Each exercise has an ID (``"02.1"``: chapter 2, exercise 1), a kind, a salted SHA-256 digest of
its answer in canonical form, hints for the likely mistakes and a general hint. A notebook cell
reads ``check("02.1", answer)``; the answer itself is written only in the instructor notes
(``docs/instructor.md``), which a test checks against the digests. A rate one hundredth away
from the answer gets the rounding hint (:data:`ROUNDING`), whichever way it is off.

After a first attempt (an answer of the right type, right or wrong), ``solution("02.1")``
shows the worked solution, and a wrong answer's feedback offers it; before any attempt it
only says to try first. The solutions are the instructor notes' reasoning, stored scrambled
(:mod:`ragscore.workbook.solutions`) so that no listing or repr shows one by accident.

Kinds and their canonical forms (what is hashed):

- ``rate``: a number from 0 to 1, rounded to two decimals (``2/3``, ``0.667`` and ``0.67``
  are all ``"0.67"``);
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
from .feedback import Feedback

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

#: The hint for a rate one hundredth away from the answer: usually digits cut off instead of
#: rounded. Its example (1/6) is no exercise's answer.
ROUNDING = ("You are one hundredth away, which is usually rounding: round to two decimals "
            "instead of cutting digits off (1/6 = 0.1666... is 0.17, not 0.16), or type the "
            "fraction itself, such as 1/6, and let Python divide.")


#: The exercises attempted in this session (:func:`check` saw an answer of the right type):
#: :func:`solution` shows their worked solutions, and no others.
ATTEMPTED = set()


class Exercise(namedtuple("Exercise", "id kind salt digest mistakes hint options")):
    """One exercise: ``mistakes`` maps a likely wrong answer (canonical form) to its hint;
    ``hint`` is for any other wrong answer; ``options`` lists the choices of a ``choice``."""

    __slots__ = ()



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
HASHES = ("corpus_sha256", "questions_sha256", "both", "neither")
#: What validation and the scorer might do with a citation to a note that does not exist.
OUTCOMES = ("refused", "dropped", "unsupported", "supported")

#: Every exercise of the workbook, by ID. The answers are in docs/instructor.md. No hint
#: states its exercise's answer (tests/workbook/test_exercises.py reads them all).
EXERCISES = {exercise.id: exercise for exercise in (
    _exercise("01.1", COUNT, "881b56",
              "feecb1bb5b5df4ecdcedec6b95911daab9ee532424e9ebee4982cfefe62ec9a0",
              "Read the 'expected claims' column of step 3 row by row and add up the claim "
              "IDs; a question that expects nothing adds nothing.",
              {"5": "5 is how many claims system B made over the four questions; the "
                    "question asks what the reviewer expects (step 3), not what a system said.",
               "3": "Count claim IDs, not questions: one question expects more than one claim."}),
    _exercise("01.2", COUNT, "12febe",
              "848b931e76ac065acb94d79a2ad09d72defd539fe5d9e7bdfe1fe224cebffbc5",
              "Take each run of step 4 claim by claim, and look up in step 3 which notes are "
              "labelled as support for that claim ID on that question. A claim the reviewer "
              "never expected has no supporting note at all.",
              {"2": "Look again at launch B's second claim: did the reviewer expect a claim "
                    "called bonus, with launch as its support?",
               "1": "owner A is one such run; check the claims made on launch and on region too.",
               "4": "A run that makes no claim cites nothing, so it cannot cite a wrong note."}),
    _exercise("01.3", CHOICE, "5d2e71",
              "bfe787d4a529125f785b331208604d3beb8b789a582aabfc81534a9dde14c1e7",
              "Try it: run attempt(course.corpus, course.cases['owner'], {'retrieved': "
              "('owners',), 'claims': (('aurora', ('no-such-note',)),)}) in a new cell, then "
              "ragscore.evaluate with the same arguments and k=2, and read the support.",
              {"refused": "Step 6 tries an unknown note in the retrieved list only; a "
                          "citation is a different field. Run attempt(course.corpus, "
                          "course.cases['owner'], {'retrieved': ('owners',), 'claims': "
                          "(('aurora', ('no-such-note',)),)}) in a new cell and read what "
                          "it says.",
               "dropped": "Nothing a run records is thrown away behind your back: score "
                          "that run with ragscore.evaluate (k=2) and look at its support.",
               "supported": "owners is retrieved, but aurora cites no-such-note: is that "
                            "note labelled as support for aurora (step 3)?"},
              options=OUTCOMES),
    _exercise("02.1", RATE, "b80045",
              "062b9060a2c817d16e03b1b1c19775569697f212dc51299920ee22248f0b070d",
              "P@3 has three slots: count the relevant notes in the top 3 and divide by 3.",
              {"1.00": "1.00 divides the hits by the notes returned; P@k keeps k slots even "
                       "when the list is shorter.",
               "0.33": "Count the hits again: look up each of rollback B's two notes among "
                       "the question's relevant notes (chapter 1, step 3).",
               "0.50": "0.50 would be one hit in two slots; P@3 has three slots."}),
    _exercise("02.2", RATE, "984fbe",
              "be825be92a90a372b98173b8ea289ad2e5a96f108bfbd20933f00e4113ad7825",
              "RR@k is 1 divided by the rank of the first relevant note within the top k.",
              {"1.00": "1.00 is what R@3 gives here (the relevant note is found); RR asks at "
                       "which rank the first relevant note sits.",
               "0.50": "0.50 is RR@2 of owner A's recorded list; in this list the relevant "
                       "note sits lower.",
               "0.00": "At k = 3 all three notes are in view; is one of them relevant?"}),
    _exercise("02.3", RATE, "02db82",
              "0617885d0acb7490e7d15eb9af220113549ad685ef97972730b27b7861ad5a2a",
              "Read A's P@1 in the table under step 5 and average it over the questions "
              "where it is defined.",
              {"0.50": "0.50 counts region as a 0. region's P@1 is n/a: it has nothing "
                       "relevant, so it is not one of the answerable questions (step 4).",
               "1.00": "owner A's first note is archive, which is not relevant.",
               "0.33": "Look again at each answerable question: whose first note is relevant?"}),
    _exercise("03.1", RATE, "400635",
              "0090e2be5813dc364fb049b1f28a831872149eebca79088bb03edac44ac27099",
              "Support = supported claims / claims made. Count the claims the new answer "
              "makes, then check each against launch's labels (step 1's rule).",
              {"0.67": "switch is an expected claim of the rollback question; on launch "
                       "nobody labelled any note as its support.",
               "0.50": "0.50 is launch B's support as recorded; the extra claim changes the "
                       "number of claims made.",
               "1.00": "1.00 is launch B's coverage; support divides by the claims made."}),
    _exercise("03.2", COUNT, "ac6a5a",
              "d819ac3bab44000f4e36e2683a31a486f70b138e17eb00f5034335d4bf66f913",
              "Go through B's four answers; a claim counts when every note it cites is "
              "labelled for it and ranked first (k = 1).",
              {"4": "At k = 1 only each run's first note is in view: check where every cited "
                    "note is ranked.",
               "5": "launch B's bonus is unsupported at any cutoff: nothing is labelled for it."}),
    _exercise("03.3", COUNT, "a41c0f",
              "943ec15b5aa92d9ce0042c4fc70fdbdd1f02ab3aebebcf2b3e2df4f89a860800",
              "Apply step 1's rule to each of B's claims with its new citation list: every "
              "cited note must be labelled for the claim and be in the top 2.",
              {"4": "4 is how many of B's claims are supported as recorded. Step 1's rule "
                    "asks something of every cited note, the added one too.",
               "3": "Look at each claim's added citation: does one good citation make up "
                    "for a bad one (step 1)?",
               "5": "bonus had no support before anything was added: nobody labelled a "
                    "note for it on launch."}),
    _exercise("04.1", RATE, "626563",
              "b320ab513debe59eaa0062e3822a5ba7d1cac17ca553b66e7eb398a6b7c6f8eb",
              "Pooled recall sums the hits over the answerable questions and divides by the "
              "sum of their relevant notes.",
              {"0.83": "0.83 is the macro mean (each question weighs the same); pooled "
                       "divides total hits by total relevant notes.",
               "0.50": "rollback has two relevant notes; count every relevant note of the "
                       "answerable questions."}),
    _exercise("04.2", COUNT, "012f02",
              "02212dc742dc82b83ee6ef949453bd45a69ebca4466332f7e561493558faa0dc",
              "Run compare(question_table(course, k=1), baseline='A', candidate='B') in a new "
              "cell and count the rows whose verdict is regressed.",
              {"1": "That is the count at the chapter's cutoff; at k = 1 one more cited note "
                    "falls out of view for system B.",
               "3": "A value that becomes n/a is 'no longer defined', not a regression.",
               "0": "launch's support regresses at every cutoff."}),
    _exercise("04.3", CHOICE, "825eb0",
              "219a6a458135d73540d63216847ac3ce7a4e8f79807d2e1e3cd2684841b517dd",
              "At k = 1 only the first retrieved note is visible: which of B's answers cites "
              "a note ranked second?",
              {"launch": "launch regresses at the chapter's cutoff as well; the question asks "
                         "for the new one.",
               "region": "region's support becomes n/a because B declines, which is right on "
                         "an unanswerable question; that is not a regression.",
               "owner": "owner B ranks the note it cites first, so it stays in view at k = 1."},
              options=CASES),
    _exercise("04.4", RATE, "ead02f",
              "611cd19ab01aba3032e77f0caec93ddf8c652f3c9acf1200423a734b24cd61e4",
              "Average A's coverage over the answerable questions (the numbers under the "
              "heatmap list it per question).",
              {"0.38": "region's coverage is n/a (nothing is expected) and region is not in "
                       "the answerable slice: do not count it as a 0.",
               "0.67": "0.67 is A's mean support; the question asks about coverage."}),
    _exercise("05.1", RATE, "63d210",
              "9e781100d701ef896a058109ff0e0bf9b78fdc2b456500c3a85b665ac682b374",
              "Under that defect a claim needs only one labelled, visible citation.",
              {"0.00": "0.00 is what the correct scorer gives; the defect is more lenient.",
               "0.50": "Support counts claims, not citations: one claim was made."}),
    _exercise("05.2", RATE, "8e5d56",
              "ed570bcb15c6b598c63a883f6606b5e50d22d82996ac3e53de8f9f918454b68f",
              "Recompute P@2 of launch A, rollback A and owner A with the defect (hits divided "
              "by the notes returned when fewer than k came back), then average the three.",
              {"0.50": "0.50 is the correct mean; the defect changes the denominator of a list "
                       "shorter than k.",
               "1.00": "Only rollback A returned fewer notes than k; launch A and owner A "
                       "returned two each."}),
    _exercise("05.3", RATE, "68b577",
              "d2cdce0c77d367b14b523c2aacf0687dc6dd31a27d62f2b7a56a1b34c569b629",
              "Coverage = supported expected claims / expected claims; under this defect the "
              "rank of a cited note no longer matters.",
              {"0.50": "0.50 is the correct coverage; the defect counts a labelled citation "
                       "even when the note is ranked below k."}),
    _exercise("06.1", CHOICE, "83738f",
              "7f7a84bbfd47debce205790ec4e5f58055f0991b76134e3c3786de00762303eb",
              "Step 1 says what each hash is computed over; find the one that includes the "
              "notes' text.",
              {"questions_sha256": "Which part of the test set holds the text of the notes? "
                                   "Step 1 lists what each hash covers.",
               "both": "Step 1 lists what each hash is computed over; a hash changes only "
                       "when something on its own list changes.",
               "neither": "The hashes are over the content, so a changed character changes "
                          "the hash of whatever holds it."},
              options=HASHES),
    _exercise("06.2", COUNT, "19a8c3",
              "8dbb614e82597e517bf1c6baa7250ec097303d42e3e7d6dfe8e79d284e08d359",
              "For each record, compare the set of delivered notes with the set of its first "
              "retrieved note (recorded.runs[case][system] holds both).",
              {"1": "That is the count at k = 2; at k = 1 the top-k list is one note, so "
                    "compare each delivered list with the first retrieved note only.",
               "5": "region B retrieved nothing and was given nothing: two empty sets are "
                    "the same set."}),
    _exercise("06.3", COUNT, "09ea1e",
              "ed21985277f1292d3e6873a4a37e5140ad76ed4dba20e2983e39468f081f3de1",
              "Read B's gate output in step 4 rule by rule: each line says what B did, which "
              "does not change with a threshold; compare it with each rule as changed.",
              {"1": "Go through all five rules, not only the one that changed.",
               "0": "The last rule's line says how many unsupported claims B made in all; "
                    "compare that with the new limit.",
               "5": "That is how many rules A fails in step 4; the question asks about B."}),
    _exercise("07.1", RATE, "4ea15a",
              "8c852bd106fea764de8330ab3ee373925ec8e0122703df9608dc2ba1cf3177e4",
              "nDCG@1 compares the gain of dense's first note on q2 with the largest gain "
              "any judged note of q2 could have had at rank 1; step 4 shows, for nDCG@3, "
              "how a grade becomes a gain.",
              {"0.63": "At rank 1 the discount is log2(1 + 1) = 1: no note is discounted "
                       "there.",
               "0.33": "The ideal DCG@1 holds one note only, the best one that could be at "
                       "rank 1, not the sum of every grade.",
               "1.00": "glacier is relevant, but graded 1; nDCG compares that with the best "
                       "grade that could have been at rank 1.",
               "0.38": "0.38 is nDCG@3; at k = 1 only the first note counts, in the DCG and "
                       "in the ideal DCG."}),
    _exercise("07.2", RATE, "c6242b",
              "7b6c3af5723aca84ecda7e4877c5a513f3ed83b624f201b2f73690602071c2da",
              "trec_eval's recip_rank is reciprocal rank with no cutoff, averaged over "
              "every question it was given: find that column in step 6 and decide which "
              "questions count.",
              {"0.33": "0.33 is the mean of RR@1, cut at k = 1; trec_eval's recip_rank is "
                       "not cut.",
               "0.75": "trec_eval keeps q3 in its mean as a 0 (its -c convention); it does "
                       "not leave it out."}),
    _exercise("08.1", COUNT, "c1654d",
              "d778243c4687dbdb1bc9603334c4921bb73143934d511592f63f307d6a7c0c7f",
              "Add up the disclosures column of step 2's table for rerank.",
              {"9": "9 is baseline's total; the question asks about rerank.",
               "6": "6 counts the questions with a disclosure; one of them has more than one.",
               "0": "rerank-guarded has none; the question asks about rerank."}),
    _exercise("08.2", COUNT, "a9fd68",
              "456cb54345a42ca1ec20fd2500bb1d44af1a0f0eee6b592f223cc018e792ec02",
              "Step 5 prints how many questions improved over the whole collection and over "
              "the held-out split; every question is in one split or the other.",
              {"8": "That is the held-out split's count; the question asks about the dev "
                    "split.",
               "12": "That is over the whole collection; the question asks about the dev "
                     "split.",
               "18": "18 is how many dev questions there are, improved or not."}),
    _exercise("08.3", RATE, "4a55ae",
              "6759683956456aaa6a6dc3234c17a2bf7ef158f8b3809f626fc97bfc7fb35480",
              "kappa = (po - pe) / (1 - pe); here po is 25/27 and pe stays 46/81.",
              {"0.93": "0.93 is the percent agreement, 25/27; kappa takes away the agreement "
                       "expected by chance.",
               "0.57": "0.57 is the kappa of the real 22 agreements; recompute po for 25."}),
    _exercise("09.1", COUNT, "5e0b91",
              "52c51da5c1224099596470947605477ff77676bb3e844fdb3ea18125177c564d",
              "Start from step 4's table of claims. For each new sentence, find the entry it "
              "replaces, then look for an entry of the same question with the same words "
              "(markers aside) and the same cited passages.",
              {"14": "Two answers to one question that write the same sentence, markers "
                     "aside, and cite the same passages share one entry.",
               "12": "Match sentences word for word, leaving out only their markers.",
               "15": "That counts every claim; the queue lists a shared sentence once."}),
    _exercise("09.2", RATE, "b37c24",
              "08191bd013e29feb313549f9078dba435db64977452a01865ca11d6efed59b94",
              "Pooled: add up draft's supported claims on launch, rollback and owner, and "
              "divide by all its claims on those three questions.",
              {"0.33": "0.33 is the mean of the three per-question values (macro), or counts "
                       "the region claim too; pooled sums claims over the answerable "
                       "questions."}),
    _exercise("09.3", RATE, "0d8fa6",
              "0dfdeecf10c6f0eff39e464bf30c5c8f02ef988eba15fa8e73bc139523fe0b6e",
              "Check each sentence alone: does it cite only the passage labelled for the "
              "expected claim it states, within the top 2?",
              {"0.50": "Judge each sentence on its own: the passage it cites, that "
                       "passage's rank, and the sources labelled for the claim it states.",
               "0.00": "0.00 is the one combined sentence of step 5; two sentences are "
                       "judged one at a time."}),
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
    """True when a rate's answer is one hundredth above or below ``form``."""
    if exercise.kind != RATE:
        return False
    hundredths = round(float(form) * 100)
    return any(digest(exercise.id, exercise.salt, f"{near / 100:.2f}") == exercise.digest
               for near in (hundredths - 1, hundredths + 1) if 0 <= near <= 100)


def about(exercise_id):
    """One line saying what kind of answer an exercise wants and how it is compared.

    >>> about("02.1")
    'Exercise 02.1 wants a rate: rates are compared after rounding to two decimals (2/3, 0.667 and 0.67 all count).'
    """
    exercise = _find(exercise_id)
    return f"Exercise {exercise.id} wants a {exercise.kind}: {TOLERANCE[exercise.kind]}."
