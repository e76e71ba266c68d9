"""Feedback as a learner reads it: plain text wrapped at spaces to 80 columns (a worked
solution used to be one long line that JupyterLab broke mid-word), and HTML where a
Markdown code span is shown as code, not as backticks."""
from ragscore.workbook.exercises import EXERCISES, check, solution
from ragscore.workbook.feedback import COLUMNS, Feedback
from ragscore.workbook.solutions import worked


def test_every_worked_solution_is_wrapped_at_spaces_to_80_columns():
    wrapped = 0
    for name, exercise in EXERCISES.items():
        check(name, exercise.options[0] if exercise.options else 0)   # an attempt
        shown = solution(name)
        assert shown.message == f"Worked solution to {name}: {worked(exercise)}"
        lines = repr(shown).split("\n")
        assert max(map(len, lines)) <= COLUMNS, name
        # no word was cut: the lines joined by spaces are the message again
        assert " ".join(lines) == shown.message, name
        wrapped += len(lines) > 1
    assert wrapped == len(EXERCISES)        # every worked solution is longer than a line


def test_the_worked_solution_of_01_3_shows_its_emphasis_and_code_as_html():
    check("01.3", "refused")
    shown = solution("01.3")._repr_html_()
    assert "checks the <em>retrieved</em> list" in shown and "<code>attempt</code>" in shown
    assert "`" not in shown and "*" not in shown


def test_a_code_span_is_shown_as_code_and_text_is_escaped():
    feedback = Feedback("00.0", "wrong", "Compare `ctx differs@2` with <none> & more.",
                        'Try again: solution("00.0").')
    assert feedback._repr_html_() == (
        '<div class="ragscore-feedback"><p>Compare <code>ctx differs@2</code> with '
        '&lt;none&gt; &amp; more.</p><p>Try again: solution("00.0").</p></div>')


def test_a_long_word_stays_whole():
    word = "x" * 90
    assert repr(Feedback("00.0", "wrong", f"see {word} here")) == f"see\n{word}\nhere"
