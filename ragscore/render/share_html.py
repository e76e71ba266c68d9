"""The shareable comparison report as one self-contained HTML file (``ragscore html``).

Everything is inline (CSS, the page's script, the plots as SVG): the file opens from disk
with no network. Every string taken from the input is HTML-escaped where the page is
written here; the per-question data travels as JSON inside ``<script
type="application/json">`` with every ``<`` written ``\\u003c`` (so no ``</script>`` can end
it early), and the page's script writes it with ``textContent`` only. The same input gives
the same bytes: no timestamp, fixed SVG ids.
"""

import json
from importlib import resources

from .escape import html as escape  # the one HTML escape every writer uses
from .share_plots import delta_svg, sweep_svg

#: Decimals of means, deltas and intervals in the summary.
SUMMARY_DIGITS = 4
#: Decimals of the per-question table.
TABLE_DIGITS = 2
#: Questions listed under "read first" before the rest is left to the table's filter.
READ_FIRST = 15


def script_json(value):
    """``value`` as JSON safe inside a ``<script>`` element: every ``<`` (and the two line
    separators JavaScript once refused) written as an escape.

    >>> script_json({"a": "</script>"})
    '{"a":"\\\\u003c/script>"}'
    """
    text = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))


#: Decimals of the per-question values in the page's data (the table shows TABLE_DIGITS).
PAYLOAD_DIGITS = 6


def _round(value):
    if isinstance(value, float):
        return round(value, PAYLOAD_DIGITS)
    return value


def compact(data):
    """The page's data with the questions packed small: every ID once in ``ids`` (lists
    hold their positions), each system's detail as a fixed-order list, a delivered context
    that is the top n of the ranking as the number n, values rounded to
    :data:`PAYLOAD_DIGITS` decimals (deltas are worked out in the page). The page's script
    unpacks it (``unpack`` in share_page.js)."""
    ids, where = [], {}

    def code(doc):
        if doc not in where:
            where[doc] = len(ids)
            ids.append(doc)
        return where[doc]

    names = [metric["name"] for metric in data["metrics"]]
    counts_order = ("relevant", "hits_at_k", "retrieved_relevant", "n_retrieved", "claims",
                    "supported_at_k", "expected")

    def side(detail):
        if not detail:
            return None
        retrieved = detail.get("retrieved") or []
        delivered = detail.get("delivered")
        if delivered is not None and list(delivered) == list(retrieved[:len(delivered)]):
            delivered = len(delivered)
        elif delivered is not None:
            delivered = [code(doc) for doc in delivered]
        claims = detail.get("claims")
        if claims is not None:
            claims = [[claim, [[code(doc), int(labelled), int(visible)]
                               for doc, labelled, visible in citations]]
                      for claim, citations in claims]
        counts = detail.get("counts")
        return [detail["diagnosis"], [_round(value) for value in detail["values"]],
                [detail["pooled"].get(name) for name in names],
                None if counts is None else [counts[key] for key in counts_order],
                [code(doc) for doc in retrieved], delivered, claims, detail.get("answer"),
                detail.get("trials", 1), detail.get("trial_diagnoses"),
                detail.get("shown_trial", 1), detail.get("nuggets"),
                [code(doc) for doc in detail["relevant"]] if "relevant" in detail else None,
                detail.get("waiting")]

    questions = [[row["case"], row["question"], row["tags"],
                  [code(doc) for doc in row["relevant"]], side(row["b"]), side(row["c"])]
                 for row in data["questions"]]
    packed = {key: value for key, value in data.items() if key != "questions"}
    packed.update(questions=questions, ids=ids, digits=TABLE_DIGITS)
    return packed


def _number(value, kind="rate", digits=SUMMARY_DIGITS, signed=False):
    if value is None:
        return '<span class="na">n/a</span>'
    if kind == "count" and float(value).is_integer():
        text = f"{int(value):+d}" if signed else f"{int(value)}"
    else:
        text = f"{float(value):+.{digits}f}" if signed else f"{float(value):.{digits}f}"
    return text.replace("-", "\u2212")


