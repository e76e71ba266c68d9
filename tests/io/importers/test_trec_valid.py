"""The TREC importer's dataset is valid by construction, so ``ragscore import trec`` saves it
without checking its records again (``save_valid_by_construction``), and its fast
reading agrees with the careful one.

Over generated qrels and run files with odd cases (ties, duplicate lines, unjudged documents,
grades -1 to 3, questions missing from a run, odd IDs, comments, blank lines) and malformed
lines (a field short or extra, bad scores and grades, IDs too long or holding control
characters): every import either raises :class:`DatasetFileError` naming the file and line,
or returns a dataset that :func:`check_dataset` accepts; the careful path (every line checked
on its own) and the two-process path give the same dataset or the same error; and the folder
saved without the check is byte for byte the folder saved with it.
"""
import random
import shutil

import pytest

from ragscore import DatasetFileError, load_dataset, save_dataset
from ragscore.io.dataset import (check_dataset, dataset_files, encoded_ranking,
                                  encoded_runs_chunks, save_valid_by_construction)
from ragscore.io.importers import import_trec
from ragscore.io.importers import trec

# IDs that are valid but odd: JSON escapes, non-ASCII, a zero-width space, a '#' inside,
# the longest allowed
ODD_IDS = ['say"hi', "back\\slash", "café", "zero\u200bwidth", "d#7", "x" * 512, "Ω"]
# fields that are not IDs (a control character, too long) or not numbers
BAD_IDS = ["bell\x07", "csi\x9b", "y" * 513, "del\x7f"]
BAD_SCORES = ["high", "nan", "-inf", "1e400", "0x10", "1.2.3"]
BAD_GRADES = ["1.5", "two", "", "0x1"]


def _id(rng, pool):
    return rng.choice(pool) if rng.random() < 0.1 else f"d{rng.randrange(40)}"


def _score(rng):
    return rng.choice([str(rng.randrange(5)), f"{rng.random() * 3:.1f}", "-0", "1e1",
                       str(-rng.randrange(3)), "2.50"])


def _qrels(rng, questions, bad):
    lines = []
    for qid in questions:
        for _ in range(rng.randint(1, 4)):
            grade = str(rng.randint(-1, 3))
            if rng.random() < 0.1:
                grade = "+" + grade.lstrip("-")
            lines.append(f"{qid} 0 {_id(rng, ODD_IDS)} {grade}")
    lines = list(dict.fromkeys(lines))  # a document judged twice is an error: keep one
    seen, kept = set(), []
    for line in lines:
        qid, _, doc, _ = line.split()
        if (qid, doc) not in seen:
            seen.add((qid, doc))
            kept.append(line)
    if bad:
        at = rng.randrange(len(kept))
        kind = rng.randrange(3)
        qid, it, doc, grade = kept[at].split()
        kept[at] = (f"{qid} 0 {doc}" if kind == 0 else
                    f"{qid} 0 {rng.choice(BAD_IDS)} {grade}" if kind == 1 else
                    f"{qid} 0 {doc} {rng.choice(BAD_GRADES)}")
    rng.shuffle(kept)
    return "".join(line + "\n" for line in ["# qrels", *kept])


def _run(rng, questions, tag, bad):
    lines = ["# a run", ""]
    for qid in questions:
        if rng.random() < 0.15:
            continue  # a question missing from this run
        docs = list(dict.fromkeys(_id(rng, ODD_IDS) for _ in range(rng.randint(1, 12))))
        for rank, doc in enumerate(docs, 1):
            separator = rng.choice([" ", " ", " ", "\t", "  "])
            lines.append(separator.join([qid, "Q0", doc, str(rank), _score(rng), tag]))
    for _ in range(rng.randrange(3)):  # questions without qrels
        lines.append(f"unjudged{rng.randrange(3)} Q0 {_id(rng, ODD_IDS)} 1 1.0 {tag}")
    if rng.random() < 0.2 and len(lines) > 3:
        lines.append(lines[rng.randrange(2, len(lines))])  # a duplicate line
    if rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines)), "")
    if bad:
        at = rng.randrange(2, len(lines)) if len(lines) > 2 else 1
        fields = (lines[at] or f"{questions[0]} Q0 d1 1 1.0 {tag}").split()
        kind = rng.randrange(4)
        if kind == 0:
            fields = fields[:5]
        elif kind == 1:
            fields.append("extra")
        elif kind == 2:
            fields[4] = rng.choice(BAD_SCORES)
        else:
            fields[rng.choice([0, 2, 5])] = rng.choice(BAD_IDS)
        lines[at] = " ".join(fields)
    return "".join(line + "\n" for line in lines)


