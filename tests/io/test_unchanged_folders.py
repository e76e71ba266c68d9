"""A folder whose files are as ``save_dataset`` wrote and checked them is read for a report
without looking up every ID in its corpus again; any change to a file or to the file names
of its index brings every check back."""
import hashlib
import json

import pytest

import ragscore
from ragscore.io import dataset as files
from ragscore.io.dataset import ANY_ID, DatasetFileError, read_counts
from ragscore.io.store import snapshot, unchanged

OPEN_DATASET = {
    "corpus": {"FR94-1": None, "doc_12#chunk-3": None, "d3": None},
    "cases": {"q1": {"question": "", "relevant": {"FR94-1": 2, "d3": 0}},
              "q2": {"question": "", "relevant": {"doc_12#chunk-3": 1}}},
    "runs": {"q1": {"bm25": {"retrieved": ("d3", "FR94-1")}},
             "q2": {"bm25": {"retrieved": ("FR94-1",)}}},
}


def _saved(tmp_path, name="saved"):
    dataset = ragscore.Dataset(**OPEN_DATASET, ids="open", sources={}, versions={})
    return ragscore.save_dataset(dataset, tmp_path / name)


def _files_of(folder):
    return json.loads((folder / "dataset.json").read_text())["files"]


def _corpus_reads(monkeypatch):
    reads, corpus = [], files._Reader.corpus
    monkeypatch.setattr(files._Reader, "corpus",
                        lambda self, *args: reads.append(1) or corpus(self, *args))
    return reads


def _unchanged_of(folder):
    index, opened = snapshot(folder, 1 << 20)
    try:
        return unchanged(index, opened)
    finally:
        for _, handle in opened.values():
            handle.close()


def test_a_saved_folder_is_unchanged_until_a_byte_changes(tmp_path):
    folder = _saved(tmp_path)
    assert _unchanged_of(folder)
    runs = folder / _files_of(folder)["runs"]
    runs.write_bytes(runs.read_bytes() + b"\n")
    assert not _unchanged_of(folder)


def test_the_index_of_a_save_marks_the_files_it_checked(tmp_path):
    folder = _saved(tmp_path)
    index = json.loads((folder / "dataset.json").read_text())
    names = index["files"]
    text = f"ragscore checked {names['corpus']} {names['cases']} {names['runs']}"
    assert index["checked"] == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_a_file_renamed_by_its_content_is_not_trusted(tmp_path):
    """Edited, renamed by the content rule and named in the index: the files hash to their
    names, but the index's mark was for the names the save checked."""
    folder = _saved(tmp_path)
    index = json.loads((folder / "dataset.json").read_text())
    runs = folder / index["files"]["runs"]
    data = runs.read_bytes().replace(b'"d3"', b'"not-in-corpus"')
    name = f"runs.{hashlib.sha256(data).hexdigest()[:16]}.jsonl"
    (folder / name).write_bytes(data)
    index["files"]["runs"] = name
    (folder / "dataset.json").write_text(json.dumps(index))
    assert not _unchanged_of(folder)
    with pytest.raises(DatasetFileError, match="an ID in the corpus; got 'not-in-corpus'"):
        read_counts(folder)
    del index["checked"]  # an index written by hand carries no mark
    (folder / "dataset.json").write_text(json.dumps(index))
    assert not _unchanged_of(folder)


def test_a_mark_that_is_not_sixteen_hex_digits_is_refused(tmp_path):
    folder = _saved(tmp_path)
    index = json.loads((folder / "dataset.json").read_text())
    (folder / "dataset.json").write_text(json.dumps(dict(index, checked="yes")))
    with pytest.raises(DatasetFileError, match="key 'checked' must be 16 hex digits"):
        read_counts(folder)


def test_files_not_named_by_their_content_are_not_unchanged(tmp_path):
    from ragscore.io.course import COURSE_PATH  # version 1: corpus.jsonl, cases.jsonl, ...

    assert not _unchanged_of(COURSE_PATH)


def test_an_unchanged_folder_gives_the_counts_every_check_gives(tmp_path, monkeypatch):
    folder = _saved(tmp_path)
    reads = _corpus_reads(monkeypatch)
    trusted = read_counts(folder)
    assert reads == []  # the corpus was not read
    monkeypatch.setattr(files, "unchanged", lambda index, opened: False)
    checked = read_counts(folder)
    assert reads == [1] and trusted == checked
    # by hand: q1's ranking d3 (grade 0), FR94-1 (grade 2) puts its one relevant at rank 2
    assert trusted.keys == [("q1", "bm25"), ("q2", "bm25")]
    assert [counts.relevant_ranks for counts in trusted.counts] == [(2,), ()]


def test_an_edited_file_is_read_with_every_check(tmp_path):
    folder = _saved(tmp_path)
    runs = folder / _files_of(folder)["runs"]
    runs.write_text(runs.read_text().replace('"FR94-1"]', '"FR94-9"]'))  # same name
    with pytest.raises(DatasetFileError, match=r"line 1 \(case 'q1', system 'bm25'\): "
                       r"run\['retrieved'\]\[1\] must be an ID in the corpus; got 'FR94-9'"):
        read_counts(folder)


def test_a_document_unit_reads_the_corpus(tmp_path, monkeypatch):
    course = ragscore.load_course()
    folder = ragscore.save_dataset(course, tmp_path / "course")
    reads = _corpus_reads(monkeypatch)
    assert read_counts(folder, unit="document") == read_counts(folder, unit="chunk")
    assert reads == [1]  # chunks become documents through the corpus


def test_a_corpus_naming_documents_is_read(tmp_path, monkeypatch):
    """Labels may name a chunk's document: a save accepts them, and a reading by chunk
    refuses them, so that reading must look at the corpus."""
    dataset = ragscore.Dataset(
        corpus={"a#1": None, "b#1": None}, cases={"q": {"question": "", "relevant": ("a",)}},
        runs={"q": {"s": {"retrieved": ("b#1", "a#1")}}}, ids="open",
        sources={"a#1": "a", "b#1": "b"}, versions={})
    folder = ragscore.save_dataset(dataset, tmp_path / "documents")
    assert _unchanged_of(folder)
    reads = _corpus_reads(monkeypatch)
    with pytest.raises(DatasetFileError, match="an ID in the corpus; got 'a'.*--unit document"):
        read_counts(folder)
    assert reads == [1]
    assert read_counts(folder, unit="document").counts[0].relevant_ranks == (2,)


def test_a_text_that_is_the_word_only_costs_the_lookups(tmp_path, monkeypatch):
    # a text "source" is written "source" in the file (one in quotes, 'say "source"', is
    # written with its quotes escaped and does not match)
    dataset = ragscore.Dataset(**dict(OPEN_DATASET, corpus={
        "FR94-1": "source", "doc_12#chunk-3": 'say "source"', "d3": "y"}), ids="open",
        sources={}, versions={})
    folder = ragscore.save_dataset(dataset, tmp_path / "quoted")
    reads = _corpus_reads(monkeypatch)
    assert read_counts(folder).keys == [("q1", "bm25"), ("q2", "bm25")]
    assert reads == [1]


def test_any_id_answers_as_a_set_holding_every_id():
    assert "anything" in ANY_ID and ANY_ID.issuperset(["a", "b"])
    assert {"a", "b"} <= ANY_ID and frozenset({"x"}) <= ANY_ID
    assert {"a"} - ANY_ID == set()
