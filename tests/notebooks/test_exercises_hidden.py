"""No exercise is answered above itself: what a chapter shows before an exercise (its stored
outputs and its prose) never states that exercise's answer.

The answers are worked by hand in tests/workbook/test_exercises.py. For each exercise the
table below says what a giveaway would look like on the page: one line (a sentence of prose,
a line of output, or a table row read as ``header: value | ...``) that names the exercise's
subject and states its answer. Each entry carries a planted line of that kind, and a test
checks that the planted line is caught, so no entry can pass by never matching anything.
"""
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

from ragscore.workbook.exercises import EXERCISES

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: exercise -> (subject patterns, all in one line; answer patterns, any; a planted giveaway)
GIVEAWAYS = {
    "01.1": ([r"expect"], [r"\b(4|four) (expected )?claims", r"expect\w* (4|four)\b"],
             "The reviewer expects 4 claims in all."),
    "01.2": ([r"\bruns?\b", r"cit|label"], [r"\b3\b", r"\bthree\b"],
             "Three runs cite a note not labelled for their claim."),
    "01.3": ([r"cit", r"unknown|not in the corpus|no-such-note|does not exist"],
             [r"accepted", r"valid input", r"not refused", r"unsupported"],
             "A citation to an unknown note is valid input."),
    "02.1": ([r"rollback", r"\bB\b", r"P@3"], [r"0\.67", r"2/3"],
             "case: rollback | system: B | P@3: 0.67"),
    "02.2": ([r"RR@3"], [r"0\.42", r"5/12"], "mean RR@3 over owner and launch: 0.42"),
    "02.3": ([r"P@1", r"mean|average"], [r"0\.67", r"2/3"], "A's mean P@1 is 2/3."),
    "03.1": ([r"launch", r"support"], [r"0\.33", r"1/3"],
             "case: launch | answer: B with switch | support: 0.33"),
    "03.2": ([r"\bB\b", r"k = 1|@1|k=1", r"supported"], [r"\b3\b", r"\bthree\b"],
             "At k = 1, B makes three supported claims."),
    "03.3": ([r"archive", r"\bB\b|B's"], [r"\bnone\b", r"\b(0|zero) (of|claims?)\b",
                                         r"no claim"],
             "With archive added to each citation, none of B's claims is supported."),
    "04.1": ([r"pooled|summed", r"recall|relevant"], [r"0\.75", r"3/4", r"3 hits of 4"],
             "system: A | value: 0.75 | declared as: 3 hits of 4 relevant documents, summed"),
    "04.2": ([r"k = 1|@1|k=1", r"regress"], [r"\b2\b", r"\btwo\b"],
             "At k = 1 B regresses on two pairs."),
    "04.3": ([r"k = 1|@1|k=1", r"pooled"], [r"0\.60?\b", r"3/5", r"3 of 5"],
             "At k = 1, B's pooled support is 3 of 5 claims."),
    "04.4": ([r"coverage", r"mean|macro", r"\bA\b"], [r"0\.50", r"1/2"],
             "A's macro mean coverage is 0.50."),
    "05.1": ([r"rollback", r"support", r"defect|any citation"], [r"0\.33", r"1/3", r"1 of 3"],
             "Under the any-citation defect the three-claim rollback answer's support is 1/3."),
    "05.2": ([r"P@2", r"first note|cut|kept", r"defect|short-list"], [r"0\.83", r"5/6"],
             "With the short-list defect and first notes only, the mean P@2 is 0.83."),
    "05.3": ([r"coverage", r"k = 1|@1|k=1", r"defect|visible"], [r"0\.75", r"3/4"],
             "Without the visible-context check the mean coverage at k = 1 is 0.75."),
    "06.1": ([r"corpus_sha256|corpus hash"], [r"changed: yes", r"corpus hash changes",
                                                r"corpus_sha256 changes"],
             "hash: corpus_sha256 | changed: yes"),
    "06.2": ([r"ctx differs@1|k = 1"], [r"\b4\b", r"\bfour\b"],
             "At k = 1, ctx differs@1 says yes for 4 records."),
    "06.3": ([r"\bB\b|B's", r"fail"], [r"\b(2|two) (of the five )?rules\b",
                                      r"fails? (2|two)\b"],
             "With no unsupported claim allowed, B fails 2 rules."),
    "07.1": ([r"nDCG@1"], [r"0\.50", r"1/2"], "case: q2 | system: dense | nDCG@1: 0.50"),
    "07.2": ([r"dense", r"mean", r"recip_rank|RR at full depth|RR@1000"],
             [r"0\.50", r"1/2"], "system: dense | value: 0.50 | how: mean RR@1000 over all 3"),
    "08.1": ([r"\brerank\b(?!-)", r"disclos"], [r"\b8\b", r"\beight\b"],
             "rerank makes 8 disclosures in all."),
    "08.2": ([r"\bdev\b", r"improv"], [r"\b4\b", r"\bfour\b"],
             "On the dev questions rerank improves 4."),
    "08.3": ([r"kappa"], [r"0\.75", r"3/4"], "With 7 agreements on the claims kappa would be 0.75."),
    "09.1": ([r"queue|judged|decision|entr"], [r"\b13\b", r"\bthirteen\b"],
             "The review queue would hold 13 entries."),
    "09.2": ([r"draft", r"pooled|support"], [r"0\.40?\b", r"2/5", r"2 of 5"],
             "draft's pooled support is 2 of 5 claims."),
    "09.3": ([r"terse", r"coverage"], [r"\b0\.75\b", r"\b3/4\b", r"\b3 of 4\b"],
             "Split in two, terse's pooled coverage would be 3 of 4."),
    "10.1": ([r"partial", r"pair"], [r"\b4\b", r"\bfour\b"],
             "On that chunking there are 4 partial (claim, chunk) pairs."),
    "10.2": ([r"k = 3|@3", r"supported"], [r"\b2\b", r"\btwo\b"],
             "At k = 3 two of the five lists are supported."),
    "10.3": ([r"moved"], [r"\b2\b", r"\btwo\b"],
             "The other edit leaves two labels moved."),
    "11.1": ([r"draft", r"partial", r"\bA\b|nugget_all"], [r"0\.50?\b", r"1/2", r"1\.5 ?/ ?3"],
             "With order partial, draft's A would be 0.50."),
    "11.2": ([r"terse", r"W|raise|change"], [r"\bcite\b.*(most|best|0\.6[23])",
                                             r"(most|best).*\bcite\b"],
             "Of the three changes, cite raises terse's W the most."),
    "11.3": ([r"smoke", r"vital", r"\bW\b"], [r"0\.60?\b", r"3/5", r"1\.5 ?/ ?2\.5"],
             "With smoke vital, draft's W would be 0.60."),
}


