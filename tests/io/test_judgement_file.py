"""Format version 5's judgements file: written and read back as it was, every broken record
refused with its file, line and field, a record about a case the test set no longer holds
kept, and only a version 5 index may name the file."""
import json

import pytest

import ragscore
from ragscore.folders import load_dataset, save_dataset, validate_folder
from ragscore.io.dataset import DatasetFileError

RECORD = {"kind": "answerability", "case": "launch", "key": "0123456789abcdef",
          "decision": "answerable", "reviewer": "ana", "date": "2026-12-04", "origin": "human",
          "batch": "fedcba9876543210"}


@pytest.fixture
def folder(tmp_path):
    course = ragscore.load_course()._replace(ids="open")
    gone = dict(RECORD, case="no-such-case", reviewer="ben")
    return save_dataset(course._replace(judgements=(RECORD, gone)), tmp_path / "d")


def test_judgements_are_written_in_a_version_5_file_and_read_back(folder):
    index = json.loads((folder / "dataset.json").read_text())
    assert index["version"] == 5
    name = index["files"]["judgements"]
    assert name.startswith("judgements.") and (folder / name).is_file()
    loaded = load_dataset(folder)
    assert loaded.judgements == (RECORD, dict(RECORD, case="no-such-case", reviewer="ben"))
    assert validate_folder(folder) == {"corpus": 5, "cases": 4, "runs": 8, "judgements": 2}


@pytest.mark.parametrize("change, message", [
    ({"decision": "maybe"}, "line 2: field 'decision' must be one of answerable, "
                            "unanswerable, unsure; got 'maybe'"),
    ({"origin": None}, "line 2: field 'origin' is missing"),
    ({"extra": 1}, "line 2: unknown field 'extra' for an answerability judgement"),
])
def test_a_broken_record_is_refused_with_file_line_and_field(folder, change, message):
    name = json.loads((folder / "dataset.json").read_text())["files"]["judgements"]
    lines = (folder / name).read_text().splitlines()
    broken = {key: value for key, value in {**json.loads(lines[1]), **change}.items()
              if value is not None}
    (folder / name).write_text(lines[0] + "\n" + json.dumps(broken) + "\n")
    with pytest.raises(DatasetFileError, match=f"{name}, {message}"):
        load_dataset(folder)


def test_only_a_version_5_index_names_a_judgements_file(folder):
    index = json.loads((folder / "dataset.json").read_text())
    (folder / "dataset.json").write_text(json.dumps(dict(index, version=4)))
    with pytest.raises(DatasetFileError, match="key 'files' must name corpus, cases, runs "
                                               r"\(version 5: and optionally documents, "
                                               r"judgements\)"):
        load_dataset(folder)
