"""The logic behind the widgets: parsing what a user types, and what the displays show."""
import pytest

import ragscore
from ragscore import InvalidInputError
from ragscore.core.counts import explain_claim
from ragscore.workbook.exercises import check_yourself
from ragscore.workbook.explore import claim_report, claim_report_html, format_claims, \
    parse_claims, parse_ranking, question_table_html, ranking_report_html


def test_parse_and_format_claims_round_trip():
    text = "monday: launch\nbonus: launch, archive\nempty:"
    claims = parse_claims(text)
    assert claims == (("monday", ("launch",)), ("bonus", ("launch", "archive")), ("empty", ()))
    assert parse_claims(format_claims(claims)) == claims
    assert parse_claims("\n\n") == ()


def test_a_line_without_a_colon_names_its_line():
    with pytest.raises(InvalidInputError, match=r"claims line 2 must look like 'claim: "
                                                r"citation, citation'; got 'no colon here'"):
        parse_claims("monday: launch\nno colon here")


def test_parse_ranking_accepts_commas_and_spaces():
    assert parse_ranking("owners, archive") == ("owners", "archive")
    assert parse_ranking(" owners archive ,launch ") == ("owners", "archive", "launch")
    assert parse_ranking("") == ()


@pytest.mark.parametrize("claim, citations, retrieved, expected", [
    ("aurora", ("owners",), ("owners",), (True, "every citation is labelled for it and "
                                                "visible: owners")),
    ("aurora", ("archive",), ("owners", "archive"),
     (False, "cites archive, which is not labelled for aurora")),
    ("aurora", ("owners",), (), (False, "cites owners, which is not in the top 2 retrieved")),
    ("aurora", ("owners",), ("a", "b", "owners"),
     (False, "cites owners, which is not in the top 2 retrieved")),
    ("aurora", (), ("owners",), (False, "has no citation")),
    ("bonus", ("owners",), ("owners",),
     (False, "bonus is not an expected claim for this question")),
])
def test_explain_claim(claim, citations, retrieved, expected):
    assert explain_claim(claim, citations, {"aurora": {"owners"}}, retrieved, k=2) == expected


def test_claim_report_for_launch_b(course):
    scores, explanations = claim_report(course.corpus, course.cases["launch"],
                                        course.runs["launch"]["B"], k=2)
    assert (scores["support"], scores["coverage"]) == (0.5, 1.0)
    assert [(claim, ok) for claim, ok, _ in explanations] == [("monday", True), ("bonus", False)]


def test_claim_report_html_shows_numbers_and_reasons(course):
    page = claim_report_html(course.corpus, course.cases["owner"], course.runs["owner"]["A"], k=2)
    assert '<td data-metric="support">0.00</td>' in page
    assert "cites archive, which is not labelled for aurora" in page
    assert 'data-supported="false"' in page


def test_claim_report_html_shows_errors_instead_of_scores(course):
    bad = {"retrieved": ("owners",), "claims": (("Bad Claim", ()),)}
    page = claim_report_html(course.corpus, course.cases["owner"], bad, k=2)
    assert page.startswith('<p class="ragscore-error"')
    assert "must be a claim ID matching" in page


def test_ranking_report_html(course):
    page = ranking_report_html(course.corpus, course.cases["owner"], ("owners", "archive"), k=2)
    assert '<td data-metric="rr">1.00</td>' in page
    assert '<td data-metric="precision">0.50</td>' in page
    page = ranking_report_html(course.corpus, course.cases["owner"], ("ghost",), k=2)
    assert "must be an ID in the corpus; got &#x27;ghost&#x27;" in page


def test_question_table_html_has_one_row_per_case(course):
    page = question_table_html(course, k=1, system="B")
    assert page.count("<tr data-case=") == 4
    assert ('<tr data-case="rollback"><th>rollback</th><td data-metric="precision">1.00</td>'
            '<td data-metric="recall">0.50</td>') in page
    assert 'data-k="1"' in page and "<th>P@1</th>" in page


def test_check_yourself():
    assert check_yourself(None, 0.5).startswith("Not answered yet")
    assert check_yourself(0.667, 2 / 3) == "Correct."
    assert check_yourself(0.6, 2 / 3).startswith("Not quite")
    assert check_yourself(False, False) == "Correct."
