"""The shareable report as a short Markdown summary for a pull request or a CI job summary
(``ragscore html ... --format github``, e.g. appended to ``$GITHUB_STEP_SUMMARY``).

Every cell from the input has line breaks replaced and Markdown's markup escaped, so a
question or an ID cannot break the table or show as a link, an image or HTML (GitHub renders
some HTML in Markdown).
"""
from .escape import markdown_cell
from .share_html import SUMMARY_DIGITS

#: Questions listed under "read first".
LISTED = 10


def cell(value):
    """``value`` as one Markdown table cell: line breaks and runs of spaces as one space,
    then :func:`ragscore.render.escape.markdown_cell` (``|``, links, images, HTML and
    emphasis escaped).

    >>> print(cell("a | b\\nc <i>"))
    a \\| b c &lt;i&gt;
    """
    return markdown_cell(" ".join(str(value).split()))


def _number(value, signed=False, kind="rate"):
    if value is None:
        return "n/a"
    if kind == "count" and float(value).is_integer():
        return f"{int(value):+d}" if signed else f"{int(value)}"
    return f"{float(value):+.{SUMMARY_DIGITS}f}" if signed else f"{float(value):.{SUMMARY_DIGITS}f}"


def render_github(data):
    """The Markdown summary of :func:`ragscore.tables.share.review_data`'s ``data``."""
    lines = [f"### ragscore: {cell(data['candidate'])} against {cell(data['baseline'])} on "
             f"{cell(data['dataset'])} (k={data['k']}, {len(data['questions'])} questions)", ""]
    gate = data["gate"]
    if gate is None:
        lines.append("No verdict: no policy was given (`--policy FILE`).")
    else:
        failed = [rule for rule in gate["rules"] if not rule["passed"]]
        lines.append(f"**{'PASS' if gate['passed'] else 'FAIL'}**: "
                     f"{len(gate['rules']) - len(failed)} of {len(gate['rules'])} rules passed"
                     + (f"; failed: {', '.join(cell(rule['name']) for rule in failed)}"
                        if failed else ""))
        for rule in failed:
            lines.append(f"- {cell(rule['name'])} ({cell(rule['severity'])}): "
                         f"{cell(rule['detail'])}")
    lines += ["", f"| measure | {cell(data['baseline'])} | {cell(data['candidate'])} | "
                  f"mean paired Δ | {round(data['confidence'] * 100)}% CI | pairs |",
              "|---|---:|---:|---:|---:|---:|"]
    for measure in data["measures"]:
        before = next(iter(measure["baseline"]), {}).get("value")
        after = next(iter(measure["candidate"]), {}).get("value")
        paired = measure["paired"]
        interval = ("n/a" if paired.get("ci_low") is None else
                    f"[{_number(paired['ci_low'])}, {_number(paired['ci_high'])}]")
        kind = measure["kind"]
        lines.append(f"| {cell(measure['label'])} | {_number(before, kind=kind)} | "
                     f"{_number(after, kind=kind)} | "
                     f"{_number(paired.get('mean_delta'), signed=True)} | {interval} | "
                     f"{paired.get('n', 0)} |")
    failures = set(data["failures"])
    new = [row for row in data["questions"]
           if (row["c"] or {}).get("diagnosis") in failures
           and (row["b"] or {}).get("diagnosis") not in failures]
    lines += ["", f"{len(new)} question{'s fail' if len(new) != 1 else ' fails'} with "
                  f"{cell(data['candidate'])} and did not with {cell(data['baseline'])}"
                  + (":" if new else ".")]
    if new:
        lines += ["", "| case | question | diagnosis |", "|---|---|---|"]
        lines += [f"| {cell(row['case'])} | {cell(row['question'] or '')} | "
                  f"{cell(data['diagnoses'][row['c']['diagnosis']])} |" for row in new[:LISTED]]
        if len(new) > LISTED:
            lines.append(f"\n... and {len(new) - LISTED} more: open the HTML report.")
    return "\n".join(lines) + "\n"
