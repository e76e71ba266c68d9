"""One quick check per chapter, after its key step: a question, three or four choices, and
feedback written for each choice (why a wrong one is wrong, not only that it is).

:data:`QUICK_CHECKS` holds them by chapter; :func:`feedback` is the logic and
:func:`quick_check` the panel a chapter shows (a letter per choice; the feedback follows a
click). In present mode the panel is the room's question: ask for hands, then click.
"""
import html
from collections import namedtuple

from ..core.rules import fail

LETTERS = "ABCD"


class Choice(namedtuple("Choice", "text right feedback")):
    """One choice: its text, whether it is the right one, and what a learner who picks it
    reads."""

    __slots__ = ()


class QuickCheck(namedtuple("QuickCheck", "chapter step question choices")):
    """A chapter's quick check: the step it follows, the question and its choices."""

    __slots__ = ()


def _check(chapter, step, question, *choices):
    return QuickCheck(chapter, step, question, tuple(Choice(*choice) for choice in choices))


QUICK_CHECKS = {check.chapter: check for check in (
    _check("01", 3, "Nothing in the notes is relevant to `region`, and the reviewer expects no "
                    "claim. What should a good system do with that question?",
           ("Answer from the note closest to the question.", False,
            "The closest note says nothing about where the backup is hosted: any claim built "
            "on it cites a note nobody labelled for it, so it is unsupported."),
           ("Answer from general knowledge, without a citation.", False,
            "A claim with no citation is never supported, and the test is about these notes: "
            "the answer must come from the evidence or not at all."),
           ("Cite every note, so that one of them supports the answer.", False,
            "A citation counts only when the note is labelled for the claim, and every cited "
            "note must be; here none is, so every claim would be unsupported."),
           ("Decline to answer.", True,
            "Right: these frozen notes cannot answer it, and saying so is the correct "
            "behaviour. A test set keeps such questions to catch systems that never decline.")),
    _check("02", 2, "A system returns one note for a question, and that note is relevant. "
                    "What is its P@3?",
           ("1.00", False, "1.00 divides the hit by the notes returned (one). P@3 keeps its "
                           "three slots however short the list is."),
           ("0.33", True, "Right: one hit over k = 3 slots. Precision over returned items "
                          "would say 1.00 for the same list: a different question."),
           ("n/a", False, "n/a is for a question with nothing relevant to find; here a "
                          "relevant note exists and was found."),
           ("0.50", False, "0.50 would be one hit in two slots; k is 3.")),
    _check("03", 4, "An answer makes three claims and two are supported. The reviewer "
                    "expected two claims, and both are among the supported ones. What are "
                    "its support and coverage?",
           ("support 0.67, coverage 1.00", True,
            "Right: support is 2 supported of 3 claims made; coverage is 2 supported of 2 "
            "claims expected. The extra claim lowers support, not coverage."),
           ("support 1.00, coverage 0.67", False,
            "Swapped: support divides by the claims the answer made (3), coverage by the "
            "claims the reviewer expected (2)."),
           ("support 0.67, coverage 0.67", False,
            "Coverage counts the expected claims that are supported: both are, so nothing "
            "expected is missing."),
           ("support 1.00, coverage 1.00", False,
            "Support counts every claim the answer made, the unsupported third one too.")),
    _check("04", 3, "Mean support rose from A's 0.67 to B's 0.83. What does that tell you about "
                    "the `launch` question?",
           ("That `launch` improved or stayed the same.", False,
            "A mean can rise while one question falls: `launch`'s support went from 1.00 to "
            "0.50 while `owner`'s rose from 0.00 to 1.00."),
           ("That `launch`'s support is now 0.83.", False,
            "0.83 is the mean over the answerable questions; each question has its own "
            "value in the table."),
           ("Nothing for certain: read `launch`'s own row.", True,
            "Right: a mean hides which questions moved. The per-question table and the list "
            "of changes, regressions first, are read before any average."),
           ("That `launch` is left out of the mean as n/a.", False,
            "`launch` is answerable and B's support there is defined; only a question whose "
            "value is undefined is left out as n/a.")),
    _check("05", 2, "You write a defect into a copy of the scorer, and the contract tests "
                    "stop with an ImportError. What has that shown?",
           ("The tests caught the defect.", False,
            "A test catches a defect by failing an assertion about the numbers. An import "
            "error only says the copy does not load."),
           ("That the defect is harmless.", False,
            "Nothing ran, so nothing was measured: a harmless defect would show as every "
            "test passing."),
           ("That the contract tests are wrong.", False,
            "The same tests pass on the scorer as shipped; the failure is in the copy, "
            "before any test could run."),
           ("Nothing about the defect: the copy is broken.", True,
            "Right: no test got to check the rule. Fix the copy so it loads, and see which "
            "assertion fails.")),
    _check("06", 4, "Every average of B is better than A's, yet `ragscore gate` exits 1 for B. "
                    "What does a CI job do with that run?",
           ("Ships B: its averages are better.", False,
            "The policy was written before anyone looked, and it says no question may lose "
            "support; the averages do not overrule it."),
           ("Retries: exit 1 means the input was bad.", False,
            "Bad input is exit 2, and a retry would judge the same runs the same way."),
           ("Stops the release: exit 1 means a rule failed.", True,
            "Right: exit 0 is the only pass. The output names the rule and the question "
            "that broke it (`launch`)."),
           ("Ships with a warning: only one of five rules failed.", False,
            "Any failed rule fails the gate, whatever its severity; a rule you only want "
            "to watch belongs in a report, not in the policy.")),
    _check("07", 5, "At `min_relevance` = 2, `q3` has nothing relevant. Say recall is 1.00 on "
                    "`q1` and `q2`. What do our mean and trec_eval's mean read?",
           ("ours 1.00, trec_eval's 0.67", True,
            "Right: we leave `q3` out of the answerable slice and say so; trec_eval counts "
            "it as 0 and divides by 3. `--na-as-zero` gives its number."),
           ("both 0.67", False, "Our mean leaves `q3` out: nothing relevant means recall is "
                                "undefined there, not 0."),
           ("both 1.00", False, "trec_eval keeps every question of the qrels in its mean "
                                "and scores one with nothing relevant as 0."),
           ("ours 0.67, trec_eval's 1.00", False,
            "The other way round: the 0 is trec_eval's convention; ours is n/a, left out.")),
    _check("08", 2, "An answer has support 1.00 and coverage 1.00, and a finance-only note was "
                    "delivered to a caller outside finance. How is it scored?",
           ("As a good answer: everything it says is supported.", False,
            "Support says the claims are backed; it says nothing about who was shown the "
            "evidence."),
           ("As a disclosure only if the answer cites the note.", False,
            "Delivering it to the answer stage is enough: the model was shown it, cited or "
            "not."),
           ("As a disclosure, counted on its own, whatever its support.", True,
            "Right: a restricted note delivered or cited for a caller outside its groups is "
            "a disclosure, and a correct answer does not excuse it."),
           ("As unsupported.", False,
            "The claims are supported; the problem is separate, and it is counted in its own "
            "column.")),
    _check("09", 3, "An answer's two claims have not been reviewed yet. What are its support "
                    "and coverage?",
           ("0: nothing is supported yet.", False,
            "0 would say the answer is wrong; nobody has judged it, so it is not assessed."),
           ("n/a, not assessed, with how many claims await review.", True,
            "Right: the answer stays out of every mean until a person decides, and the "
            "reason says how many claims wait."),
           ("1: nothing is wrong with it yet.", False,
            "That would reward answers nobody checked."),
           ("Whatever its citations give under the strict rule.", False,
            "The strict rule needs to know which expected claim a sentence states; only a "
            "reviewer's decision says that.")),
    _check("10", 4, "A chunker cuts a claim's evidence in two: chunk a holds its first half, "
                    "chunk b the rest. The answer cites a alone, ranked first. Is the claim "
                    "supported at k = 2?",
           ("Yes: a overlaps the evidence, and it is visible.", False,
            "Overlapping is what makes a partial; the cited chunks together must cover one "
            "evidence span whole, and a holds half of it."),
           ("No: a alone is partial; citing a and b, both in the top 2, would support it.",
            True, "Right: together a and b cover the span. Where a chunk holds its evidence "
                  "whole, one citation is enough, as in chapter 3."),
           ("Only if b is retrieved too, cited or not.", False,
            "Visibility counts the chunks the claim cites; b retrieved but not cited adds "
            "nothing to what the answer backs its claim with."),
           ("No, and no citation can support it until the labels are redone.", False,
            "The labels are spans: nothing needs redoing. Citing both pieces supports it on "
            "this chunking as it stands.")),
    _check("11", 2, "A nugget has no sources, and nobody has read the answer against it yet. "
                    "What is the answer's assignment to it, and what happens to W?",
           ("not_support, and W counts that nugget as 0 for now.", False,
            "That would say the answer misses the fact, and nobody has looked: a missing "
            "judgement is not a negative one."),
           ("None yet: n/a, and W is n/a until someone assigns it.", True,
            "Right: the score waits for the reviewer and says why; it never guesses either "
            "way."),
           ("support, since nothing contradicts it, and W counts it in full.", False,
            "Nothing shows the answer states it either; that would reward answers nobody "
            "checked."),
           ("The strict rule assigns it from the citations, and W follows.", False,
            "The strict rule needs passages labelled for the nugget, and this one has none: "
            "no citation can prove it.")),
)}