def _verdict(data):
    gate = data["gate"]
    if gate is None:
        return ('<div class="verdict none" id="verdict">No verdict: no policy was given '
                '(<code>--policy FILE</code>). The numbers below are not a decision.</div>')
    failed = [rule for rule in gate["rules"] if not rule["passed"]]
    word = "PASS" if gate["passed"] else "FAIL"
    lines = [f'<div class="verdict {word.lower()}" id="verdict"><strong>{word}</strong>: '
             f'{len(gate["rules"]) - len(failed)} of {len(gate["rules"])} rules of '
             f'<code>{escape(gate["policy"])}</code> passed (k={escape(gate["k"])})'
             + (f'; failed: {escape(", ".join(rule["name"] for rule in failed))}'
                if failed else "") + "</div>", '<ul class="rules">']
    for rule in sorted(gate["rules"], key=lambda rule: rule["passed"]):
        mark = '<span class="good">PASS</span>' if rule["passed"] else \
            '<span class="bad">FAIL</span>'
        cases = ""
        if rule["failures"] and not rule["passed"]:
            cases = ": " + ", ".join(f'<a href="#questions" data-open="{escape(case)}">'
                                     f"{escape(case)}</a>" for case, _, _ in rule["failures"])
            if rule["more"]:
                cases += f" and {rule['more']} more"
        lines.append(f"<li>{mark} {escape(rule['name'])} ({escape(rule['severity'])}; "
                     f"{escape(rule['metric'])}, {escape(rule['check'])}): "
                     f"{escape(rule['detail'])}{cases}</li>")
    return "\n".join(lines + ["</ul>"])


def _diagnosis_summary(data):
    failures = set(data["failures"])
    tally = {code: [0, 0] for code in data["diagnoses"]}
    new, fixed = [], []
    for row in data["questions"]:
        codes = [(row[side] or {}).get("diagnosis", "n/a") for side in ("b", "c")]
        for index, code in enumerate(codes):
            tally[code][index] += 1
        if codes[1] in failures and codes[0] not in failures:
            new.append((row["case"], codes[1]))
        elif codes[0] in failures and codes[1] not in failures:
            fixed.append(row["case"])
    rows = "".join(f"<tr><td>{escape(text)}</td><td>{tally[code][0]}</td>"
                   f"<td>{tally[code][1]}</td></tr>"
                   for code, text in data["diagnoses"].items() if any(tally[code]))
    table = (f'<table class="diag-table" id="diagnoses"><thead><tr><th>diagnosis (first stage '
             f'that failed)</th><th>{escape(data["baseline"])}</th>'
             f'<th>{escape(data["candidate"])}</th></tr></thead><tbody>{rows}</tbody></table>')
    items = "".join(f'<li><a href="#questions" data-open="{escape(case)}">{escape(case)}</a>: '
                    f'{escape(data["diagnoses"][code])}</li>' for case, code in new[:READ_FIRST])
    more = (f"<li>and {len(new) - READ_FIRST} more (table filter: new failures)</li>"
            if len(new) > READ_FIRST else "")
    read = (f'<p id="read-first"><strong>{len(new)} question'
            f'{"s fail" if len(new) != 1 else " fails"} with {escape(data["candidate"])} and did not with {escape(data["baseline"])}'
            f'</strong>{":" if new else "."}</p><ul>{items}{more}</ul>'
            f"<p>{len(fixed)} failed with {escape(data['baseline'])} and no longer do.</p>")
    return table + read


def _measures(data):
    head = (f"<tr><th>measure</th><th>method</th><th class=num>{escape(data['baseline'])}</th>"
            f"<th class=num>{escape(data['candidate'])}</th><th class=num>mean paired "
            f"\u0394</th><th class=num>{round(data['confidence'] * 100)}% CI of \u0394</th>"
            "<th class=num>p</th><th class=num>pairs</th><th>note</th></tr>")
    rows = []
    for measure in data["measures"]:
        paired = measure["paired"]
        first = True
        pairs = list(zip(measure["baseline"], measure["candidate"])) or [({}, {})]
        for before, after in pairs:
            cells = [f"<td>{escape(measure['label']) if first else ''}</td>",
                     f"<td>{escape(before.get('method', ''))}</td>",
                     f"<td class=num title=\"{escape(before.get('description', ''))}\">"
                     f"{_number(before.get('value'), measure['kind'])}</td>",
                     f"<td class=num title=\"{escape(after.get('description', ''))}\">"
                     f"{_number(after.get('value'), measure['kind'])}</td>"]
            if first:
                interval = ('<span class="na">n/a</span>' if paired.get("ci_low") is None else
                            f"[{_number(paired['ci_low'])}, {_number(paired['ci_high'])}]")
                cells += [f"<td class=num>{_number(paired.get('mean_delta'), signed=True)}</td>",
                          f"<td class=num>{interval}</td>",
                          f"<td class=num>{_number(paired.get('p_value'))}</td>",
                          f"<td class=num>{escape(paired.get('n', 0))}</td>",
                          f"<td>{escape(paired.get('note') or '')}</td>"]
            else:
                cells += ["<td></td>"] * 5
            rows.append("<tr>" + "".join(cells) + "</tr>")
            first = False
    return (f'<table id="measures"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
            "<p class=sub>Means leave n/a out (hover a mean for its denominator and what it "
            "left out). The paired \u0394 is over the questions defined for both systems; the "
            f"interval is a bootstrap percentile interval and p a sign-flip test, as "
            f"<code>ragscore compare --stats</code> (seed {escape(data['seed'])}; "
            f"{escape(_methods(data))}).</p>")


