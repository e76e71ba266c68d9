"""Escaping values that come from input, for every output format, in one place.

A rule name, a system or question name, a tag, an ID or a note is data: written into a
report it must stay one value. Each function takes any value and returns the text to write:

- :func:`text`: one line of plain text; control characters (newline, carriage return, tab,
  escape, ...), line and paragraph separators and bidirectional overrides are written as
  ``\\n``, ``\\x1b``, ``\\u2028`` and so on, so no value starts a new line, moves the
  cursor or reorders what a reader sees;
- :func:`markdown_cell`: :func:`text`, with ``\\``, ``|`` and every character Markdown reads
  as markup (links, images, HTML, emphasis) escaped, so a value stays in its table cell and
  shows as it is;
- :func:`csv_cell`: numbers and bools unchanged (they stay numbers); text with its control
  and bidirectional characters escaped as :func:`text` writes them (but a tab or a line
  break, which a quoted cell holds as it is), and a text cell beginning with
  ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading ``'``, as OWASP's CSV
  injection guidance says, so no spreadsheet runs it as a formula (the ``csv`` module then
  quotes it as needed). Every CSV writer of the package writes its text cells through it;
- :func:`html`: ``&``, ``<``, ``>``, ``"`` and ``'`` as character references.

Standard library only.
"""
import html as _html
import re

# C0 and C1 controls, DEL, NEL, line/paragraph separators, and every bidirectional control:
# embeddings/overrides/isolates and the marks (LRM, RLM, ALM)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# What a CSV cell may not hold raw: as _UNSAFE, less the tab and the line breaks a quoted cell
# holds as they are (a value stays exact)
_CSV_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028"
                         "\u2029\u202a-\u202e\u2066-\u2069]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _escape_one(match):
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value):
    """``value`` as one line of plain text: control characters written as escapes.

    >>> text("x\\nverdict: PASS")
    'x\\\\nverdict: PASS'
    >>> text("launch"), text(3)
    ('launch', '3')
    """
    value = str(value)
    return _UNSAFE.sub(_escape_one, value) if _UNSAFE.search(value) else value


def plot_text(value):
    """``value`` as text matplotlib draws as it is: :func:`text`, with ``$`` escaped so a
    name such as ``$x$`` is never parsed as mathtext (which fails, or draws something else).

    >>> print(plot_text("$x$ cost"))
    \\$x\\$ cost
    """
    return text(value).replace("$", "\\$")


#: What Markdown reads as markup inside a line, escaped with a backslash: links and images
#: (``[`` ``]`` ``!``), emphasis, code and strikethrough, table cells (``|``) and the escape
#: itself; ``<``, ``>`` and ``&`` (HTML, autolinks, character references) are written as
#: character references instead.
_MARKDOWN = re.compile(r"([\\|\[\]!*_`~])")


def markdown_cell(value):
    """``value`` for one Markdown table cell or a line of Markdown text: :func:`text`, then
    every character Markdown reads as markup escaped, so a name such as ``![x](https://...)``,
    ``[Approved](https://...)`` or ``<img src=...>`` is shown as it is, never as an image, a
    link or HTML.

    >>> print(markdown_cell("a|b"), markdown_cell("![x](u)"), markdown_cell("<img>"))
    a\\|b \\!\\[x\\](u) &lt;img&gt;
    """
    return _MARKDOWN.sub(r"\\\1", _html.escape(text(value), quote=False))


def csv_cell(value):
    """``value`` for one CSV cell: a number or bool as it is; text with its control and
    bidirectional characters escaped as :func:`text` escapes them (a tab and a line break
    stay: a quoted cell holds them) and, beginning with ``=``, ``+``, ``-``, ``@``, tab or
    carriage return, behind a ``'`` (OWASP CSV injection).

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("+SUM(1)"), csv_cell(-0.5), csv_cell("launch")
    ("'=HYPERLINK(1)", "'+SUM(1)", -0.5, 'launch')
    >>> print(csv_cell("\\u202eevil"), csv_cell("\\x1b[2J"))
    \\u202eevil \\x1b[2J
    """
    if value is None or isinstance(value, (bool, int, float)):
        return value
    value = str(value)
    if _CSV_UNSAFE.search(value):
        value = _CSV_UNSAFE.sub(_escape_one, value)
    return "'" + value if value.startswith(_FORMULA_START) else value


def html(value):
    """``value`` as HTML text or an attribute value (quotes escaped too).

    >>> html('<b title="x">&</b>')
    '&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
    """
    return _html.escape(str(value), quote=True)


_PRINTABLE_ASCII = bytes(range(32, 127)) + b"\n"  # in ASCII, what str.isprintable passes, and \n


def terminal_safe(text):
    """``text`` with every unprintable character but the line break escaped (``\\x1b``,
    ``\\u202e``), so what a data file holds cannot move the cursor or forge a line.

    >>> terminal_safe("ok\\n\\x1b[2J")
    'ok\\n\\\\x1b[2J'
    """
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return text  # the common case, checked at C speed
    lines = text.split("\n")
    if all(map(str.isprintable, lines)):
        return text
    return "\n".join(line if line.isprintable() else
                     "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
                     for line in lines)


class Escaping:
    """A text stream that writes through :func:`terminal_safe`."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        return self.stream.write(terminal_safe(text))

    def flush(self):
        self.stream.flush()
