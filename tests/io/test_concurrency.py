"""Readers concurrent with a writer: every read is one complete version, never a mix, never a
failure. One process saves two versions of a dataset in turn into one folder while two other
processes read it in a loop (one with load_dataset, one with read_counts), for about 2 s and
at least ``SAVES`` saves (longer on a busy machine, up to ``CAP`` seconds)."""
import multiprocessing
import time

import ragscore
from ragscore.engine import count_folder
from ragscore.folders import load_dataset


def read_counts(folder):
    """The counted runs of ``folder`` as comparable values: keys and each row's counts."""
    counted = count_folder(folder)
    return counted.keys, [counted.counts_at(row) for row in range(len(counted))]

SECONDS = 2.0
SAVES = 12  # the writer switches versions at least this often ...
CAP = 60.0  # ... unless that takes longer than this (then the test fails on the count)


def _versions():
    """Two versions that differ in every file and in the index."""
    course = ragscore.load_course()
    first = course._replace(name="first", description="version one")
    corpus = {doc: text + " (revised)" for doc, text in course.corpus.items()}
    runs = {case: {system: run for system, run in per_case.items() if system == "B"}
            for case, per_case in course.runs.items()}
    cases = dict(course.cases, owner=dict(course.cases["owner"], question="Who is on call?"))
    second = course._replace(name="second", description="version two", corpus=corpus,
                             cases=cases, runs=runs)
    return first, second


def _writer(folder, ready, saves, done):
    versions = _versions()
    ready.wait(timeout=CAP)  # the readers are reading
    stop_at, cap = time.monotonic() + SECONDS, time.monotonic() + CAP
    count = 0
    try:
        while time.monotonic() < stop_at or (count < SAVES and time.monotonic() < cap):
            ragscore.save_dataset(versions[count % 2], folder, overwrite=True)
            count += 1
    finally:  # a writer that failed still reports, so the test fails at once, not on a wait
        done.set()
        saves.put(count)


def _reader(folder, ready, done, how, results):
    first, second = _versions()
    if how == "counts":
        first, second = read_counts_of(first), read_counts_of(second)
    seen = {"first": 0, "second": 0, "mixed": 0, "failed": []}
    ready.wait(timeout=CAP)
    while not done.is_set():  # read as long as the writer writes
        try:
            got = load_dataset(folder) if how == "load" else read_counts(folder)
        except Exception as error:  # noqa: BLE001 (any failure is what the test counts)
            seen["failed"].append(f"{type(error).__name__}: {error}"[:300])
            continue
        if got == first:
            seen["first"] += 1
        elif got == second:
            seen["second"] += 1
        else:
            seen["mixed"] += 1
    results.put((how, seen))


def read_counts_of(dataset):
    """What read_counts gives for ``dataset`` (saved once in a private folder)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as root:
        return read_counts(ragscore.save_dataset(dataset, Path(root) / "d"))


def test_readers_see_one_whole_version_while_a_writer_saves(tmp_path):
    folder = tmp_path / "shared"
    first, second = _versions()
    assert read_counts_of(first) != read_counts_of(second)
    ragscore.save_dataset(first, folder)
    context = multiprocessing.get_context("fork")
    saves, results, done = context.Queue(), context.Queue(), context.Event()
    ready = context.Barrier(3)  # the writer starts when both readers are set to read
    processes = [context.Process(target=_writer, args=(folder, ready, saves, done))]
    processes += [context.Process(target=_reader, args=(folder, ready, done, how, results))
                  for how in ("load", "counts")]
    for process in processes:
        process.start()
    try:
        written = saves.get(timeout=2 * CAP + 30)
        seen = dict(results.get(timeout=30) for _ in range(2))
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    assert all(process.exitcode == 0 for process in processes)
    assert written >= SAVES, "the writer must have switched versions many times"
    for how, counts in seen.items():
        assert counts["failed"] == [], (how, counts["failed"][:3])
        assert counts["mixed"] == 0, (how, counts)
        assert counts["first"] > 0 and counts["second"] > 0, (how, counts)
    assert load_dataset(folder) in (first, second)
    leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".ragscore-tmp-")]
    assert leftovers == []


def _first_saver(root, rounds, barrier, who, results):
    version = ragscore.load_course()._replace(name=f"writer{who}")
    failures = []
    for number in range(rounds):
        barrier.wait(timeout=30)
        try:
            ragscore.save_dataset(version, root / f"new{number}", overwrite=True)
        except Exception as error:  # noqa: BLE001 (any failure is what the test counts)
            failures.append(f"{type(error).__name__}: {error}"[:300])
    results.put(failures)


def test_concurrent_first_saves_into_one_new_folder_all_succeed(tmp_path):
    """Three processes save into the same not-yet-existing folder at once, 25 times: each
    save succeeds (one renames its scratch folder into place, the others then write a new
    version in place), none removes another's scratch folder, nothing is left over."""
    rounds, writers = 25, 3
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(writers), context.Queue()
    processes = [context.Process(target=_first_saver,
                                 args=(tmp_path, rounds, barrier, who, results))
                 for who in range(writers)]
    for process in processes:
        process.start()
    try:
        failures = [failure for _ in processes for failure in results.get(timeout=60)]
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    assert failures == []
    names = {f"writer{who}" for who in range(writers)}
    for number in range(rounds):
        assert load_dataset(tmp_path / f"new{number}").name in names
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"new{n}" for n in range(rounds))
