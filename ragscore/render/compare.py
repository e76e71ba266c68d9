"""The writers of a comparison (:class:`ragscore.usecases.compare.Comparison`): text for
people (warnings first, the summary and the changed questions, the statistics, notes last),
CSV and JSON as data (the per-question rows, the statistics, or with named measures a
summary per measure and the rows)."""
from ..core.rules import InvalidInputError
from .escape import text as one_line


def _measures(result):
    from ..tables.compare_measures import compare_measures

    return compare_measures(result.counted, result.measures, baseline=result.baseline,
                            candidate=result.candidate, default_k=result.k,
                            na_as_zero=result.na_as_zero, confidence=result.confidence,
                            seed=result.seed)


def _table(result):
    from ..tables.compare import compare
    from ..tables.scores import question_table

    table = question_table(result.counted, k=result.k, metrics=result.metrics,
                           na_as_zero=result.na_as_zero)
    return compare(table, baseline=result.baseline, candidate=result.candidate)


def _columns(result):
    """``(metrics, {name: values})``: the compared columns, metrics at k or named measures
    (each its registry metric renamed to its label, read at its own cutoff)."""
    from ..core.measures import at_cutoffs, parse_measures
    from ..core.metrics import select
    from ..engine import default_metrics

    counted, k = result.counted, result.k
    if result.measures is None:
        chosen = select(default_metrics(counted) if result.metrics is None else result.metrics)
        return chosen, {metric.name: counted.column(metric, k, na_as_zero=result.na_as_zero)
                        for metric in chosen}
    chosen, columns = [], {}
    for measure in at_cutoffs(parse_measures(result.measures), default=k):
        metric = measure.definition
        cut = measure.cutoff(uncut=counted.rules.max_k, default=k)
        chosen.append(metric._replace(name=measure.label, label=measure.label))
        columns[measure.label] = counted.column(metric, cut, na_as_zero=result.na_as_zero)
    return tuple(chosen), columns


def comparison_text_of(result, display):
    """Warnings, the summary line and one line per changed (case, metric), regressions
    first; with statistics, their table between the summary and the questions; notes
    last."""
    from ..core.paired import pair_up
    from .formats import comparison_text

    if result.measures is not None and result.with_stats:
        raise InvalidInputError("compare --measures --stats: the paired statistics of named "
                                "measures are in --format csv or json (their summary)")
    digits = 4 if display.digits is None else display.digits
    chosen, columns = _columns(result)
    paired = pair_up(result.counted.keys, columns, baseline=result.baseline,
                     candidate=result.candidate, metrics=chosen)
    text = comparison_text(paired, baseline=result.baseline, candidate=result.candidate,
                           k=None if result.measures else result.k, metrics=chosen,
                           digits=digits)
    head = "".join(f"WARNING: {warning}\n" for warning in result.warnings)
    if result.stats is not None:
        from ..tables.stats import RESAMPLES
        from .stats import render_stats

        summary, _, rows = text.partition("\n")  # the summary first, then the questions
        text = (summary + "\n\n" + render_stats(
            result.stats, baseline=result.baseline, candidate=result.candidate,
            confidence=result.confidence, seed=result.seed, resamples=RESAMPLES,
            digits=digits) + "\n" + rows)
    notes = "".join(f"Note: {one_line(note)}\n" for note in result.notes)
    return head + text + notes


def comparison_csv(result, display):
    """The per-question rows (or the statistics, or the measures' summary and rows)."""
    from .formats import render_frame

    if result.measures is not None:
        from .measured import compared_csv

        return compared_csv(_measures(result))
    return render_frame(result.stats if result.stats is not None else _table(result),
                        fmt="csv")


def comparison_json(result, display):
    """As :func:`comparison_csv`, as JSON (n/a as ``null``)."""
    if result.measures is not None:
        from .measured import compared_json

        return compared_json(_measures(result))
    from .stats import comparison_records, stats_records, to_json

    return to_json(stats_records(result.stats) if result.stats is not None
                   else comparison_records(_table(result)))
