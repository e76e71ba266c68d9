"""Text that fits a width: every command's text output and the workbook's command output
go through :func:`fit_line`, so a long line is wrapped under itself instead of running off
the right edge of a terminal, a notebook page or a projector.

A line that fits is left alone. A longer one is broken at spaces; its continuation lines
are indented under it (its own indentation plus :data:`HANGING` spaces), so a rule's reason
or a question's note stays visibly part of its row. A single word longer than the room
(a hash, a path) is kept whole rather than cut in the middle. Standard library only.
"""
import os
import shutil
import textwrap

#: The narrowest width that can be asked for (a number and a few words still fit).
NARROWEST = 20
#: How much further a continuation line is indented than the line it continues.
HANGING = 4


def fit_line(line, width):
    """``line`` as a list of lines of at most ``width`` characters where its spaces allow
    (``width`` ``None``: the line as it is).

    >>> fit_line("  FAIL  no support regression: 1 of 3 questions fell below the baseline", 40)
    ['  FAIL  no support regression: 1 of 3', '      questions fell below the baseline']
    >>> fit_line("short", 40)
    ['short']
    """
    if width is None or len(line) <= width:
        return [line]
    words = line.lstrip(" ")
    indent = len(line) - len(words)  # at most half the width, so words keep the other half
    return textwrap.wrap(words, width, initial_indent=" " * min(indent, width // 2),
                         subsequent_indent=" " * min(indent + HANGING, width // 2),
                         break_long_words=False, break_on_hyphens=False) or [line]


def fit_text(text, width):
    """Every line of ``text`` through :func:`fit_line`; the line breaks of ``text`` are kept.

    >>> print(fit_text("a b c d e f g h\\nok", 8))
    a b c d
        e f
        g h
    ok
    """
    if width is None:
        return text
    return "\n".join(part for line in text.split("\n") for part in fit_line(line, width))


def check_width(value):
    """``value`` as a width: a whole number from :data:`NARROWEST` up, or 0 for "never wrap"
    (returned as ``None``); anything else raises ``ValueError`` naming it.

    >>> check_width("80"), check_width("0")
    (80, None)
    """
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if number == 0:
        return None
    if number < NARROWEST:
        raise ValueError(f"--width must be a whole number of columns, at least {NARROWEST}, "
                         f"or 0 for no wrapping; got {value!r}")
    return number


def output_width(asked, stream, *, environ=os.environ):
    """The width text written to ``stream`` is wrapped at: ``asked`` (a ``--width``, already
    checked; 0 is "never wrap") when given; else, when ``stream`` is a terminal, the
    ``COLUMNS`` variable if it holds a width, else the terminal's own width; else ``None``
    (a pipe or a file: one record a line, as grep and a program expect). ``COLUMNS`` alone
    never wraps a pipe: GNU readline exports it into every child of a process that loads
    it, a test runner's among them.

    >>> import io
    >>> output_width(None, io.StringIO(), environ={"COLUMNS": "72"}) is None
    True
    >>> output_width("72", io.StringIO(), environ={})
    72
    """
    if asked is not None:
        return check_width(asked)
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        return None
    try:
        return check_width(environ["COLUMNS"])
    except (KeyError, ValueError):
        return max(NARROWEST, shutil.get_terminal_size().columns)


class FittedLines:
    """A text stream that writes each whole line through :func:`fit_line` at ``width``
    (``None``: unchanged); a line without its end yet waits for it, or for :meth:`flush`."""

    def __init__(self, stream, width):
        self.stream, self.width, self._pending = stream, width, ""

    def write(self, text):
        if self.width is None:
            return self.stream.write(text)
        if "\n" not in text:
            self._pending += text
            return len(text)
        *lines, self._pending = (self._pending + text).split("\n")
        self.stream.write("".join(part + "\n" for line in lines
                                  for part in fit_line(line, self.width)))
        return len(text)

    def flush(self):
        if self._pending:
            pending, self._pending = self._pending, ""
            self.stream.write("\n".join(fit_line(pending, self.width)))
        self.stream.flush()