class _Rows(HTMLParser):
    """Table rows as ``header: value | ...`` lines, and any other text as lines."""

    def __init__(self):
        super().__init__()
        self.lines, self.headers, self.cells, self.text, self.in_cell = [], [], [], [], False
        self.glued = False

    def handle_starttag(self, tag, attrs):
        if tag == "wbr":         # a place a long name may break: no space in the text
            self.glued = True
        elif tag in ("td", "th"):
            self.in_cell, self.text = True, []
        elif tag == "tr":
            self.cells = []
        elif tag == "table":
            self.headers = []

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.cells.append(("th" if tag == "th" else "td", " ".join(self.text).strip()))
            self.in_cell = False
        elif tag == "tr":
            if all(kind == "th" for kind, _ in self.cells) and not self.headers:
                self.headers = [value for _, value in self.cells]
            else:
                names = self.headers or [""] * len(self.cells)
                self.lines.append(" | ".join(f"{name}: {value}" for name, (_, value)
                                             in zip(names, self.cells)))

    def handle_data(self, data):
        if self.in_cell and self.glued and self.text:
            self.text[-1] += data.strip()
            self.glued = False
        elif self.in_cell:
            self.text.append(data.strip())
        elif data.strip():
            self.lines.extend(line for line in data.splitlines() if line.strip())


