"""Table cells as HTML: where a cell may wrap and where it may not (workbook/cells.py)."""
from ragscore.workbook.cells import cell_html, header_html, rows_html

NOWRAP = '<span style="white-space:nowrap">'


def test_a_long_name_may_break_after_underscores_and_slashes():
    assert cell_html("test_short_list_keeps_cutoff") == \
        "test_<wbr>short_<wbr>list_<wbr>keeps_<wbr>cutoff"
    assert cell_html("fixtures/course/runs.jsonl") == "fixtures/<wbr>course/<wbr>runs.jsonl"


def test_a_short_name_gets_no_break():
    assert cell_html("slice_mean") == "slice_mean"


def test_n_a_stays_whole_in_a_long_cell():
    """Chapter 4's 'declared as' column broke n/a after its slash (walkthrough on 78eb80e)."""
    text = cell_html("mean over the 3 questions; 1 left out as n/a")
    assert "n/a" in text and "n/<wbr>" not in text


def test_a_hyphenated_name_is_kept_on_one_line():
    """release-notes@0 broke after its hyphen in chapter 10's tables (walkthrough, 95fe99d)."""
    assert cell_html("full: release-notes@0, team-notes@21") == \
        f"full: {NOWRAP}release-notes@0,</span> {NOWRAP}team-notes@21</span>"
    assert cell_html("-0.50") == "-0.50"  # a minus sign is no hyphen inside a word


def test_cells_are_escaped():
    assert cell_html("<b> & y") == "&lt;b&gt; &amp; y"


def test_rows_html_marks_n_a_cells():
    assert rows_html([{"case": "region", "R@2": "n/a"}]) == (
        '<table class="ragscore-table"><tr><th>case</th><th>R@2</th></tr>'
        '<tr><td>region</td><td class="na">n/a</td></tr></table>')


COMPOUND = '<span class="rs-compound" style="white-space:nowrap">'


def test_a_hyphenated_header_is_kept_on_one_line():
    """Kept whole (JupyterLab broke chapter 5's "visible-context" header, b9743d1); its
    hyphen is marked as the place present mode may wrap it on a narrow page."""
    assert rows_html([{"no visible-context check": "no"}]).startswith(
        f'<table class="ragscore-table"><tr><th>no {COMPOUND}visible-<wbr>context</span> '
        'check</th>')


def test_only_a_compound_of_letters_in_a_phrase_may_wrap_at_its_hyphen():
    assert header_html("short-list") == f"{NOWRAP}short-list</span>"      # one word: a name
    assert header_html("cited release-notes@0") == f"cited {NOWRAP}release-notes@0</span>"
    assert header_html("(sign-flip, two-sided)") == (
        f"{COMPOUND}(sign-<wbr>flip,</span> {COMPOUND}two-<wbr>sided)</span>")
    assert header_html("p -0.5") == "p -0.5"
