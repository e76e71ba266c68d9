"""Output formats of a per-question table: text, Markdown, CSV, HTML and JSON.

Every format keeps n/a apart from 0: text, Markdown and HTML show ``n/a``, CSV leaves an
empty field and JSON writes ``null``. Columns are the table's registered metrics, in the
table's order, labelled by the registry at the table's cutoff.
"""
import csv
import html
import io
import json
from collections import Counter, namedtuple

from ..core.metrics import REGISTRY
from ..core.paired import VERDICTS, case_indices, verdict_order
from ..core.rules import InvalidInputError, show
from . import escape
from .text import aligned_table, format_delta, format_value, is_na, text_table


def table_k(table, k=None):
    """The cutoff a table was scored at (kept in ``table.attrs["k"]``); a different ``k``
    asked for is refused, so a k=2 table is never labelled P@5."""
    scored = table.attrs.get("k")
    if k is None:
        if scored is None:
            raise InvalidInputError("k must be given for a table that does not record its "
                                    "cutoff; got None")
        return scored
    if scored is not None and k != scored:
        raise InvalidInputError(f"k must be the cutoff the table was scored at, {scored}; "
                                f"got {show(k)}")
    return k


def plain_columns(table):
    """``(cases, systems, {metric: values})`` with plain Python values, ``None`` for n/a,
    read column by column (registered metrics only, in the table's order)."""
    from ..tables.scores import plain_values  # a table is in hand: pandas is loaded

    columns = {name: plain_values(table[name], REGISTRY[name].kind)
               for name in table.columns if name in REGISTRY}
    cases = table.index.get_level_values("case").tolist()
    systems = table.index.get_level_values("system").tolist()
    return cases, systems, columns


def plain_rows(table):
    """``(case, system, {metric: value})`` rows with plain Python values (None for n/a)."""
    cases, systems, columns = plain_columns(table)
    names = list(columns)
    return [(case, system, dict(zip(names, values)))
            for case, system, *values in zip(cases, systems, *columns.values())]


def render(table, *, k=None, fmt="text", digits=None):
    """Render a per-question table in one of :data:`OUTPUT_FORMATS` (``text``,
    ``markdown``, ``csv``, ``html``, ``json``).

    Text and Markdown show n/a, yes, no and two decimals; with ``digits`` (``ragscore
    report --digits``, 4 there) they show that many decimals and text's columns are as wide
    as their longest value (without it, text is the seed's table, as ``ragscore demo``).
    CSV leaves n/a as an empty field and writes ``true``/``false``; JSON writes ``null``:
    n/a is never written as 0. ``k`` defaults to the cutoff the table was scored at.

    >>> from ragscore.io.course import load_course
    >>> from ragscore.tables.scores import question_table
    >>> print(render(question_table(load_course(), k=2), fmt="csv").splitlines()[7])
    region,A,,,,0.0,,false
    """
    chosen = output_format(fmt)
    k = table_k(table, k)
    metrics = [REGISTRY[name] for name in table.columns if name in REGISTRY]
    if digits is not None and (type(digits) is not int or not 0 <= digits <= 17):
        raise InvalidInputError(f"digits must be a whole number from 0 to 17 or None; got "
                                f"{show(digits)}")
    if digits is not None and fmt in ("text", "markdown"):
        return (_aligned_questions if fmt == "text" else _markdown_questions)(
            table, k, metrics, digits=digits)
    return chosen.questions(table, k, metrics)


def output_format(fmt):
    """The :class:`OutputFormat` called ``fmt``, else a clear error."""
    if type(fmt) is not str or fmt not in OUTPUT_FORMATS:
        raise InvalidInputError(f"fmt must be one of {', '.join(OUTPUT_FORMATS)}; got "
                                f"{show(fmt)}")
    return OUTPUT_FORMATS[fmt]


def _text_questions(table, k, metrics):
    return text_table(plain_rows(table), k=k, metrics=tuple(m.name for m in metrics)) + "\n"


