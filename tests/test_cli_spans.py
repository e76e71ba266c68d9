"""The span commands as a user types them: import spans, labels (text, json, csv), rechunk with
its report, labels anchor, and compare, gate and html across two chunkings of one span test
set (paired by question, refused when the test sets differ). Values worked by hand."""
import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from ragscore.cli import main

SPANS = Path(__file__).resolve().parent.parent / "fixtures" / "spans"
POLICIES = Path(__file__).resolve().parent.parent / "fixtures" / "policies"


def run(capsys, *argv):
    code = main([str(item) for item in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def imported(folder, name, chunks, runs):
    from ragscore.cli import capture

    code, out, err = capture(["import", "spans", "--documents", str(SPANS / "documents.jsonl"),
                              "--questions", str(SPANS / "questions.jsonl"), "--chunks",
                              str(SPANS / chunks), "--runs", str(SPANS / runs), "--reviewer",
                              "ana", "--date", "2026-12-04", "--out", str(folder / name)])
    assert code == 0, err
    return folder / name, out


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """The course as a span test set on its sentences and on its whole notes, imported once
    (the tests read them and write elsewhere)."""
    folder = tmp_path_factory.mktemp("spans")
    sentences, out = imported(folder, "sentences", "chunks-sentences.jsonl",
                              "runs-sentences.jsonl")
    assert out.splitlines()[0] == (f"wrote {sentences}: 5 chunks of 2 documents, 4 questions, "
                                   "8 runs of 2 systems (A, B)")
    assert "  labels: span-relevance 4, evidence 4, answerability 4" in out.splitlines()
    notes, _ = imported(folder, "notes", "chunks-notes.jsonl", "runs-notes.jsonl")
    return sentences, notes


def test_labels_prints_the_derived_chunk_labels(folders, capsys):
    _, notes = folders
    code, out, _ = run(capsys, "labels", notes)
    assert code == 0
    lines = out.splitlines()
    assert lines[1:9] == ["launch: relevant release-notes (1)",
                          "  claim monday: full release-notes; partial none",
                          "rollback: relevant release-notes (1)",
                          "  claim switch: full release-notes; partial none",
                          "  claim smoke: full release-notes; partial none",
                          "owner: relevant team-notes (1)",
                          "  claim aurora: full team-notes; partial none",
                          "region: relevant none"]
    assert lines[-1].startswith("Span labels: 8; kept 8, moved 0, orphaned 0, ambiguous 0, "
                                "in no chunk 0: 0 lost")
    code, out, _ = run(capsys, "labels", notes, "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["case", "kind", "claim", "chunk", "grade"]
    assert ["rollback", "full", "smoke", "release-notes", ""] in rows
    assert len(rows) == 1 + 3 + 4  # three relevant rows (launch, rollback, owner), 4 claims
    code, out, _ = run(capsys, "labels", notes, "--format", "json")
    found = json.loads(out)
    assert found["cases"][0] == {"case": "launch", "question": "When does the release window "
                                 "start?", "relevant": {"release-notes": 1},
                                 "claims": {"monday": {"full": ["release-notes"],
                                                       "partial": []}}}
    assert found["counts"]["kept"] == 8 and found["lost"] == 0


def test_labels_refuses_a_folder_that_is_not_a_span_test_set(capsys):
    code, _, err = run(capsys, "labels", "fixtures/course")
    assert code == 2
    assert "not a span test set (it holds no source documents)" in err


def test_compare_pairs_two_chunkings_by_question(folders, capsys):
    """Whole notes against sentences, system A, k=2. By hand: owner's claim cites archive,
    a sentence without its evidence (support 0), but team-notes holds it whole (support 1);
    rollback's ranking (rollback) reaches one of two relevant sentences (R@2 = 1/2) but the
    one relevant note (1/1); owner's RR goes from 1/2 (owners second) to 1."""
    sentences, notes = folders
    code, out, err = run(capsys, "compare", "--baseline", f"{sentences}:A", "--candidate",
                         f"{notes}:A")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (f"{notes}:A (candidate) against {sentences}:A (baseline) at k=2, 4 "
                        "questions: 4 improved, 20 unchanged")
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in lines[2:6]}
    assert rows[("owner", "support")] == ["0.0000", "1.0000", "+1.0000", "improved"]
    assert rows[("rollback", "recall")] == ["0.5000", "1.0000", "+0.5000", "improved"]
    assert rows[("owner", "rr")] == ["0.5000", "1.0000", "+0.5000", "improved"]
    code, out, _ = run(capsys, "compare", "--baseline", f"{sentences}:A", "--candidate",
                       f"{notes}:A", "--format", "json")
    assert code == 0
    assert len(json.loads(out)) == 4 * 6  # every question and metric, paired


def test_compare_refuses_two_different_span_test_sets(folders, tmp_path, capsys):
    sentences, notes = folders
    edited = tmp_path / "edited-documents.jsonl"
    lines = (SPANS / "documents.jsonl").read_text().splitlines()
    edited.write_text(lines[0] + "\n" + lines[1].replace("Aurora", "Borealis") + "\n")
    code, out, err = run(capsys, "rechunk", notes, "--chunks", SPANS / "chunks-notes.jsonl",
                         "--documents", edited, "--out", tmp_path / "edited",
                         "--report", tmp_path / "report.json")
    assert code == 0, err
    assert "orphaned 2" in out
    for command in (["compare"], ["gate", "--policy", POLICIES / "course.toml"],
                    ["html", "--out", tmp_path / "page.html"]):
        code, _, err = run(capsys, *command, "--baseline", f"{notes}:A", "--candidate",
                           f"{tmp_path / 'edited'}:A")
        assert code == 2, command
        assert "the two folders hold different span test sets" in err
    assert not (tmp_path / "page.html").exists()


def test_compare_across_a_document_edit_when_allowed(folders, tmp_path, capsys):
    """Issue 41's seam: on 1dd5f70, --allow-mismatch did not let two chunkings of a span test
    set before and after a document edit be compared; now the comparison runs and says so
    first."""
    sentences, notes = folders
    edited = tmp_path / "edited-documents.jsonl"
    lines = (SPANS / "documents.jsonl").read_text().splitlines()
    edited.write_text(lines[0] + "\n" + lines[1].replace("Aurora", "Borealis") + "\n")
    code, _, err = run(capsys, "rechunk", notes, "--chunks", SPANS / "chunks-notes.jsonl",
                       "--documents", edited, "--out", tmp_path / "edited",
                       "--report", tmp_path / "report.json")
    assert code == 0, err
    code, out, err = run(capsys, "compare", "--baseline", f"{notes}:A", "--candidate",
                         f"{tmp_path / 'edited'}:A", "--allow-mismatch")
    assert code == 0, err
    assert out.splitlines()[0].startswith("WARNING: --allow-mismatch: the two folders hold "
                                          "different span test sets")


@pytest.mark.parametrize("baseline, candidate, message", [
    ("nowhere:A", "{notes}:A", "--baseline must be DIR:SYSTEM (a dataset folder, a colon and "
                               "a system of it) when no DATASET is given; got 'nowhere:A'"),
    ("{sentences}:Z", "{notes}:A", "system 'Z' has no runs in"),
    ("fixtures/course:A", "{notes}:A", "is not a span test set"),
    ("{notes}:A", "{notes}:A", "--baseline and --candidate must differ"),
])
def test_compare_across_folders_names_what_is_wrong(folders, capsys, baseline, candidate,
                                                    message):
    sentences, notes = folders
    code, _, err = run(capsys, "compare", "--baseline",
                       baseline.format(sentences=sentences, notes=notes), "--candidate",
                       candidate.format(sentences=sentences, notes=notes))
    assert code == 2
    assert message in err


def test_gate_and_html_across_two_chunkings(folders, tmp_path, capsys):
    sentences, notes = folders
    policy = tmp_path / "policy.toml"
    policy.write_text('k = 2\n[[rule]]\nname = "no support regression"\nmetric = "support"\n'
                      'check = "no_regression"\ntolerance = 0.0\n')
    code, out, err = run(capsys, "gate", "--policy", policy, "--baseline", f"{notes}:A",
                         "--candidate", f"{sentences}:A")
    assert code == 1, err  # owner's support falls from 1 (whole notes) to 0 (sentences)
    assert "1 of 4 questions fell below the baseline's support" in out
    assert "owner: 0" in out
    code, out, err = run(capsys, "gate", "--policy", policy, "--baseline", f"{sentences}:A",
                         "--candidate", f"{notes}:A")
    assert code == 0, err
    code, _, err = run(capsys, "html", "--baseline", f"{sentences}:A", "--candidate",
                       f"{notes}:A", "--out", tmp_path / "page.html", "--policy", policy)
    assert code == 0, err
    page = (tmp_path / "page.html").read_text()
    assert f"{notes}:A" in page and "release-notes" in page and "checklist" in page


def test_rechunk_writes_every_label_with_its_status(folders, tmp_path, capsys):
    sentences, _ = folders
    documents = tmp_path / "documents.jsonl"
    lines = (SPANS / "documents.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["text"] = "Read this first. " + first["text"]
    second = json.loads(lines[1])
    second["text"] = second["text"] + " " + second["text"]  # the team note twice
    documents.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text("".join(json.dumps({"id": doc["id"], "doc": doc["id"], "start": 0,
                                          "end": len(doc["text"])}) + "\n"
                              for doc in (first, second)))
    code, out, err = run(capsys, "rechunk", sentences, "--chunks", chunks, "--documents",
                         documents, "--out", tmp_path / "new", "--report",
                         tmp_path / "report.json")
    assert code == 0, err
    assert out.splitlines()[0] == (f"wrote {tmp_path / 'new'}: 2 chunks of 2 documents, 1 "
                                   "runs carried, 7 left out (record them again)")
    report = json.loads((tmp_path / "report.json").read_text())
    # release-notes: 6 labels moved 17 characters; team-notes: 2 labels now twice there
    assert report["counts"] == {"kept": 0, "moved": 6, "orphaned": 0, "ambiguous": 2,
                                "unreached": 0}
    assert report["lost"] == 2
    assert report["runs left out"] == {"count": 7, "by system": {
        "A": ["launch", "rollback", "owner", "region"], "B": ["launch", "rollback", "owner"]}}
    assert {label["status"] for label in report["labels"] if label["doc"] == "team-notes"} \
        == {"ambiguous"}
    lost = ("span labels: 2 of 8 lost (0 orphaned, 2 ambiguous, 0 in no chunk): their "
            "questions score without them")
    code, out, _ = run(capsys, "report", tmp_path / "new")
    assert f"Note: {lost}" in out
    code, out, _ = run(capsys, "sweep", tmp_path / "new", "--max-k", "2")
    assert f"Note: {lost}" in out


def test_labels_anchor_turns_a_chunk_id_test_set_into_spans(tmp_path, capsys):
    code, out, err = run(capsys, "labels", "anchor", "fixtures/course", "--documents",
                         SPANS / "documents.jsonl", "--out", tmp_path / "anchored",
                         "--reviewer", "ana", "--date", "2026-12-04", "--report",
                         tmp_path / "anchor.json")
    assert code == 0, err
    assert out == (f"wrote {tmp_path / 'anchored'}: 5 chunks placed in 2 documents; labels: "
                   "8 kept, 0 moved, 0 orphaned, 0 ambiguous (0 lost); 0 runs left out; "
                   f"report {tmp_path / 'anchor.json'}\n")
    code, course, _ = run(capsys, "report", "fixtures/course", "--format", "csv")
    code, anchored, _ = run(capsys, "report", tmp_path / "anchored", "--format", "csv")
    assert anchored == course
    code, _, err = run(capsys, "labels", "anchor", "fixtures/course", "--out", tmp_path / "x")
    assert code == 2 and "needs --documents DOCS.jsonl and --out NEW_DIR" in err


def _blocks(section, fence):
    text = (Path(__file__).resolve().parent.parent / "docs" / "spans.md").read_text()
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0] for block in part.split(f"```{fence}\n")[1:]]


def test_the_docs_comparison_and_rechunk_run_as_written(tmp_path, capsys, monkeypatch):
    """docs/spans.md's commands, in a folder holding the fixtures, print what it shows."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SPANS, tmp_path / "fixtures" / "spans")
    commands = [line.split() for line in _blocks("Two chunkings compared", "sh")[0]
                .splitlines()]
    shown = _blocks("Two chunkings compared", "text")
    outputs = [run(capsys, *command[1:]) for command in commands]
    assert all(code == 0 for code, _, _ in outputs)
    assert outputs[2][1] == shown[0]  # ragscore labels notes
    assert outputs[3][1] == shown[1]  # ragscore compare
    section = "A new chunking, a new version of the documents"
    command = _blocks(section, "sh")[0].split()
    code, out, err = run(capsys, *command[1:])
    assert code == 0, err
    assert out == _blocks(section, "text")[0]
    report = json.loads((tmp_path / "notes-edited.json").read_text())
    assert json.loads(_blocks(section, "json")[0]) in report["labels"]


@pytest.mark.parametrize("name", ["documents.jsonl", "questions.jsonl", "chunks.jsonl",
                                  "runs.jsonl"])
def test_import_spans_writes_no_output_over_one_of_its_inputs(tmp_path, capsys, name):
    inputs = {"documents.jsonl": "documents.jsonl", "questions.jsonl": "questions.jsonl",
              "chunks.jsonl": "chunks-sentences.jsonl", "runs.jsonl": "runs-sentences.jsonl"}
    for copy, source in inputs.items():
        shutil.copy(SPANS / source, tmp_path / copy)
    code, _, err = run(capsys, "import", "spans", "--documents", tmp_path / "documents.jsonl",
                       "--questions", tmp_path / "questions.jsonl", "--chunks",
                       tmp_path / "chunks.jsonl", "--runs", tmp_path / "runs.jsonl",
                       "--reviewer", "ana", "--out", tmp_path / "out", "--review-out",
                       tmp_path / name)
    assert code == 2
    assert "an input of this command" in err
    assert (tmp_path / name).read_bytes() == (SPANS / inputs[name]).read_bytes()
    assert not (tmp_path / "out").exists()
