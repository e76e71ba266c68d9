"""Saving never destroys what it did not write: overwrite=True replaces only a ragscore
dataset, overwrite=False is never bypassed by what appears during the write, folders follow
the user's umask, and files a save does not recognise are left alone."""
import json
import os
import shutil
import stat

import pytest

import ragscore
from ragscore import InvalidInputError, load_dataset, save_dataset
from ragscore.io import store
from ragscore.io.course import COURSE_PATH


@pytest.fixture
def course_v2(course):
    return course._replace(name="saved")


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_folder_of_other_files_is_refused_and_untouched(tmp_path, course_v2, overwrite):
    target = tmp_path / "photos"
    target.mkdir()
    (target / "holiday.jpg").write_bytes(b"\xff\xd8")
    expected = (r"photos: is a folder but not a ragscore dataset \(no dataset\.json\); "
                r"refusing to replace it") if overwrite else \
        r"photos: already exists; pass overwrite=True to replace it"
    with pytest.raises(InvalidInputError, match=expected):
        save_dataset(course_v2, target, overwrite=overwrite)
    assert os.listdir(target) == ["holiday.jpg"]
    assert [p.name for p in tmp_path.iterdir()] == ["photos"]


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("kind", ["file", "symlink to a dataset", "dangling symlink"])
def test_a_file_or_symlink_is_refused_and_untouched(tmp_path, course_v2, overwrite, kind):
    target = tmp_path / "target"
    if kind == "file":
        target.write_text("precious\n")
    elif kind == "symlink to a dataset":
        target.symlink_to(save_dataset(course_v2, tmp_path / "real"))
    else:
        target.symlink_to(tmp_path / "nowhere")
    with pytest.raises(InvalidInputError, match=r"target: is not a folder; refusing to "
                                                r"replace it"):
        save_dataset(course_v2, target, overwrite=overwrite)
    assert target.is_symlink() or target.read_text() == "precious\n"
    assert not any(p.name.startswith(".target") for p in tmp_path.iterdir())


def test_a_folder_whose_index_is_not_ours_is_refused(tmp_path, course_v2):
    target = tmp_path / "other"
    target.mkdir()
    (target / "dataset.json").write_text(json.dumps({"format": "something-else"}))
    (target / "corpus.jsonl").write_text("mine\n")
    with pytest.raises(InvalidInputError, match=r"not a ragscore dataset"):
        save_dataset(course_v2, target, overwrite=True)
    assert (target / "corpus.jsonl").read_text() == "mine\n"


def test_overwrite_keeps_files_it_does_not_recognise(tmp_path, course_v2):
    target = tmp_path / "data"
    shutil.copytree(COURSE_PATH, target)  # version 1: plain file names
    (target / "NOTES.md").write_text("ours\n")
    save_dataset(course_v2, target, overwrite=True)
    files = json.loads((target / "dataset.json").read_text())["files"]
    assert sorted(os.listdir(target)) == sorted(
        ["NOTES.md", "dataset.json", store.LOCK, *files.values()])
    assert load_dataset(target) == course_v2


@pytest.mark.parametrize("step", ["made scratch folder", "wrote corpus", "wrote runs",
                                  "replaced index"])
def test_a_folder_that_appears_during_the_write_is_left_alone(tmp_path, course_v2,
                                                              monkeypatch, step):
    target = tmp_path / "data"

    def appear(name):
        if name == step and not target.exists():
            target.mkdir()
            (target / "theirs.txt").write_text("theirs\n")

    monkeypatch.setattr(store, "_step", appear)
    with pytest.raises(InvalidInputError, match=r"data: appeared while the dataset was being "
                                                r"written; left as it is"):
        save_dataset(course_v2, target)
    assert os.listdir(target) == ["theirs.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # no scratch left


def test_a_dataset_that_appears_during_an_overwrite_gets_the_new_version(tmp_path, course,
                                                                         monkeypatch):
    target = tmp_path / "data"
    other = course._replace(name="other")

    def appear(name):
        if name == "wrote runs" and not target.exists():  # another process saves first
            child = os.fork()
            if child == 0:  # pragma: no cover (the child)
                store._step = lambda name: None
                try:
                    save_dataset(other, target)
                finally:
                    os._exit(0)
            os.waitpid(child, 0)
            assert load_dataset(target) == other

    monkeypatch.setattr(store, "_step", appear)
    save_dataset(course, target, overwrite=True)
    assert load_dataset(target) == course
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


@pytest.mark.parametrize("umask, mode", [(0o022, 0o755), (0o077, 0o700), (0o002, 0o775)])
def test_saved_folders_and_files_follow_the_umask(tmp_path, course, umask, mode):
    previous = os.umask(umask)
    try:
        target = save_dataset(course, tmp_path / "data")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(target.stat().st_mode) == mode
    for path in target.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == mode & 0o666, path.name


def test_an_invalid_dataset_writes_nothing(tmp_path, course):
    broken = course._replace(runs=dict(course.runs, ghost={"A": course.runs["owner"]["A"]}))
    with pytest.raises(InvalidInputError, match=r"runs\['ghost'\] names a case that is not in "
                                                r"cases"):
        save_dataset(broken, tmp_path / "data")
    assert list(tmp_path.iterdir()) == []
    save_dataset(course, tmp_path / "data")
    with pytest.raises(InvalidInputError):
        save_dataset(broken, tmp_path / "data", overwrite=True)
    assert load_dataset(tmp_path / "data") == course
