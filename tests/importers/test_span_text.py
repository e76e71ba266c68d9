"""Spans by their text (issue 44 item 2): a span may carry its ``text``, checked against the
document at its offsets; given its text alone it is placed where the text occurs once
(twice or more: refused as ambiguous, listing the places; nowhere: refused). A chunk of
ragscore's layout reads the same field, so ``import spans`` and ``rechunk`` place it the
same way, and ``labels anchor`` lists where an ambiguous chunk's text occurs. Offsets in
the comments are counted by hand in fixtures/spans/documents.jsonl."""
import json
import re
import shutil
from pathlib import Path

import pytest

from ragscore import DatasetFileError
from ragscore.cli import main
from ragscore.folders import load_dataset, save_dataset
from ragscore.importers.chunkings import read_chunks
from ragscore.importers.spans import import_spans
from ragscore.io.course import load_course
from ragscore.io.jsonl import MAX_FILE_BYTES
from ragscore.io.rechunk import anchor_chunks, rechunk

SPANS = Path(__file__).resolve().parents[2] / "fixtures" / "spans"
RELEASE = ("The fictional release window starts on Monday. Switch traffic back to the "
           "previous version. After rollback, run the smoke test.")
#         0         1         2         3         4         5
#         0123456789012345678901234567890123456789012345678901234...
# "release window starts on Monday" = [14, 45); "Switch traffic back ... version" = [47, 90)


def _inputs(tmp_path, change=None):
    for name in ("documents.jsonl", "questions.jsonl", "chunks-sentences.jsonl"):
        shutil.copy(SPANS / name, tmp_path / name)
    rows = [json.loads(line) for line in (tmp_path / "questions.jsonl").open()]
    if change:
        change(rows)
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return tmp_path


def _import(folder, chunks="chunks-sentences.jsonl"):
    return import_spans(folder / "documents.jsonl", folder / "questions.jsonl",
                        folder / chunks, reviewer="ana", date="2026-12-04",
                        max_bytes=MAX_FILE_BYTES)[0]


def _spans(dataset):
    """Every span label as (kind, case, claim, doc, start, end, text)."""
    return sorted((record["kind"], record["case"], record.get("claim") or "", record["doc"],
                   record["start"], record["end"], record["text"])
                   for record in dataset.judgements if record["kind"] != "answerability")


def test_a_span_carrying_its_text_imports_as_the_span_without(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = _spans(_import(_inputs(tmp_path / "a")))

    def with_text(rows):
        rows[0]["evidence"][0]["text"] = RELEASE[14:45]  # "release window starts on Monday"
        rows[1]["relevant"][0]["text"] = RELEASE[47:91]
    assert _spans(_import(_inputs(tmp_path / "b", with_text))) == plain


def test_a_span_whose_text_differs_from_the_document_is_refused(tmp_path):
    def edited(rows):  # the labeller's quote, after the document said Tuesday
        rows[0]["evidence"][0]["text"] = "release window starts on Tuesday"
    folder = _inputs(tmp_path, edited)
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{folder / 'questions.jsonl'}, line 1: evidence[0]: field 'text' must be the "
            "document's text from 'start' to 'end' ('release window starts on Monday'); got "
            "'release window starts on Tuesday' (it occurs nowhere in document "
            "'release-notes'; its longest part found there: 'release window starts on ' at "
            "14-39)")):
        _import(folder)


def test_a_span_whose_offsets_are_off_says_where_its_text_is(tmp_path):
    def shifted(rows):  # "Switch traffic back to the previous version" marked 2 too early
        rows[1]["evidence"][0].update(start=45, end=88, text=RELEASE[47:90])
    folder = _inputs(tmp_path, shifted)
    with pytest.raises(DatasetFileError, match=re.escape(
            "line 2: evidence[0]: field 'text' must be the document's text from 'start' to "
            "'end' ('. Switch traffic back to the previous versi'); got 'Switch traffic "
            "back to the previous version' (it occurs once in document 'release-notes', at "
            "47-90: give 'start' 47 and 'end' 90, or leave them out")):
        _import(folder)


def test_a_span_given_by_its_text_alone_is_placed_where_it_occurs_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = _spans(_import(_inputs(tmp_path / "a")))

    def quoted(rows):
        for question in rows:
            for span in question.get("relevant", []) + question.get("evidence", []):
                doc = next(json.loads(line)["text"] for line in (SPANS / "documents.jsonl")
                           .open() if json.loads(line)["id"] == span["doc"])
                span["text"] = doc[span.pop("start"):span.pop("end")]
    assert _spans(_import(_inputs(tmp_path / "b", quoted))) == plain


