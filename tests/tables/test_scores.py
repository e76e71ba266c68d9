"""Batch scoring: one row per (case, system), nullable dtypes, errors naming case and system."""
import subprocess
import sys

import pandas as pd
import pytest

import ragscore
from ragscore import score_runs
from ragscore.core.scoring import iter_scores


def test_one_row_per_pair_in_input_order(course):
    table = score_runs(course.corpus, course.cases, course.runs, k=2)
    assert list(table.index) == [("launch", "A"), ("launch", "B"), ("rollback", "A"),
                                 ("rollback", "B"), ("owner", "A"), ("owner", "B"),
                                 ("region", "A"), ("region", "B")]
    assert table.index.names == ["case", "system"]
    assert list(table.columns) == list(ragscore.CONTRACT)


def test_nullable_dtypes_keep_na_missing(course):
    table = score_runs(course.corpus, course.cases, course.runs, k=2)
    assert [str(dtype) for dtype in table.dtypes] == ["Float64"] * 5 + ["boolean"]
    region_b = table.loc[("region", "B")]
    assert all(region_b[name] is pd.NA for name in ("precision", "recall", "rr", "support",
                                                     "coverage"))
    assert table.loc[("region", "A"), "support"] == 0.0
    assert table["precision"].isna().sum() == 2
    assert table["abstention_correct"].isna().sum() == 6
    assert table["abstention_correct"].sum() == 1  # only region B abstains correctly


def test_values_match_the_workbook_table_at_default_k2(course):
    table = score_runs(course.corpus, course.cases, course.runs)  # k defaults to 2
    assert table["precision"].tolist() == [0.5, 0.5, 0.5, 1.0, 0.5, 0.5, pd.NA, pd.NA]
    assert table["support"].tolist() == [1.0, 0.5, 1.0, 1.0, 0.0, 1.0, 0.0, pd.NA]
    assert table["rr"].tolist() == [1.0, 1.0, 1.0, 1.0, 0.5, 1.0, pd.NA, pd.NA]


def test_rows_match_evaluate_at_every_k(course):
    for k in (1, 2, 3, 100):
        table = score_runs(course.corpus, course.cases, course.runs, k=k)
        for (case, system), row in table.iterrows():
            expected = ragscore.evaluate(course.corpus, course.cases[case],
                                         course.runs[case][system], k=k)
            got = {name: (None if row[name] is pd.NA else row[name]) for name in expected}
            assert got == expected


def test_empty_runs_give_an_empty_table_with_the_columns(course):
    table = score_runs(course.corpus, course.cases, {}, k=2)
    assert table.empty
    assert list(table.columns) == list(ragscore.CONTRACT)


def test_errors_name_the_case_and_system(course):
    course.runs["owner"]["B"] = {"retrieved": ("owners", "ghost"), "claims": ()}
    with pytest.raises(ValueError, match=r"^case 'owner', system 'B': run\['retrieved'\]\[1\] "
                                         r"must be an ID in the corpus; got 'ghost'$"):
        score_runs(course.corpus, course.cases, course.runs)


def test_case_errors_name_the_case(course):
    course.cases["rollback"]["support"] = {"switch": ("archive",)}
    with pytest.raises(ValueError, match=r"^case 'rollback': case\['support'\]\['switch'\]"):
        score_runs(course.corpus, course.cases, course.runs)


def test_runs_for_an_unknown_case_are_refused(course):
    course.runs["ghost"] = {"A": {"retrieved": (), "claims": ()}}
    with pytest.raises(ValueError, match=r"runs\['ghost'\] names a case that is not in cases"):
        score_runs(course.corpus, course.cases, course.runs)


@pytest.mark.parametrize("cases, runs, message", [
    ([], {}, r"cases must be a dict; got \[\]"),
    ({}, [], r"runs must be a dict; got \[\]"),
])
def test_containers_must_be_dicts(course, cases, runs, message):
    with pytest.raises(ValueError, match=message):
        score_runs(course.corpus, cases, runs)


def test_per_case_systems_must_be_a_dict(course):
    course.runs["launch"] = [course.runs["launch"]["A"]]
    with pytest.raises(ValueError, match=r"runs\['launch'\] must be a dict; got \[\{"):
        score_runs(course.corpus, course.cases, course.runs)


def test_bad_k_and_corpus_are_refused_before_any_case(course):
    with pytest.raises(ValueError, match=r"^k must be an int from 1 to 100; got 0$"):
        score_runs(course.corpus, course.cases, course.runs, k=0)
    with pytest.raises(ValueError, match=r"^corpus must be a non-empty dict"):
        score_runs({}, course.cases, course.runs)


def test_progress_is_reported_once_per_case(course):
    calls = []
    score_runs(course.corpus, course.cases, course.runs, progress=lambda *a: calls.append(a))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_iter_scores_yields_evaluate_dicts_at_default_k2(course):
    rows = list(iter_scores(course.corpus, course.cases, course.runs))  # k defaults to 2
    assert rows[4] == ("owner", "A", {"precision": 0.5, "recall": 1.0, "rr": 0.5,
                                      "support": 0.0, "coverage": 0.0,
                                      "abstention_correct": None})


def test_import_and_evaluate_load_no_heavy_library():
    code = ("import sys, ragscore\n"
            "c = ragscore.load_course()\n"
            "ragscore.evaluate(c.corpus, c.cases['owner'], c.runs['owner']['A'])\n"
            "from ragscore.core.scoring import iter_scores; list(iter_scores(c.corpus, c.cases, c.runs))\n"
            "print(sorted(m for m in ('pandas', 'numpy', 'matplotlib', 'ipywidgets')"
            " if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
