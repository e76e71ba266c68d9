"""TREC files read straight into columns (engine.columnar.trec_columns) give the batch, the
counts and the errors of the dataset path (import_trec, then the in-memory column reader):
the same batch, array for array; the same value of every metric; and any input a screen
does not pass is read line by line, naming the line."""
import random

import numpy as np
import pytest

from ragscore.core.metrics import REGISTRY
from ragscore.engine import count_dataset
from ragscore.engine.columnar.memory import encode_memory
from ragscore.engine.columnar.screens import Unclean
from ragscore.engine.columnar.trec_columns import read_trec_columns, trec_batch
from ragscore.importers.trec import count_trec, import_trec, is_grade
from ragscore.io.jsonl import MAX_FILE_BYTES

DOCS = ["d1", "d10", "d2", "D5", "d_1", "a", "z", "\u00e9t\u00e9", "doc-1#chunk-2",
        "FBIS3-10082", "z\u0100", "z\u00ff"]
#: Two docnos of 48 bytes differing only in byte 9, which no fingerprint window reads (the
#: windows start at bytes 0, 13, 26 and 40).
TWINS = ("abcdefgh-1-" + "i" * 37, "abcdefgh-2-" + "i" * 37)
SCORES = ("0.5", "0.50000001", "1", "1.0", "2.25", "-3", "1e3", "7", "0.25", "-0.0", "0")


def _files(tmp_path, rng, *, systems=2, files=2, shuffle=False):
    """A qrels file and ``files`` run files of ``systems`` tags in all (generated)."""
    questions = [f"q{number}" for number in range(rng.randint(1, 12))]
    qrels = []
    for qid in questions:
        if rng.random() < 0.85:
            qrels += [f"{qid} 0 {doc} {rng.choice([-1, 0, 1, 2, 3, 4])}\n"
                      for doc in rng.sample(DOCS, rng.randint(1, 5))]
    if not qrels:
        qrels = [f"{questions[0]} 0 d1 1\n"]
    rng.shuffle(qrels)
    tags = [f"sys{number}" for number in range(systems)]
    per_file = [[] for _ in range(files)]
    for place, tag in enumerate(tags):
        lines = []
        for qid in rng.sample(questions, rng.randint(1, len(questions))):
            ranked = rng.sample(DOCS, rng.randint(1, len(DOCS)))
            lines += [f"{qid} Q0 {doc} {rank} {rng.choice(SCORES)} {tag}\n"
                      for rank, doc in enumerate(ranked, 1)]
        if shuffle:
            rng.shuffle(lines)
        per_file[place % files] += lines
    (tmp_path / "qrels").write_text("".join(qrels), encoding="utf-8")
    paths = []
    for number, lines in enumerate(per_file):
        if lines:
            path = tmp_path / f"run{number}"
            path.write_text("".join(lines), encoding="utf-8")
            paths.append(path)
    return tmp_path / "qrels", paths


def _batches(qrels, runs, **options):
    min_relevance = options.pop("min_relevance", 1)
    columns = read_trec_columns(qrels, runs, is_grade=is_grade, max_bytes=MAX_FILE_BYTES,
                                **options)
    dataset, _ = import_trec(qrels, runs, min_relevance=min_relevance, **options)
    expected = encode_memory(dataset.corpus, dataset.cases, dataset.runs, rules=dataset.rules,
                             min_relevance=min_relevance)
    return trec_batch(columns, min_relevance=min_relevance), expected, dataset


OPTIONS = [{}, {"max_depth": 3}, {"missing_run": "skip"}, {"min_relevance": 2},
           {"missing_run": "skip", "max_depth": 1, "min_relevance": 3}]


@pytest.mark.parametrize("seed", range(30))
def test_the_batch_is_the_dataset_path_s_array_for_array(tmp_path, seed):
    rng = random.Random(seed)
    qrels, runs = _files(tmp_path, rng, systems=rng.randint(1, 3), files=rng.randint(1, 2),
                         shuffle=seed % 3 == 0)
    found, expected, dataset = _batches(qrels, runs, **OPTIONS[seed % len(OPTIONS)])
    assert list(found.ids.to_pylist()) == list(expected.ids) == list(dataset.corpus)
    for name in found._fields:
        mine, theirs = getattr(found, name), getattr(expected, name)
        if name == "ids":
            continue
        if isinstance(theirs, np.ndarray):
            assert np.array_equal(np.asarray(mine), theirs), name
            assert np.asarray(mine).dtype.kind == theirs.dtype.kind, name
        else:
            assert mine == theirs, name


@pytest.mark.parametrize("seed", range(12))
def test_every_metric_is_the_dataset_path_s(tmp_path, seed):
    rng = random.Random(100 + seed)
    qrels, runs = _files(tmp_path, rng, systems=2, files=1, shuffle=seed % 2 == 1)
    options = OPTIONS[seed % len(OPTIONS)]
    counted = count_trec(qrels, runs, **options)
    dataset, _ = import_trec(qrels, runs, **options)
    expected = count_dataset(dataset, engine="reference")
    assert counted.keys == expected.keys
    for metric in REGISTRY.values():
        for k in (1, 3, 10000):
            assert counted.values(metric, k) == expected.values(metric, k), (metric.name, k)


def test_files_read_straight_into_columns_are_not_read_line_by_line(tmp_path, monkeypatch):
    qrels, runs = _files(tmp_path, random.Random(7))
    # without the negative grades (pooled but unjudged), which are counted record by record
    lines = qrels.read_text(encoding="utf-8").splitlines(keepends=True)
    qrels.write_text("".join(line for line in lines if not line.endswith(" -1\n")),
                     encoding="utf-8")
    import ragscore.importers.trec as trec

    monkeypatch.setattr(trec, "import_trec", None)  # the line path would fail
    assert len(count_trec(qrels, runs)) > 0


