"""``ragscore measures`` written: one block per measure for people, or JSON. Standard
library only."""
import json

__all__ = ["measures_json", "measures_text"]


def measures_text(rows):
    """Each measure: its label and names, its definition, when it is n/a, its parameters.

    >>> print(measures_text([{"name": "rr", "label": "RR@k", "ir_measures": ["RR", "RR@k"],
    ...     "trec_eval": ["recip_rank"], "trec_eval_m": ["recip_rank"], "parameters": [],
    ...     "definition": "RR@k = 1 / rank.", "undefined": "nothing is labelled relevant"}]),
    ... end="")
    Measures (--measures takes ragscore's and ir_measures' names; eval -m trec_eval's):
    <BLANKLINE>
    RR@k  (registry: rr; ir_measures: RR, RR@k; trec_eval: recip_rank, -m recip_rank)
      RR@k = 1 / rank.
      n/a when nothing is labelled relevant
    """
    lines = ["Measures (--measures takes ragscore's and ir_measures' names; eval -m "
             "trec_eval's):"]
    for row in rows:
        names = [f"registry: {row['name']}"]
        if row["ir_measures"]:
            names.append(f"ir_measures: {', '.join(row['ir_measures'])}")
        if row["trec_eval"]:
            names.append(f"trec_eval: {', '.join(row['trec_eval'])}, -m "
                         f"{', -m '.join(row['trec_eval_m'])}")
        lines += ["", f"{row['label']}  ({'; '.join(names)})", f"  {row['definition']}",
                  f"  n/a when {row['undefined']}"]
        lines += [f"  parameter {parameter['name']}: {parameter['meaning']} (default "
                  f"{parameter['default']})" for parameter in row["parameters"]]
    return "\n".join(lines) + "\n"


def measures_json(rows):
    """``{"measures": [...]}``, one object per measure."""
    return json.dumps({"measures": rows}, indent=2, ensure_ascii=False) + "\n"
