"""What an exercise check says to the learner: plain text wrapped to a page's width for a
terminal or a doctest, and HTML for a notebook, where `code` in the text is set as code."""
import html
import re
import textwrap
from collections import namedtuple

#: Feedback's plain text is wrapped at spaces to this many columns, as command output is.
COLUMNS = 80
#: A Markdown code span in feedback text.
_CODE = re.compile(r"`([^`]+)`")


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
        """The message and the offer as paragraphs, `code` set as code, wrapped by the page.

        >>> Feedback("00.0", "wrong", "Type `1/2`.")._repr_html_()
        '<div class="ragscore-feedback"><p>Type <code>1/2</code>.</p></div>'
        """
        parts = (_CODE.sub(r"<code>\1</code>", html.escape(part, quote=False))
                 for part in (self.message, self.offer) if part)
        return '<div class="ragscore-feedback">' + "".join(f"<p>{part}</p>" for part in parts) \
            + "</div>"
