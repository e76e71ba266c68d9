"""Format version 5: the runs in one Parquet file. A save writes it and every reading gives the
dataset back; both engines count it the same; every malformed file is refused with a
ValueError naming the file and the field (a row's case and system where there is one), never
a pyarrow traceback; ``upgrade`` rewrites older folders; ``validate`` checks it."""
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ragscore
from ragscore.cli import capture
from ragscore.engine import count_folder
from ragscore.folders import load_dataset, save_dataset, upgrade_folder, validate_folder

from tests.engine.test_equivalence import assert_same  # noqa: E402  (one definition of "same")
from tests.folder_edits import rehash

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _index(folder):
    return json.loads((folder / "dataset.json").read_text())


def _runs_file(folder):
    return folder / _index(folder)["files"]["runs"]


@pytest.mark.parametrize("name", ["course", "course-runs", "answers", "practice"])
def test_a_saved_folder_is_version_5_and_loads_back_as_it_was(tmp_path, name):
    dataset = load_dataset(FIXTURES / name)
    folder = save_dataset(dataset, tmp_path / name)
    index = _index(folder)
    assert index["version"] == 5 and index["files"]["runs"].endswith(".parquet")
    assert sorted(index["files"]) == ["cases", "corpus", "runs"]
    back = load_dataset(folder)
    assert back == dataset


def test_numbers_keep_their_type(tmp_path):
    folder = save_dataset(load_dataset(FIXTURES / "course-runs"), tmp_path / "runs")
    first = load_dataset(folder).runs["launch"]["A"]
    first = first[0] if type(first) is list else first
    # the fixture's first line: "latency_ms": 410, "tokens": 820, "cost": 0.0016
    assert (first["latency_ms"], first["tokens"], first["cost"]) == (410, 820, 0.0016)
    assert (type(first["latency_ms"]), type(first["cost"])) == (int, float)


def test_the_ranking_is_coded_by_corpus_position(tmp_path):
    folder = save_dataset(ragscore.load_course(), tmp_path / "c")
    table = pq.read_table(_runs_file(folder))
    assert table.schema.field("retrieved").type == pa.list_(pa.int32())
    corpus = list(ragscore.load_course().corpus)  # launch rollback checklist owners archive
    # the first run, launch by A, retrieved launch then archive: positions 0 and 4
    assert table.column("retrieved")[0].as_py() == [corpus.index("launch"),
                                                   corpus.index("archive")] == [0, 4]
    assert table.column("case").to_pylist()[:2] == ["launch", "launch"]
    assert table.schema.metadata[b"ragscore.corpus"].startswith(b"5:")


def test_answers_as_cited_sentences_are_columns_and_count_as_in_memory(tmp_path):
    """TREC RAG's answers (issue 34): sentences citing IDs and the declared response length
    are the runs file's ``sentences`` and ``response_length`` columns, read back as they
    were; with no claims and no judgements, the folder still waits for review of each
    sentence (the engines look at the columns), as the dataset in memory does."""
    from ragscore.engine import count_dataset
    from ragscore.importers.nuggetizer import import_nuggets

    source = FIXTURES / "import" / "nuggets"
    dataset, _ = import_nuggets(source / "nuggets.jsonl", answers=source / "answers.jsonl",
                                qrels=source / "qrels.txt")
    folder = save_dataset(dataset, tmp_path / "trec-rag")
    assert sorted(_index(folder)["files"]) == ["cases", "corpus", "runs"]  # no judgements
    table = pq.read_table(_runs_file(folder))
    assert table.schema.field("response_length").type == pa.int64()
    # answers.jsonl, line 1: run-a on t1, 11 words, its first sentence citing references[0]
    first = table.slice(0, 1).to_pylist()[0]
    assert (first["case"], first["system"], first["response_length"]) == ("t1", "run-a", 11)
    assert first["sentences"][0] == {"text": "The release window opens on Monday.",
                                     "citations": ["seg-launch"]}
    assert load_dataset(folder) == dataset
    for engine in ("reference", "columnar"):
        assert_same(count_dataset(dataset, engine="reference"),
                    count_folder(folder, engine=engine), ks=(1, 2, 3))
        assert count_folder(folder, engine=engine).waiting  # each sentence awaits review