def _aligned_questions(table, k, metrics, *, digits):
    return aligned_table(plain_rows(table), k=k, metrics=tuple(m.name for m in metrics),
                         digits=digits) + "\n"


def _markdown_questions(table, k, metrics, *, digits=2):
    names = tuple(metric.name for metric in metrics)
    lines = ["| case | system | " + " | ".join(m.label_at(k) for m in metrics) + " |",
             "|---|---|" + "---:|" * len(metrics)]
    lines += [f"| {escape.markdown_cell(case)} | {escape.markdown_cell(system)} | "
              + " | ".join(format_value(scores[name], digits=digits) for name in names) + " |"
              for case, system, scores in plain_rows(table)]
    return "\n".join(lines) + "\n"


def _json_questions(table, k, metrics):
    names = [metric.name for metric in metrics]
    records = [{"case": case, "system": system, **scores}
               for case, system, scores in plain_rows(table)]
    return json.dumps({"k": k, "metrics": names, "rows": records}, indent=2,
                      allow_nan=False) + "\n"


def _html_questions(table, k, metrics):
    return _html(plain_rows(table), [m.label_at(k) for m in metrics],
                 tuple(m.name for m in metrics))


def _csv_questions(table, k, metrics):
    return _csv(table, tuple(metric.name for metric in metrics))


_CSV_BOOL = {None: "", True: "true", False: "false"}


def _csv(table, names):
    cases, systems, columns = plain_columns(table)
    return csv_text(cases, systems, {name: columns[name] for name in names})


def csv_text(cases, systems, columns):
    """The per-question CSV of ``columns`` (``{metric name: values}``, registered metrics),
    built column by column: numbers as ``repr`` (exact; rates as floats), yes/no as
    ``true``/``false``, n/a (``None``) as an empty field.

    >>> print(csv_text(["launch"], ["A"], {"precision": [0.5], "abstention_correct": [None]}),
    ...       end="")
    case,system,precision,abstention_correct
    launch,A,0.5,
    """
    cells = [list(map(_CSV_BOOL.__getitem__, values)) if REGISTRY[name].kind == "yes/no"
             else _csv_numbers(values, as_float=REGISTRY[name].kind == "rate")
             for name, values in columns.items()]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["case", "system", *columns])
    writer.writerows(zip(_csv_cells(cases), _csv_cells(systems), *cells))
    return buffer.getvalue()


def _csv_cells(values):
    """:func:`~ragscore.render.escape.csv_cell` of each value, each distinct value escaped
    once (a column of question or system names repeats them)."""
    safe = {value: escape.csv_cell(value) for value in set(values)}
    return list(map(safe.__getitem__, values))


def _csv_numbers(values, *, as_float):
    """Each number as its ``repr`` (``float`` first for a rate), ``None`` as an empty field;
    each distinct value is formatted once (a column repeats a handful of values; metric
    values are never -0.0, which would share 0.0's entry)."""
    write = (lambda value: repr(float(value))) if as_float else repr
    text = {value: write(value) for value in set(values) if value is not None}
    text[None] = ""
    return list(map(text.__getitem__, values))


