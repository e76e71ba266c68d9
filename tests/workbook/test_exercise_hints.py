"""Exercises that need working: no exercise can be settled by collecting its hints.

Every plausible wrong reply is fed to ``check`` (for a rate every hundredth from 0 to 1, for
a count every whole number up to a dozen past the answer, for a choice every option), and
the hints that come back are read together:

- no hint states the right value (as a decimal, a fraction, "N of M", or a count);
- no hint says which way the answer lies from the reply ("more than 1" to a reply of 1,
  "too high", "one short");
- a hint to a wrong choice names no other choice (it would rule that one in or out), and
  the general hint names none;
- the hints taken together do not decide every item the answer is worked from (each
  question, claim or label the working goes through, listed per exercise below): an item
  is decided by a sentence that names it and says how it comes out (supported, partial,
  kept, "that is ...", ...). With every item decided, the hints leave one answer; for a
  choice, with all but one option decided.

The right answers are worked by hand in tests/workbook/test_exercises.py (``HAND``).
"""
import re
from fractions import Fraction

import pytest

from ragscore.workbook.exercises import CHOICE, COUNT, EXERCISES, RATE, check

from test_exercises import HAND, states

#: exercise -> the items its answer is worked from, as patterns (a name in a hint).
ITEMS = {
    "01.1": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "01.2": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "02.1": [r"\brollback\b(?! B)", r"\bchecklist\b"],
    "02.2": [r"\barchive\b", r"\blaunch\b", r"\bowners\b"],
    "02.3": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "03.1": [r"\bmonday\b", r"\bbonus\b", r"\bswitch\b"],
    "03.2": [r"\bmonday\b", r"\bbonus\b", r"\bswitch\b", r"\bsmoke\b", r"\baurora\b"],
    "03.3": [r"\bmonday\b", r"\bbonus\b", r"\bswitch\b", r"\bsmoke\b", r"\baurora\b"],
    "04.1": [r"\blaunch\b", r"\brollback\b", r"\bowner\b"],
    "04.2": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "04.3": [r"\bmonday\b", r"\bbonus\b", r"\bswitch\b", r"\bsmoke\b", r"\baurora\b"],
    "04.4": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "05.1": [r"\bswitch\b", r"\bsmoke\b", r"\bmonday\b"],
    "05.2": [r"\blaunch\b", r"\brollback\b", r"\bowner\b"],
    "05.3": [r"\blaunch\b", r"\brollback\b", r"\bowner\b"],
    "06.2": [r"\blaunch\b", r"\brollback\b", r"\bowner\b", r"\bregion\b"],
    "06.3": [r"support regression|loses support", r"critical", r"mean coverage",
             r"unanswerable|declin", r"unsupported claim"],
    "07.1": [r"\bglacier\b", r"\bmoraine\b"],
    "07.2": [r"\bq1\b", r"\bq2\b", r"\bq3\b"],
    "08.2": [r"held-out|heldout", r"whole collection|every question|all 46"],
    "09.2": [r"\blaunch\b", r"\brollback\b", r"\bowner\b"],
    "09.3": [r"\bswitch\b", r"\bsmoke\b", r"\blaunch\b", r"\bowner\b"],
    "10.1": [r"\bmonday\b", r"\bswitch\b", r"\bsmoke\b"],
    "10.2": [r"\bswitch\b", r"\bsmoke\b"],
    "10.3": [r"launch", r"\bswitch\b|previous version", r"smoke", r"\baurora\b|owner"],
    "11.1": [r"\bswitch\b", r"\bsmoke\b", r"\border\b"],
    "11.3": [r"\bswitch\b", r"\bsmoke\b", r"\border\b"],
}

#: Words that say how an item comes out.
VERDICT = re.compile(
    r"\b(un)?supported\b|\bpartial\b|\bfull\b|\bwhole\b|\binside\b|\bcross(es)?\b|"
    r"\brelevant\b|\blabelled\b|\bkept\b|\bmoved\b|\borphaned\b|\blost\b|\bn/a\b|"
    r"\bregress\w*|\bimprov\w*|\bone such\b|\bthat is\b|\bis the\b|\bfails?\b|\bpass(es)?\b|"
    r"\bholds?\b|\blies\b|\b(is|are) cut\b|\branked? (first|second|third|\d)|\bat rank \d|\bgrade \d|"
    r"\bhits?\b|\bmiss(es|ed)?\b|\bvisible\b|\bout of view\b|\bdiffers?\b|\bsame\b",
    re.IGNORECASE)

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight", 9: "nine", 10: "ten"}


def plausible_replies(name):
    """Every reply a learner might plausibly type to ``name``, in the canonical form
    ``check`` hashes, the right one left out."""
    kind, right, *_ = HAND[name]
    if kind == RATE:
        replies = [n / 100 for n in range(101)]
        return [reply for reply in replies if f"{reply:.2f}" != f"{right:.2f}"]
    if kind == COUNT:
        return [n for n in range(right + 13) if n != right]
    return [option for option in EXERCISES[name].options if option != right]


def hints(name):
    """``{reply: the hint check gives it}`` over every plausible wrong reply."""
    found = {}
    for reply in plausible_replies(name):
        feedback = check(name, reply)
        assert feedback.status == "wrong", (name, reply)
        found[reply] = re.sub(r"^Not quite: you gave \S+\. ", "", feedback.message)
    return found


