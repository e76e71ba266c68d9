"""Datasets on disk: the course fixture, round trips, and errors that name file and line."""
import json
import os
import shutil

import pytest

import ragscore
from ragscore import Dataset, DatasetFileError, load_dataset, save_dataset
from ragscore.io.course import COURSE_PATH

# The workbook's fixture, written out by hand (chapter 1) to check that the files carry it exactly.
WORKBOOK_CORPUS = {
    "launch": "The fictional release window starts on Monday.",
    "rollback": "Switch traffic back to the previous version.",
    "checklist": "After rollback, run the smoke test.",
    "owners": "The fictional Aurora team owns the alert.",
    "archive": "An old planning note discusses a retired project.",
}
WORKBOOK_CASES = {
    "launch": {"question": "When does the release window start?",
               "relevant": ("launch",), "support": {"monday": ("launch",)}},
    "rollback": {"question": "What are the two rollback actions?",
                 "relevant": ("rollback", "checklist"),
                 "support": {"switch": ("rollback",), "smoke": ("checklist",)}},
    "owner": {"question": "Who owns the alert?", "relevant": ("owners",),
              "support": {"aurora": ("owners",)}},
    "region": {"question": "Which region hosts the backup?", "relevant": (), "support": {}},
}
WORKBOOK_RUNS = {
    "launch": {"A": {"retrieved": ("launch", "archive"), "claims": (("monday", ("launch",)),)},
               "B": {"retrieved": ("launch", "archive"),
                     "claims": (("monday", ("launch",)), ("bonus", ("launch",)))}},
    "rollback": {"A": {"retrieved": ("rollback",), "claims": (("switch", ("rollback",)),)},
                 "B": {"retrieved": ("rollback", "checklist"),
                       "claims": (("switch", ("rollback",)), ("smoke", ("checklist",)))}},
    "owner": {"A": {"retrieved": ("archive", "owners"), "claims": (("aurora", ("archive",)),)},
              "B": {"retrieved": ("owners", "archive"), "claims": (("aurora", ("owners",)),)}},
    "region": {"A": {"retrieved": ("archive",), "claims": (("region", ("archive",)),)},
               "B": {"retrieved": (), "claims": ()}},
}


def test_course_files_carry_the_workbook_fixture_exactly():
    course = ragscore.load_course()
    assert course.corpus == WORKBOOK_CORPUS
    assert course.cases == WORKBOOK_CASES
    assert course.runs == WORKBOOK_RUNS
    assert list(course.cases) == list(WORKBOOK_CASES)
    assert course.systems == ("A", "B")
    assert course.name == "course"


def test_arrays_become_tuples():
    course = ragscore.load_course()
    assert type(course.cases["rollback"]["relevant"]) is tuple
    assert type(course.runs["launch"]["B"]["claims"][1]) is tuple
    assert type(course.runs["launch"]["B"]["claims"][1][1]) is tuple


def test_round_trip(tmp_path):
    course = ragscore.load_course()
    target = save_dataset(course, tmp_path / "copy")
    again = load_dataset(target)
    assert again == course
    index = json.loads((target / "dataset.json").read_text())
    assert sorted(os.listdir(target)) == sorted(["dataset.json", *index["files"].values()])


def test_saved_files_match_the_fixture_byte_for_byte(tmp_path):
    """The JSON Lines writer (every file of a version 2 save; the test set of version 5)."""
    from ragscore.io.write import save_dataset as save_jsonl

    target = save_jsonl(ragscore.load_course(), tmp_path / "copy", version=2)
    files = json.loads((target / "dataset.json").read_text())["files"]
    for kind in ("corpus", "cases", "runs"):
        assert (target / files[kind]).read_bytes() == \
            (COURSE_PATH / f"{kind}.jsonl").read_bytes(), kind
    target = save_dataset(ragscore.load_course(), tmp_path / "five")
    files = json.loads((target / "dataset.json").read_text())["files"]
    for kind in ("corpus", "cases"):
        assert (target / files[kind]).read_bytes() == \
            (COURSE_PATH / f"{kind}.jsonl").read_bytes(), kind


def test_save_refuses_to_overwrite_unless_asked(tmp_path):
    course = ragscore.load_course()
    target = save_dataset(course, tmp_path / "copy")
    with pytest.raises(ValueError, match=r"copy: already exists; pass overwrite=True"):
        save_dataset(course, target)
    smaller = Dataset(corpus=course.corpus, cases={"owner": course.cases["owner"]},
                      runs={"owner": course.runs["owner"]}, name="small")
    save_dataset(smaller, target, overwrite=True)
    assert list(load_dataset(target).cases) == ["owner"]
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]  # no scratch folders left behind


