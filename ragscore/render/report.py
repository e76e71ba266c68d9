"""The writers of a per-question report (:class:`ragscore.usecases.report.Report`): text and
Markdown for people (notes first, the table, then the declared aggregates, repeated trials,
operations, the diagnosis and what was removed before scoring), CSV, JSON and HTML as data.

Each writer reads the result's fields only: the counted runs, the cutoff, the metrics and
the notes the use case gathered. n/a stays n/a in every format (an empty CSV field, JSON
``null``), never 0.
"""
from .escape import markdown_cell, text as one_line
from .text import format_value

#: What ``--na-as-zero`` changes, as a report's text says it.
NA_AS_ZERO_TEXT = ("Note: --na-as-zero: a retrieval metric with nothing relevant counts 0, as "
                   "in trec_eval's means, and a nugget score that is n/a counts 0, as "
                   "nuggetizer writes it; ragscore's default leaves n/a out.\n\n")
#: The same, said out of band beside data.
NA_AS_ZERO_NOTE = ("--na-as-zero: retrieval metrics with nothing relevant are written as 0 "
                   "(trec_eval's convention), and nugget scores that are n/a too "
                   "(nuggetizer's)")
#: A dataset's note longer than this is cut when shown.
LONGEST_NOTE = 1000


def shortened_note(text):
    """``text``, cut after :data:`LONGEST_NOTE` characters (saying how long it was)."""
    return text if len(text) <= LONGEST_NOTE else (
        f"{text[:LONGEST_NOTE]}... (cut; the note has {len(text):,} characters)")


def _table(result):
    from ..tables.scores import question_table

    return question_table(result.counted, k=result.k, metrics=result.metric_names,
                          na_as_zero=result.na_as_zero)


def _people(result, display, *, markdown):
    from .formats import render

    prose = markdown_cell if markdown else one_line  # names shown as typed
    head = "".join(f"Note: {prose(shortened_note(note))}\n" for note in result.notes)
    head += "\n" if result.notes else ""
    head += NA_AS_ZERO_TEXT if result.na_as_zero else ""
    table = _table(result)
    digits = 4 if display.digits is None else display.digits
    text = render(table, k=result.k, fmt="markdown" if markdown else "text", digits=digits)
    lines = after_table(result, tuple(table.columns), digits=digits)
    if markdown:  # a name from the data never becomes a link or HTML
        lines = [f"- {prose(line[2:])}" if line.startswith("- ") else prose(line)
                 for line in lines]
    return head + text + "\n".join(lines) + "\n"


def after_table(result, metrics, *, digits):
    """The lines a report for people prints after its table: the declared aggregates, the
    spread of repeated trials and the operations, the diagnosis per system, and what a
    dedupe or a projection removed."""
    from ..tables.summary import aggregates
    from .failures import diagnosis_lines
    from .records import record_lines

    counted, k = result.counted, result.k
    rows = aggregates(counted, k=k, metrics=metrics, na_as_zero=result.na_as_zero)
    lines = ["", "Aggregates (each names its method, denominator and what it left out):"]
    for system, slice_, metric, method, value, description in zip(
            *(rows[name].tolist() for name in ("system", "slice", "metric", "method",
                                               "value", "description"))):
        lines.append(f"- {system} {slice_} {metric} ({method}) = "
                     f"{format_value(value, digits=digits)}: {description}")
    lines += record_lines(counted, k=k, metrics=metrics, digits=digits)
    lines += diagnosis_lines(counted, result.runs, k=k)
    removed = result.removed
    if removed:
        lines += ["", "Removed before scoring, per question (repeated IDs dropped, chunks "
                      "collapsed into their documents):"]
        lines += [f"- {case} {system}: {dropped} dropped, {collapsed} collapsed"
                  for case, system, dropped, collapsed in removed]
    return lines


def report_text(result, display):
    """Notes, the aligned per-question table (``display.digits`` decimals, 4 by default)
    and the lines after it."""
    return _people(result, display, markdown=False)


def report_markdown(result, display):
    """As :func:`report_text`, as Markdown (a table, list items)."""
    return _people(result, display, markdown=True)


def report_csv(result, display):
    """One row per (case, system), straight from the counts (no pandas table): numbers
    exact, n/a an empty field."""
    from .formats import csv_text

    counted = result.counted
    columns = {metric.name: counted.column(metric, result.k, na_as_zero=result.na_as_zero)
               for metric in result.metrics}
    return csv_text([case for case, _ in counted.keys], [system for _, system in counted.keys],
                    columns)


def report_json(result, display):
    """``{"k", "metrics", "rows"}``, n/a as ``null``."""
    from .formats import render

    return render(_table(result), k=result.k, fmt="json")


def report_html(result, display):
    """An HTML table, values shown as text shows them."""
    from .formats import render

    return render(_table(result), k=result.k, fmt="html")


def demo_text(result, display):
    """The seed workbook's table: ``case system | P@k ...`` with two decimals."""
    from .text import text_table

    return text_table(result.rows, k=result.k) + "\n"


def sliced_text(result, display, *, fmt):
    """The declared aggregates of each slice as a table in ``fmt``."""
    from .formats import render_frame

    return render_frame(result.frame, fmt=fmt, digits=2 if display.digits is None
                        else display.digits)


def failures_text(result, display):
    """The failing questions, their text and IDs side by side, fitted to the width."""
    from .failures import failures_text as text

    return text(result.rows, k=result.k, width=display.width)


def failures_json(result, display):
    """The failing questions as JSON."""
    from .failures import failures_json as data

    return data(result.rows, k=result.k)
