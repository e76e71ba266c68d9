"""``ragscore report --measures``: per-question values and per-system summaries of named
measures (``P@10 nDCG@10 AP``), in text, Markdown, CSV, JSON and trec_eval's layout.

Counted runs are read once; each measure is then one read of the counts at its cutoff
(many cutoffs, one pass of the engine). Standard library only.

- text and Markdown: columns as wide as their longest value, ``digits`` decimals (4 by
  default), then one summary line per system and measure;
- CSV: tidy rows ``system,case,measure,value,method,used,left_out``: one per question and
  measure (method empty), then the summaries with case ``all`` (exact ``repr`` values);
- JSON: ``{"measures", "rows", "summary"}``, n/a as ``null``;
- trec_eval: ``measure<TAB>qid<TAB>value`` per question, then ``all``, with trec_eval's
  names, four decimals and n/a as 0 (:func:`trec_eval_text`).
"""
import csv
import io
import json
from math import fsum

from ..core.metrics import REGISTRY
from ..core.rules import InvalidInputError
from .escape import csv_cell, markdown_cell
from .text import aligned_lines, format_value



def _number(value, digits):
    if value is None or isinstance(value, bool):
        return format_value(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.{digits}f}"


def measures_text(scored, *, digits=4, markdown=False, rows=True):
    """The per-question table (unless ``rows`` is false) and the summary lines, for
    people."""
    labels = [measure.label for measure in scored.measures]
    cells = [["case", "system", *labels]]
    for position, (case, system) in enumerate(zip(scored.cases, scored.systems)):
        cells.append([case, system, *(_number(scored.columns[label][position], digits)
                                      for label in labels)])
    if markdown:
        lines = ["| " + " | ".join(cells[0]) + " |", "|---|---|" + "---:|" * len(labels)]
        lines += ["| " + " | ".join(map(markdown_cell, row)) + " |" for row in cells[1:]]
    else:
        lines = aligned_lines(cells, right_from=2)
    if not rows:
        lines = []
    summary = [["system", "measure", "method", "value", "used", "left out"]]
    name = markdown_cell if markdown else str  # Markdown prose: a name never a link or HTML
    summary += [[name(row["system"]), row["measure"], row["method"],
                 _number(row["value"], digits), str(row["used"]), str(row["left_out"])]
                for row in scored.summary]
    lines += ["", "Summary per system and measure (macro: mean over the questions where it is "
                  "defined; pooled: summed numerators over summed denominators):"]
    lines += aligned_lines(summary, right_from=3)
    return "\n".join(lines if rows else lines[1:]) + "\n"


