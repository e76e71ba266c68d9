"""Output formats, each parsed back: n/a is never written as 0."""
import csv
import io
import json
from html.parser import HTMLParser

import pytest

from ragscore import CONTRACT as METRICS
from ragscore import InvalidInputError
from ragscore.reports import question_table, render


@pytest.fixture
def table(course):
    return question_table(course, k=2)


# ---- formats, each parsed back ------------------------------------------------------------

def test_csv_parses_back_with_na_as_empty(table):
    rows = list(csv.DictReader(io.StringIO(render(table, k=2, fmt="csv"))))
    assert len(rows) == 8
    region_a = rows[6]
    assert (region_a["case"], region_a["system"]) == ("region", "A")
    assert region_a["precision"] == "" and region_a["support"] == "0.0"
    assert region_a["abstention_correct"] == "false" and rows[7]["abstention_correct"] == "true"
    assert float(rows[1]["support"]) == 0.5


def test_json_parses_back_with_na_as_null(table):
    data = json.loads(render(table, k=2, fmt="json"))
    assert data["k"] == 2 and data["metrics"] == list(METRICS)
    region_b = data["rows"][7]
    assert region_b == {"case": "region", "system": "B", "precision": None, "recall": None,
                        "rr": None, "support": None, "coverage": None,
                        "abstention_correct": True}
    assert data["rows"][6]["support"] == 0.0 and data["rows"][6]["abstention_correct"] is False


def test_markdown_has_a_header_and_eight_rows(table):
    lines = render(table, k=2, fmt="markdown").splitlines()
    assert lines[0] == "| case | system | P@2 | R@2 | RR@2 | support | coverage | abstention |"
    assert lines[2] == "| launch | A | 0.50 | 1.00 | 1.00 | 1.00 | 1.00 | n/a |"
    assert lines[9] == "| region | B | n/a | n/a | n/a | n/a | n/a | yes |"
    assert len(lines) == 10


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.na_cells = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        if tag == "td" and ("class", "na") in attrs:
            self.na_cells += 1

    def handle_data(self, data):
        if self.rows and data.strip():
            self.rows[-1].append(data.strip())


def test_html_parses_back(table):
    parser = _Cells()
    parser.feed(render(table, k=2, fmt="html"))
    assert parser.rows[0] == ["case", "system", "P@2", "R@2", "RR@2", "support", "coverage",
                              "abstention"]
    assert parser.rows[7] == ["region", "A", "n/a", "n/a", "n/a", "0.00", "n/a", "no"]
    assert parser.na_cells == 6 + 4 + 5  # answerable abstention, region A, region B


def test_text_format_is_the_demo_layout(table):
    assert render(table, k=2, fmt="text").splitlines()[5] == \
        "owner A | 0.50 1.00 0.50 0.00 0.00 n/a"


def test_unknown_format_is_refused(table):
    with pytest.raises(InvalidInputError, match=r"fmt must be one of text, markdown, csv, "
                                                r"html, json; got 'xml'"):
        render(table, k=2, fmt="xml")
