"""Every CSV the package writes escapes what could harm a reader as the reports do
(ragscore.render.escape.csv_cell): no cell a spreadsheet runs as a formula (=, +, -, @, tab,
carriage return), no raw control or bidirectional character (U+202E would reorder what a
reader sees). One dataset whose every name is hostile goes through every command that
writes CSV; a scan of the package's source finds every CSV writer, so that a new one fails
here until it is covered."""
import ast
import csv
import io
import json
import re
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import capture

PACKAGE = Path(ragscore.__file__).parent
#: Every function of the package that makes a csv writer, by module and function: each is
#: reached by a command below (the comment says which).
WRITERS = {
    ("render/formats.py", "csv_text"),         # report --format csv
    ("render/formats.py", "_csv_frame"),       # compare --format csv, audit tables
    ("render/measured.py", "measures_csv"),    # report/eval --measures --format csv
    ("render/measured.py", "compared_csv"),    # compare --measures --format csv
    ("render/columns.py", "_csv_field"),       # the fields of measures_csv, column by column
    ("render/queue.py", "write_queue"),        # review export --format csv
    ("render/spans.py", "labels_csv"),         # labels --format csv
    ("render/claims.py", "claims_csv"),        # claims --format csv
}
FORMULA = ("=", "+", "-", "@", "\t", "\r")
UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                    "\u202a-\u202e\u2066-\u2069]")


def _csv_writers():
    """``{(module, function)}`` of every function in the package that calls
    ``csv.writer`` or ``csv.DictWriter``."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("writer", "DictWriter")
                        and isinstance(node.func.value, ast.Name)
                        and node.func.value.id == "csv"):
                    found.add((path.relative_to(PACKAGE).as_posix(), function.name))
    return found


def test_every_csv_writer_of_the_package_is_covered_here():
    assert _csv_writers() == WRITERS


HOSTILE_CASE = '=HYPERLINK("http://example.invalid","open")'
HOSTILE_SYSTEM = "+SUM(1,2)"
HOSTILE_OTHER = "sys\u202eB"
HOSTILE_DOC = "@cmd"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    dataset = ragscore.Dataset(
        corpus={HOSTILE_DOC: "The window opens on Monday.", "-d2": "An old note."},
        cases={HOSTILE_CASE: {"question": "=1+1?", "relevant": {HOSTILE_DOC: 1}}},
        runs={HOSTILE_CASE: {
            HOSTILE_SYSTEM: {"retrieved": (HOSTILE_DOC, "-d2"),
                             "answer": '=HYPERLINK("x") opens \u202eMonday [1]. +SUM(1,2) '
                                       "too [2]."},
            HOSTILE_OTHER: {"retrieved": ("-d2", HOSTILE_DOC), "answer": "@cmd [1]."}}},
        ids="open")
    folder = ragscore.save_dataset(dataset, root / "data")
    qrels, run = root / "qrels", root / "run"
    qrels.write_text(f"{HOSTILE_CASE} 0 {HOSTILE_DOC} 1\n", encoding="utf-8")
    run.write_text(f"{HOSTILE_CASE} Q0 {HOSTILE_DOC} 1 2.0 {HOSTILE_SYSTEM}\n"
                   f"{HOSTILE_CASE} Q0 -d2 2 1.0 {HOSTILE_SYSTEM}\n", encoding="utf-8")
    spans = _hostile_spans(root)
    return {"folder": str(folder), "qrels": str(qrels), "run": str(run), "spans": spans}


def _hostile_spans(root):
    """A span test set whose question and chunk IDs are formulas."""
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "spans"
    questions = [json.loads(line) for line in (fixtures / "questions.jsonl").open()]
    chunks = [json.loads(line) for line in (fixtures / "chunks-sentences.jsonl").open()]
    for question in questions:
        question["id"] = "=" + question["id"]
    for chunk in chunks:
        chunk["id"] = "@" + chunk["id"]
    for name, rows in (("questions.jsonl", questions), ("chunks.jsonl", chunks)):
        (root / name).write_text("".join(json.dumps(row) + "\n" for row in rows))
    code, _, err = capture(["import", "spans", "--documents", str(fixtures / "documents.jsonl"),
                            "--questions", str(root / "questions.jsonl"), "--chunks",
                            str(root / "chunks.jsonl"), "--reviewer", "ana", "--date",
                            "2026-01-02", "--out", str(root / "spans")])
    assert code == 0, err
    return str(root / "spans")


COMMANDS = {
    "report": ["report", "{folder}", "--format", "csv"],
    "report --measures": ["report", "{folder}", "--measures", "P@2 RR", "--format", "csv"],
    "compare": ["compare", "{folder}", "--baseline", HOSTILE_SYSTEM, "--candidate",
                HOSTILE_OTHER, "--format", "csv"],
    "compare --measures": ["compare", "{folder}", "--baseline", HOSTILE_SYSTEM,
                           "--candidate", HOSTILE_OTHER, "--measures", "P@2 RR",
                           "--format", "csv"],
    "eval": ["eval", "{qrels}", "{run}", "-q", "--format", "csv"],
    "claims": ["claims", "{folder}", "--format", "csv"],
    "review export": ["review", "export", "{folder}", "--format", "csv"],
    "labels": ["labels", "{spans}", "--format", "csv"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_csv_output_escapes_formulas_and_controls(hostile, name):
    argv = [part.format(**hostile) if part.startswith("{") else part
            for part in COMMANDS[name]]
    code, out, err = capture(argv)
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    cells = [cell for row in rows[1:] for cell in row]
    assert len(rows) > 1
    for cell in cells:
        assert not UNSAFE.search(cell), (name, cell)
        if cell.startswith(FORMULA):
            float(cell)  # only a number may start so (-0.5)
    escaped = [cell for cell in cells if cell.startswith("'") or "\\u202e" in cell]
    assert escaped, f"{name}: no hostile value reached the output"


def test_the_claims_csv_keeps_each_value_readable(hostile):
    code, out, _ = capture(["claims", hostile["folder"], "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    claims = {row["claim"] for row in rows}
    assert "'=HYPERLINK(\"x\") opens \\u202eMonday [1]." in claims
    assert {row["system"] for row in rows} == {"'+SUM(1,2)", "sys\\u202eB"}
