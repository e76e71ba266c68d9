"""Escaping what comes from input (ragscore.render.escape) and its use in every text,
Markdown and CSV output: no value breaks a line or a table row, no CSV cell runs as a
formula, numbers stay numbers."""
import csv
import io

import pytest

from ragscore.cli import capture
from ragscore.io.course import load_course
from ragscore.folders import save_dataset
from ragscore.render import escape

# open IDs may hold '|', '=', '+', '-', '@' and bidi controls (never C0/C1 controls)
PIPE, FORMULA, PLUS, BIDI = "a|b", '=HYPERLINK("http://x","y")', "+SUM(1)", "evil\u202etxt"


@pytest.mark.parametrize("value, expected", [
    ("rule\nverdict: PASS", "rule\\nverdict: PASS"),
    ("a\rb\tc", "a\\rb\\tc"),
    ("\x1b[2J", "\\x1b[2J"),
    ("x\u2028y\u0085z", "x\\u2028y\\x85z"),
    (BIDI, "evil\\u202etxt"),
    ("launch", "launch"),
    (0.5, "0.5"),
])
def test_text_keeps_a_value_on_one_line(value, expected):
    assert escape.text(value) == expected


def test_markdown_cell_escapes_pipes_and_backslashes():
    assert escape.markdown_cell("a|b\\|c\nd") == "a\\|b\\\\\\|c\\\\nd"


@pytest.mark.parametrize("value, expected", [
    (FORMULA, "'" + FORMULA), (PLUS, "'+SUM(1)"), ("-2+3", "'-2+3"), ("@SUM(1)", "'@SUM(1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("launch", "launch"), ("a=b", "a=b"),
    (-0.5, -0.5), (3, 3), (True, True), (None, None),
])
def test_csv_cell_neutralises_formulas_and_keeps_numbers(value, expected):
    assert escape.csv_cell(value) == expected


def test_html_escapes_markup_and_quotes():
    assert escape.html("<a href='x'>&\"</a>") == ("&lt;a href=&#x27;x&#x27;&gt;&amp;&quot;"
                                                   "&lt;/a&gt;")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The course with open IDs: launch renamed 'a|b', owner a name with a right-to-left
    override, B a formula, A '+SUM(1)'; launch tagged '=cmd()|x' and 'multi\\nline'."""
    course = load_course()
    names = {"launch": PIPE, "owner": BIDI}
    cases = {names.get(name, name): dict(case, tags=("=cmd()|x", "multi\nline"))
             if name == "launch" else case for name, case in course.cases.items()}
    systems = {"A": PLUS, "B": FORMULA}
    runs = {names.get(name, name): {systems[s]: run for s, run in by.items()}
            for name, by in course.runs.items()}
    folder = tmp_path_factory.mktemp("hostile") / "set"
    save_dataset(course._replace(cases=cases, runs=runs, ids="open"), folder)
    return str(folder)


def test_markdown_report_rows_keep_their_cells(hostile):
    code, out, _ = capture(["report", hostile, "--format", "markdown"])
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    header_cells = rows[0].count(" | ")
    # every row has as many unescaped cell separators as the header
    assert all(row.replace("\\|", "").count(" | ") == header_cells for row in rows)
    assert f"| a\\|b | {FORMULA} |" in out  # Markdown does not run formulas


def test_csv_report_neutralises_formula_names_and_keeps_numbers(hostile):
    code, out, _ = capture(["report", hostile, "--format", "csv"])
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    systems = {row[1] for row in rows[1:]}
    assert systems == {"'" + FORMULA, "'" + PLUS}
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row[:2])
    launch_b = next(row for row in rows if row[:2] == [PIPE, "'" + FORMULA])
    assert launch_b[2] == "0.5"  # P@2 of B on launch: 1 relevant of 2 retrieved, a number


@pytest.mark.parametrize("fmt", ["csv", "markdown", "text"])
def test_slices_by_a_hostile_tag_stay_in_their_cells(hostile, fmt):
    code, out, _ = capture(["report", hostile, "--format", fmt, "--by", "tag"])
    assert code == 0
    if fmt == "csv":
        cells = [cell for row in csv.reader(io.StringIO(out)) for cell in row]
        assert "'=cmd()|x" in cells and "=cmd()|x" not in cells
        assert "'" + PLUS in cells and "0.5" in cells  # numbers stay numbers
        assert "multi\nline" in cells  # CSV keeps the value exact, quoted (RFC 4180)
        return
    assert "multi\nline" not in out
    if fmt == "markdown":
        rows = [line for line in out.splitlines() if line.startswith("| ")]
        assert all(row.replace("\\|", "").count(" | ") == rows[0].count(" | ")
                   for row in rows)
        assert "=cmd()\\|x" in out and "multi\\\\nline" in out
    else:
        assert "multi\\nline" in out


def test_text_report_compare_and_audit_keep_each_name_on_its_line(hostile):
    for argv in (["report", hostile], ["compare", hostile, "--baseline", PLUS, "--candidate",
                                       FORMULA], ["audit", hostile]):
        code, out, _ = capture(argv)
        assert code == 0 and "\u202e" not in out and "evil\\u202etxt" in out, argv
