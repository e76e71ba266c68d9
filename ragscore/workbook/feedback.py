"""What an exercise check says to the learner: plain text wrapped to a page's width for a
terminal or a doctest, and HTML for a notebook, where Markdown's `code` and *emphasis* in
the text are set as such."""
import html
import re
import textwrap
from collections import namedtuple

#: Feedback's plain text is wrapped at spaces to this many columns, as command output is.
COLUMNS = 80
#: A Markdown code span in feedback text (group 1), or else an emphasis (group 2).
_MARKDOWN = re.compile(r"`([^`]+)`|\*([^*\s][^*]*)\*")


def _html(text):
    """``text`` escaped, its code spans as <code> and its *emphasis* as <em>."""
    def one(match):
        code, emphasis = match.groups()
        return f"<code>{code}</code>" if code is not None else f"<em>{emphasis}</em>"

    return _MARKDOWN.sub(one, html.escape(text, quote=False))


class Feedback(namedtuple("Feedback", "exercise status message offer", defaults=("",))):
    """The result of :func:`~ragscore.workbook.exercises.check` and
    :func:`~ragscore.workbook.exercises.solution`: ``status`` is one of ``correct``,
    ``wrong``, ``wrong type``, ``missing``, ``solution`` or ``not yet``; a notebook shows
    ``message`` and, on a line of its own, ``offer`` (how to see the worked solution)."""

    __slots__ = ()

    @property
    def correct(self):
        return self.status == "correct"

    def __repr__(self):
        """The message, then the offer, each wrapped at spaces to :data:`COLUMNS`.

        >>> print(Feedback("00.0", "wrong", "word " * 20, "solution()"))
        word word word word word word word word word word word word word word word word
        word word word word
        solution()
        """
        return "\n".join(textwrap.fill(part, COLUMNS, break_long_words=False,
                                        break_on_hyphens=False)
                          for part in (self.message, self.offer) if part)

    __str__ = __repr__

    def _repr_html_(self):
        """The message and the offer as paragraphs wrapped by the page, Markdown's `code`
        set as code and *emphasis* as emphasis.

        >>> Feedback("00.0", "wrong", "Type `2*3` in the *answer* cell.")._repr_html_()
        '<div class="ragscore-feedback"><p>Type <code>2*3</code> in the <em>answer</em> cell.</p></div>'
        """
        parts = "".join(f"<p>{_html(part)}</p>" for part in (self.message, self.offer) if part)
        return f'<div class="ragscore-feedback">{parts}</div>'