def output_lines(output):
    """The lines a learner reads in one stored output."""
    data = output.get("data", {})
    if "text/html" in data and "<table" in data["text/html"]:
        parser = _Rows()
        parser.feed(data["text/html"])
        return parser.lines
    text = output.get("text") or data.get("text/plain", "")
    return text.splitlines()


def prose_lines(source):
    """A markdown cell's sentences (its lines joined, then split after . ! ? :)."""
    text = " ".join(line.strip() for line in source.splitlines())
    return [part for part in re.split(r"(?<=[.!?:;])\s+", text) if part]


def lines_above(cells, exercise):
    """Every line shown above the cell that checks ``exercise``."""
    lines = []
    for cell in cells:
        if cell.cell_type == "code" and f'check("{exercise}"' in cell.source:
            return lines
        if cell.cell_type == "markdown":
            lines += prose_lines(cell.source)
        else:
            for output in cell.get("outputs", []):
                lines += output_lines(output)
    raise AssertionError(f"no cell checks {exercise}")


def giveaways(lines, exercise):
    subjects, answers, _ = GIVEAWAYS[exercise]
    return [line for line in lines
            if all(re.search(pattern, line) for pattern in subjects)
            and any(re.search(pattern, line, re.IGNORECASE) for pattern in answers)]


def _notebook(exercise):
    return nbformat.read(next(NOTEBOOKS.glob(f"{exercise[:2]}_*.ipynb")), as_version=4)


def test_every_exercise_has_its_giveaway_patterns():
    assert sorted(GIVEAWAYS) == sorted(EXERCISES)


@pytest.mark.parametrize("exercise", sorted(GIVEAWAYS))
def test_a_planted_giveaway_is_caught(exercise):
    assert giveaways([GIVEAWAYS[exercise][2]], exercise)


@pytest.mark.parametrize("exercise", sorted(GIVEAWAYS))
def test_nothing_above_an_exercise_states_its_answer(exercise):
    found = giveaways(lines_above(_notebook(exercise).cells, exercise), exercise)
    assert not found, found


def test_a_giveaway_planted_in_a_stored_table_fails_the_check():
    """The whole path, from a stored HTML table to a failure: chapter 2 with a table showing
    rollback B at k = 3 inserted just before its exercises."""
    from ragscore.workbook.explore import Table

    notebook = _notebook("02.1")
    shown = Table([{"case": "rollback", "system": "B", "P@3": "0.67", "R@3": "1.00"}])
    planted = nbformat.v4.new_code_cell("Table(...)", outputs=[nbformat.v4.new_output(
        "execute_result", data={"text/html": shown._repr_html_(), "text/plain": repr(shown)},
        execution_count=1)])
    index = next(i for i, cell in enumerate(notebook.cells) if "## Exercises" in cell.source)
    notebook.cells.insert(index, planted)
    assert giveaways(lines_above(notebook.cells, "02.1"), "02.1") == [
        "case: rollback | system: B | P@3: 0.67 | R@3: 1.00"]
    assert not giveaways(lines_above(_notebook("02.1").cells, "02.1"), "02.1")


def test_a_giveaway_planted_in_prose_fails_the_check():
    notebook = _notebook("06.3")
    index = next(i for i, cell in enumerate(notebook.cells) if "## Exercises" in cell.source)
    notebook.cells.insert(index, nbformat.v4.new_markdown_cell(
        "With no unsupported claim allowed\nB fails two rules."))
    assert giveaways(lines_above(notebook.cells, "06.3"), "06.3")


def test_a_name_that_may_break_is_read_whole():
    """Table cells may break a long name after ``_`` (``<wbr>``); the reader joins it back,
    so a giveaway written with underscores is still caught."""
    from ragscore.workbook.explore import Table

    shown = Table([{"hash": "corpus_sha256 of every note", "changed": "yes"}])._repr_html_()
    assert "<wbr>" in shown
    parser = _Rows()
    parser.feed(shown)
    assert "hash: corpus_sha256 of every note | changed: yes" in parser.lines
    assert giveaways(parser.lines, "06.1")