def test_a_negative_grade_is_counted_record_by_record(tmp_path, monkeypatch):
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 -1\n", encoding="utf-8")
    (tmp_path / "run").write_text("q1 Q0 d2 1 2.0 s\nq1 Q0 d1 2 1.0 s\n", encoding="utf-8")
    import ragscore.importers.trec as trec

    class LinePath(Exception):
        pass

    def line_path(*args, **options):
        raise LinePath()

    monkeypatch.setattr(trec, "import_trec", line_path)
    with pytest.raises(LinePath):  # the line path was taken
        count_trec(tmp_path / "qrels", [tmp_path / "run"])


@pytest.mark.parametrize("qrels_text, run_text, rule, message", [
    ("q1 0 d1 1\n", "q1 Q0 d\x011 1 2.0 bm25\n", "trec.id", "docno must be an ID"),
    ("q1 0 d1 x\n", "q1 Q0 d1 1 2.0 bm25\n", "trec.grade", "rel must be an integer grade"),
    ("q1 0 d1 1\nq1 0 d1 0\n", "q1 Q0 d1 1 2.0 bm25\n", "trec.judged_once", "twice"),
    ("q1 0 d1 1\n", "q1 Q0 d1 1 nan bm25\n", "trec.score", "score must be a number"),
    ("q1 0 d1 1\n", "q1 Q0 d1 1 2.0 bm25\nq1 Q0 d1 2 1.0 bm25\n", "trec.ranked_once",
     "is ranked twice"),
    # unjudged, ranked twice, among others; and a docno ranked twice beside another whose
    # fingerprint it shares (48 bytes differing in a byte no window reads)
    ("q1 0 d1 1\n", "q1 Q0 x9 1 3.0 bm25\nq1 Q0 d2 2 2.5 bm25\nq1 Q0 x9 3 1.0 bm25\n",
     "trec.ranked_once", "is ranked twice"),
    ("q1 0 d1 1\n", f"q1 Q0 {TWINS[0]} 1 3.0 bm25\nq1 Q0 {TWINS[1]} 2 3.0 bm25\n"
     f"q1 Q0 {TWINS[1]} 3 1.0 bm25\n", "trec.ranked_once", "is ranked twice"),
])
@pytest.mark.parametrize("corpus", [True, False])
def test_a_broken_rule_is_screened_by_name_and_named_by_the_line_reader(
        tmp_path, qrels_text, run_text, rule, message, corpus):
    (tmp_path / "qrels").write_text(qrels_text, encoding="utf-8")
    (tmp_path / "run").write_text(run_text, encoding="utf-8")
    with pytest.raises(Unclean) as caught:
        read_trec_columns(tmp_path / "qrels", [tmp_path / "run"], is_grade=is_grade,
                          max_bytes=MAX_FILE_BYTES, corpus=corpus)
    assert caught.value.rule == rule
    with pytest.raises(ValueError, match=message) as refused:
        count_trec(tmp_path / "qrels", tmp_path / "run")
    assert "line" in str(refused.value)


def test_a_tag_in_two_files_is_screened_and_named(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d1 1\n", encoding="utf-8")
    for name in ("a", "b"):
        (tmp_path / name).write_text("q1 Q0 d1 1 2.0 bm25\n", encoding="utf-8")
    paths = [tmp_path / "a", tmp_path / "b"]
    with pytest.raises(Unclean) as caught:
        read_trec_columns(tmp_path / "qrels", paths, is_grade=is_grade,
                          max_bytes=MAX_FILE_BYTES)
    assert caught.value.rule == "trec.tag_once"
    with pytest.raises(ValueError, match="each system's run must be in one file"):
        count_trec(tmp_path / "qrels", paths)


def test_docnos_sharing_a_fingerprint_are_told_apart(tmp_path):
    (tmp_path / "qrels").write_text(f"q1 0 {TWINS[1]} 1\n", encoding="utf-8")
    (tmp_path / "run").write_text(f"q1 Q0 {TWINS[0]} 1 2.0 bm25\nq1 Q0 {TWINS[1]} 2 1.0 bm25\n",
                                  encoding="utf-8")
    from ragscore.engine.columnar.arrow import fingerprints, strings

    prints = fingerprints(strings(list(TWINS)))
    assert prints[0] == prints[1]  # the case this test is about
    counted = count_trec(tmp_path / "qrels", tmp_path / "run")
    assert counted.values(REGISTRY["rr"], 10) == [0.5]


@pytest.mark.parametrize("text, broken", [
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\n", False),
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2  2 1.0 bm25\n", True),   # an empty field, far in
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0\tbm25\n", True),   # the other separator
    ("q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 1.0 bm25\r\n", True),  # a carriage return
])
@pytest.mark.parametrize("piece", [1, 2, 3, 7, 64])
def test_a_file_read_a_block_at_a_time_is_checked_across_the_blocks(tmp_path, monkeypatch,
                                                                   text, broken, piece):
    from ragscore.engine.columnar import trec

    monkeypatch.setattr(trec._PlainFile, "_FIRST", piece)  # the first lines read in pieces too
    path = tmp_path / "run"
    path.write_text("# a comment\n#another\n" + text, encoding="utf-8")
    with trec._PlainFile(path, MAX_FILE_BYTES) as plain:
        assert plain.comments == 2 and plain.separator == " "
        read = b""
        while True:
            block = plain.read(piece)
            if not block:
                break
            read += block
        assert plain.broken == broken
        if not broken:
            assert read == text.encode()