def _files(seed, folder):
    """Write a qrels file and one to three run files; return their paths."""
    rng = random.Random(seed)
    questions = [f"q{n}" for n in range(rng.randint(1, 6))] + (["Ω-q"] if seed % 3 else [])
    broken = rng.random() < 0.5
    target = rng.randrange(4) if broken else None
    qrels = folder / "qrels.txt"
    qrels.write_text(_qrels(rng, questions, target == 0), encoding="utf-8")
    runs = []
    for index, tag in enumerate(rng.sample(["A", "B", 'C"q', "d\u00e9"], rng.randint(1, 3))):
        path = folder / f"{index}.run"
        path.write_text(_run(rng, questions, tag, target == index + 1), encoding="utf-8")
        runs.append(path)
    return qrels, runs


def _outcome(qrels, runs, **options):
    try:
        dataset, notes = import_trec(qrels, runs, **options)
    except DatasetFileError as error:
        return "error", str(error)
    return "dataset", (dataset, notes)


def _careful(monkeypatch):
    """Read every block of a run file line by line, each line checked on its own."""
    monkeypatch.setattr(trec, "_PLAIN_BYTES", b"")
    monkeypatch.setattr(trec, "_CONTROL", lambda text: True)


@pytest.mark.parametrize("seed", range(300))
def test_an_import_is_valid_or_names_its_problem(tmp_path, monkeypatch, seed):
    qrels, runs = _files(seed, tmp_path)
    missing_run = "skip" if seed % 4 == 0 else "zero"
    kind, result = _outcome(qrels, runs, missing_run=missing_run)
    if kind == "error":
        assert result.startswith(str(tmp_path)) and ", line " in result or \
            result.endswith(("holds no judgements", "holds no run lines")), result
    else:
        check_dataset(result[0])
    # the careful path and the two-process path give the same dataset or the same error
    monkeypatch.setattr(trec, "PARALLEL_BYTES", 1)
    assert _outcome(qrels, runs, missing_run=missing_run) == (kind, result)
    _careful(monkeypatch)
    assert _outcome(qrels, runs, missing_run=missing_run) == (kind, result)


def _saved_unchecked(dataset, path):
    """``dataset`` saved as ``ragscore import trec`` saves, its runs given as a runs file."""
    runs = [(case, system, encoded_ranking(run["retrieved"]))
            for case, per_case in dataset.runs.items() for system, run in per_case.items()]
    return save_valid_by_construction(dataset._replace(runs={}), path,
                                      runs_file=lambda: encoded_runs_chunks(iter(runs)))


def _valid_imports(folder, count):
    """The first ``count`` generated inputs that import without an error."""
    found = []
    for seed in range(10 * count):
        place = folder / f"input-{seed}"
        place.mkdir()
        kind, result = _outcome(*_files(seed, place))
        if kind == "dataset":
            found.append(result[0])
            if len(found) == count:
                return found
    raise AssertionError("too few valid inputs")  # pragma: no cover


