"""Passages for every citation (issue 43 item 6): ``import nuggets --corpus`` takes the
segments' text from the MS MARCO v2.1 segmented corpus layout (plain or gzip), an answer's
``references`` may carry the segments themselves, and the citation rows of the review
queue (and its page) then show each passage's text. A broken corpus line is refused
naming file, line and field; segments nobody gives text stay without it, counted."""
import gzip
import json
import re
from pathlib import Path

import pytest

from ragscore import DatasetFileError
from ragscore.cli import capture
from ragscore.folders import load_dataset
from ragscore.importers.nuggetizer import import_nuggets
from ragscore.importers.segments import read_segments
from ragscore.io.review_queue import review_queue

NUGGETS = Path(__file__).resolve().parents[2] / "fixtures" / "import" / "nuggets"
# the segments fixtures/import/nuggets/answers.jsonl names, and one more nobody cites
TEXTS = {"seg-launch": "The release window opens on Monday at nine.",
         "seg-owners": "The owners sign off before every launch.",
         "seg-archive": "An old note about a retired project.",
         "seg-rollback": "Switch traffic back to the previous version.",
         "seg-other": "Not in any answer."}


def _segment(docid, text, **extra):
    return {"docid": docid, "url": f"https://example.org/{docid}", "title": "Notes",
            "headings": "Notes\n", "segment": text, "start_char": 0, "end_char": len(text),
            **extra}


def _corpus(path, texts, *, compress=False):
    lines = "".join(json.dumps(_segment(doc, text)) + "\n" for doc, text in texts.items())
    if compress:
        path.write_bytes(gzip.compress(lines.encode("utf-8")))
    else:
        path.write_text(lines, encoding="utf-8")
    return path


@pytest.mark.parametrize("compress", [False, True])
def test_the_corpus_gives_the_passages_text(tmp_path, compress):
    corpus = _corpus(tmp_path / ("c.jsonl.gz" if compress else "c.jsonl"), TEXTS,
                     compress=compress)
    dataset, notes = import_nuggets(NUGGETS / "nuggets.jsonl",
                                    answers=NUGGETS / "answers.jsonl", corpus=corpus)
    # the answers name seg-launch, seg-owners, seg-archive, seg-rollback and seg-checklist;
    # the corpus holds the first four (seg-other is not kept: nobody names it)
    assert {doc: dataset.corpus[doc] for doc in dataset.corpus} == {
        "seg-launch": TEXTS["seg-launch"], "seg-owners": TEXTS["seg-owners"],
        "seg-archive": TEXTS["seg-archive"], "seg-rollback": TEXTS["seg-rollback"],
        "seg-checklist": None}
    assert notes["passages without text (no segment of --corpus or of the answers gives it)"] \
        == 1
    rows = [row for row in review_queue(dataset, citations=True) if row["kind"] == "citation"]
    first = rows[0]  # "The release window opens on Monday." citing seg-launch
    assert (first["doc"], first["passage"]) == ("seg-launch", TEXTS["seg-launch"])


def test_references_may_carry_their_segments(tmp_path):
    lines = NUGGETS.joinpath("answers.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["references"] = [_segment("seg-launch", TEXTS["seg-launch"]), "seg-owners",
                            _segment("seg-archive", TEXTS["seg-archive"])]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join([json.dumps(record)] + lines[1:]) + "\n")
    dataset, _ = import_nuggets(NUGGETS / "nuggets.jsonl", answers=answers)
    assert dataset.corpus["seg-launch"] == TEXTS["seg-launch"]
    assert dataset.corpus["seg-owners"] is None
    assert dataset.runs["t1"]["run-a"]["retrieved"] == ("seg-launch", "seg-owners",
                                                        "seg-archive")


def test_the_command_line_and_the_page_show_the_text(tmp_path):
    corpus = _corpus(tmp_path / "c.jsonl", TEXTS)
    folder = tmp_path / "d"
    code, out, err = capture(["import", "nuggets", "--nuggets", str(NUGGETS / "nuggets.jsonl"),
                              "--answers", str(NUGGETS / "answers.jsonl"), "--corpus",
                              str(corpus), "--out", str(folder)])
    assert code == 0, err
    assert load_dataset(folder).corpus["seg-owners"] == TEXTS["seg-owners"]
    page = tmp_path / "review.html"
    code, _, err = capture(["review", "page", str(folder), "--kinds", "citation", "--out",
                            str(page)])
    assert code == 0, err
    assert TEXTS["seg-owners"] in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("line, message", [
    ({"docid": "seg-launch", "segment": 3}, "line 2: field 'segment' must be the segment's "
                                            "text; got 3"),
    (_segment("seg-launch", "x", body="y"), "line 2: the segment has an unknown field 'body'"),
    ({"url": "u", "segment": "x"}, "line 2: field 'docid' is missing"),
    (_segment("seg-owners", "again"), "line 2: field 'docid': segment 'seg-owners' is given "
                                      "twice (first on line 1)"),
])
def test_a_broken_corpus_line_is_refused(tmp_path, line, message):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(_segment("seg-owners", "ok")) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(DatasetFileError, match="^" + re.escape(f"{path}, {message}")):
        read_segments(path, {"seg-launch", "seg-owners"})


def test_a_line_nobody_needs_is_skipped_unread(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(_segment("seg-other", "x")) + "\n"
                    + '{"docid": "seg-broken", "segment": \n')  # broken, but not needed
    assert read_segments(path, {"seg-launch"}) == {}


def test_two_texts_of_one_segment_are_refused(tmp_path):
    lines = NUGGETS.joinpath("answers.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record["references"][0] = _segment("seg-launch", "Another text.")
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join([json.dumps(record)] + lines[1:]) + "\n")
    corpus = _corpus(tmp_path / "c.jsonl", TEXTS)
    with pytest.raises(DatasetFileError, match="segment 'seg-launch' has another text than "
                                               "the answers file gives it"):
        import_nuggets(NUGGETS / "nuggets.jsonl", answers=answers, corpus=corpus)