def _html(rows, labels, names):
    head = "".join(f"<th>{html.escape(label)}</th>" for label in ("case", "system", *labels))
    body = []
    for case, system, scores in rows:
        cells = "".join('<td class="na">n/a</td>' if scores[name] is None else
                        f"<td>{format_value(scores[name])}</td>" for name in names)
        body.append(f"<tr><th>{html.escape(str(case))}</th><td>{html.escape(str(system))}</td>"
                    f"{cells}</tr>")
    return (f'<table class="ragscore-table">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(body) + "\n</tbody>\n</table>\n")


def comparison_text(paired, *, baseline, candidate, k, metrics=None, digits=2):
    """The text of a :class:`~ragscore.core.paired.Paired` comparison: a summary line of
    verdict counts, then one aligned line per changed (case, metric) in report order
    (:func:`~ragscore.core.paired.verdict_order`: regressions first, the largest change
    first within a verdict), then one line counting the unchanged ones; columns are as wide
    as their longest value; a yes/no metric shows yes and no rather than 1.00 and 0.00.
    ``metrics`` (the compared :class:`Metric` objects) say each column's kind when their
    names are not the registry's (measures named ``AP``, ``nDCG@10``); ``k`` None: each
    measure names its own cutoff; values and deltas have ``digits`` decimals.

    >>> from ragscore.core.paired import Paired
    >>> print(comparison_text(Paired(["q1", "q2"], [("rr", 1.0, 1.0, 0.0, "unchanged"),
    ...                                             ("rr", 1.0, 0.5, -0.5, "regressed")],
    ...                              [0, 1]), baseline="A", candidate="B", k=2), end="")
    B (candidate) against A (baseline) at k=2, 2 questions: 1 regressed, 1 unchanged
    case  metric  baseline  candidate  delta  verdict
    q2    rr          1.00       0.50  -0.50  regressed
    1 unchanged (question, metric) pair not listed
    """
    outcomes, codes = paired.outcomes, paired.codes
    tally = dict.fromkeys(VERDICTS, 0)
    for code, times in Counter(codes).items():
        tally[outcomes[code][4]] += times
    summary = ", ".join(f"{tally[v]} {v}" for v in VERDICTS if tally[v])
    kinds = {name: metric.kind for name, metric in REGISTRY.items()}
    kinds.update({metric.name: metric.kind for metric in metrics or ()})

    def cell(value, kind):
        if value is None:
            return "n/a"
        if kind == "count":
            return format_value(int(value))
        return format_value(value if kind == "rate" else bool(value), digits=digits)

    # Each outcome is formatted once; the lines are then put together from those pieces
    # (a report has hundreds of thousands of them).
    changed_codes = [code for code, outcome in enumerate(outcomes) if outcome[4] != "unchanged"]
    texts = {code: (outcomes[code][0], cell(outcomes[code][1], kinds.get(outcomes[code][0],
                                                                         "rate")),
                    cell(outcomes[code][2], kinds.get(outcomes[code][0], "rate")),
                    "n/a" if outcomes[code][3] is None
                    else format_delta(outcomes[code][3], digits=digits),
                    outcomes[code][4]) for code in changed_codes}
    size = {code: -abs(outcomes[code][3] or 0.0) for code in changed_codes}
    order = [position for position in verdict_order(paired) if codes[position] in texts]
    rank = {verdict: number for number, verdict in enumerate(VERDICTS)}
    order.sort(key=lambda position: (rank[outcomes[codes[position]][4]],
                                     size[codes[position]]))
    cases = [escape.text(paired.cases[index]) for index in case_indices(paired, order)]
    listed = {codes[position] for position in order}
    names = ("case", "metric", "baseline", "candidate", "delta", "verdict")
    widths = [max([len(names[0])] + [len(case) for case in cases])] + [
        max([len(name)] + [len(texts[code][i]) for code in listed])
        for i, name in enumerate(names[1:])]

    def line(row):
        return "  ".join([row[0].ljust(widths[0]), row[1].ljust(widths[1]),
                          *(value.rjust(width) for value, width in zip(row[2:5], widths[2:5])),
                          row[5]])

    # the columns after the case depend on the outcome alone: each padded once
    padded = {code: line(("", *texts[code]))[widths[0]:] for code in listed}
    lines = [f"{candidate} (candidate) against {baseline} (baseline)"
             f"{'' if k is None else f' at k={k}'}, "
             f"{len(paired.cases) if codes else 0} questions: {summary}", line(names)]
    lines += [case.ljust(widths[0]) + padded[codes[position]]
              for case, position in zip(cases, order)]
    if tally["unchanged"]:
        lines.append(f"{tally['unchanged']} unchanged (question, metric) "
                     f"pair{'s' * (tally['unchanged'] != 1)} not listed")
    return "\n".join(lines) + "\n"


def render_frame(frame, *, fmt="text", digits=2):
    """Render a table of plain columns (aggregates, slices) in one of
    :data:`OUTPUT_FORMATS`.

    Values are written as they are, n/a as ``n/a`` (text, Markdown, HTML), an empty field
    (CSV) or ``null`` (JSON); floats in text, Markdown and HTML with ``digits`` decimals
    (two by default). Text's columns are as wide as their longest value; a column of
    numbers (and n/a) is right-aligned.

    >>> import pandas as pd
    >>> print(render_frame(pd.DataFrame({"tag": ["lookup"], "value": [0.5]}), fmt="csv"), end="")
    tag,value
    lookup,0.5
    """
    chosen = output_format(fmt)
    names = [str(name) for name in frame.columns]
    columns = [frame[name].astype(object).tolist() for name in frame.columns]
    rows = [[None if is_na(value) else value for value in row] for row in zip(*columns)]
    return chosen.frame(names, rows, digits=digits)


def _json_frame(names, rows, *, digits=None):
    records = [dict(zip(names, (_json_value(value) for value in row))) for row in rows]
    return json.dumps(records, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def _csv_frame(names, rows, *, digits=None):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(map(escape.csv_cell, names))
    writer.writerows([["" if value is None else escape.csv_cell(_json_value(value))
                       for value in row] for row in rows])
    return buffer.getvalue()


def _markdown_frame(names, rows, *, digits=2):
    cells = [[_cell_text(value, digits) for value in row] for row in rows]
    lines = ["| " + " | ".join(map(escape.markdown_cell, names)) + " |",
             "|" + "---|" * len(names)]
    lines += ["| " + " | ".join(map(escape.markdown_cell, row)) + " |" for row in cells]
    return "\n".join(lines) + "\n"


def _html_frame(names, rows, *, digits=2):
    cells = [[_cell_text(value, digits) for value in row] for row in rows]
    head = "".join(f"<th>{html.escape(name)}</th>" for name in names)
    body = "\n".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row)
                     + "</tr>" for row in cells)
    return (f'<table class="ragscore-table">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            f"{body}\n</tbody>\n</table>\n")


def _text_frame(names, rows, *, digits=2):
    names = list(map(escape.text, names))
    cells = [[escape.text(_cell_text(value, digits)) for value in row] for row in rows]
    widths = [max([len(name)] + [len(row[i]) for row in cells]) for i, name in
              enumerate(names)]
    numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(names))]

    def line(row):
        return "  ".join(cell.rjust(width) if right else cell.ljust(width)
                         for cell, width, right in zip(row, widths, numeric)).rstrip()

    return "\n".join([line(names), *map(line, cells)]) + "\n"


