"""The logic behind the workbook's live widgets, with no ipywidgets in sight.

Each function takes plain values (what a control holds) and returns plain values or an HTML
string (what a display shows), so it is tested without a browser and the widgets in
:mod:`ragscore.workbook.widgets` only wire controls to these functions.
"""
import html

import numpy as np

from ..core.explain import explain_claim
from ..core.metrics import CONTRACT, REGISTRY, YES_NO
from ..core.rules import InvalidInputError, check_k, fail
from ..core.scoring import evaluate
from ..core.validation import validate
from ..render.text import format_delta, format_value, is_na
from .cells import rows_html

#: Tables for a projector: 16 px text, left-aligned (the class is doubled so that the rule
#: outranks JupyterLab's right-aligned output tables).
STYLE = ("<style>.ragscore-table.ragscore-table td,.ragscore-table.ragscore-table th{"
         "padding:2px 8px;text-align:left;font-size:16px}"
         ".ragscore-table.ragscore-table td.na{color:#888;font-style:italic}</style>")
#: Command output for a projector: 16 px, wrapped at :data:`PAGE_COLUMNS` with its
#: continuation indented (:func:`ragscore.render.width.fit_text`), and at spaces to a box
#: narrower than that (never in the middle of a word); a word longer than the box scrolls.
CONSOLE_STYLE = ("font-size:16px;line-height:1.4;white-space:pre-wrap;word-break:normal;"
                 "overflow-wrap:normal;overflow-x:auto;margin:0;padding:6px 8px;"
                 "background:#f7f7f7")
#: Columns of command output on a page: JupyterLab shows about 85 at 16 px in 1280 pixels
#: with its file browser open, present mode about 95 at 18 px.
PAGE_COLUMNS = 80
#: Widest a plot is drawn on the page, in CSS pixels (the PNG is drawn at this size).
PAGE_WIDTH = 900
#: Added to the live widgets' HTML only: where a live widget is drawn (JupyterLab, Voila),
#: the stored snapshots beside it are hidden, so no number on the page can go stale.
LIVE_STYLE = "<style>.ragscore-snapshot{display:none}</style>"


def parse_ranking(text):
    """Read a ranked list typed as IDs separated by commas or spaces.

    >>> parse_ranking("owners, archive")
    ('owners', 'archive')
    """
    if not isinstance(text, str):
        fail("ranking text", "a str of IDs separated by commas", text)
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
    if not isinstance(text, str):
        fail("claims text", "a str, one 'claim: citation, citation' per line", text)
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
    missing = next((key for key in keys if key not in scores), None)
    if missing is not None:
        fail(f"scores[{missing!r}]", "present (scores as evaluate returns them)", scores)
    head = "".join(f"<th>{REGISTRY[key].label_at(k)}</th>" for key in keys)
    cells = "".join(
        f'<td class="na" data-metric="{key}">n/a</td>' if scores[key] is None
        else f'<td data-metric="{key}">{format_value(scores[key])}</td>' for key in keys)
    return (f'{STYLE}<table class="ragscore-table ragscore-scores"><tr>{head}</tr>'
            f"<tr>{cells}</tr></table>")


def question_scores(dataset, *, k, system):
    """``{case: {metric: value}}``: the six contract values of one system at cutoff ``k``,
    for every case the system answered, in case order, under the ID rules, minimum grade
    and chunk sources the dataset declares (an imported test set as well as the course)."""
    from ..core.rules import COURSE
    from ..core.scoring import iter_counts

    rules = getattr(dataset, "rules", COURSE)
    check_k(k, rules=rules)
    if type(dataset.runs) is not dict:
        fail("dataset.runs", "a dict of case to {system: run}", dataset.runs)
    runs = {case_name: {system: systems[system]} for case_name, systems in dataset.runs.items()
            if type(systems) is dict and system in systems}
    counted = iter_counts(dataset.corpus, dataset.cases, runs, rules=rules,
                          min_relevance=getattr(dataset, "min_relevance", 1),
                          sources=getattr(dataset, "sources", None))
    return {case_name: {name: REGISTRY[name].value(counts, k) for name in CONTRACT}
            for case_name, _, counts in counted}


def question_rows(dataset, *, k, system, metrics=CONTRACT):
    """What the k explorer's table shows, as plain values: one dict per case with ``case``
    and each metric's label at ``k`` (``P@2``) mapped to its text (``0.50``, ``n/a``, ``yes``).

    >>> import ragscore
    >>> question_rows(ragscore.load_course(), k=1, system="A")[2]
    {'case': 'owner', 'P@1': '0.00', 'R@1': '0.00', 'RR@1': '0.00', 'support': '0.00', 'coverage': '0.00', 'abstention': 'n/a'}
    """
    return [{"case": case_name, **{REGISTRY[m].label_at(k): format_value(scores[m])
                                   for m in metrics}}
            for case_name, scores in question_scores(dataset, k=k, system=system).items()]