@pytest.mark.parametrize("name", ["course", "course-runs"])
def test_both_engines_count_a_version_5_folder_the_same(tmp_path, name):
    folder = save_dataset(load_dataset(FIXTURES / name), tmp_path / name)
    assert_same(count_folder(folder, engine="reference"), count_folder(folder, engine="columnar"),
                ks=(1, 2, 3))
    assert_same(count_folder(FIXTURES / name, engine="reference"),
                count_folder(folder, engine="columnar"), ks=(1, 2, 3))


def _rewritten(folder, change):
    """Rewrite the runs file of ``folder`` with ``change(table)`` under the name of its new
    content, as a tool rewriting it would (a file changed in place is refused for that
    alone: tests/io/test_content_hash.py); return its path."""
    path = _runs_file(folder)
    table = change(pq.read_table(path))
    pq.write_table(table, path)
    return rehash(folder)["runs"]


def _column(table, name, values, kind):
    return table.set_column(table.column_names.index(name), name, pa.array(values, type=kind))


def _meta(table):
    return table.schema.metadata


BROKEN = {
    "not parquet": (lambda path: path.write_bytes(b'{"case": "launch"}\n'),
                    "not a readable Parquet file of runs"),
    "cut short": (lambda path: path.write_bytes(path.read_bytes()[:-40]),
                  "not a readable Parquet file of runs"),
    "empty": (lambda path: path.write_bytes(b""), "not a readable Parquet file of runs"),
}
CHANGED = {
    "unknown column": (lambda t: t.append_column("score", pa.array([1.0] * t.num_rows)),
                       "unknown column 'score'"),
    "missing column": (lambda t: t.drop_columns(["system"]), "missing column 'system'"),
    "wrong type": (lambda t: _column(t, "retrieved", [["launch"]] * t.num_rows,
                                     pa.list_(pa.string())),
                   "column 'retrieved' must be a list of corpus positions"),
    "a null case": (lambda t: _column(t, "case", [None] + t.column("case").to_pylist()[1:],
                                      pa.string()),
                    "missing key 'case'"),  # row 1: see the test below
    "a code outside": (lambda t: _column(t, "retrieved",
                                         [[0, 9]] + t.column("retrieved").to_pylist()[1:],
                                         pa.list_(pa.int32())),
                       "row 1 (case 'launch', system 'A'): key 'retrieved' item 1 must be the "
                       "position of a document in the corpus (0 to 4); got 9"),
    "a null code": (lambda t: _column(t, "retrieved",
                                      [[0, None]] + t.column("retrieved").to_pylist()[1:],
                                      pa.list_(pa.int32())),
                    "row 1 (case 'launch', system 'A'): key 'retrieved' item 1 must be the "
                    "position of a document in the corpus (0 to 4); got None"),
    "a repeated run": (lambda t: pa.concat_tables([t, t.slice(0, 1)]),
                       "row 9: duplicate run for case 'launch', system 'A'"),
    "an unknown case": (lambda t: _column(t, "case", ["nowhere"] + t.column(
        "case").to_pylist()[1:], pa.string()), "row 1: case 'nowhere' is not in"),
    "a repeated ID": (lambda t: _column(t, "retrieved", [[0, 0]] + t.column(
        "retrieved").to_pylist()[1:], pa.list_(pa.int32())),
        "row 1 (case 'launch', system 'A'): run['retrieved'][1] must be unique"),
    "another corpus": (lambda t: t.replace_schema_metadata({b"ragscore.corpus": b"5:0"}),
                       "its rankings are coded against another corpus"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN) + sorted(CHANGED))
