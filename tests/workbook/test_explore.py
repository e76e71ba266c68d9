"""The logic behind the widgets: parsing what a user types, and what the displays show."""
import pytest

import ragscore
from ragscore import InvalidInputError
from ragscore.core.explain import explain_claim
from ragscore.workbook.explore import claim_report, claim_report_html, claim_rows, \
    format_claims, parse_claims, parse_ranking, question_rows, question_table_html, \
    ranking_report_html, rows_html, sweep_rows


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


def test_question_rows_are_plain_values_labelled_by_the_registry(course):
    rows = question_rows(course, k=2, system="B")
    assert [row["case"] for row in rows] == ["launch", "rollback", "owner", "region"]
    # the workbook's table, launch B and region B at k = 2
    assert rows[0] == {"case": "launch", "P@2": "0.50", "R@2": "1.00", "RR@2": "1.00",
                       "support": "0.50", "coverage": "1.00", "abstention": "n/a"}
    assert rows[3]["abstention"] == "yes" and rows[3]["support"] == "n/a"
    assert list(question_rows(course, k=3, system="A")[0])[1:4] == ["P@3", "R@3", "RR@3"]


def test_sweep_rows_are_the_plotted_means(course):
    from ragscore.reports import sweep

    rows = sweep_rows(sweep(course, max_k=3), metric="recall")
    # A at k = 1: launch 1, rollback 1 of 2, owner 0 (archive first): 1.5 / 3; then 2.5 / 3
    # B at k = 1: launch 1, rollback 1 of 2, owner 1: 2.5 / 3; then 3 / 3
    assert rows == [{"k": 1, "system A": "0.50", "system B": "0.83"},
                    {"k": 2, "system A": "0.83", "system B": "1.00"},
                    {"k": 3, "system A": "0.83", "system B": "1.00"}]


def test_claim_rows_for_launch_b(course):
    rows = claim_rows(course.corpus, course.cases["launch"], course.runs["launch"]["B"], k=2)
    assert [(row["claim"], row["supported"]) for row in rows] == [("monday", "yes"),
                                                                   ("bonus", "no")]
    assert rows[1]["reason"] == "bonus is not an expected claim for this question"


def test_rows_html_escapes_and_marks_na():
    page = rows_html([{"a": "<b>", "b": "n/a"}], caption="c & d")
    assert "&lt;b&gt;" in page and '<td class="na">n/a</td>' in page
    assert "<caption>c &amp; d</caption>" in page


def test_the_delta_plot_is_read_back_as_drawn(course):
    """B against A on support at k = 2, worked by hand: launch 1/1 -> 1/2 (bonus unsupported),
    rollback 1/1 -> 2/2, owner 0/1 -> 1/1, region B declines (n/a). A bar for each change, a
    diamond for no change, no bar for n/a; each beside its label."""
    from ragscore.plots import plot_deltas
    from ragscore.reports import compare, question_table
    from ragscore.workbook.explore import drawn

    changes = compare(question_table(course, k=2), baseline="A", candidate="B")
    ax = plot_deltas(changes, metric="support")
    rows = {row["case"]: (row["drawn as"], row["label"]) for row in drawn(ax)}
    ax.figure.clf()
    assert rows == {"launch": ("bar to -0.50", "-0.50"), "rollback": ("diamond at 0 (no change)",
                                                                      "0.00"),
                    "owner": ("bar to +1.00", "+1.00"), "region": ("no bar (n/a)", "n/a")}


def _shown(markup, *, hide):
    """The text of CommandOutput's HTML with one kind of span left out: ``rs-gap`` as
    JupyterLab shows it, ``rs-brk`` and ``rs-nl`` as present mode shows it."""
    import html as html_module
    import re

    for kind in hide:
        markup = re.sub(rf'<span class="{kind}"[^>]*>.*?</span>', "", markup, flags=re.S)
    return html_module.unescape(re.sub(r"<[^>]+>", "", markup))


def test_command_output_keeps_each_line_whole_under_its_wrap():
    """Lab shows the 80-column wrap; present mode shows the command's own lines (one per
    rs-line, the spaces a break replaced put back), for the browser to wrap once."""
    import re

    from ragscore.workbook.explore import CommandOutput

    text = ("  FAIL  no support regression: 1 of 3 questions fell below the baseline  "
            "(launch: 1.00 -> 0.50), worst first\n\nexit code 1\n" + "   x" * 30)
    shown = CommandOutput(text, width=40)
    markup = shown._repr_html_()
    assert _shown(markup, hide=("rs-gap",)) == shown.text
    lines = re.findall(r'<span class="rs-line"[^>]*>(.*?)</span>(?=<span class="rs-nl">|</pre>)',
                       markup, re.S)
    assert [_shown(line, hide=("rs-brk",)) for line in lines] == text.split("\n")
    assert 'class="rs-line" style="--hang:6ch"' in markup   # two spaces of indent, plus 4
