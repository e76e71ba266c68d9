"""The writers of the claims derived from answer text (:class:`ragscore.usecases.review.Claims`):
one line per claim for people, JSON and CSV as data (every CSV cell escaped as reports'
are: control and bidirectional characters shown escaped, a formula-leading cell behind a
``'``: :mod:`ragscore.render.escape`)."""
import csv
import io
import json

from .escape import csv_cell, text

#: The columns of the claims' CSV, in order.
CLAIM_COLUMNS = ("case", "system", "trial", "claim", "span", "citations", "markers",
                 "findings", "source", "decision")


def claims_text(result, display):
    """``case system start-end [citations; decision] claim``, and each finding under it."""
    lines = []
    for row in result.rows:
        cited = ", ".join(row["citations"]) or "no citation"
        judged_as = row["decision"] or "awaits review"
        lines.append(f"{row['case']} {row['system']} {row['span'][0]}-{row['span'][1]} "
                     f"[{cited}; {judged_as}] {row['claim']}\n")
        lines += [f"    finding: {finding}\n" for finding in row["findings"]]
    return "".join(lines) or "no run records only its answer: every run records its claims\n"


def claims_json(result, display):
    """A JSON array of the claims, one object per claim."""
    encode = json.JSONEncoder(ensure_ascii=False).encode  # one encoder for every row
    body = ",\n".join(map(encode, result.rows))
    return "[" + ("\n" + body if body else "") + "\n]\n"


def _cell(value):
    if value is None:
        return ""
    if type(value) is list:
        return csv_cell(text(json.dumps(value, ensure_ascii=False)))
    return value if type(value) is int else csv_cell(text(value))


def claims_csv(result, display):
    """One row per claim; lists as JSON cells; text cells escaped."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CLAIM_COLUMNS)
    writer.writerows([_cell(row[name]) for name in CLAIM_COLUMNS] for row in result.rows)
    return buffer.getvalue()
