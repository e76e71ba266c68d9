"""Every data file of a saved folder is checked against the hash its name carries when it is
read (ragscore.io.content): a flipped byte or a hand edit of valid values is refused, exit 2
naming the file, by both engines, ``validate`` and every reading; ``--no-verify`` reads it
and every output says so."""
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import ragscore
from ragscore.cli import capture
from ragscore.engine import count_folder
from ragscore.engine.columnar.reader import read_batch
from ragscore.folders import load_dataset, save_dataset, validate_folder
from ragscore.io.course import COURSE_PATH
from ragscore.io.jsonl import DatasetFileError
from ragscore.io.read import read_prepared
from tests.folder_edits import rehash

MISMATCH = "its content does not match the hash its name carries"
NO_VERIFY_NOTE = ("--no-verify: the data files were read without comparing their content "
                  "with the hash their names carry; a file changed after its save would "
                  "not be noticed")
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _files(folder):
    return {kind: folder / name for kind, name in
            json.loads((folder / "dataset.json").read_text())["files"].items()}


def _uncompressed_runs(folder):
    """The runs file rewritten without compression (each string then lies in its bytes as
    written), under its content name: a valid folder."""
    path = _files(folder)["runs"]
    pq.write_table(pq.read_table(path), path, compression="none",
                   use_dictionary=["case", "system"], write_statistics=False)
    return rehash(folder)["runs"]


def _flip(path, old, new):
    """One byte of ``path`` changed in place: the first ``old`` made ``new`` (same length)."""
    data = path.read_bytes()
    at = data.find(old)
    assert at >= 0 and len(old) == len(new)
    path.write_bytes(data[:at] + new + data[at + len(old):])


@pytest.fixture
def answers(tmp_path):
    """A version 5 folder whose runs record answer text (read record by record)."""
    folder = save_dataset(load_dataset(FIXTURES / "answers"), tmp_path / "answers")
    _uncompressed_runs(folder)
    return folder


@pytest.fixture
def course5(tmp_path):
    """The course as a version 5 folder (read in bulk by the columnar engine)."""
    folder = save_dataset(ragscore.load_course(), tmp_path / "course")
    _uncompressed_runs(folder)
    return folder


def _read_as_renamed(folder, tmp_path, read=load_dataset):
    """What ``read`` gives for a copy of ``folder`` whose files are named by their content:
    the folder's content, read without the content check."""
    copy = tmp_path / "renamed"
    shutil.copytree(folder, copy)
    rehash(copy)
    return read(copy)


def _readings():
    return {"load_dataset": load_dataset, "validate_folder": validate_folder,
            "columnar": lambda folder: count_folder(folder, engine="columnar"),
            "reference": lambda folder: count_folder(folder, engine="reference"),
            "read_prepared": lambda folder: read_prepared(folder, codec=_codec())}


def _codec():
    from ragscore.engine.parquet import CODEC

    return CODEC


def _refused_everywhere(folder, path):
    for name, read in _readings().items():
        with pytest.raises(DatasetFileError) as refused:
            read(folder)
        message = str(refused.value)
        assert message.startswith(str(path)) and MISMATCH in message, (name, message)
        assert "--no-verify" in message
    for engine in ("columnar", "reference"):
        code, out, err = capture(["report", str(folder), "--engine", engine])
        assert code == 2 and out == "" and err.count("\n") == 1, (engine, err)
        assert path.name in err and MISMATCH in err
    code, _, err = capture(["validate", str(folder)])
    assert code == 2 and path.name in err and MISMATCH in err


def test_one_flipped_byte_in_an_answer_of_a_parquet_runs_file_is_refused(answers, tmp_path):
    path = _files(answers)["runs"]
    before = load_dataset(answers)
    _flip(path, b"starts on Monday", b"starts on monday")
    after = _read_as_renamed(answers, tmp_path)  # still good Parquet, one answer changed
    assert after.runs["launch"]["draft"]["answer"].startswith("The release window starts on "
                                                              "monday")
    assert after != before
    _refused_everywhere(answers, path)


