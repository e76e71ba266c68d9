"""A save killed at every step: the folder loads as the old or the new version, complete; at
most one scratch folder or file remains; the next save cleans up what the killed one left.

A forked child runs the save and ends itself (``os._exit``) just before its N-th event: a
``_step`` of :mod:`ragscore.io.store` or a file-system call that changes the folder (mkdir,
fsync, replace, rename, unlink, rmtree). N runs from 0 until a save completes untouched.
"""
import json
import os
import shutil

import pytest

import ragscore
from ragscore.io import store
from ragscore.io.course import COURSE_PATH
from ragscore.folders import load_dataset, save_dataset

KILLED = 77
EVENTS = ("mkdir", "fsync", "replace", "rename", "unlink")


def _versions():
    course = ragscore.load_course()
    old = course._replace(name="old", description="the old version")
    new = course._replace(name="new", description="the new version",
                          corpus={doc: f"{text} New." for doc, text in course.corpus.items()},
                          runs={case: {"A": per_case["A"]}
                                for case, per_case in course.runs.items()})
    return old, new


def _save_killed_at(target, dataset, overwrite, stop):
    """Save in a forked child that exits before event ``stop``; True if it was killed."""
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        try:
            seen = [0]

            def event(name, call=None):
                def run(*args, **kwargs):
                    if seen[0] == stop:
                        os._exit(KILLED)
                    seen[0] += 1
                    return call(*args, **kwargs) if call else None
                return run

            store._step = event("step")
            for name in EVENTS:
                setattr(os, name, event(name, getattr(os, name)))
            shutil.rmtree = event("rmtree", shutil.rmtree)
            save_dataset(dataset, target, overwrite=overwrite)
        except BaseException:  # noqa: BLE001 (report a failed save by its exit code)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    assert code in (0, KILLED), f"the save failed (exit {code}) before event {stop}"
    return code == KILLED


def _scratch_folders(target):
    return [p.name for p in target.parent.iterdir()
            if p.name.startswith(f".{target.name}{store.TEMPORARY}")]


def _scratch_files(target):
    if not target.is_dir():
        return []
    return [p.name for p in target.iterdir() if p.name.startswith(store.TEMPORARY)]


def _only_the_version(target):
    """The folder holds its index, the three files it names, and the lock: nothing else."""
    files = json.loads((target / store.INDEX).read_text())["files"]
    expected = {store.INDEX, *files.values()}
    assert set(os.listdir(target)) - {store.LOCK} == expected


@pytest.mark.parametrize("start", ["dataset", "version 1 dataset", "absent", "empty folder"])
def test_a_save_killed_at_any_step_leaves_old_or_new_complete(tmp_path, start):
    old, new = _versions()
    if start == "version 1 dataset":
        old = load_dataset(COURSE_PATH)  # plain file names, no content hashes
    stop, outcomes = 0, set()
    while True:
        case = tmp_path / f"kill-{stop}"
        case.mkdir()
        target = case / "data"
        if start == "dataset":
            save_dataset(old, target)
        elif start == "version 1 dataset":
            shutil.copytree(COURSE_PATH, target)
        elif start == "empty folder":
            target.mkdir()
        existing = start.endswith("dataset")
        killed = _save_killed_at(target, new, existing, stop)
        if not killed:
            break
        # old or new, complete; absent only if there was no dataset before
        if target.is_dir() and (target / store.INDEX).exists():
            got = load_dataset(target)
            assert got in (old, new), f"killed before event {stop}: a mixed version"
            outcomes.add(got.name)
        else:
            assert not existing, f"killed before event {stop}: the old version is gone"
            assert not target.exists() or not any(target.iterdir())
            outcomes.add("absent")
        assert len(_scratch_folders(target)) <= 1, (stop, _scratch_folders(target))
        assert len(_scratch_files(target)) <= 1, (stop, _scratch_files(target))
        # the next save succeeds and leaves nothing of the killed one behind
        save_dataset(old, target, overwrite=True)
        assert load_dataset(target) == old
        assert _scratch_folders(target) == [] and _scratch_files(target) == []
        _only_the_version(target)
        stop += 1
    assert stop > 8, "the save must pass through several events"
    assert load_dataset(target) == new
    _only_the_version(target)
    assert outcomes == ({old.name, "new"} if existing else {"absent", "new"})
