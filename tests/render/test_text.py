"""The formatter: n/a, yes, no and two decimals, for plain values and pandas' NA."""
import pandas as pd
import pytest

from ragscore.render.text import format_delta, format_value, text_header, text_row, text_table


@pytest.mark.parametrize("value, text", [
    (None, "n/a"), (pd.NA, "n/a"), (float("nan"), "n/a"), (True, "yes"), (False, "no"),
    (0.5, "0.50"), (1.0, "1.00"), (1, "1"), (0.0, "0.00"), (2 / 3, "0.67"),
    # a half rounds away from zero, read from the shortest decimal that names the float:
    # 1/8 = 0.125 -> 0.13 and 5/8 = 0.625 -> 0.63 (Python's f"{x:.2f}" gives 0.12 and 0.62);
    # 0.285 is stored as 0.28499999999999998 but shown 0.29, as a person rounds 0.285
    (0.125, "0.13"), (5 / 8, "0.63"), (0.285, "0.29"), (0.005, "0.01"), (0.00499, "0.00"),
])
def test_format_value(value, text):
    assert format_value(value) == text


@pytest.mark.parametrize("value, text", [
    (0.125, "+0.13"), (-0.125, "-0.13"), (-0.375, "-0.38"), (0.0, "+0.00"), (None, "n/a")])
def test_format_delta_rounds_a_half_away_from_zero(value, text):
    assert format_delta(value) == text


def test_zero_and_missing_look_different():
    assert format_value(0.0) != format_value(None)


def test_header_follows_k():
    assert text_header(5) == "case system | P@5 R@5 RR@5 support coverage abstention"


def test_text_table_lines():
    scores = {"precision": 0.5, "recall": 1.0, "rr": 0.5, "support": 0.0, "coverage": 0.0,
              "abstention_correct": None}
    assert text_row("owner", "A", scores) == "owner A | 0.50 1.00 0.50 0.00 0.00 n/a"
    assert text_table([("owner", "A", scores)], k=2).splitlines() == [
        "case system | P@2 R@2 RR@2 support coverage abstention",
        "owner A | 0.50 1.00 0.50 0.00 0.00 n/a"]