def states_value(kind, right, text):
    """``states`` of test_exercises, and a rate written as "N of M" (1 of 2 for 0.50)."""
    if states(kind, right, text):
        return True
    if kind == RATE:
        return any(Fraction(int(n), int(m)) == Fraction(right).limit_denominator(40)
                   for n, m in re.findall(r"\b(\d+) (?:of|out of) (\d+)\b", text) if int(m))
    return False


def points_past(kind, reply, text):
    """True when ``text`` says which way the answer lies from ``reply``."""
    if re.search(r"\btoo (many|few|high|low|big|small|large)\b|\bone (more|fewer|short)\b|"
                 r"\b(missed|missing|forgot) (just )?one\b|\bone too many\b|"
                 # the walkthrough on 78eb80e: "the defect is more lenient" (so higher), "the
                 # relevant note sits lower" (so a smaller RR), "not only the one that changed"
                 # (so more than one), "more than one claim" (so more than the questions)
                 r"\bmore (lenient|generous|strict)\b|\b(stricter|harsher)\b|"
                 r"\bsits (lower|higher|further down|further up)\b|\bnot only the\b|"
                 r"\bmore than one\b", text, re.I):
        return True
    if kind == COUNT:
        said = rf"({reply}|{WORDS.get(reply, str(reply))})"
        return bool(re.search(rf"\b(more|fewer|less|other) than {said}\b|\bat (least|most) "
                              rf"({reply + 1}|{max(reply - 1, 0)})\b", text, re.I))
    return bool(re.search(r"\b(higher|lower|larger|smaller|bigger) than (that|yours|this)\b",
                          text, re.I))


def decided(name, text):
    """The items of ``name`` that a sentence of ``text`` names and says how it comes out."""
    found = set()
    for sentence in re.split(r"(?<=[.;?!:])\s+", text):
        if VERDICT.search(sentence):
            found |= {item for item in ITEMS.get(name, ()) if re.search(item, sentence)}
    return found


def named_options(name, text):
    return {option for option in EXERCISES[name].options
            if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text)}


@pytest.mark.parametrize("name", sorted(HAND))
def test_no_hint_states_the_right_value(name):
    kind, right, *_ = HAND[name]
    for reply, hint in hints(name).items():
        assert not states_value(kind, right, hint), (name, reply, hint)


@pytest.mark.parametrize("name", sorted(n for n in HAND if HAND[n][0] != CHOICE))
def test_no_hint_says_which_way_the_answer_lies(name):
    kind = HAND[name][0]
    for reply, hint in hints(name).items():
        assert not points_past(kind, reply, hint), (name, reply, hint)


@pytest.mark.parametrize("name", sorted(n for n in HAND if HAND[n][0] == CHOICE))
def test_a_wrong_choice_hint_names_no_other_choice(name):
    exercise = EXERCISES[name]
    assert not named_options(name, exercise.hint), (name, exercise.hint)
    for reply, hint in hints(name).items():
        assert named_options(name, hint) <= {reply}, (name, reply, hint)


@pytest.mark.parametrize("name", sorted(HAND))
def test_the_hints_together_leave_working_to_do(name):
    """With every item decided by some hint the answer is settled without working. For a
    choice, a hint that says how things come out decides the option it answers (and any it
    names): with every option but one decided, the choice is settled."""
    together = set().union(*(decided(name, hint) for hint in hints(name).values()))
    if HAND[name][0] == CHOICE:
        options = set(EXERCISES[name].options)
        ruled = {reply for reply, hint in hints(name).items() if VERDICT.search(hint)}
        ruled |= set().union(*(named_options(name, hint) for hint in hints(name).values()
                               if VERDICT.search(hint)))
        assert len(options - ruled) >= 2, (name, sorted(ruled))
    else:
        assert ITEMS.get(name) is None or together != set(ITEMS[name]), (name, sorted(together))


def test_every_exercise_with_items_is_an_exercise():
    assert set(ITEMS) <= set(HAND)


# The detectors, on hints written to fail them (the walkthrough's findings in chapter 10).

def test_two_hints_that_decide_every_item_are_caught():
    """1dd5f70's 10.2: the hint to 1.00 decided switch, the one to 0.00 smoke."""
    ITEMS["00.2"] = [r"\bswitch\b", r"\bsmoke\b"]
    try:
        first = decided("00.2", "switch's sentence lies in @0, which holds only part of the "
                                "evidence: partial, unsupported.")
        second = decided("00.2", "smoke's sentence lies in @74, which holds its evidence "
                                 "whole, and it is ranked second: supported at k = 2.")
        assert first | second == set(ITEMS["00.2"])
        assert not decided("00.2", "Apply step 4's rule to each claim in turn.")
    finally:
        del ITEMS["00.2"]


def test_a_hint_pointing_past_the_reply_is_caught():
    """1dd5f70's 10.3: the hint to 1 asked whether more than one label held the word."""
    assert points_past(COUNT, 1, "does more than one of them hold the word Aurora?")
    # 78eb80e's 01.1: to the reply 3 (the number of questions expecting claims) it said one
    # question expects more than one claim, so the answer is more than 3
    assert points_past(COUNT, 3, "one question expects more than one claim")
    assert points_past(RATE, 0.0, "0.00 is what the correct scorer gives; the defect is more "
                                  "lenient.")
    assert points_past(RATE, 0.5, "in this list the relevant note sits lower.")
    assert not points_past(COUNT, 3, "Count claim IDs, not questions.")
    assert points_past(RATE, 0.5, "That is too high.")


def test_a_rate_written_as_n_of_m_is_caught():
    assert states_value(RATE, 0.5, "B supports 1 of 2 claims")
    assert not states_value(RATE, 0.5, "B supports 1 of 3 claims")