def test_a_failed_save_leaves_the_old_dataset_intact(tmp_path, monkeypatch):
    course = ragscore.load_course()
    target = save_dataset(course, tmp_path / "copy")

    def broken_files(dataset):
        raise OSError("disk full")

    monkeypatch.setattr("ragscore.io.write.dataset_chunks", broken_files)
    with pytest.raises(OSError):
        save_dataset(course, target, overwrite=True)
    assert load_dataset(target) == course
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]


@pytest.fixture
def folder(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(COURSE_PATH, target)
    return target


def _rewrite(path, line_number, text):
    lines = path.read_text().splitlines()
    lines[line_number - 1] = text
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("file, line, text, message", [
    ("corpus.jsonl", 2, '{"id": "rollback", "text": "x"', r"corpus\.jsonl, line 2: not valid JSON"),
    ("corpus.jsonl", 2, '["rollback", "x"]', r"corpus\.jsonl, line 2: expected a JSON object"),
    ("corpus.jsonl", 2, '{"id": "launch", "text": "again"}',
     r"corpus\.jsonl, line 2: duplicate document id 'launch'"),
    ("corpus.jsonl", 2, '{"id": "rollback"}', r"corpus\.jsonl, line 2: missing key 'text'"),
    ("corpus.jsonl", 2, '{"id": "rollback", "text": 3}',
     r"corpus\.jsonl, line 2: key 'text' must be a string; got 3"),
    ("corpus.jsonl", 2, '{"id": "rollback", "text": "x", "extra": 1}',
     r"corpus\.jsonl, line 2: unknown key 'extra'"),
    ("corpus.jsonl", 2, '{"id": "rollback", "text": "x", "text": "y"}',
     r"corpus\.jsonl, line 2: not valid JSON \(duplicate key 'text'\)"),
    ("corpus.jsonl", 2, '{"id": "Rollback", "text": "x"}',
     r"corpus\.jsonl, line 2: corpus key must be an ID matching .*; got 'Rollback'"),
    ("cases.jsonl", 3, '{"id": "owner", "relevant": "owners", "support": {}}',
     r"cases\.jsonl, line 3: key 'relevant' must be an array; got 'owners'"),
    ("cases.jsonl", 3, '{"id": "owner", "relevant": ["ghost"], "support": {"a": ["ghost"]}}',
     r"cases\.jsonl, line 3 \(case 'owner'\): case\['relevant'\]\[0\] must be an ID in the "
     r"corpus; got 'ghost'"),
    ("cases.jsonl", 3, '{"id": "owner", "relevant": ["owners"], "support": {"a": "owners"}}',
     r"cases\.jsonl, line 3: key 'support.a' must be an array of IDs; got 'owners'"),
    ("cases.jsonl", 3, '{"id": "launch", "relevant": [], "support": {}}',
     r"cases\.jsonl, line 3: duplicate case id 'launch'"),
    ("cases.jsonl", 3, '{"id": "has space", "relevant": [], "support": {}}',
     r"cases\.jsonl, line 3: key 'id' must match"),
    ("cases.jsonl", 3, '{"id": "owner", "question": 5, "relevant": [], "support": {}}',
     r"cases\.jsonl, line 3: key 'question' must be a string"),
    ("runs.jsonl", 5, '{"case": "ghost", "system": "A", "retrieved": [], "claims": []}',
     r"runs\.jsonl, line 5: case 'ghost' is not in cases\.jsonl"),
    ("runs.jsonl", 5, '{"case": "launch", "system": "A", "retrieved": [], "claims": []}',
     r"runs\.jsonl, line 5: duplicate run for case 'launch', system 'A'"),
    ("runs.jsonl", 5, '{"case": "owner", "system": "A", "retrieved": ["owners", "owners"], '
                      '"claims": []}',
     r"runs\.jsonl, line 5 \(case 'owner', system 'A'\): run\['retrieved'\]\[1\] must be "
     r"unique within the tuple; got 'owners'"),
    ("runs.jsonl", 5, '{"case": "owner", "system": "A", "retrieved": [], "claims": [["a", []]]}',
     r"runs\.jsonl, line 5: claims\[0\] must be an object with 'claim' and 'citations'"),
    ("runs.jsonl", 5, '{"case": "owner", "system": "A", "retrieved": [], '
                      '"claims": [{"claim": "a"}]}',
     r"runs\.jsonl, line 5: claims\[0\]: missing key 'citations'"),
    ("runs.jsonl", 5, '{"case": "owner", "system": "A", "retrieved": [], "score": NaN, '
                      '"claims": []}',
     r"runs\.jsonl, line 5: not valid JSON \(NaN is not allowed\)"),
])
def test_bad_lines_are_named(folder, file, line, text, message):
    _rewrite(folder / file, line, text)
    with pytest.raises(DatasetFileError, match=message):
        load_dataset(folder)


@pytest.mark.parametrize("manifest, message", [
    ("[]", r"dataset\.json: expected a JSON object; got \[\]"),
    ('{"format": "other", "version": 1}', r"dataset\.json: key 'format' must be "
                                          r"'ragscore-dataset'; got 'other'"),
    ('{"format": "ragscore-dataset", "version": 6}',
     r"key 'version' must be 1, 2, 3, 4 or 5; got 6"),
    ('{"format": "ragscore-dataset", "version": 1, "name": 3}', r"key 'name' must be a string"),
    ("{", r"dataset\.json: not valid JSON"),
])
def test_bad_manifest(folder, manifest, message):
    (folder / "dataset.json").write_text(manifest)
    with pytest.raises(DatasetFileError, match=message):
        load_dataset(folder)


def test_missing_folder_and_missing_file(tmp_path, folder):
    with pytest.raises(DatasetFileError, match=r"nowhere: no dataset folder there"):
        load_dataset(tmp_path / "nowhere")
    (folder / "runs.jsonl").unlink()
    with pytest.raises(DatasetFileError, match=r"runs\.jsonl: cannot be read"):
        load_dataset(folder)


def test_files_over_the_size_limit_are_refused(folder):
    size = (folder / "corpus.jsonl").stat().st_size  # 366 bytes; the other files are larger
    assert size == 366
    with pytest.raises(DatasetFileError, match=r"corpus\.jsonl: is 366 bytes, over the "
                                               r"limit of 365; pass a larger max_bytes"):
        load_dataset(folder, max_bytes=365)
    assert load_dataset(folder, max_bytes=10_000).corpus  # a higher limit reads it


def test_non_utf8_and_empty_files(folder):
    (folder / "corpus.jsonl").write_bytes(b'{"id": "a", "text": "\xff"}\n')
    with pytest.raises(DatasetFileError, match=r"corpus\.jsonl, line 1: not UTF-8 text"):
        load_dataset(folder)
    (folder / "corpus.jsonl").write_text("\n")
    with pytest.raises(DatasetFileError, match=r"corpus\.jsonl: holds no documents"):
        load_dataset(folder)


def test_blank_lines_are_skipped_and_line_numbers_stay_true(folder):
    path = folder / "runs.jsonl"
    path.write_text("\n" + path.read_text().replace(
        '"retrieved": ["archive", "owners"]', '"retrieved": ["archive", "ghost"]'))
    with pytest.raises(DatasetFileError, match=r"runs\.jsonl, line 6 \(case 'owner', "
                                               r"system 'A'\)"):
        load_dataset(folder)


def test_deeply_nested_json_is_a_clear_error(folder):
    (folder / "corpus.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(DatasetFileError, match=r"corpus\.jsonl, line 1: "):
        load_dataset(folder)


def test_manifest_text_is_kept(tmp_path):
    course = ragscore.load_course()
    assert "fictional" in course.description
    manifest = json.loads((save_dataset(course, tmp_path / "c") / "dataset.json").read_text())
    assert manifest == {"format": "ragscore-dataset", "version": 5, "name": "course",
                        "description": course.description, "files": manifest["files"]}


def test_ids_that_need_escaping_load_back_unchanged(tmp_path):
    ids = ['say "hi"', "back\\slash", "café", "d-2#7"]
    corpus = {doc: None for doc in ids}
    runs = {"q1": {"A": {"retrieved": ('say "hi"', "back\\slash")}}}
    dataset = Dataset(corpus=corpus, cases={"q1": {"relevant": ("café",)}}, runs=runs,
                      ids="open")
    save_dataset(dataset, tmp_path / "saved")
    loaded = load_dataset(tmp_path / "saved")
    assert list(loaded.corpus) == ids
    assert loaded.runs == runs
