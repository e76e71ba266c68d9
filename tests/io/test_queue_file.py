"""The review queue as a file: every exported row accepted back unchanged, a queue edited
out of shape refused with file, line and field (exit 2, nothing stored), the CSV safe to
open in a spreadsheet, a file saved with a byte order mark read, and reviewers' decisions
kept side by side or replaced by their own author, who is told."""
import csv
import io
import json
from pathlib import Path

import pytest

from ragscore.cli import main
from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_folder
from ragscore.folders import load_dataset, save_dataset
from ragscore.io.dataset import Dataset

CORPUS = {"p1": "The mosque was founded in 632 A.D. by the community.",
          "p2": "It was enlarged in 707 A.D.",
          "=HYPERLINK(\"http://x\")": "=HYPERLINK(\"http://evil\",\"click\") and \u202e001$",
          "p4": "Unrelated text."}
ANSWERS = {
    "q1": "It was founded in 632 A.D. [1][2]. It was enlarged later [2].",
    "q2": "Click here =SUM(1) [1]. H.H. Asquith and the M.P. agreed.",
}
DATASET = Dataset(
    ids="open", corpus=CORPUS,
    cases={"q1": {"question": "When was the mosque founded?", "relevant": ()},
           "q2": {"question": "\u202eWhat is this?", "relevant": ()}},
    runs={"q1": {"A": {"retrieved": ("p1", "p2"), "answer": ANSWERS["q1"]}},
          "q2": {"A": {"retrieved": ("=HYPERLINK(\"http://x\")", "p4"),
                       "answer": ANSWERS["q2"]}}})


