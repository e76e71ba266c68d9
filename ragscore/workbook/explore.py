"""The logic behind the workbook's live widgets, with no ipywidgets in sight.

Each function takes plain values (what a control holds) and returns plain values or an HTML
string (what a display shows), so it is tested without a browser and the widgets in
:mod:`ragscore.workbook.widgets` only wire controls to these functions.
"""
import html

from ..core.counts import explain_claim
from ..core.metrics import CONTRACT, REGISTRY
from ..core.rules import InvalidInputError, check_k
from ..core.scoring import evaluate
from ..core.validation import validate
from ..render.text import format_value

STYLE = ("<style>.ragscore-table td,.ragscore-table th{padding:2px 8px;text-align:right}"
         ".ragscore-table td.na{color:#888;font-style:italic}</style>")


def parse_ranking(text):
    """Read a ranked list typed as IDs separated by commas or spaces.

    >>> parse_ranking("owners, archive")
    ('owners', 'archive')
    """
    return tuple(part for part in text.replace(",", " ").split() if part)


def format_ranking(retrieved):
    """The inverse of :func:`parse_ranking`."""
    return ", ".join(retrieved)


def parse_claims(text):
    """Read claims typed one per line as ``claim: citation, citation``.

    A line ``claim:`` (nothing after the colon) is a claim with no citation; blank lines are
    skipped. Raises :class:`InvalidInputError` naming the line for a line with no colon.

    >>> parse_claims("monday: launch\\nbonus: launch, archive")
    (('monday', ('launch',)), ('bonus', ('launch', 'archive')))
    """
    claims = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if ":" not in line:
            raise InvalidInputError(
                f"claims line {number} must look like 'claim: citation, citation'; "
                f"got {line.strip()!r}")
        claim, _, cited = line.partition(":")
        claims.append((claim.strip(), parse_ranking(cited)))
    return tuple(claims)


def format_claims(claims):
    """The inverse of :func:`parse_claims`."""
    return "\n".join(f"{claim}: {', '.join(citations)}" for claim, citations in claims)


def error_html(error):
    """An HTML paragraph that shows a validation message instead of scores."""
    return f'<p class="ragscore-error" style="color:#b2182b">Not scored: {html.escape(str(error))}</p>'


def scores_html(scores, *, k, keys=CONTRACT):
    """A one-row HTML table of the given metrics (n/a, yes, no, two decimals)."""
    head = "".join(f"<th>{REGISTRY[key].label_at(k)}</th>" for key in keys)
    cells = "".join(
        f'<td class="na" data-metric="{key}">n/a</td>' if scores[key] is None
        else f'<td data-metric="{key}">{format_value(scores[key])}</td>' for key in keys)
    return (f'{STYLE}<table class="ragscore-table ragscore-scores"><tr>{head}</tr>'
            f"<tr>{cells}</tr></table>")


def question_table_html(dataset, *, k, system):
    """The per-question table of one system at cutoff ``k``, as HTML (no pandas needed)."""
    check_k(k)
    labels = [REGISTRY[name].label_at(k) for name in CONTRACT]
    head = "".join(f"<th>{label}</th>" for label in ("case", *labels))
    rows = []
    for case_name, systems in dataset.runs.items():
        if system not in systems:
            continue
        scores = evaluate(dataset.corpus, dataset.cases[case_name], systems[system], k=k)
        cells = "".join(
            f'<td class="na" data-metric="{m}">n/a</td>' if scores[m] is None
            else f'<td data-metric="{m}">{format_value(scores[m])}</td>' for m in CONTRACT)
        rows.append(f'<tr data-case="{html.escape(case_name)}"><th>{html.escape(case_name)}'
                    f"</th>{cells}</tr>")
    return (f'{STYLE}<table class="ragscore-table ragscore-questions" data-k="{k}" '
            f'data-system="{html.escape(system)}"><tr>{head}</tr>{"".join(rows)}</table>')


def claim_report(corpus, case, run, *, k):
    """``(scores, explanations)``: the six metrics and, per claim, (claim, supported, reason)."""
    _, support, retrieved, claims = validate(corpus, case, run, k)
    scores = evaluate(corpus, case, run, k=k)
    explanations = [(claim, *explain_claim(claim, citations, support, retrieved, k=k))
                    for claim, citations in claims]
    return scores, explanations


def claim_report_html(corpus, case, run, *, k):
    """Support and coverage with the reason each claim is or is not supported, as HTML.

    Invalid input is shown as the validation message instead of scores.
    """
    try:
        scores, explanations = claim_report(corpus, case, run, k=k)
    except InvalidInputError as error:
        return error_html(error)
    items = "".join(
        f'<li data-claim="{html.escape(claim)}" data-supported="{str(ok).lower()}">'
        f"<b>{html.escape(claim)}</b>: {'supported' if ok else 'not supported'} — "
        f"{html.escape(reason)}</li>" for claim, ok, reason in explanations)
    if not explanations:
        items = "<li>no claims: the answer abstains</li>"
    return (scores_html(scores, k=k, keys=("support", "coverage", "abstention_correct"))
            + f'<ul class="ragscore-claims">{items}</ul>')


def ranking_report_html(corpus, case, retrieved, *, k):
    """P@k, R@k and RR@k of a typed ranking (no claims), as HTML; errors shown, not raised."""
    try:
        scores = evaluate(corpus, case, {"retrieved": retrieved, "claims": ()}, k=k)
    except InvalidInputError as error:
        return error_html(error)
    return scores_html(scores, k=k, keys=("precision", "recall", "rr"))
