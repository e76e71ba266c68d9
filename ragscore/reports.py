"""Reports that keep every question visible: tables, paired comparisons, declared aggregates.

Everything here starts from the per-question table of :func:`ragscore.score_runs` and keeps
n/a (pandas ``<NA>``) apart from 0: n/a is never averaged in, never counted as a success,
and every aggregate states its method, its denominator, how many questions it used and how
many it left out.
"""
import csv
import html
import io
import json

import pandas as pd

from .batch import score_runs
from .claims import count_supported
from .display import FORMATS, VERDICTS, format_value, text_table
from .scoring import METRICS, metric_labels
from .validation import InvalidInputError, check_k, validate_case, validate_corpus, \
    validate_run

RETRIEVAL = ("precision", "recall", "rr")


def question_table(dataset, *, k=2):
    """The per-question table of ``dataset`` at cutoff ``k`` (one row per case and system)."""
    return score_runs(dataset.corpus, dataset.cases, dataset.runs, k=k)


def _plain(value):
    """A table cell as a plain Python value: None for n/a, bool, or float."""
    if value is pd.NA or value is None:
        return None
    if isinstance(value, (bool,)) or type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    return float(value)


def _nullable_floats(values):
    """A ``Float64`` array where ``None`` (n/a) becomes ``<NA>``, never 0."""
    return pd.array([None if v is None else float(v) for v in values], dtype="Float64")


def _rows(table):
    for (case, system), row in table.iterrows():
        yield case, system, {name: _plain(row[name]) for name in METRICS}


def render(table, *, k, fmt="text"):
    """Render a per-question table as ``text``, ``markdown``, ``csv``, ``html`` or ``json``.

    Text and Markdown show n/a, yes, no and two decimals. CSV leaves n/a as an empty field
    and writes ``true``/``false``; JSON writes ``null``: n/a is never written as 0.

    >>> from ragscore.course import load_course
    >>> print(render(question_table(load_course(), k=2), k=2, fmt="csv").splitlines()[7])
    region,A,,,,0.0,,false
    """
    check_k(k)
    if fmt not in FORMATS:
        raise InvalidInputError(f"fmt must be one of {', '.join(FORMATS)}; got {fmt!r}")
    rows = list(_rows(table))
    if fmt == "text":
        return text_table(rows, k=k) + "\n"
    labels = metric_labels(k)
    if fmt == "markdown":
        lines = ["| case | system | " + " | ".join(labels) + " |",
                 "|---|---|" + "---:|" * len(labels)]
        lines += [f"| {case} | {system} | " + " | ".join(format_value(s[m]) for m in METRICS)
                  + " |" for case, system, s in rows]
        return "\n".join(lines) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["case", "system", *METRICS])
        for case, system, scores in rows:
            writer.writerow([case, system, *(_csv_cell(scores[m]) for m in METRICS)])
        return buffer.getvalue()
    if fmt == "json":
        records = [{"case": case, "system": system, **scores} for case, system, scores in rows]
        return json.dumps({"k": k, "metrics": list(METRICS), "rows": records}, indent=2) + "\n"
    return _html(rows, labels)


