"""Table cells as HTML for a notebook page: where a cell's text may wrap (at spaces, after
``_`` and ``/`` in a long name) and where it may not ("n/a", a hyphenated name), and a small
table of plain rows built from them (:class:`ragscore.workbook.explore.Table` shows one)."""
import html
import re


def _cell(value):
    """One table cell (:func:`cell_html`), marked ``na`` when it is n/a."""
    marker = ' class="na"' if value == "n/a" else ""
    return f"<td{marker}>{cell_html(value)}</td>"


def cell_html(value):
    """A table cell's text as HTML, wrapping only where a reader expects: at spaces, and in
    a long value (over 24 characters) after ``_`` or ``/`` (``<wbr>``), so a test's name or
    a file's path wraps in its column instead of widening the table past the page. "n/a"
    and a hyphenated name (``release-notes@0``) stay whole: a browser would break after
    the hyphen.

    >>> cell_html("declared as: pooled, n/a left out of the slice_mean")
    'declared as: pooled, n/a left out of the slice_<wbr>mean'
    >>> cell_html("release-notes@0")
    '<span style="white-space:nowrap">release-notes@0</span>'
    """
    text = html.escape(str(value))
    if len(text) > 24:
        text = re.sub(r"(?<!\bn)/", "/<wbr>", text.replace("_", "_<wbr>"))
    return re.sub(r"[^\s<>]*\w-\w[^\s<>]*",
                  lambda found: f'<span style="white-space:nowrap">{found.group(0)}</span>',
                  text)


def header_html(name):
    """A column's name as HTML, kept whole as :func:`cell_html` keeps a cell. In a name of
    several words, a compound word ("visible-context") is marked ``rs-compound`` with a
    ``<wbr>`` after its hyphen: present mode lets it wrap there on a narrow page (200%),
    as prose does, where the table would otherwise scroll sideways; a wide page keeps it
    whole. An ID (``release-notes@0``: not letters and hyphens alone) never wraps.

    >>> header_html("no visible-context check")
    'no <span class="rs-compound" style="white-space:nowrap">visible-<wbr>context</span> check'
    >>> header_html("release-notes@0")
    '<span style="white-space:nowrap">release-notes@0</span>'
    """
    words = str(name).split(" ")
    if len(words) == 1:
        return cell_html(name)
    return " ".join(
        f'<span class="rs-compound" style="white-space:nowrap">'
        f'{html.escape(word).replace("-", "-<wbr>")}</span>'
        if _COMPOUND.fullmatch(word) else cell_html(word) for word in words)


#: A compound word: letters joined by hyphens ("short-list"), a bracket or comma around it.
_COMPOUND = re.compile(r"[(\[]?[^\W\d_]+(?:-[^\W\d_]+)+[)\],;:.]?")


def rows_html(rows, *, caption=None, classes="ragscore-table"):
    """A small HTML table of plain rows (dicts with the same keys), values escaped."""
    head = "".join(f"<th>{header_html(key)}</th>" for key in rows[0]) if rows else ""
    body = "".join("<tr>" + "".join(_cell(value) for value in row.values()) + "</tr>"
                   for row in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="{classes}">{title}<tr>{head}</tr>{body}</table>'