def _methods(data):
    methods = dict.fromkeys(measure["paired"].get("method") for measure in data["measures"])
    return "; ".join(sorted(str(method) for method in methods if method))


def _options(data):
    chosen = [("all", "all questions"), ("new", "new failures (candidate fails, baseline did "
                                                "not)"),
              ("fixed", "fixed (baseline failed, candidate does not)"),
              ("failing", "candidate fails (any stage)"),
              ("regressed", "worse on some measure"), ("changed", "changed on some measure")]
    chosen += [(code, f"candidate: {text}") for code, text in data["diagnoses"].items()]
    return "".join(f'<option value="{escape(value)}">{escape(text)}</option>'
                   for value, text in chosen)


def render_html(data):
    """The report page of :func:`ragscore.tables.share.review_data`'s ``data``, as text."""
    page = resources.files("ragscore.render")
    style = page.joinpath("share_page.css").read_text(encoding="utf-8")
    script = page.joinpath("share_page.js").read_text(encoding="utf-8")
    title = (f"{data['candidate']} against {data['baseline']} on {data['dataset']}, "
             f"k={data['k']}")
    payload = compact(data)
    notes = "".join(f"<li>{escape(note)}</li>" for note in data["notes"])
    rules = "".join(f"<li><code>{escape(code)}</code>: {escape(text)}</li>"
                    for code, text in data["diagnoses"].items())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>ragscore: {escape(title)}</title>
<style>
{style}</style>
</head>
<body>
<h1>{escape(data['candidate'])} (candidate) against {escape(data['baseline'])} (baseline)</h1>
<p class="sub">Test set <code>{escape(data['dataset'])}</code>, cutoff k={escape(data['k'])},
{len(data['questions'])} questions. Written by ragscore; every number comes from the recorded
runs and the labels.</p>
{_verdict(data)}
<h2>Where it changed</h2>
{_diagnosis_summary(data)}
<h2>Measures</h2>
{_measures(data)}
<h2>Each measure over k</h2>
<figure id="plot-sweep">{sweep_svg(data)}<figcaption>Macro mean of each system at every k
(dashed: {escape(data['baseline'])}; solid: {escape(data['candidate'])}; dotted line: this
report's k). A gap is a mean that is n/a, not 0.</figcaption></figure>
<h2>Per-question change</h2>
<figure id="plot-deltas">{delta_svg(data)}<figcaption>Every question's candidate
\u2212 baseline, sorted (blue: better, red: worse; for disclosures, stale and other
measures where lower is better a rise is worse); questions where either side is n/a are left
out and counted in each title.</figcaption></figure>
<h2 id="questions-title">Questions</h2>
<div class="controls">
<input type="search" id="filter-text" placeholder="filter: case, question, relevant ID, diagnosis" aria-label="filter questions">
<select id="filter-show" aria-label="which questions">{_options(data)}</select>
<span id="shown"></span>
</div>
<p class="sub">Click a heading to sort (again to reverse; n/a stays last). Click a row for
the numerators, denominators, retrieved and delivered IDs, claims with their citations and
the answer behind its values.</p>
<div class="table-wrap"><table id="questions"><thead id="questions-head"></thead><tbody id="questions-body"></tbody></table></div>
<button id="more" type="button" hidden>show more</button>
<h2>How to read the diagnosis</h2>
<p>Each question gets the first pipeline stage that failed, from its counts at k (rule:
<code>ragscore.core.diagnosis</code>, docs/diagnosis.md):</p>
<ul>{rules}</ul>
{f'<h2>Notes</h2><ul>{notes}</ul>' if notes else ''}
<script type="application/json" id="ragscore-data">{script_json(payload)}</script>
<script>
{script}</script>
</body>
</html>
"""
