"""Every output path is checked before work starts (issue 35): never an input of the same
command, never a file of a dataset folder, never a folder, FIFO or device, never a foreign
file an overwrite would remove; and a save removes only what an index named."""
import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

import ragscore
from ragscore.cli import capture

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "fixtures" / "import" / "log" / "answers.jsonl"


def _digests(folder):
    """``{relative path: sha256}`` of every file under ``folder`` (the lock ignored)."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(Path(folder).rglob("*")) if path.is_file()
            and path.name != ".ragscore.lock"}


@pytest.fixture
def answers(tmp_path):
    """A dataset folder of answers awaiting review (two systems), and its file digests."""
    folder = tmp_path / "answers"
    shutil.copytree(ROOT / "fixtures" / "answers", folder)
    return folder


def _refused(argv, *fragments):
    code, out, err = capture(argv)
    assert code == 2, (code, err)
    assert err.startswith("ragscore: error: ") and len(err.splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err
    return err


def test_import_review_out_naming_the_source_log_is_refused_and_the_log_kept(tmp_path):
    log = tmp_path / "answers.jsonl"
    shutil.copy(LOG, log)
    before = log.read_bytes()
    _refused(["import", "log", str(log), "--out", str(tmp_path / "d"), "--review-out",
              str(log)], "--review-out", "an input of this command")
    assert log.read_bytes() == before
    assert not (tmp_path / "d").exists()  # refused before the import was written


def test_import_out_naming_the_source_log_is_refused(tmp_path):
    log = tmp_path / "answers.jsonl"
    shutil.copy(LOG, log)
    _refused(["import", "log", str(log), "--out", str(log)], "an input of this command")
    assert log.read_bytes() == LOG.read_bytes()


def test_html_out_inside_the_dataset_folder_is_refused_and_the_folder_kept(answers):
    before = _digests(answers)
    for name in ("dataset.json", "page.html"):
        _refused(["html", str(answers), "--baseline", "draft", "--candidate", "careful",
                  "--out", str(answers / name)], "--out", str(answers))
    assert _digests(answers) == before
    assert ragscore.load_dataset(answers).name == "answers"


def test_review_export_over_a_data_file_is_refused_and_the_folder_kept(answers):
    index = json.loads((answers / "dataset.json").read_text())
    runs = answers / index["files"]["runs"]
    before = _digests(answers)
    _refused(["review", "export", str(answers), "--out", str(runs)], "--out")
    assert _digests(answers) == before
    ragscore.load_dataset(answers)


def test_baseline_and_trec_export_into_a_dataset_folder_are_refused(answers, tmp_path):
    course = tmp_path / "course"
    shutil.copytree(ROOT / "fixtures" / "course", course)
    before = _digests(course), _digests(answers)
    _refused(["baseline", "save", str(course), "--system", "A", "--out",
              str(answers / "base.json")], "inside the dataset folder")
    _refused(["export", "trec", str(course), "--out-prefix", str(answers / "x")],
             "inside the dataset folder")
    _refused(["export", "trec", str(course), "--out-prefix", str(course / "sub" / "x")],
             "an input of this command")
    assert (_digests(course), _digests(answers)) == before
    assert not (course / "sub").exists()


def test_a_folder_a_fifo_or_a_device_is_never_an_output_file(answers, tmp_path, device):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    null = device("null")
    targets = [(tmp_path, "is a folder"), (fifo, "not a regular file")]
    targets += [(null, "not a regular file")] if null else []
    for target, fragment in targets:
        _refused(["review", "export", str(answers), "--out", str(target)], fragment)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # the FIFO is still a FIFO
    assert null is None or stat.S_ISCHR(os.stat(null).st_mode)


def test_an_existing_out_names_the_flag_not_pythons_keyword(tmp_path):
    target = tmp_path / "d"
    assert capture(["import", "log", str(LOG), "--out", str(target)])[0] == 0
    err = _refused(["import", "log", str(LOG), "--out", str(target)],
                   "already exists; pass --overwrite to replace it")
    assert "overwrite=True" not in err


def test_import_into_a_folder_that_is_a_file_or_inside_a_dataset_stops_first(answers, tmp_path):
    plain = tmp_path / "notes.txt"
    plain.write_text("mine\n")
    _refused(["import", "log", str(LOG), "--out", str(plain)], "is a file, not a folder")
    _refused(["import", "log", str(LOG), "--out", str(answers / "inner")],
             "inside the dataset folder")
    assert plain.read_text() == "mine\n" and not (answers / "inner").exists()


def test_overwrite_leaves_a_users_file_named_like_a_data_file(tmp_path):
    """docs: files a save did not write are left alone, even named like data files."""
    target = tmp_path / "d"
    assert capture(["import", "log", str(LOG), "--out", str(target)])[0] == 0
    mine = {"runs.jsonl": "my own raw runs\n",
            "corpus.0123456789abcdef.jsonl": "my notes, not ragscore's\n"}
    for name, text in mine.items():
        (target / name).write_text(text)
    code, _, err = capture(["import", "log", str(LOG), "--out", str(target), "--overwrite",
                            "--name", "again"])
    assert code == 0, err
    for name, text in mine.items():
        assert (target / name).read_text() == text
    assert ragscore.load_dataset(target).name == "again"


def test_a_save_still_removes_the_files_its_old_index_named(tmp_path, course):
    target = tmp_path / "d"
    ragscore.save_dataset(course, target)
    old = set(json.loads((target / "dataset.json").read_text())["files"].values())
    changed = {doc: f"{text} Changed." for doc, text in course.corpus.items()}
    ragscore.save_dataset(course._replace(corpus=changed), target, overwrite=True)
    new = set(json.loads((target / "dataset.json").read_text())["files"].values())
    assert old != new and not any((target / name).exists() for name in old - new)


def test_the_checks_name_the_flag_and_need_no_command(tmp_path, course):
    from ragscore.io.outputs import check_output_file, check_output_folder

    ragscore.save_dataset(course, tmp_path / "d")
    with pytest.raises(ValueError, match=r"^--out must name a path; got ''$"):
        check_output_file("", flag="--out")
    with pytest.raises(ValueError, match="is inside the dataset folder"):
        check_output_file(tmp_path / "d" / "x.html", flag="--out")
    with pytest.raises(ValueError, match="already exists; pass overwrite=True"):
        check_output_folder(tmp_path / "d", flag="out")
    assert check_output_folder(tmp_path / "d", flag="out", overwrite=True) == tmp_path / "d"
    assert check_output_folder(tmp_path / "d", flag="out", saves=tmp_path / "d") == \
        tmp_path / "d"