def test_saved_without_the_check_byte_for_byte_as_with_it(tmp_path):
    for number, dataset in enumerate(_valid_imports(tmp_path, 25)):
        dataset = dataset._replace(notes=("imported",))
        checked = save_dataset(dataset, tmp_path / f"checked-{number}")
        trusted = _saved_unchecked(dataset, tmp_path / f"trusted-{number}")
        assert sorted(p.name for p in checked.iterdir()) == \
            sorted(p.name for p in trusted.iterdir())
        for path in checked.iterdir():
            assert path.read_bytes() == (trusted / path.name).read_bytes()
        assert load_dataset(trusted) == load_dataset(checked)


def test_the_generated_inputs_cover_the_odd_cases(tmp_path):
    """The generator above reaches every case it is meant to: valid imports with odd IDs,
    negative grades, ties and empty rankings, and errors of each kind."""
    seen = set()
    for seed in range(300):
        folder = tmp_path / str(seed)
        folder.mkdir()
        kind, result = _outcome(*_files(seed, folder))
        if kind == "error":
            seen.add(next((what for what in ("fields", "score must be a number",
                                             "finite", "docno must", "qid must",
                                             "tag must", "rel must", "ranked twice")
                           if what in result), result))
        else:
            dataset = result[0]
            grades = {g for case in dataset.cases.values() for g in case["relevant"].values()}
            seen.update(f"grade {g}" for g in grades)
            if any(doc in dataset.corpus for doc in ODD_IDS):
                seen.add("odd ID")
            if any(run["retrieved"] == () for per in dataset.runs.values()
                   for run in per.values()):
                seen.add("empty ranking")
        shutil.rmtree(folder)
    assert {"fields", "score must be a number", "finite", "docno must", "qid must",
            "tag must", "rel must", "ranked twice", "grade -1", "grade 0", "grade 3",
            "odd ID", "empty ranking"} <= seen, seen