@pytest.fixture
def folder(tmp_path):
    return str(save_dataset(DATASET, tmp_path / "d"))


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def export(capsys, folder, path, *extra):
    again = ("--overwrite",) if Path(path).exists() else ()  # a queue no one filled in yet
    assert run(capsys, "review", "export", folder, "--out", str(path), *again, *extra)[0] == 0
    if str(path).endswith(".csv"):
        with open(path, newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_csv(path, rows, *, bom=False):
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def decide(row):
    return {"relevance": "1" if row["doc"] in ("p1", "p2") else "0",
            "answerability": "answerable", "support": "supported"}[row["kind"]]


def test_the_splitter_keeps_initials_and_a_marker_run_inside_their_sentence(capsys, folder,
                                                                            tmp_path):
    rows = export(capsys, folder, tmp_path / "q.jsonl")
    claims = [row["claim"] for row in rows if row["kind"] == "support"]
    # "632 A.D. [1][2]." is one claim (no "." fragment with an empty key); "H.H." and "M.P."
    # end no sentence
    assert claims == ["It was founded in 632 A.D. [1][2].", "It was enlarged later [2].",
                      "Click here =SUM(1) [1].", "H.H. Asquith and the M.P. agreed."]
    assert [row["citations"] for row in rows if row["kind"] == "support"] == [
        ["p1", "p2"], ["p2"], ['=HYPERLINK("http://x")'], []]


@pytest.mark.parametrize("name", ["q.csv", "q.jsonl"])
def test_every_exported_row_is_accepted_back_unchanged(capsys, folder, tmp_path, name):
    path = tmp_path / name
    export(capsys, folder, path)
    before = path.read_bytes()
    # nothing decided: every row read, none stored. 10 rows: per question 2 pooled
    # passages, the question, 2 claims
    code, out, err = run(capsys, "review", "import", folder, str(path), "--reviewer", "ana")
    assert (code, err) == (0, "") and "0 judgements added; 10 left to review" in out
    rows = export(capsys, folder, path)
    assert path.read_bytes() == before  # nothing was stored, so the queue is the same
    for row in rows:
        row["decision"] = decide(row)
    if name.endswith(".csv"):
        write_csv(path, rows)
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code, out, err = run(capsys, "review", "import", folder, str(path), "--reviewer", "ana",
                         "--date", "2026-12-04")
    assert (code, err) == (0, "") and out.endswith("10 judgements added\n")
    # the A.D. claim, judged supported, cites p1 and p2 (ranks 1 and 2), the second claim
    # p2: neither is visible at k = 1, both are at k = 2
    counted = count_folder(folder)
    assert counted.values(REGISTRY["support"], 1)[0] == 0.0
    assert counted.values(REGISTRY["support"], 2)[0] == 1.0
    assert export(capsys, folder, tmp_path / "again.jsonl") == []


def test_csv_cells_cannot_run_or_hide_and_ids_read_back_exactly(capsys, folder, tmp_path):
    path = tmp_path / "q.csv"
    export(capsys, folder, path)
    raw = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    header, cells = raw[0], [cell for row in raw[1:] for cell in row]
    # no cell starts a formula; no bidirectional override or control character is passed
    # through: it is shown as an escape
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert not any(ch in cell for cell in cells for ch in "\u202e\u2066\x1b\r")
    questions = {row[header.index("case")]: row[header.index("question")] for row in raw[1:]}
    assert questions["q2"] == "\\u202eWhat is this?"  # U+202E shown, "001$" not "$100"
    texts = [row[header.index("passage")] for row in raw[1:] if row[0] == "relevance"]
    assert "'=HYPERLINK(\"http://evil\",\"click\") and \\u202e001$" in texts
    # the ID that looks like a formula is written as a JSON string and read back as itself
    docs = [row[header.index("doc")] for row in raw[1:] if row[0] == "relevance"]
    assert '"=HYPERLINK(\\"http://x\\")"' in docs
    rows = export(capsys, folder, path)
    for row in rows:
        row["decision"] = decide(row)
    write_csv(path, rows)
    assert run(capsys, "review", "import", folder, str(path), "--reviewer", "ana")[0] == 0
    judged = {record["doc"] for record in load_dataset(folder).judgements
              if record["kind"] == "relevance"}
    assert '=HYPERLINK("http://x")' in judged


@pytest.mark.parametrize("name", ["q.csv", "q.jsonl"])
def test_a_file_saved_with_a_byte_order_mark_reads(capsys, folder, tmp_path, name):
    path = tmp_path / name
    rows = export(capsys, folder, path)
    for row in rows:
        row["decision"] = decide(row)
    if name.endswith(".csv"):
        write_csv(path, rows, bom=True)  # a spreadsheet's "CSV UTF-8"
    else:
        path.write_text("\ufeff" + "".join(json.dumps(row) + "\n" for row in rows),
                        encoding="utf-8")
    code, out, err = run(capsys, "review", "import", folder, str(path), "--reviewer", "ana")
    assert (code, err) == (0, "") and "10 judgements added" in out


def _edited(capsys, folder, tmp_path, edit):
    """Export as JSON Lines, decide every row, apply ``edit(rows)``, import: ``(code,
    err)``, with the folder's index unchanged when refused."""
    path = tmp_path / "q.jsonl"
    rows = export(capsys, folder, path)
    for row in rows:
        row["decision"], row["reviewer"], row["date"] = decide(row), "ana", "2026-12-04"
    rows = edit(rows)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    before = (tmp_path / "d" / "dataset.json").read_bytes()
    code, _, err = run(capsys, "review", "import", folder, str(path))
    if code:
        assert (tmp_path / "d" / "dataset.json").read_bytes() == before
    return code, err


def _support(rows, position=0):
    return [row for row in rows if row["kind"] == "support"][position]


@pytest.mark.parametrize("edit, message", [
    (lambda rows: [dict(_support(rows), case="q2")],
     "q.jsonl, line 1: field 'key': no support item of this test set has case 'q2'"),
    (lambda rows: [dict(_support(rows), case="q9")],
     "q.jsonl, line 1: field 'case': no support item of this test set has case 'q9'"),
    (lambda rows: [dict(_support(rows), key="0000000000000000")],
     "q.jsonl, line 1: field 'key': no support item of this test set has case 'q1' and key "
     "'0000000000000000'"),
    (lambda rows: [dict(_support(rows), citations=["p1"])],
     "q.jsonl, line 1: field 'citations' must be the claim's citations as exported"),
    (lambda rows: [dict(rows[0], doc="p2")],
     "q.jsonl, line 1: field 'doc' must be the passage this key was exported for ('p1')"),
    (lambda rows: [_support(rows), dict(_support(rows), decision="unsupported")],
     "q.jsonl, line 2: field 'key': this item was already decided on line 1 of this file, "
     "another decision (('supported', None) there)"),
    (lambda rows: [_support(rows), _support(rows)],
     "q.jsonl, line 2: field 'key': this item was already decided on line 1 of this file, "
     "the same decision again"),
    (lambda rows: [dict(rows[0], decision="relevant")],
     "q.jsonl, line 1: field 'decision' must be a grade for a relevance row"),
    (lambda rows: [dict(_support(rows), states="founding")],
     "q.jsonl, line 1: field 'states' must name an expected claim of case 'q1' (it has "
     "none); got 'founding'"),
    (lambda rows: [dict(_support(rows), reviewer="")],
     "q.jsonl, line 1: field 'reviewer' is empty"),
])
def test_an_edited_queue_is_refused_with_file_line_and_field(capsys, folder, tmp_path, edit,
                                                             message):
    code, err = _edited(capsys, folder, tmp_path, edit)
    assert code == 2 and message in err, err


def test_a_file_imported_twice_is_refused_the_second_time(capsys, folder, tmp_path):
    assert _edited(capsys, folder, tmp_path, lambda rows: rows) == (0, "")
    path = tmp_path / "q.jsonl"
    before = load_dataset(folder).judgements
    code, _, err = run(capsys, "review", "import", folder, str(path))
    assert code == 2 and "q.jsonl, line 1: this file was already imported" in err
    assert load_dataset(folder).judgements == before


def test_another_reviewer_sits_beside_the_same_one_replaces_and_is_told(capsys, folder,
                                                                       tmp_path):
    assert _edited(capsys, folder, tmp_path, lambda rows: rows) == (0, "")
    # ben judges everything again (export --reviewer ben offers what ben has not judged):
    # one claim decided differently
    path = tmp_path / "ben.jsonl"
    rows = export(capsys, folder, path, "--reviewer", "ben")
    assert len(rows) == 10
    for row in rows:
        row["decision"], row["reviewer"] = decide(row), "ben"
    _support(rows)["decision"] = "unsupported"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    code, out, _ = run(capsys, "review", "import", folder, str(path), "--date", "2026-12-05")
    assert code == 0 and "10 judgements added\n" in out
    # disagreement kept: the claim is unsupported for scoring (not every reviewer said
    # supported), and the audit reports it and the agreement
    assert count_folder(folder).values(REGISTRY["support"], 2)[0] == 0.5
    code, out, _ = run(capsys, "audit", folder)
    assert "Disputed labels (reviewers decided differently): 1" in out
    # 10 items both judged, 9 agreed, each kind on its own (issue 40; pooled, the 10 gave
    # po 9/10, pe 62/100, kappa 0.74). Relevance: 4 passages graded 1 1 0 0 by both: po = 1,
    # pe = (2*2 + 2*2)/16 = 1/2, kappa = 1. Answerability: both answerable twice: po = pe =
    # 1, kappa n/a. Support: 4 claims, ana supported 4, ben 3 (one unsupported): po = 3/4,
    # pe = (4*3 + 0*1)/16 = 3/4, kappa = 0.
    lines = out.splitlines()
    table = lines.index(next(line for line in lines if line.startswith("Agreement ")))
    assert [line.split()[:9] for line in lines[table + 2:table + 5]] == [
        ["relevance", "ana", "ben", "4", "4", "0", "1.00", "0.50", "1.00"],
        ["answerability", "ana", "ben", "2", "2", "0", "1.00", "1.00", "n/a"],
        ["support", "ana", "ben", "4", "3", "1", "0.75", "0.75", "0.00"]]
    # alpha, support: 8 values, supported 7, unsupported 1; observed 2, expected 2*7*1 = 14;
    # alpha = 1 - 7*2/14 = 0
    assert lines[-1].split() == ["support", "nominal", "4", "2", "8", "0.00"]
    # ana changes her mind on that claim: it replaces hers, and the import says so
    path = tmp_path / "ana2.jsonl"
    rows = export(capsys, folder, path, "--reviewer", "ana", "--pool-depth", "0")
    assert rows == []
    row = dict(_support(export(capsys, folder, tmp_path / "all.jsonl", "--reviewer", "cat")),
               decision="unsupported", reviewer="ana", date="2026-12-06")
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "review", "import", folder, str(path))
    assert code == 0 and out.endswith(
        "1 judgement added (1 replaces the same reviewer's earlier decision, kept in the "
        "history)\n")
    assert len(load_dataset(folder).judgements) == 21  # 10 + 10 + 1: nothing removed
    code, out, _ = run(capsys, "audit", folder)
    assert "1 replaced by a later decision of the same reviewer" in out
    assert "Disputed labels (reviewers decided differently): 0" in out