def _csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _html(rows, labels):
    head = "".join(f"<th>{html.escape(label)}</th>" for label in ("case", "system", *labels))
    body = []
    for case, system, scores in rows:
        cells = "".join(
            f'<td class="na">n/a</td>' if scores[m] is None else
            f"<td>{format_value(scores[m])}</td>" for m in METRICS)
        body.append(f"<tr><th>{html.escape(case)}</th><td>{html.escape(system)}</td>{cells}</tr>")
    return (f'<table class="ragscore-table">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(body) + "\n</tbody>\n</table>\n")


def _systems(table, *names):
    present = list(dict.fromkeys(table.index.get_level_values("system")))
    for name in names:
        if name not in present:
            raise InvalidInputError(
                f"system must be one of {', '.join(map(repr, present))}; got {name!r}")
    return present


def _verdict(before, after):
    if before is None and after is None:
        return "unchanged"
    if before is None:
        return "newly defined"
    if after is None:
        return "no longer defined"
    if after > before:
        return "improved"
    if after < before:
        return "regressed"
    return "unchanged"


def compare(table, *, baseline, candidate):
    """Paired, per-question comparison of two systems on the questions both answered.

    One row per (case, metric): the baseline value, the candidate value, ``delta`` =
    candidate - baseline (abstention counts yes as 1 and no as 0; n/a when either side is
    n/a) and a verdict: regressed, no longer defined, newly defined, improved or unchanged.
    Regressions come first, then the rest in that order; within a verdict, input order.
    """
    _systems(table, baseline, candidate)
    cases = [case for case in dict.fromkeys(table.index.get_level_values("case"))
             if (case, baseline) in table.index and (case, candidate) in table.index]
    records = []
    for case in cases:
        for metric in METRICS:
            before = _plain(table.loc[(case, baseline), metric])
            after = _plain(table.loc[(case, candidate), metric])
            delta = None if before is None or after is None else float(after) - float(before)
            records.append({"case": case, "metric": metric, "baseline": before,
                            "candidate": after, "delta": delta,
                            "verdict": _verdict(before, after)})
    frame = pd.DataFrame.from_records(
        records, columns=["case", "metric", "baseline", "candidate", "delta", "verdict"])
    for column in ("baseline", "candidate", "delta"):
        frame[column] = _nullable_floats(frame[column])
    order = {verdict: rank for rank, verdict in enumerate(VERDICTS)}
    frame["_rank"] = frame["verdict"].map(order)
    frame = frame.sort_values("_rank", kind="stable").drop(columns="_rank")
    return frame.reset_index(drop=True)


def claim_counts(dataset, *, k=2):
    """Per-question counts behind the rates: hits, relevant, supported, claims, expected."""
    check_k(k)
    known = validate_corpus(dataset.corpus)
    keys, records = [], []
    for case_name, systems in dataset.runs.items():
        relevant, support = validate_case(dataset.cases[case_name], known)
        for system, run in systems.items():
            retrieved, claims = validate_run(run, known)
            visible = set(retrieved[:k])
            keys.append((case_name, system))
            records.append({"hits": len(visible & relevant), "relevant": len(relevant),
                            "supported": count_supported(claims, support, visible),
                            "claims": len(claims), "expected": len(support)})
    index = pd.MultiIndex.from_tuples(keys, names=["case", "system"])
    return pd.DataFrame.from_records(records, index=index,
                                     columns=["hits", "relevant", "supported", "claims",
                                              "expected"])


def answerable(dataset):
    """The names of the cases with at least one expected claim (so relevant documents)."""
    return [name for name, case in dataset.cases.items() if case["support"]]


def _macro(values, *, metric, k, slice_name, total):
    defined = [v for v in values if v is not None]
    label = dict(zip(METRICS, metric_labels(k)))[metric]
    return {
        "metric": metric, "method": "macro",
        "value": sum(defined) / len(defined) if defined else None,
        "numerator": None, "denominator": len(defined),
        "used": len(defined), "left_out": total - len(defined),
        "description": (f"mean {label} over the {len(defined)} {slice_name} questions where "
                        f"it is defined; {total - len(defined)} left out as n/a"),
    }


def aggregates(dataset, *, k=2):
    """Declared aggregates per system, answerable and unanswerable questions kept apart.

    Answerable slice: the macro mean (each question weighs the same; n/a left out) of all
    five rates, plus pooled support (supported claims / claims, summed over questions) and
    pooled recall (hits / relevant, summed). Unanswerable slice: correct abstentions as a
    count out of its questions, never as a retrieval success.

    Columns: system, slice, metric, method, value, numerator, denominator, used, left_out
    and a sentence saying all of that.
    """
    table = question_table(dataset, k=k)
    counts = claim_counts(dataset, k=k)
    answerable_cases = set(answerable(dataset))
    rows = []
    for system in _systems(table):
        mine = table.xs(system, level="system")
        mine_counts = counts.xs(system, level="system")
        yes = [case for case in mine.index if case in answerable_cases]
        no = [case for case in mine.index if case not in answerable_cases]
        for metric in METRICS[:5]:
            values = [_plain(mine.loc[case, metric]) for case in yes]
            rows.append({"system": system, "slice": "answerable",
                         **_macro(values, metric=metric, k=k, slice_name="answerable",
                                  total=len(yes))})
        for metric, top, bottom, what in (("support", "supported", "claims", "claims"),
                                          ("recall", "hits", "relevant", "relevant documents")):
            numerator = int(mine_counts.loc[yes, top].sum())
            denominator = int(mine_counts.loc[yes, bottom].sum())
            rows.append({
                "system": system, "slice": "answerable", "metric": metric, "method": "pooled",
                "value": numerator / denominator if denominator else None,
                "numerator": numerator, "denominator": denominator, "used": len(yes),
                "left_out": 0,
                "description": (f"{numerator} {top} of {denominator} {what}, summed over "
                                f"{len(yes)} answerable questions"),
            })
        correct = sum(1 for case in no if _plain(mine.loc[case, "abstention_correct"]))
        rows.append({
            "system": system, "slice": "unanswerable", "metric": "abstention_correct",
            "method": "count", "value": correct / len(no) if no else None,
            "numerator": correct, "denominator": len(no), "used": len(no), "left_out": 0,
            "description": (f"{correct} of {len(no)} unanswerable questions answered with "
                            "no claims (correct abstention)"),
        })
    frame = pd.DataFrame.from_records(rows, columns=[
        "system", "slice", "metric", "method", "value", "numerator", "denominator", "used",
        "left_out", "description"])
    frame["value"] = _nullable_floats(frame["value"])
    frame["numerator"] = pd.array(list(frame["numerator"]), dtype="Int64")
    for column in ("denominator", "used", "left_out"):
        frame[column] = frame[column].astype("Int64")
    return frame


def sweep(dataset, *, max_k):
    """Macro means over answerable questions for every k from 1 to ``max_k``, per system.

    Index ``(system, k)``; columns the five rates (n/a left out of each mean) and
    ``abstention_correct``, the share of unanswerable questions with a correct abstention
    (it does not depend on k). ``questions`` counts the answerable questions.
    """
    check_k(max_k)
    answerable_cases = set(answerable(dataset))
    tables = {k: question_table(dataset, k=k) for k in range(1, max_k + 1)}
    records, keys = [], []
    for system in _systems(tables[1]):
        for k, table in tables.items():
            mine = table.xs(system, level="system")
            yes = mine.loc[[case for case in mine.index if case in answerable_cases]]
            no = mine.loc[[case for case in mine.index if case not in answerable_cases]]
            record = {metric: yes[metric].mean(skipna=True) for metric in METRICS[:5]}
            record["abstention_correct"] = (no["abstention_correct"].astype("Float64").mean()
                                            if len(no) else pd.NA)
            record["questions"] = len(yes)
            keys.append((system, k))
            records.append(record)
    index = pd.MultiIndex.from_tuples(keys, names=["system", "k"])
    frame = pd.DataFrame.from_records(records, index=index)
    for column in (*METRICS[:5], "abstention_correct"):
        frame[column] = frame[column].astype("Float64")
    return frame