def _is_number(value):
    """A number or n/a (a column of them is right-aligned), not a bool or text."""
    return value is None or (not isinstance(value, (bool, str)) and (
        isinstance(value, (int, float)) or type(value).__name__.startswith(("int", "float"))))


class OutputFormat(namedtuple("OutputFormat", "name description questions frame")):
    """One output format, defined once: ``questions(table, k, metrics)`` writes a
    per-question table, ``frame(names, rows)`` a table of plain columns."""

    __slots__ = ()


def _json_value(value):
    if value is None:
        return None
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    return value


def _cell_text(value, digits=2):
    if value is None:
        return "n/a"
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        return format_value(value, digits=digits)
    if hasattr(value, "item"):
        value = value.item()
    return format_value(value) if isinstance(value, bool) else str(value)


#: The output formats, by name (``--format``).
OUTPUT_FORMATS = {fmt.name: fmt for fmt in (
    OutputFormat("text", "aligned columns, n/a, yes and no, two decimals", _text_questions,
                 _text_frame),
    OutputFormat("markdown", "a Markdown table, as text shows values", _markdown_questions,
                 _markdown_frame),
    OutputFormat("csv", "every value exact, n/a as an empty field", _csv_questions,
                 _csv_frame),
    OutputFormat("html", "an HTML table, as text shows values", _html_questions, _html_frame),
    OutputFormat("json", "every value exact, n/a as null", _json_questions, _json_frame),
)}
#: Their names, in order.
FORMATS = tuple(OUTPUT_FORMATS)
