"""Per-question output written a column at a time (render.measured, render.columns) is,
byte for byte, what the cell-by-cell writers wrote before: those writers are kept below as
they were (the oracle), and both are run on several shapes (n/a, yes/no, counts, ties, odd
floats, names CSV or JSON or Markdown must escape, one system and two, no rows)."""
import csv
import io
import json
import random
from math import fsum

import pytest

from ragscore.core.measures import Scored, parse_measures
from ragscore.core.rules import InvalidInputError
from ragscore.render import measured
from ragscore.render.escape import csv_cell, markdown_cell
from ragscore.render.measured import trec_order
from ragscore.render.text import aligned_lines, format_value

# ---- the writers as they were (ragscore/render/measured.py at 1dd5f70) -----------------------

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



# ---- shapes ------------------------------------------------------------------------------------

ODD = [0.1 + 0.2, 1e-05, 1e16, 5e-324, -0.0, 0.0, 1.0, 1 / 3, 2 / 3, 123456789.123456789,
       0.30000000000000004, 1e-7, 0.5, 0.25, 0.125, 0.99995, 0.00005, 0.12345, 2.5e-05]
NAMES = ["q1", "q10", "q2", "=cmd", "+1", "-x", "@a", "a,b", 'say "x"', "tab\there",
         "\u00e9t\u00e9", "a|b", "![x](u)", "<img>", "{brace}", "all-but-not", "x y",
         "line\nbreak", "cr\rhere", "under_score", "dot.ted", "#chunk-1"]


def _scored(rng, *, systems, kinds, rows, names=NAMES):
    labels = "P@10 RR nDCG@10 AP R@100 Success@1"
    measures = parse_measures(" ".join(labels.split()[:rng.randint(1, 6)]))
    cases, system_names = [], []
    for number in range(rows):
        for system in systems:
            cases.append(rng.choice(names) + ("" if rng.random() < 0.3 else str(number)))
            system_names.append(system)
    if len(systems) == 1:  # one system: each case once (trec_eval's shape)
        cases = list(dict.fromkeys(cases))
        system_names = system_names[:len(cases)]

    def value():
        kind = rng.choice(kinds)
        if kind == "none":
            return None
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "int":
            return rng.randint(0, 12)
        return rng.choice(ODD)

    columns = {measure.label: [value() for _ in cases] for measure in measures}
    summary = [{"system": system, "measure": measure.label, "method": "macro", "slice": "all",
                "value": value(), "used": rng.randint(0, 9), "left_out": rng.randint(0, 3),
                "description": "d"} for system in dict.fromkeys(system_names)
               for measure in measures]
    return Scored(measures, cases, system_names, columns, summary)


SHAPES = [dict(systems=["A"], kinds=["float"], rows=40),
          dict(systems=["A"], kinds=["float", "none"], rows=60),
          dict(systems=["A", "B,c"], kinds=["float", "none"], rows=30),
          dict(systems=["sys"], kinds=["float", "none", "bool", "int"], rows=25),
          dict(systems=["=s", 'q"'], kinds=["none"], rows=5),
          dict(systems=["A"], kinds=["float"], rows=0),
          dict(systems=["A"], kinds=["float"], rows=1)]


@pytest.mark.parametrize("seed", range(len(SHAPES) * 4))
def test_every_output_is_the_cell_by_cell_one(seed):
    rng = random.Random(seed)
    scored = _scored(rng, **SHAPES[seed % len(SHAPES)])
    for rows in (True, False):
        assert measured.measures_csv(scored, rows=rows) == measures_csv(scored, rows=rows)
        assert measured.measures_json(scored, rows=rows) == measures_json(scored, rows=rows)
        for digits in (0, 2, 4, 17):
            for markdown in (False, True):
                assert measured.measures_text(scored, digits=digits, markdown=markdown,
                                              rows=rows) == measures_text(
                    scored, digits=digits, markdown=markdown, rows=rows)
        if len(set(scored.systems)) == 1:
            assert measured.trec_eval_text(scored, rows=rows) == trec_eval_text(scored,
                                                                               rows=rows)
            assert measured.trec_eval_json(scored, rows=rows) == trec_eval_json(scored,
                                                                               rows=rows)


def test_a_question_called_all_and_non_finite_values_as_json_wrote_them():
    rng = random.Random(5)
    scored = _scored(rng, systems=["A"], kinds=["float", "none"], rows=8, names=["all", "q"])
    assert "all" in scored.cases
    assert measured.trec_eval_json(scored) == trec_eval_json(scored)
    label = scored.measures[0].label
    broken = scored._replace(columns={**scored.columns, label: [float("inf")] + scored.columns[
        label][1:]})
    for writer in ("measures_json", "trec_eval_json"):
        with pytest.raises(ValueError, match="Out of range float values"):
            getattr(measured, writer)(broken)
        with pytest.raises(ValueError, match="Out of range float values"):
            globals()[writer](broken)
    assert measured.measures_csv(broken) == measures_csv(broken)
    assert measured.measures_text(broken) == measures_text(broken)
    assert measured.trec_eval_text(broken) == trec_eval_text(broken)
