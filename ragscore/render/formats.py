"""Output formats of a per-question table: text, Markdown, CSV, HTML and JSON.

Every format keeps n/a apart from 0: text, Markdown and HTML show ``n/a``, CSV leaves an
empty field and JSON writes ``null``. Columns are the table's registered metrics, in the
table's order, labelled by the registry at the table's cutoff.
"""
import csv
import html
import io
import json

from ..core.metrics import REGISTRY
from ..core.rules import InvalidInputError, show
from .text import FORMATS, format_value, is_na, text_table


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


def plain_rows(table):
    """``(case, system, {metric: value})`` rows with plain Python values (None for n/a),
    read column by column."""
    metrics = [name for name in table.columns if name in REGISTRY]
    columns = []
    for name in metrics:
        values = table[name].astype(object).tolist()
        if REGISTRY[name].kind == "rate":
            columns.append([None if is_na(value) else float(value) for value in values])
        else:
            columns.append([None if is_na(value) else bool(value) for value in values])
    cases = table.index.get_level_values("case").tolist()
    systems = table.index.get_level_values("system").tolist()
    return [(case, system, dict(zip(metrics, values)))
            for case, system, *values in zip(cases, systems, *columns)]


def render(table, *, k=None, fmt="text"):
    """Render a per-question table as ``text``, ``markdown``, ``csv``, ``html`` or ``json``.

    Text and Markdown show n/a, yes, no and two decimals. CSV leaves n/a as an empty field
    and writes ``true``/``false``; JSON writes ``null``: n/a is never written as 0. ``k``
    defaults to the cutoff the table was scored at.

    >>> from ragscore.io.course import load_course
    >>> from ragscore.tables.scores import question_table
    >>> print(render(question_table(load_course(), k=2), fmt="csv").splitlines()[7])
    region,A,,,,0.0,,false
    """
    if fmt not in FORMATS:
        raise InvalidInputError(f"fmt must be one of {', '.join(FORMATS)}; got {show(fmt)}")
    k = table_k(table, k)
    metrics = [REGISTRY[name] for name in table.columns if name in REGISTRY]
    names = tuple(metric.name for metric in metrics)
    rows = plain_rows(table)
    if fmt == "text":
        return text_table(rows, k=k, metrics=names) + "\n"
    labels = [metric.label_at(k) for metric in metrics]
    if fmt == "markdown":
        lines = ["| case | system | " + " | ".join(labels) + " |",
                 "|---|---|" + "---:|" * len(labels)]
        lines += [f"| {case} | {system} | "
                  + " | ".join(format_value(scores[name]) for name in names) + " |"
                  for case, system, scores in rows]
        return "\n".join(lines) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["case", "system", *names])
        writer.writerows([case, system, *(_csv_cell(scores[name]) for name in names)]
                         for case, system, scores in rows)
        return buffer.getvalue()
    if fmt == "json":
        records = [{"case": case, "system": system, **scores} for case, system, scores in rows]
        return json.dumps({"k": k, "metrics": list(names), "rows": records}, indent=2,
                          allow_nan=False) + "\n"
    return _html(rows, labels, names)


def _csv_cell(value):
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    return repr(value)


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