def test_the_index_fields_are_still_checked(tmp_path):
    dataset = _valid_imports(tmp_path, 1)[0]
    with pytest.raises(ValueError, match="dataset.notes must be a tuple of str"):
        _saved_unchecked(dataset._replace(notes="one"), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_only_runs_given_as_a_runs_file_are_saved_unchecked(tmp_path):
    dataset = _valid_imports(tmp_path, 1)[0]
    with pytest.raises(ValueError, match="without runs of its own"):
        save_valid_by_construction(dataset, tmp_path / "out", runs_file=lambda: iter(()))
    assert not (tmp_path / "out").exists()


def test_the_shipped_fixture_saves_the_same_either_way(tmp_path):
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[3] / "fixtures" / "import" / "trec"
    dataset, _ = import_trec(fixture / "qrels.txt", [fixture / "bm25.run",
                                                     fixture / "dense.run"])
    check_dataset(dataset)
    assert dataset_files(dataset) == dataset_files(
        load_dataset(_saved_unchecked(dataset, tmp_path / "out")))


def test_the_careful_path_checks_every_line(tmp_path, monkeypatch):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    runs = [tmp_path / "a.run", tmp_path / "b.run"]
    runs[0].write_text("q1 Q0 d1 1 2 a\nq1 Q0 d2 2 2 a\n")
    runs[1].write_text("q1 Q0 d3 1 2 b\n")
    checked, check = [], trec.RunReader._checked
    monkeypatch.setattr(trec.RunReader, "_checked",
                        lambda self, *args: checked.append(1) or check(self, *args))
    _outcome(qrels, runs)
    assert checked == []  # plain blocks take the fast path
    _careful(monkeypatch)
    _outcome(qrels, runs)
    assert len(checked) == len(runs)  # one block per small file, each read line by line


# ---- the encoded runs of ``ragscore import trec`` ------------------------------------------

def _encoded_outcome(qrels, runs, folder, **options):
    """What ``import_trec_encoded`` then a save give: the folder's files, or the error."""
    try:
        dataset, notes, encoded = trec.import_trec_encoded(qrels, runs, **options)
    except DatasetFileError as error:
        return "error", str(error)
    saved = save_valid_by_construction(dataset._replace(notes=("imported",)), folder,
                                       runs_file=encoded.file)
    return "dataset", ({path.name: path.read_bytes() for path in saved.iterdir()}, notes,
                       encoded.count, encoded.systems)


def _expected(qrels, runs, folder, **options):
    kind, result = _outcome(qrels, runs, **options)
    if kind == "error":
        return kind, result
    dataset, notes = result
    saved = save_dataset(dataset._replace(notes=("imported",)), folder)
    return "dataset", ({path.name: path.read_bytes() for path in saved.iterdir()}, notes,
                       sum(map(len, dataset.runs.values())), dataset.systems)


@pytest.mark.parametrize("in_two, block", [(False, None), (True, None), (False, 40)])
def test_encoded_runs_save_as_import_trec_s_dataset_does(tmp_path, monkeypatch, in_two, block):
    """Same files byte for byte (or the same error), in one process and in two, on
    generated inputs valid and malformed, with missing runs zero and skipped; and with
    blocks of about one line, so that a question's lines span blocks."""
    if in_two:
        monkeypatch.setattr(trec, "PARALLEL_BYTES", 1)
        monkeypatch.setattr(trec, "_SENT_RANKINGS", 2)  # several batches per system
    if block:
        monkeypatch.setattr(trec, "READ_BYTES", block)
    kinds = set()
    for seed in range(120):
        folder = tmp_path / str(seed)
        folder.mkdir()
        qrels, runs = _files(seed, folder)
        options = {"missing_run": "skip" if seed % 4 == 0 else "zero"}
        expected = _expected(qrels, runs, folder / "expected", **options)
        assert _encoded_outcome(qrels, runs, folder / "encoded", **options) == expected, seed
        kinds.add(expected[0])
    assert kinds == {"error", "dataset"}


def test_encoded_runs_of_the_shipped_fixture(tmp_path, monkeypatch):
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[3] / "fixtures" / "import" / "trec"
    qrels, runs = fixture / "qrels.txt", [fixture / "bm25.run", fixture / "dense.run"]
    expected = _expected(qrels, runs, tmp_path / "expected")
    assert _encoded_outcome(qrels, runs, tmp_path / "one") == expected
    monkeypatch.setattr(trec, "PARALLEL_BYTES", 1)
    taken, take = [], trec._take
    monkeypatch.setattr(trec, "_take", lambda *args: taken.append(args[-1]) or take(*args))
    assert _encoded_outcome(qrels, runs, tmp_path / "two") == expected
    assert taken == [True]  # the child's encoded rankings were used


@pytest.mark.parametrize("damage", [
    lambda data: data[:-40],                                     # cut short
    lambda data: data.replace(b'"end"\n', b'"ends"\n'),           # no end
    lambda data: data.replace(b"]\n", b"]\n\n{\"failed\": true}\n", 1),  # a failure inside
    lambda data: data.replace(b"]\n[", b"]\nx[", 1),               # not a JSON list
])
def test_a_damaged_stream_from_the_child_is_refused(tmp_path, monkeypatch, damage):
    """The parent takes the child's encoded rankings only when they arrive whole; anything
    else (a child that failed midway) leaves the reader unchanged, to read the file again."""
    import io

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d2 1\n")
    run = tmp_path / "b.run"
    run.write_text("q1 Q0 d1 1 2 b\nq1 Q0 x 2 1 b\nq2 Q0 d2 1 1 b\nq3 Q0 y 1 1 b\n")
    documents = {"d1": "d1", "d2": "d2"}
    child = trec.RunReader({"q1", "q2"}, dict(documents))
    child.read(run)
    data = b"".join(trec._sent(child, [run], 2, encoded=True))
    whole = trec.RunReader({"q1", "q2"}, dict(documents))
    assert trec._take(whole, [run], io.BytesIO(data), True)
    assert whole.rankings == {"b": {"q1": b'["d1", "x"]', "q2": b'["d2"]'}}
    assert whole.encoded == {"b"} and list(whole.documents) == ["d1", "d2", "x"]
    monkeypatch.setattr(trec, "_SENT_RANKINGS", 1)
    data = b"".join(trec._sent(child, [run], 2, encoded=True))
    reader = trec.RunReader({"q1", "q2"}, dict(documents))
    assert not trec._take(reader, [run], io.BytesIO(damage(data)), True)
    assert reader.rankings == {} and reader.encoded == set() and len(reader.documents) == 2


def test_encoded_runs_when_the_child_s_result_is_not_used(tmp_path, monkeypatch):
    """The parent's own rankings are encoded while it waits; if the child's result is then
    refused, the parent reads the child's files itself, and the file is the same."""
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[3] / "fixtures" / "import" / "trec"
    qrels, runs = fixture / "qrels.txt", [fixture / "bm25.run", fixture / "dense.run"]
    expected = _expected(qrels, runs, tmp_path / "expected")
    monkeypatch.setattr(trec, "PARALLEL_BYTES", 1)
    held = []
    monkeypatch.setattr(trec, "_take", lambda reader, *_: held.append(
        {tag: set(map(type, ranked.values())) for tag, ranked in reader.rankings.items()}))
    assert _encoded_outcome(qrels, runs, tmp_path / "refused") == expected
    assert held == [{"bm25": {bytes}}]


def _early_reads(monkeypatch, tmp_path, text):
    """Read ``text`` as a run file with an encoding reader; return ``(early flags of each
    reading, rankings or the error)``."""
    path = tmp_path / "a.run"
    path.write_text(text)
    flags, read = [], trec.RunReader._read
    monkeypatch.setattr(trec.RunReader, "_read",
                        lambda self, path, *, early: flags.append(early) or read(
                            self, path, early=early))
    reader = trec.RunReader({"q1", "q2"}, {}, encode=True)
    try:
        reader.read(path)
    except DatasetFileError as error:
        return flags, str(error).replace(str(tmp_path), "")
    assert reader.encoded == {"a"}
    return flags, reader.rankings


def test_a_question_s_lines_together_are_encoded_as_they_end(tmp_path, monkeypatch):
    # trec_eval's order, worked by hand: d2 (score 3), then the tie at 2.5 by docno
    # descending (d3 before d1); q2 alone; q9 has no labels and is dropped
    text = ("q1 Q0 d1 1 2.5 a\nq1 Q0 d3 2 2.5 a\nq1 Q0 d2 3 3 a\nq9 Q0 d1 1 1 a\n"
            "q2 Q0 d4 1 0.5 a\n")
    assert _early_reads(monkeypatch, tmp_path, text) == (
        [True], {"a": {"q1": b'["d2", "d3", "d1"]', "q2": b'["d4"]'}})


def test_a_question_s_lines_apart_are_read_again_the_ordinary_way(tmp_path, monkeypatch):
    text = "q1 Q0 d1 1 2 a\nq2 Q0 d4 1 1 a\nq1 Q0 d2 2 3 a\n"
    assert _early_reads(monkeypatch, tmp_path, text) == (
        [True, False], {"a": {"q1": b'["d2", "d1"]', "q2": b'["d4"]'}})


def test_a_docno_ranked_twice_is_reported_as_the_ordinary_reading_does(tmp_path, monkeypatch):
    # the repeated docno (line 2) comes before a bad score (line 4): the ordinary reading
    # reports the bad score first, as it checks every line before it sorts
    text = "q1 Q0 d1 1 2 a\nq1 Q0 d1 2 1 a\nq2 Q0 d4 1 1 a\nq2 Q0 d5 2 high a\n"
    assert _early_reads(monkeypatch, tmp_path, text) == (
        [True, False], "/a.run, line 4: score must be a number; got 'high'")
    text = "q1 Q0 d1 1 2 a\nq1 Q0 d1 2 1 a\nq2 Q0 d4 1 1 a\n"
    assert _early_reads(monkeypatch, tmp_path, text) == (
        [True, False], "/a.run, line 2: document 'd1' is ranked twice for question 'q1' by "
                       "system 'a' (first on line 1)")