def test_one_flipped_byte_in_a_claim_of_a_runs_file_read_in_bulk_is_refused(course5, tmp_path):
    path = _files(course5)["runs"]
    assert read_batch(course5, max_bytes=1 << 30) is not None  # the bulk reader takes it
    _flip(path, b"monday", b"mondaz")
    assert _read_as_renamed(course5, tmp_path, lambda folder: read_batch(
        folder, max_bytes=1 << 30)) is not None  # its content alone reads as good
    assert read_batch(course5, max_bytes=1 << 30) is None  # left to the record reader
    _refused_everywhere(course5, path)


@pytest.mark.parametrize("kind, old, new", [
    ("cases", b'"relevant": ["owners"]', b'"relevant": ["owners", "archive"]'),
    ("corpus", b"starts on Monday", b"starts on Friday"),
])
def test_a_hand_edit_of_valid_values_in_a_json_lines_file_is_refused(course5, tmp_path, kind,
                                                                     old, new):
    path = _files(course5)[kind]
    text = path.read_bytes()
    assert old in text
    path.write_bytes(text.replace(old, new, 1))
    assert _read_as_renamed(course5, tmp_path) != ragscore.load_course()  # every record valid
    _refused_everywhere(course5, path)


def test_a_judgements_file_edited_by_hand_is_refused(tmp_path):
    from ragscore.io.course import load_course

    course = load_course()
    record = {"kind": "answerability", "case": "region", "decision": "unanswerable",
              "reviewer": "ana", "date": "2026-12-04", "origin": "human",
              "batch": "0a1b2c3d4e5f6071"}
    from ragscore.core.labels import question_key

    record["key"] = question_key(course.cases["region"]["question"])
    folder = save_dataset(course._replace(judgements=(record,)), tmp_path / "judged")
    path = _files(folder)["judgements"]
    _flip(path, b'"ana"', b'"ann"')
    for name in ("load_dataset", "columnar", "reference", "validate_folder"):
        with pytest.raises(DatasetFileError, match=MISMATCH) as refused:
            _readings()[name](folder)
        assert str(refused.value).startswith(str(path))


def test_an_edit_that_breaks_a_record_names_the_line_and_the_edited_file(course5):
    path = _files(course5)["cases"]
    _flip(path, b'"relevant": ["launch"]', b'"relevant": ["Launch"]')
    for name, read in _readings().items():
        with pytest.raises(DatasetFileError) as refused:
            read(course5)
        message = str(refused.value)
        assert MISMATCH in message, (name, message)
        if name != "validate_folder":  # its schemas pass the line: the file's end comes first
            assert f"{path.name}, line 1 (case 'launch')" in message, (name, message)


def test_no_verify_reads_an_edited_folder_and_every_output_says_so(course5):
    path = _files(course5)["cases"]
    path.write_bytes(path.read_bytes().replace(b'"relevant": ["owners"]',
                                               b'"relevant": ["owners", "archive"]'))
    code, out, err = capture(["report", str(course5), "--no-verify"])
    assert code == 0 and out.startswith(f"Note: {NO_VERIFY_NOTE}\n") and err == ""
    for fmt in ("csv", "json"):
        code, out, err = capture(["report", str(course5), "--no-verify", "--format", fmt])
        assert code == 0 and NO_VERIFY_NOTE not in out
        assert f"ragscore: note: {NO_VERIFY_NOTE}\n" in err
    code, out, _ = capture(["validate", str(course5), "--no-verify"])
    assert code == 0 and out.startswith("Note: --no-verify")
    code, out, _ = capture(["audit", str(course5), "--no-verify"])
    assert code == 0 and out.startswith("Note: --no-verify")


def test_a_version_1_folder_has_no_hash_to_compare_and_reads_as_before():
    assert load_dataset(COURSE_PATH) == ragscore.load_course()
    code, out, _ = capture(["report", str(COURSE_PATH)])
    assert code == 0 and "launch" in out
