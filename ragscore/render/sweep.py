"""The writers of a sweep over k (:class:`ragscore.usecases.sweep.Sweep`): text for people
(the macro means per system and k, the paired statistics when asked, then the notes), CSV
and JSON as data (one row per system and k, n/a empty or ``null``; JSON with the paired
statistics as ``{"means", "stats"}``)."""
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
    if result.stats is not None:
        lines += ["", *_stats_lines(result, digits=min(digits, 4))]
    lines += [f"Note: {one_line(note)}" for note in result.notes]
    return "\n".join(lines) + "\n"


def _p(value, digits):
    return "n/a" if value is None else f"{value:.{digits}f}"


def _stats_lines(result, *, digits):
    """The paired statistics per metric and k: n, mean delta, p and p (Holm)."""
    from ..core.metrics import REGISTRY
    from ..tables.stats import EXACT_MAX_PAIRS

    tested = max((row["tested"] for row in result.stats), default=0)
    lines = [f"Paired statistics of {one_line(result.candidate)} - "
             f"{one_line(result.baseline)} per metric and k over the questions where both "
             "are defined: p a two-sided sign-flip test of the mean delta (exact up to "
             f"n = {EXACT_MAX_PAIRS}, seed {result.seed}); p (Holm) adjusted for the "
             f"{tested} tests of this sweep (every metric at every k): read it to ask "
             "whether anything changed."]
    rows = [["metric", "k", "n", "mean", "p", "p (Holm)", "note"]]
    for row in result.stats:
        note = "; ".join(filter(None, (row["note"], f"same values as at k={row['same_as_k']}"
                                       if row["same_as_k"] is not None else "")))
        rows.append([REGISTRY[row["metric"]].label_at(row["k"]), str(row["k"]), str(row["n"]),
                     format_value(row["mean_delta"], digits=digits),
                     _p(row["p_value"], digits), _p(row["p_holm"], digits), note])
    return lines + aligned_lines(rows, right_from=1)


def _frame(result):
    return result.table.reset_index()


def sweep_csv(result, display):
    """One row per (system, k): ``system,k,<metric>...``, every value exact."""
    from ..core.rules import InvalidInputError
    from .formats import render_frame

    if result.stats is not None:
        raise InvalidInputError("--format csv writes a sweep's means, one table; its paired "
                                "statistics (--baseline, --candidate) are in text or json")
    return render_frame(_frame(result), fmt="csv")


def sweep_json(result, display):
    """One object per (system, k), n/a as ``null``; with paired statistics,
    ``{"means": [those objects], "stats": [one per metric and k]}``."""
    import json

    from .formats import render_frame

    means = render_frame(_frame(result), fmt="json")
    if result.stats is None:
        return means
    return json.dumps({"means": json.loads(means), "stats": result.stats}, indent=2,
                      allow_nan=False) + "\n"