def test_a_malformed_runs_file_is_refused_naming_file_and_field(tmp_path, kind):
    folder = save_dataset(ragscore.load_course(), tmp_path / "c")
    path = _runs_file(folder)
    if kind in BROKEN:
        BROKEN[kind][0](path)
        path = rehash(folder)["runs"]
        expected = BROKEN[kind][1]
    else:
        def keep_meta(table, change=CHANGED[kind][0]):
            changed = change(table)
            return changed if kind == "another corpus" else changed.replace_schema_metadata(
                _meta(table))
        path = _rewritten(folder, keep_meta)
        expected = CHANGED[kind][1]
    for read in (load_dataset, lambda f: count_folder(f, engine="columnar"),
                 lambda f: count_folder(f, engine="reference"), validate_folder):
        with pytest.raises(ValueError) as refused:
            read(folder)
        assert path.name in str(refused.value) and expected in str(refused.value), \
            str(refused.value)
        assert type(refused.value).__name__ == "DatasetFileError"


def test_upgrade_rewrites_a_folder_of_any_version_in_place(tmp_path):
    for name in ("course", "course-runs", "answers"):
        folder = tmp_path / name
        shutil.copytree(FIXTURES / name, folder)
        before = load_dataset(folder)
        old = _index(folder)["version"]
        assert upgrade_folder(folder) == (old, 5)
        assert _index(folder)["version"] == 5 and load_dataset(folder) == before
        assert sorted(path.name.split(".")[0] for path in folder.iterdir()
                      if not path.name.startswith(".")) == ["cases", "corpus", "dataset", "runs"]
    code, out, err = capture(["upgrade", str(tmp_path / "course")])
    assert code == 0 and out == f"{tmp_path / 'course'}: format version 5 rewritten as version " \
                                "5 (the test set in JSON Lines, the runs in Parquet)\n", err


def test_an_upgrade_keeps_a_save_made_between_its_read_and_its_write(tmp_path, monkeypatch):
    import ragscore.folders as folders

    folder = tmp_path / "course"
    shutil.copytree(FIXTURES / "course-runs", folder)
    changed = load_dataset(folder)._replace(description="saved while the upgrade read")
    read = folders.load_dataset

    def read_then_another_save(path, **options):
        found = read(path, **options)
        if found.description != changed.description:  # the upgrade's first read
            from ragscore.io.write import save_dataset as save_jsonl

            save_jsonl(changed, folder, overwrite=True, version=3)  # another command's save
        return found

    monkeypatch.setattr(folders, "load_dataset", read_then_another_save)
    assert upgrade_folder(folder) == (3, 5)
    assert _index(folder)["version"] == 5 and read(folder) == changed


def test_upgrade_leaves_a_broken_folder_as_it_is(tmp_path):
    folder = tmp_path / "course"
    shutil.copytree(FIXTURES / "course", folder)
    runs = folder / "runs.jsonl"
    runs.write_text(runs.read_text().replace('"system": "A"', '"system": 5', 1))
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    code, _, err = capture(["upgrade", str(folder)])
    assert code == 2 and "runs.jsonl, line 1" in err and "'system'" in err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_validate_checks_each_row_against_the_run_schema(tmp_path):
    folder = save_dataset(ragscore.load_course(), tmp_path / "c")
    assert validate_folder(folder) == {"corpus": 5, "cases": 4, "runs": 8}
    code, out, _ = capture(["validate", str(folder)])
    assert code == 0 and "8 runs records" in out

    def empty_claim(table):
        claims = table.column("claims").to_pylist()
        claims[2] = [{"claim": "", "citations": []}]
        return _column(table, "claims", claims, table.schema.field("claims").type) \
            .replace_schema_metadata(_meta(table))
    path = _rewritten(folder, empty_claim)
    with pytest.raises(ValueError, match=rf"{path.name}, row 3: claims\[0\]\.claim: must satisfy "
                                         "minLength 1"):
        validate_folder(folder)


def test_io_alone_refuses_a_version_5_folder_clearly(tmp_path):
    from ragscore.io.read import load_dataset as io_load

    folder = save_dataset(ragscore.load_course(), tmp_path / "c")
    with pytest.raises(ValueError, match="format version 5 keeps its runs in Parquet"):
        io_load(folder)
