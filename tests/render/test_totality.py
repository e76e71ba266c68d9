"""Helpers are total over the package's own outputs: what one public function returns,
another accepts (numpy and pandas scalars, plain float tables, non-string labels), or it
refuses with the package's ValueError and a message."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from ragscore import InvalidInputError
from ragscore.render.formats import render
from ragscore.render.text import format_delta, format_value
from ragscore.tables.scores import question_table


@pytest.mark.parametrize("value, text", [
    (True, "yes"), (False, "no"), (np.bool_(True), "yes"), (np.bool_(False), "no"),
    (pd.NA, "n/a"), (None, "n/a"), (math.nan, "n/a"), (np.nan, "n/a"),
    (np.float64(0.5), "0.50"), (np.float32(0.25), "0.25"), (np.float16(1), "1.00"),
    (np.int64(1), "1"), (np.int8(0), "0"), (pd.NaT, "n/a"),  # ints are counts
])
def test_format_value_on_the_scalars_a_table_holds(value, text):
    assert format_value(value) == text


@pytest.mark.parametrize("value", ["0.5", b"1", 1j, object(), 10**400])
def test_format_value_refuses_what_is_not_a_score(value):
    with pytest.raises(InvalidInputError, match=r"value must be a number, a bool or n/a; got"):
        format_value(value)


def test_format_value_of_every_cell_of_a_table(course):
    table = question_table(course, k=2)
    cells = [format_value(value) for column in table.columns for value in table[column]]
    assert set(cells) <= {"n/a", "yes", "no", "0.00", "0.50", "1.00"}
    assert cells.count("yes") == 1 and "1.00" in cells  # the boolean cell is yes, not 1.00
    assert format_delta(np.float64(-0.5)) == "-0.50" and format_delta(pd.NA) == "n/a"


@pytest.mark.parametrize("fmt", ["json", "csv", "text", "markdown", "html"])
def test_a_plain_float_table_renders_n_a_never_nan(course, fmt):
    plain = question_table(course, k=2).astype(float)  # NaN instead of <NA>
    assert plain.attrs["k"] == 2
    out = render(plain, fmt=fmt)
    assert "NaN" not in out and "nan" not in out
    if fmt == "json":
        rows = json.loads(out)["rows"]
        assert rows[7]["precision"] is None and rows[7]["abstention_correct"] is True


def test_render_refuses_a_k_the_table_was_not_scored_at(course):
    table = question_table(course, k=2)
    with pytest.raises(InvalidInputError, match=r"k must be the cutoff the table was scored "
                                                r"at, 2; got 5"):
        render(table, k=5)
    assert render(table, k=2) == render(table)
    table.attrs.clear()
    with pytest.raises(InvalidInputError, match=r"k must be given for a table that does not "
                                                r"record its cutoff"):
        render(table)
    assert render(table, k=2).startswith("case system | P@2 ")


@pytest.mark.parametrize("fmt", ["json", "csv", "text", "markdown", "html"])
def test_non_string_case_and_system_names(course, fmt):
    table = question_table(course, k=2)
    table.index = pd.MultiIndex.from_tuples(
        [(number, np.int64(number % 2)) for number in range(len(table))],
        names=["case", "system"])
    out = render(table, fmt=fmt)
    assert out.count("\n") >= 8
    if fmt == "html":
        assert "<th>7</th><td>1</td>" in out


def test_html_escapes_names(course):
    table = question_table(course, k=2)
    table.index = pd.MultiIndex.from_tuples(
        [("<script>", "&") for _ in range(len(table))], names=["case", "system"])
    out = render(table, fmt="html")
    assert "<script>" not in out and "&lt;script&gt;" in out and "<td>&amp;</td>" in out


def test_plots_and_rows_of_a_sweep_refuse_a_metric_it_lacks(course):
    import matplotlib

    matplotlib.use("Agg")
    from ragscore.render.plots import plot_sweep
    from ragscore.tables.summary import sweep
    from ragscore.workbook.explore import sweep_rows

    table = sweep(course, max_k=3, metrics=("recall", "rr"))
    for call in (lambda m: plot_sweep(table, metric=m), lambda m: sweep_rows(table, metric=m)):
        with pytest.raises(InvalidInputError, match=r"metric must be one of the registered metrics \(closest: "):
            call("nope")
        with pytest.raises(InvalidInputError, match=r"metric must be a column of the sweep "
                                                    r"table \(recall, rr\); got 'precision'"):
            call("precision")


def test_a_sweep_without_runs_keeps_its_index_and_says_why_it_cannot_be_plotted(course):
    import matplotlib

    matplotlib.use("Agg")
    from ragscore.render.plots import plot_sweep
    from ragscore.tables.summary import sweep
    from ragscore.workbook.explore import sweep_rows

    empty = sweep(course._replace(runs={}), max_k=3)
    assert list(empty.index.names) == ["system", "k"] and len(empty) == 0
    assert sweep_rows(empty, metric="recall") == []
    with pytest.raises(InvalidInputError, match=r"sweep_table has no rows \(a dataset without "
                                                r"runs\): nothing to plot"):
        plot_sweep(empty)


def test_compare_on_a_table_without_runs_says_so(course):
    from ragscore.tables.compare import compare

    table = question_table(course._replace(runs={}), k=2)
    with pytest.raises(InvalidInputError, match=r"system must be one of \(none: no runs\); "
                                                r"got 'A'"):
        compare(table, baseline="A", candidate="B")


def test_workbook_helpers_refuse_what_is_not_theirs():
    from ragscore.workbook.explore import parse_claims, parse_ranking, scores_html

    with pytest.raises(InvalidInputError, match=r"claims text must be a str"):
        parse_claims(None)
    with pytest.raises(InvalidInputError, match=r"ranking text must be a str"):
        parse_ranking(["a"])
    with pytest.raises(InvalidInputError, match=r"scores\['precision'\] must be present"):
        scores_html({}, k=2)
