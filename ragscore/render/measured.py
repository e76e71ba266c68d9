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
from itertools import chain, repeat
from math import fsum

from ..core.metrics import REGISTRY
from ..core.rules import InvalidInputError
from .columns import CSV_WORDS, JSON_WORDS, csv_fields, fixed, json_names, reprs
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
    lines = _question_lines(scored, labels, digits, markdown) if rows else []
    summary = [["system", "measure", "method", "value", "used", "left out"]]
    name = markdown_cell if markdown else str  # Markdown prose: a name never a link or HTML
    summary += [[name(row["system"]), row["measure"], row["method"],
                 _number(row["value"], digits), str(row["used"]), str(row["left_out"])]
                for row in scored.summary]
    lines += ["", "Summary per system and measure (macro: mean over the questions where it is "
                  "defined; pooled: summed numerators over summed denominators):"]
    lines += aligned_lines(summary, right_from=3)
    return "\n".join(lines if rows else lines[1:]) + "\n"


def _question_lines(scored, labels, digits, markdown):
    """The per-question table's lines, a column at a time (as :func:`aligned_lines` or a
    Markdown table lays the cells out)."""
    columns = [list(scored.cases), list(scored.systems)]
    columns += [fixed(scored.columns[label], digits) for label in labels]
    header = ["case", "system", *labels]
    if markdown:
        cells = [_cached(markdown_cell, column) for column in columns]
        head = "| " + " | ".join(header) + " |"
        return [head, "|---|---|" + "---:|" * len(labels)] + [
            "| " + line + " |" for line in map(" | ".join, zip(*cells))]
    padded = []
    for place, (title, column) in enumerate(zip(header, columns)):
        width = max(len(title), max(map(len, column), default=0))
        pad = str.rjust if place >= 2 else str.ljust
        padded.append([pad(title, width), *map(pad, column, repeat(width))])
    return list(map(str.rstrip, map("  ".join, zip(*padded))))


def _cached(function, values):
    """``function`` of each of ``values``, each distinct value once."""
    found = dict.fromkeys(values)
    for value in found:
        found[value] = function(value)
    return list(map(found.__getitem__, values))


def _csv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def measures_csv(scored, *, rows=True):
    """Tidy CSV: one row per question and measure (unless ``rows`` is false), then the
    summaries (case ``all``). The rows are written a column at a time: each name escaped
    (OWASP's rule: :func:`~ragscore.render.escape.csv_cell`) and quoted once, each value its
    ``repr``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["system", "case", "measure", "value", "method", "used", "left_out"])
    if rows and scored.measures:
        starts = list(map("{},{},".format, csv_fields(scored.systems, cells=True),
                          csv_fields(scored.cases, cells=True)))
        for measure in scored.measures:
            middle = csv_fields([measure.label])[0] + ","
            values = reprs(scored.columns[measure.label], CSV_WORDS)
            buffer.write("".join(chain.from_iterable(zip(starts, repeat(middle), values,
                                                         repeat(",,,\n")))))
    writer.writerows([csv_cell(row["system"]), "all", row["measure"], _csv_value(row["value"]),
                      row["method"], row["used"], row["left_out"]] for row in scored.summary)
    return buffer.getvalue()


def measures_json(scored, *, rows=True):
    """``{"measures": [...], "rows": [{case, system, measure: value}], "summary": [...]}``
    (``rows`` empty when ``rows`` is false), as ``json.dumps`` writes it with an indent of
    2; the rows written a column at a time."""
    labels = [measure.label for measure in scored.measures]
    head = _dumps({"measures": labels, "rows": [], "summary": scored.summary})
    if not rows or not scored.cases:
        return head
    columns = [reprs(scored.columns[label], JSON_WORDS) for label in labels]
    if {"case", "system"} & set(labels) or len(set(labels)) < len(labels) or any(
            {"inf", "-inf", "nan"} & set(column) for column in columns):
        # a label that is a key already, or a number JSON cannot hold: as json says it
        return _dumps({"measures": labels, "rows": [
            {"case": case, "system": system,
             **{label: scored.columns[label][position] for label in labels}}
            for position, (case, system) in enumerate(zip(scored.cases, scored.systems))],
            "summary": scored.summary})
    pieces = [repeat('    {\n      "case": '), json_names(scored.cases),
              repeat(',\n      "system": '), json_names(scored.systems)]
    for label, column in zip(labels, columns):
        pieces += [repeat(f",\n      {json.dumps(label, ensure_ascii=False)}: "), column]
    found = "".join(chain.from_iterable(zip(*pieces, repeat("\n    },\n"))))
    marker = '\n  "rows": [],\n'
    return head.replace(marker, '\n  "rows": [\n' + found[:-2] + "\n  ],\n", 1)


def _dumps(value):
    return json.dumps(value, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


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
        values = _zeroed(scored.columns[measure.label])
        means[measure.trec_name] = fsum(values) / len(values) if values else 0.0
    return measures, order, means


def _zeroed(values, order=None):
    """``values`` (taken in ``order`` when given) with n/a as 0.0."""
    if order is not None:
        values = list(map(values.__getitem__, order))
    return list(map({None: 0.0}.get, values, values))


def trec_eval_json(scored, *, rows=True):
    """pytrec_eval's shape, ``{qid: {trec_eval name: value}}`` (unless ``rows`` is false),
    plus ``"all"`` (the means), every value exact, n/a as 0; as ``json.dumps`` writes it
    with an indent of 2, the questions a column at a time."""
    measures, order, means = _trec_table(scored)
    order = order if rows else []
    head = _dumps({"all": means})
    if not order:
        return head
    cases = list(map(scored.cases.__getitem__, order))
    columns = [reprs(_zeroed(scored.columns[measure.label], order), JSON_WORDS)
               for measure in measures]
    names = [measure.trec_name for measure in measures]
    if "all" in cases or len(set(cases)) < len(cases) or len(set(names)) < len(names) or any(
            {"inf", "-inf", "nan"} & set(column) for column in columns):
        found = {scored.cases[position]: {
            measure.trec_name: 0.0 if scored.columns[measure.label][position] is None
            else scored.columns[measure.label][position] for measure in measures}
            for position in order}
        found["all"] = means
        return _dumps(found)
    pieces = [repeat("  "), json_names(cases), repeat(": {")]
    for place, (name, column) in enumerate(zip(names, columns)):
        pieces += [repeat(f"{',' if place else ''}\n    {json.dumps(name)}: "), column]
    found = "".join(chain.from_iterable(zip(*pieces, repeat("\n  },\n"))))
    return "{\n" + found + head[2:]


def trec_eval_text(scored, *, rows=True):
    """trec_eval's ``-q`` layout: per question (sorted as strings; left out, as trec_eval
    without ``-q``, when ``rows`` is false), every measure as ``%-22s\\t%s\\t%.4f``, then
    the mean over those questions as ``all`` (n/a as 0); a column at a time."""
    measures, order, means = _trec_table(scored)
    order = order if rows else []
    lines = []
    if order:
        cases = list(map(scored.cases.__getitem__, order))
        per_measure = [
            list(map(f"{measure.trec_name:<22}\t".__add__, map("{}\t{}".format, cases, fixed(
                _zeroed(scored.columns[measure.label], order), 4, bools=None))))
            for measure in measures]
        lines = list(chain.from_iterable(zip(*per_measure)))
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