def table_rows(table):
    """A per-question table (``ragscore.reports.question_table``) as plain rows for
    :class:`Table`: ``case``, ``system`` and each metric's label at the table's k.

    >>> import ragscore
    >>> table_rows(ragscore.reports.question_table(ragscore.load_course(), k=2,
    ...                                            metrics=("rr",)))[4]
    {'case': 'owner', 'system': 'A', 'RR@2': '0.50'}
    """
    from ..render.formats import plain_rows

    k = table.attrs.get("k", "k")
    return [{"case": case, "system": system,
             **{REGISTRY[name].label_at(k): format_value(value) for name, value in scores.items()}}
            for case, system, scores in plain_rows(table)]


def aggregate_rows(frame):
    """Declared aggregates (``ragscore.reports.aggregates``) as plain rows for :class:`Table`."""
    return [{"system": system, "metric": metric, "method": method, "value": format_value(value),
             "how": description}
            for system, metric, method, value, description in zip(
                *(frame[name].to_numpy(dtype=object, na_value=None).tolist()
                  for name in ("system", "metric", "method", "value", "description")))]


def question_table_html(dataset, *, k, system):
    """The per-question table of one system at cutoff ``k``, as HTML (no pandas needed)."""
    labels = [REGISTRY[name].label_at(k) for name in CONTRACT]
    head = "".join(f"<th>{label}</th>" for label in ("case", *labels))
    rows = []
    for case_name, scores in question_scores(dataset, k=k, system=system).items():
        cells = "".join(
            f'<td class="na" data-metric="{m}">n/a</td>' if scores[m] is None
            else f'<td data-metric="{m}">{format_value(scores[m])}</td>' for m in CONTRACT)
        rows.append(f'<tr data-case="{html.escape(case_name)}"><th>{html.escape(case_name)}'
                    f"</th>{cells}</tr>")
    return (f'{STYLE}<table class="ragscore-table ragscore-questions" data-k="{k}" '
            f'data-system="{html.escape(system)}"><tr>{head}</tr>{"".join(rows)}</table>')


def sweep_rows(sweep_table, *, metric):
    """The numbers a sweep plot draws, as plain values: one dict per k with ``k`` and, per
    system, its mean of ``metric`` as text (``0.83``, ``n/a``)."""
    from ..render.plots import check_sweep_metric

    check_sweep_metric(sweep_table, metric)
    systems = list(dict.fromkeys(sweep_table.index.get_level_values("system")))
    ks = sorted(set(sweep_table.index.get_level_values("k")))
    return [{"k": k, **{f"system {system}": format_value(sweep_table.loc[(system, k), metric])
                        for system in systems}} for k in ks]


def claim_rows(corpus, case, run, *, k):
    """Each claim of ``run`` as plain values: claim, citations, supported (yes/no), reason.

    Raises :class:`InvalidInputError` for invalid input.

    >>> import ragscore
    >>> course = ragscore.load_course()
    >>> claim_rows(course.corpus, course.cases["owner"], course.runs["owner"]["A"], k=2)
    [{'claim': 'aurora', 'citations': 'archive', 'supported': 'no', 'reason': 'cites archive, which is not labelled for aurora'}]
    """
    _, explanations = claim_report(corpus, case, run, k=k)
    citations = dict(run["claims"])
    return [{"claim": claim, "citations": ", ".join(citations[claim]) or "(none)",
             "supported": format_value(ok), "reason": reason}
            for claim, ok, reason in explanations]


def score_row(scores, *, k, keys=CONTRACT, **first):
    """One plain row: ``first`` (e.g. case, system), then each metric's label at ``k``
    mapped to its text."""
    return {**first, **{REGISTRY[key].label_at(k): format_value(scores[key]) for key in keys}}


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


class Table:
    """A small table of plain rows for a notebook page: rendered as an HTML table, and as
    aligned text where HTML is not shown. Never truncates a cell (a sentence stays whole).

    >>> Table([{"case": "owner", "R@2": "1.00"}])
    case   R@2
    owner  1.00
    """

    def __init__(self, rows, *, caption=None):
        self.rows, self.caption = [dict(row) for row in rows], caption

    def _repr_html_(self):
        return STYLE + rows_html(self.rows, caption=self.caption)

    def __repr__(self):
        if not self.rows:
            return "(no rows)"
        keys = list(self.rows[0])
        cells = [keys] + [[str(row[key]) for key in keys] for row in self.rows]
        widths = [max(len(line[i]) for line in cells) for i in range(len(keys))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
                 for line in cells]
        return "\n".join(([self.caption] if self.caption else []) + lines)