def feedback(chapter, letter):
    """``(right, text)`` for choosing ``letter`` (``"A"``...) in ``chapter``'s quick check.

    >>> feedback("02", "B")[0], feedback("02", "A")[0]
    (True, False)
    """
    found = QUICK_CHECKS.get(chapter) if isinstance(chapter, str) else None
    if found is None:
        fail("chapter", f"one of {', '.join(QUICK_CHECKS)}", chapter)
    letters = LETTERS[:len(found.choices)]
    if not isinstance(letter, str) or letter not in letters:
        fail("choice", f"one of {', '.join(letters)}", letter)
    choice = found.choices[letters.index(letter)]
    return choice.right, choice.feedback


def _code(text):
    """``text`` as HTML, with `backticked` names in code."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{part}</code>" if index % 2 else part
                   for index, part in enumerate(parts))


def question_html(chapter):
    """The question and its lettered choices, as HTML."""
    found = QUICK_CHECKS[chapter]
    choices = "".join(f"<li><b>{letter}.</b> {_code(choice.text)}</li>"
                      for letter, choice in zip(LETTERS, found.choices))
    return (f'<div class="ragscore-quick"><p><b>Quick check.</b> {_code(found.question)}</p>'
            f'<ul style="list-style:none;padding-left:1em">{choices}</ul></div>')


def feedback_html(chapter, letter):
    """The feedback shown for choosing ``letter``: green when right, red when wrong."""
    right, text = feedback(chapter, letter)
    colour = "#1a7f37" if right else "#b2182b"
    return (f'<p class="ragscore-feedback" data-right="{str(right).lower()}"'
            f' style="color:{colour}">{letter}: {_code(text)}</p>')


def quick_check(chapter):
    """The quick check of ``chapter`` as a panel: the question, a button per letter, and the
    feedback of the letter chosen. ``panel.choice`` (ToggleButtons), ``panel.feedback``
    (HTML, the chosen letter's feedback), ``panel.shown`` (a Stack of every letter's
    feedback, linked to the buttons in the browser).

    The feedback a click shows needs no kernel: each letter's feedback is drawn when the
    panel is built, and the buttons' index is linked to the stack in the browser
    (``jslink``), so the answer appears at once, even while the kernel is busy."""
    import ipywidgets as widgets

    from .explore import LIVE_STYLE
    from .widgets import _panel

    feedback(chapter, "A")
    letters = LETTERS[:len(QUICK_CHECKS[chapter].choices)]
    choice = widgets.ToggleButtons(options=list(letters), value=None, description="answer")
    shown = widgets.HTML()
    stack = widgets.Stack([widgets.HTML(LIVE_STYLE + feedback_html(chapter, letter))
                           for letter in letters], selected_index=None)
    link = widgets.jslink((choice, "index"), (stack, "selected_index"))

    def answer(_=None):
        shown.value = "" if choice.value is None else LIVE_STYLE + feedback_html(chapter,
                                                                                choice.value)

    choice.observe(answer, names="value")
    panel = _panel([widgets.HTML(LIVE_STYLE + question_html(chapter)), choice, stack],
                   lambda p: f"quick check, chapter {int(chapter)}: "
                             f"{'no answer yet' if choice.value is None else choice.value}",
                   lambda p: question_html(chapter))
    panel.choice, panel.feedback, panel.shown, panel.link = choice, shown, stack, link
    return panel
