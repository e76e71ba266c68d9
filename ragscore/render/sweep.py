"""The writers of a sweep over k (:class:`ragscore.usecases.sweep.Sweep`): text for people
(the macro means per system and k, then the notes), CSV and JSON as data (one row per system
and k, n/a empty or ``null``)."""
from .escape import text as one_line
from .text import aligned_lines, format_value


def sweep_text(result, display):
    """One aligned line per (system, k) with each metric's macro mean, then the notes."""
    from ..core.metrics import REGISTRY

    digits = 4 if display.digits is None else display.digits
    table = result.table
    names = [name for name in table.columns if name in REGISTRY]
    rows = [["system", "k", *(REGISTRY[name].label_at("k") for name in names)]]
    columns = [table[name].astype(object).tolist() for name in names]
    for (system, k), *values in zip(table.index, *columns):
        rows.append([one_line(system), str(k),
                     *(format_value(value, digits=digits) for value in values)])
    lines = ["Macro means over answerable questions (n/a left out); a yes/no metric shows "
             "its share of yes over its own questions.", *aligned_lines(rows, right_from=1)]
    lines += [f"Note: {one_line(note)}" for note in result.notes]
    return "\n".join(lines) + "\n"


def _frame(result):
    return result.table.reset_index()


def sweep_csv(result, display):
    """One row per (system, k): ``system,k,<metric>...``, every value exact."""
    from .formats import render_frame

    return render_frame(_frame(result), fmt="csv")


def sweep_json(result, display):
    """One object per (system, k), n/a as ``null``."""
    from .formats import render_frame

    return render_frame(_frame(result), fmt="json")
