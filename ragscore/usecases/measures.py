"""``ragscore measures``: every measure ragscore computes, with its names (ragscore's,
ir_measures' and trec_eval's), its parameters, its definition and when it is n/a: the
:class:`MeasureList` result, read from the metric registry alone.

>>> listed = list_measures()
>>> row = next(row for row in listed.rows if row["name"] == "rprec")
>>> row["ir_measures"], row["trec_eval"]
(['Rprec', 'Rprec@k', 'Rprec(rel=2)'], ['Rprec'])
"""
from collections import namedtuple

from ..core.measures import TREC_CUTOFFS, TREC_DEFAULT_CUTOFFS
from ..core.metrics import REGISTRY
from ..render import measure_list as written
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["MeasureList", "list_measures"]


class MeasureList(Result, namedtuple("MeasureList", "rows")):
    """Every measure as a dict (``name``, ``label``, ``ir_measures``, ``trec_eval``,
    ``trec_eval_m``, ``parameters``, ``definition``, ``undefined``, ``kind``, ``stage``), in
    report order."""

    __slots__ = ()
    job = "the list of measures"

    @property
    def writers(self):
        return WRITERS


WRITERS = writer_table(
    Writer("text", lambda result, display: written.measures_text(result.rows)),
    data_writer("json", lambda result, display: written.measures_json(result.rows)))


def _first_paragraph(text):
    return " ".join((text or "").strip().split("\n\n")[0].split())


def _ir_names(metric):
    """ir_measures' spellings of ``metric``: ``P@k`` (and ``AP`` uncut), then one example
    per parameter."""
    if metric.ir_name is None:
        return []
    cut = "{k}" in metric.label
    names = ([metric.ir_name] if metric.uncut or not cut else []) + \
        ([f"{metric.ir_name}@k"] if cut else [])
    return names + [f"{metric.ir_name}({parameter.name}={parameter.example})"
                    + ("@k" if cut and not metric.uncut else "")
                    for parameter in metric.parameters]


def _trec_names(metric):
    """``(trec_eval's output names, its -m spellings)``."""
    names, spellings = [], []
    if metric.trec_uncut is not None:
        names.append(metric.trec_uncut)
        spellings.append(metric.trec_uncut)
    if metric.trec_name is not None:
        stem = metric.trec_name.replace("_{k}", "")
        names.append(metric.trec_name.replace("{k}", "k"))
        cutoffs = ",".join(map(str, TREC_CUTOFFS.get(stem, TREC_DEFAULT_CUTOFFS)))
        spellings += [f"{stem}.k", f"{stem} (cutoffs {cutoffs})"]
    return names, spellings


def list_measures():
    """Every registered metric as a measure: a :class:`MeasureList`."""
    rows = []
    for name, metric in REGISTRY.items():
        trec_names, trec_spellings = _trec_names(metric)
        rows.append({
            "name": name, "label": metric.label_at("k"), "ir_measures": _ir_names(metric),
            "trec_eval": trec_names, "trec_eval_m": trec_spellings,
            "parameters": [{"name": parameter.name, "default": parameter.default,
                            "meaning": parameter.meaning}
                           for parameter in metric.parameters],
            "definition": _first_paragraph(metric.formula.__doc__),
            "undefined": "never" if metric.defined is None else metric.undefined,
            "kind": metric.kind, "stage": metric.stage})
    return MeasureList(rows)