@pytest.mark.parametrize("text, message", [
    # lower-case "the": "back to the previous" 70, "run the smoke" 112
    ("the", "field 'text' 'the' occurs 2 times in document 'release-notes' (at 70-73, "
            "112-115): ambiguous, never guessed; give 'start' and 'end'"),
    ("starts on Tuesday", "field 'text' 'starts on Tuesday' occurs nowhere in document "
                          "'release-notes'; its longest part found there: 'starts on ' at "
                          "29-39"),
    ("", "field 'text' must be non-empty text"),
])
def test_a_quote_found_twice_or_nowhere_is_refused(tmp_path, text, message):
    def quoted(rows):
        span = rows[0]["evidence"][0]
        del span["start"], span["end"]
        span["text"] = text
    folder = _inputs(tmp_path, quoted)
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{folder / 'questions.jsonl'}, line 1: evidence[0]: {message}")):
        _import(folder)


def test_a_span_with_neither_offsets_nor_text_is_refused(tmp_path):
    folder = _inputs(tmp_path, lambda rows: rows[0]["evidence"][0].pop("start"))
    with pytest.raises(DatasetFileError, match="evidence\\[0\\]: field 'start' is missing"):
        _import(folder)
    folder = _inputs(tmp_path, lambda rows: [rows[0]["evidence"][0].pop(key)
                                             for key in ("start", "end")])
    with pytest.raises(DatasetFileError, match=re.escape(
            "evidence[0]: field 'start' is missing (a span gives 'start' and 'end', or its "
            "'text' to be placed where it occurs once)")):
        _import(folder)


def test_the_command_refuses_a_mismatched_quote_with_one_line_and_writes_nothing(
        tmp_path, capsys):
    def edited(rows):
        rows[0]["evidence"][0]["text"] = "release window starts on Tuesday"
    folder = _inputs(tmp_path, edited)
    out = tmp_path / "out"
    code = main(["import", "spans", "--documents", str(folder / "documents.jsonl"),
                 "--questions", str(folder / "questions.jsonl"), "--chunks",
                 str(folder / "chunks-sentences.jsonl"), "--reviewer", "ana", "--out",
                 str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists() and err.count("\n") == 1
    assert "line 1: evidence[0]: field 'text' must be the document's text" in err
    assert "got 'release window starts on Tuesday'" in err


def _chunks_by_text(path):
    """chunks-sentences.jsonl with every chunk given by its text alone."""
    documents = {json.loads(line)["id"]: json.loads(line)["text"]
                 for line in (SPANS / "documents.jsonl").open()}
    rows = []
    for line in (SPANS / "chunks-sentences.jsonl").open():
        row = json.loads(line)
        rows.append({"id": row["id"], "doc": row["doc"],
                     "text": documents[row["doc"]][row["start"]:row["end"]]})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_chunk_given_by_its_text_is_placed_by_import_and_rechunk_alike(tmp_path):
    (tmp_path / "a").mkdir()
    folder = _inputs(tmp_path / "a")
    by_offsets = _import(folder)
    by_text = _import(folder, _chunks_by_text(folder / "chunks-text.jsonl").name)
    assert by_text.positions == by_offsets.positions
    saved = load_dataset(save_dataset(by_offsets, tmp_path / "saved"))
    placed, layout = read_chunks(folder / "chunks-text.jsonl", max_bytes=MAX_FILE_BYTES)
    assert layout == "ragscore" and placed["launch"][1:3] == (None, None)
    changed, left = rechunk(saved, placed)
    assert changed.positions == by_offsets.positions and left == {}


def test_a_chunk_whose_text_occurs_twice_is_refused_listing_the_places(tmp_path):
    path = tmp_path / "chunks.jsonl"
    path.write_text(json.dumps({"id": "x", "doc": "release-notes", "text": "on"}) + "\n")
    placed, _ = read_chunks(path, max_bytes=MAX_FILE_BYTES)
    saved = load_dataset(save_dataset(_import(_inputs(tmp_path)), tmp_path / "saved"))
    # "on" in RELEASE, counted by hand: fictiONal 9, starts ON 36, MONday 40, versiON 88
    with pytest.raises(DatasetFileError, match=re.escape(
            f"{path}, line 1 (chunk 'x'): field 'text' 'on' occurs 4 times in document "
            "'release-notes' (at 9-11, 36-38, 40-42, 88-90): ambiguous, never guessed; give "
            "'start' and 'end'")):
        rechunk(saved, placed)


def test_labels_anchor_lists_where_an_ambiguous_chunk_occurs(tmp_path):
    team = ("The fictional Aurora team owns the alert. The fictional Aurora team owns the "
            "alert.")
    documents = {"release-notes": ("v1", RELEASE), "team-notes": ("v1", team)}
    _, report = anchor_chunks(load_course(), documents, provenance={
        "reviewer": "ana", "date": "2026-12-04", "origin": "human",
        "batch": "0123456789abcdef"})
    # 'owners' is "The fictional Aurora team owns the alert." (41 characters), twice
    assert report["ambiguous places"] == {"owners": [["team-notes", 0, 41],
                                                     ["team-notes", 42, 83]]}
