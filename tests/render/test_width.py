"""Text output that fits the page: long lines wrapped under themselves at the width asked for
(``--width``, else ``COLUMNS``, else a terminal's width), by one function every command's text
goes through; data formats (CSV, JSON, Markdown) are never wrapped."""
import io
import json

import pytest

from ragscore.cli import capture
from ragscore.render.failures import column_widths
from ragscore.render.width import FittedLines, check_width, fit_line, fit_text, output_width

COURSE, RUNS = "fixtures/course", "fixtures/course-runs"
GATE = ["gate", RUNS, "--policy", "fixtures/policies/course.toml", "--candidate", "A",
        "--baseline", "B"]


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch, request):
    monkeypatch.chdir(request.config.rootpath)


def test_a_long_line_breaks_at_spaces_and_continues_indented_under_itself():
    line = "  FAIL  mean coverage (coverage, min_mean): mean coverage 0.50 over 3 questions"
    assert fit_line(line, 30) == ["  FAIL  mean coverage", "      (coverage, min_mean):",
                                  "      mean coverage 0.50 over", "      3 questions"]


def test_a_line_that_fits_and_a_word_longer_than_the_room_stay_whole():
    assert fit_line("x" * 30, 30) == ["x" * 30]
    digest = "0b24d86edef1c1c0c902b2ed7a039972"
    assert fit_line(f"sha {digest} end", 20) == ["sha", f"    {digest}", "    end"]


def test_a_deep_indentation_keeps_half_the_width_for_words():
    assert fit_line(" " * 30 + "one two three four", 24) == [" " * 12 + "one two",
                                                            " " * 12 + "three four"]


def test_fit_text_keeps_the_line_breaks_and_blank_lines():
    assert fit_text("a b c d e\n\nf", 8) == "a b c d\n    e\n\nf"
    assert fit_text("a b c", None) == "a b c"


def test_the_stream_waits_for_the_end_of_a_line_before_wrapping_it():
    sink = io.StringIO()
    stream = FittedLines(sink, 10)
    stream.write("one two ")
    assert sink.getvalue() == ""
    stream.write("three four\nfive")
    assert sink.getvalue() == "one two\n    three\n    four\n"
    stream.flush()
    assert sink.getvalue().endswith("four\nfive")


@pytest.mark.parametrize("bad", ["19", "-1", "wide", "", "1.5"])
def test_a_width_too_narrow_or_not_a_number_is_refused(bad):
    with pytest.raises(ValueError, match=rf"--width must be a whole number of columns, at "
                                         rf"least 20, or 0 for no wrapping; got '{bad}'"):
        check_width(bad)
    code, out, err = capture(["report", COURSE, "--width", bad])
    assert code == 2 and out == ""
    assert "--width must be a whole number of columns" in err and repr(bad) in err


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_which_width_counts(monkeypatch):
    monkeypatch.setattr("shutil.get_terminal_size", lambda: __import__("os").terminal_size((93, 40)))
    assert output_width("60", _Terminal(), environ={"COLUMNS": "70"}) == 60
    assert output_width("60", io.StringIO(), environ={}) == 60
    assert output_width("0", _Terminal(), environ={"COLUMNS": "70"}) is None
    assert output_width(None, _Terminal(), environ={"COLUMNS": "70"}) == 70
    assert output_width(None, _Terminal(), environ={"COLUMNS": "junk"}) == 93
    assert output_width(None, _Terminal(), environ={}) == 93
    # a pipe or a file is wrapped only when asked: COLUMNS is exported by readline into
    # the children of any process that loads it, whatever they write to
    assert output_width(None, io.StringIO(), environ={"COLUMNS": "70"}) is None
    assert output_width(None, io.StringIO(), environ={}) is None


def _widest(text):
    return max(len(line) for line in text.splitlines())


def test_a_report_fits_the_width_asked_for_and_is_unchanged_without_one():
    _, plain, _ = capture(["report", COURSE])
    assert _widest(plain) > 150                       # the aggregate lines, one a line
    code, fitted, _ = capture(["report", COURSE, "--width", "72"])
    assert code == 0 and _widest(fitted) <= 72
    assert fitted.split() == plain.split()            # the same words, only broken
    first = fitted.splitlines().index(next(line for line in fitted.splitlines()
                                           if line.startswith("- A answerable precision")))
    assert fitted.splitlines()[first + 1].startswith("    ")   # continued under its row


def test_columns_counts_in_a_terminal_and_the_option_before_or_after_the_command(monkeypatch):
    from ragscore.cli import main

    monkeypatch.setenv("COLUMNS", "64")
    terminal = _Terminal()
    assert main(["report", COURSE], out=terminal) == 0
    assert _widest(terminal.getvalue()) <= 64
    assert capture(["--width", "64", "report", COURSE])[1] == terminal.getvalue()
    assert capture(["report", COURSE, "--width", "64"])[1] == terminal.getvalue()
    assert _widest(capture(["report", COURSE])[1]) > 150      # a pipe: COLUMNS alone, no wrap
    unwrapped = _Terminal()
    main(["report", COURSE, "--width", "0"], out=unwrapped)
    assert _widest(unwrapped.getvalue()) > 150


def test_the_gate_reasons_wrap_under_their_rule():
    code, out, _ = capture([*GATE, "--width", "60"])
    lines = out.splitlines()
    assert code == 1 and _widest(out) <= 60
    rule = lines.index(next(line for line in lines if line.startswith("  FAIL  mean coverage")))
    assert lines[rule + 1].startswith("      ") and not lines[rule + 1].startswith("       ")
    verdict = next(at for at, line in enumerate(lines) if line.startswith("verdict: FAIL"))
    assert all(line.startswith("    ") for line in lines[verdict + 1:])  # its continuation
    assert not any(line.startswith("verdict") for line in lines[:verdict])


def test_the_failure_columns_share_the_width():
    assert column_widths(None) == column_widths(200) == (34, 46, 28)
    assert sum(column_widths(80)) + 4 == 80
    code, out, _ = capture(["report", COURSE, "--failures", "--width", "80"])
    assert code == 0 and _widest(out) <= 80
    assert "When does the release" in out


@pytest.mark.parametrize("argv", [["report", COURSE, "--format", "csv"],
                                  ["report", COURSE, "--format", "markdown"],
                                  ["report", COURSE, "--format", "json"],
                                  ["manifest", RUNS]])
def test_data_for_a_program_is_never_wrapped(argv):
    _, plain, _ = capture(argv)
    _, asked, _ = capture([*argv, "--width", "20"])
    assert asked == plain
    if argv[0] == "manifest":
        assert json.loads(asked)["dataset"] == "course-runs"