def _wrapped_html(line, width):
    """One line of command output as HTML: wrapped at ``width`` where a terminal would wrap
    it (:func:`ragscore.render.width.fit_line`), and marked so that a page can undo that wrap
    and let the browser wrap the line once, to its own box.

    The line is a ``span.rs-line`` whose ``--hang`` is the continuation's indent. At each
    break, ``span.rs-gap`` holds the spaces the break replaced (hidden here) and
    ``span.rs-brk`` the new line and indent (shown here). Present mode's style shows the
    gaps, hides the breaks and indents the browser's own continuation lines by ``--hang``.

    >>> print(_wrapped_html("aaaa bbbb cccc", 10))
    <span class="rs-line" style="--hang:4ch">aaaa bbbb<span class="rs-gap" style="display:none"> </span><span class="rs-brk">
        </span>cccc</span>
    """
    from ..render.width import HANGING, fit_line

    pieces = fit_line(line, width)
    indent = len(line) - len(line.lstrip(" "))
    out, at = [], 0
    for number, piece in enumerate(pieces):
        text = piece if number == 0 else piece.lstrip(" ")
        found = line.index(text, at)
        if number:
            out.append(f'<span class="rs-gap" style="display:none">'
                       f"{html.escape(line[at:found])}</span>"
                       f'<span class="rs-brk">\n{piece[:len(piece) - len(text)]}</span>')
        out.append(html.escape(text))
        at = found + len(text)
    out.append(html.escape(line[at:]))
    hang = indent + HANGING if width is None else min(indent + HANGING, width // 2)
    return (f'<span class="rs-line" style="--hang:{hang}ch">'
            + "".join(out) + "</span>")


class CommandOutput:
    """What a command printed, for a notebook page, as a terminal of :data:`PAGE_COLUMNS`
    columns shows it: a longer line wrapped at spaces, continuing indented under itself
    (:func:`ragscore.render.width.fit_text`, as the command line does); pre-formatted text at
    16 px, plain text elsewhere. The HTML keeps each of the command's own lines whole under
    the wrap (:func:`_wrapped_html`), so that present mode wraps it once, to its box.

    >>> CommandOutput("exit code 1\\n")
    exit code 1
    >>> "white-space:pre-wrap" in CommandOutput("x")._repr_html_()
    True
    >>> print(CommandOutput("word " * 12, width=30))
    word word word word word word
        word word word word word
        word
    """

    def __init__(self, text, *, width=PAGE_COLUMNS):
        from ..render.width import fit_text

        if not isinstance(text, str):
            fail("command output", "a str", text)
        self.lines = text.rstrip("\n").split("\n")
        self.width = width
        self.text = fit_text(text.rstrip("\n"), width)

    def _repr_html_(self):
        lines = '<span class="rs-nl">\n</span>'.join(_wrapped_html(line, self.width)
                                                     for line in self.lines)
        return f'<pre class="ragscore-console" style="{CONSOLE_STYLE}">{lines}</pre>'

    def __repr__(self):
        return self.text


def stats_rows(frame, *, k):
    """Paired statistics (``ragscore.reports.stats_table``) at cutoff ``k`` as plain rows for
    :class:`Table`: every number in the page's one format (two decimals, p included; signed
    for a difference; n/a), and a ``note`` column when some row has a note."""
    rows = []
    for row in frame.astype(object).itertuples(index=False):
        interval = ("n/a" if is_na(row.ci_low) else
                    f"[{format_delta(row.ci_low)}, {format_delta(row.ci_high)}]")
        rows.append({"metric": REGISTRY[row.metric].label_at(k) if row.metric in REGISTRY
                     else row.metric, "n": format_value(row.n),
                     "mean difference": format_delta(row.mean_delta), "95% interval": interval,
                     "p": format_value(row.p_value), "min detectable": format_value(
                         row.min_detectable), "how": row.method,
                     "note": "" if is_na(row.note) else row.note})
    if not any(row["note"] for row in rows):  # an empty column only takes room
        rows = [{key: value for key, value in row.items() if key != "note"} for row in rows]
    return rows


def attempt(corpus, case, run, *, k=2):
    """``"accepted"`` or ``"refused: <the validation message>"`` for one evaluation.

    >>> import ragscore
    >>> course = ragscore.load_course()
    >>> attempt(course.corpus, course.cases["owner"], {"retrieved": (), "claims": ()}, k=0)
    'refused: k must be an int from 1 to 100; got 0'
    """
    try:
        evaluate(corpus, case, run, k=k)
    except InvalidInputError as error:
        return f"refused: {error}"
    return "accepted"


def comparison_rows(comparison, *, k):
    """A paired comparison (from ``compare``) as plain rows: the metric's label at ``k``,
    baseline, candidate and delta as text (yes/no for a yes/no metric, n/a kept), verdict."""
    rows = []
    for row in comparison.itertuples(index=False):
        metric = REGISTRY[row.metric]
        yes_no = metric.kind == YES_NO
        before, after = (_yes_no_text(row.baseline), _yes_no_text(row.candidate)) if yes_no \
            else (format_value(row.baseline), format_value(row.candidate))
        change = f"{before} \u2192 {after}" if yes_no and before != after else \
            ("none" if yes_no else format_delta(row.delta))
        rows.append({"case": row.case, "metric": metric.label_at(k), "baseline": before,
                     "candidate": after, "change": change, "verdict": row.verdict})
    return rows


def _yes_no_text(value):
    return "n/a" if is_na(value) else ("yes" if value else "no")


def drawn(ax):
    """The numbers a plot of :mod:`ragscore.render.plots` actually draws, read back from its
    Axes, as plain rows: heatmap cells, delta bars with their labels, or sweep lines."""
    images = ax.get_images()
    if images:
        data = images[0].get_array()
        missing = np.ma.getmaskarray(data)
        columns = [tick.get_text() for tick in ax.get_xticklabels()]
        yes_no = {metric.label_at("k") for metric in REGISTRY.values() if metric.kind == YES_NO}

        def cell(value, is_missing, column):
            if is_missing:
                return "n/a"
            return format_value(bool(value)) if column in yes_no else format_value(float(value))

        return [{"row": label.get_text(),
                 **{column: cell(data[i, j], missing[i, j], column)
                    for j, column in enumerate(columns)}}
                for i, label in enumerate(ax.get_yticklabels())]
    bars = [patch for patch in ax.patches if str(patch.get_gid()).startswith("delta ")]
    if bars:
        zeros = {str(line.get_gid()).removeprefix("zero ") for line in ax.get_lines()}
        return [{"case": case, "drawn as": _delta_mark(bar, case in zeros),
                 "label": text.get_text()}
                for bar, text in zip(bars, ax.texts)
                for case in [bar.get_gid().removeprefix("delta ")]]
    lines = [line for line in ax.get_lines() if str(line.get_gid()).startswith("system ")]
    return [{"k": int(x), **{line.get_gid(): format_value(line.get_ydata()[i])
                             for line in lines}}
            for i, x in enumerate(lines[0].get_xdata())]


def _delta_mark(bar, zero):
    """What a delta plot draws for one question: a bar to its height, a diamond at 0 for no
    change, or nothing for an n/a delta (its label says n/a)."""
    if not bar.get_visible():
        return "no bar (n/a)"
    return "diamond at 0 (no change)" if zero else f"bar to {format_delta(bar.get_height())}"


def fit_width(figure, width=PAGE_WIDTH):
    """Narrow ``figure`` until everything it draws (legends and colour bars outside the axes
    included) fits ``width`` pixels, keeping its text at the same size; return it.

    A figure wider than the page is shrunk by the browser, and its text with it: drawn at
    this width, 12-point labels stay about 17 pixels high on the page.
    """
    from matplotlib import rcParams
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure) if not hasattr(figure.canvas, "get_renderer") \
        else figure.canvas
    padding = 2 * rcParams["savefig.pad_inches"] * figure.dpi  # what a tight PNG adds
    for _ in range(6):
        drawn_width = figure.get_tightbbox(canvas.get_renderer()).width * figure.dpi + padding
        if drawn_width <= width + 1:
            break
        inches, height = figure.get_size_inches()
        figure.set_size_inches(inches * width / drawn_width, height)
    return figure


def show_plot(ax):
    """Show a plot at most :data:`PAGE_WIDTH` pixels wide (:func:`fit_width`) and, under it,
    the numbers it draws (:func:`drawn`) as a small table, so a change to the plotted data
    changes a compared text output; then close the figure."""
    from IPython.display import display

    display(fit_width(ax.figure))
    display(Table(drawn(ax), caption="numbers in the plot"))
    import matplotlib.pyplot as plt

    plt.close(ax.figure)