def _csv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def measures_csv(scored, *, rows=True):
    """Tidy CSV: one row per question and measure (unless ``rows`` is false), then the
    summaries (case ``all``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["system", "case", "measure", "value", "method", "used", "left_out"])
    escaped = {}  # each distinct name escaped once (OWASP's rule: render.escape.csv_cell)

    def cell(name):
        found = escaped.get(name)
        if found is None:
            found = escaped[name] = csv_cell(name)
        return found

    for measure in scored.measures if rows else ():
        values = scored.columns[measure.label]
        writer.writerows([cell(system), cell(case), measure.label, _csv_value(value), "", "",
                          ""]
                         for case, system, value in zip(scored.cases, scored.systems, values))
    writer.writerows([cell(row["system"]), "all", row["measure"], _csv_value(row["value"]),
                      row["method"], row["used"], row["left_out"]] for row in scored.summary)
    return buffer.getvalue()


def measures_json(scored, *, rows=True):
    """``{"measures": [...], "rows": [{case, system, measure: value}], "summary": [...]}``
    (``rows`` empty when ``rows`` is false)."""
    labels = [measure.label for measure in scored.measures]
    found = [{"case": case, "system": system,
              **{label: scored.columns[label][position] for label in labels}}
             for position, (case, system) in enumerate(zip(scored.cases, scored.systems))
             ] if rows else []
    return json.dumps({"measures": labels, "rows": found, "summary": scored.summary},
                      indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def trec_order(measures):
    """``measures`` in the order trec_eval prints them (its table order, then by cutoff),
    each with a trec_eval name; a measure without one is an error.

    >>> from ragscore.core.measures import parse_measures
    >>> [m.trec_name for m in trec_order(parse_measures("Success@1 AP@2 nDCG@10 AP P@10 P@5"))]
    ['map', 'P_5', 'P_10', 'ndcg_cut_10', 'map_cut_2', 'success_1']
    """
    missing = [measure.label for measure in measures if measure.trec_name is None]
    if missing:
        raise InvalidInputError(f"--trec-eval: {', '.join(missing)} has no trec_eval name "
                                "(a parameter such as rel is one setting for every measure "
                                "there: -l; 'ragscore measures' lists trec_eval's names)")
    # trec_eval's own order (its measure table, measures.c), which each metric states as
    # ``trec_order`` (at a cutoff, uncut): map_cut is a measure of its own, after ndcg_cut
    return sorted(measures, key=lambda m: (
        REGISTRY[m.metric].trec_order[0 if m.k is not None else 1], m.k or 0))


def _trec_table(scored):
    """``(measures in trec_eval's order, question positions sorted by qid, {name: mean})``
    for one system, n/a as 0."""
    measures = trec_order(scored.measures)
    if len(set(scored.systems)) > 1:
        raise InvalidInputError("--trec-eval scores one system as trec_eval scores one run; "
                                f"the dataset holds {len(set(scored.systems))} "
                                f"({', '.join(sorted(set(scored.systems)))}): pass --system "
                                "NAME")
    order = sorted(range(len(scored.cases)), key=scored.cases.__getitem__)
    means = {}
    for measure in measures:
        values = [0.0 if value is None else value for value in scored.columns[measure.label]]
        means[measure.trec_name] = fsum(values) / len(values) if values else 0.0
    return measures, order, means


def trec_eval_json(scored, *, rows=True):
    """pytrec_eval's shape, ``{qid: {trec_eval name: value}}`` (unless ``rows`` is false),
    plus ``"all"`` (the means), every value exact, n/a as 0."""
    measures, order, means = _trec_table(scored)
    order = order if rows else []
    found = {scored.cases[position]: {
        measure.trec_name: 0.0 if scored.columns[measure.label][position] is None
        else scored.columns[measure.label][position] for measure in measures}
        for position in order}
    found["all"] = means
    return json.dumps(found, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def trec_eval_text(scored, *, rows=True):
    """trec_eval's ``-q`` layout: per question (sorted as strings; left out, as trec_eval
    without ``-q``, when ``rows`` is false), every measure as ``%-22s\\t%s\\t%.4f``, then
    the mean over those questions as ``all`` (n/a as 0)."""
    measures, order, means = _trec_table(scored)
    order = order if rows else []
    lines = []
    for position in order:
        for measure in measures:
            value = scored.columns[measure.label][position]
            lines.append(f"{measure.trec_name:<22}\t{scored.cases[position]}\t"
                         f"{0.0 if value is None else value:.4f}")
    lines += [f"{name:<22}\tall\t{mean:.4f}" for name, mean in means.items()]
    return "\n".join(lines) + "\n"


#: The columns of ``compare --measures --format csv``.
COMPARED_COLUMNS = ("case", "measure", "baseline", "candidate", "delta", "verdict", "ci_low",
                    "ci_high", "p_value", "p_holm", "tested", "used", "left_out", "method")


def compared_csv(found):
    """``compare --measures`` as tidy CSV: one row per question and measure (verdict
    filled), then one per measure with case ``all``: each side's mean, the paired
    difference, its interval and p-value (raw, and Holm-adjusted for the ``tested``
    measures), the pairs used and left out, and the method
    (each side's mean and the pairing), every number exact (``repr``), n/a empty."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COMPARED_COLUMNS)
    writer.writerows([csv_cell(row["case"]), row["measure"], _csv_value(row["baseline"]),
                      _csv_value(row["candidate"]), _csv_value(row["delta"]), row["verdict"],
                      "", "", "", "", "", "", "", ""] for row in found["rows"])
    for row in found["summary"]:
        sides = "; ".join(f"{role} {row[f'{role}_method']} over {row[f'{role}_used']} "
                          f"({row[f'{role}_left_out']} left out)"
                          for role in ("baseline", "candidate"))
        writer.writerow(["all", row["measure"], _csv_value(row["baseline"]),
                         _csv_value(row["candidate"]), _csv_value(row["delta"]), "",
                         _csv_value(row["ci_low"]), _csv_value(row["ci_high"]),
                         _csv_value(row["p_value"]), _csv_value(row["p_holm"]),
                         row["tested"], row["used"], row["left_out"],
                         csv_cell("; ".join(filter(None, (sides, row["method"],
                                                          row["note"]))))])
    return buffer.getvalue()


def compared_json(found):
    """``compare --measures`` as JSON: ``{"baseline", "candidate", "measures",
    "confidence", "resamples", "summary", "rows"}``, n/a as ``null``."""
    return json.dumps(found, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def trec_eval_safe_text(scored, *, rows=True):
    """:func:`trec_eval_text` with every tab-separated field made safe for a terminal
    (:func:`~ragscore.render.escape.terminal_safe`): trec_eval's tabs kept, a question's
    name never moving the cursor."""
    from .escape import terminal_safe

    return "".join("\t".join(map(terminal_safe, line.split("\t"))) + "\n"
                   for line in trec_eval_text(scored, rows=rows).splitlines())
