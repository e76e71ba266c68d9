"""People working on one folder at once lose nothing: two reviewers importing halves of a
queue at the same moment both land (round after round), and a review imported while a
recording runs is still there when the recording is saved, beside the new runs."""
import json
import multiprocessing
import time

import ragscore
from ragscore.cli import main
from ragscore.folders import load_dataset, save_dataset
from ragscore.io.dataset import Dataset

ROUNDS = 5
CORPUS = {f"p{n}": f"Passage {n}." for n in range(8)}
DATASET = Dataset(
    ids="open", corpus=CORPUS,
    cases={f"q{n}": {"question": f"Question {n}?", "relevant": ()} for n in range(4)},
    runs={f"q{n}": {"A": {"retrieved": (f"p{2 * n}", f"p{2 * n + 1}"),
                          "answer": f"Claim {n} one [1]. Claim {n} two [2]."}}
          for n in range(4)})


def _queue(folder, reviewer):
    """Every item, decided by ``reviewer`` (claims supported, passages relevant)."""
    from ragscore.io.review_queue import review_queue

    rows = review_queue(load_dataset(folder), everything=True)
    for row in rows:
        row["decision"] = {"relevance": 1, "answerability": "answerable",
                           "support": "supported"}[row["kind"]]
        row.update(reviewer=reviewer, date="2026-12-04")
    return rows


def _importer(folder, path, barrier, results):
    barrier.wait(timeout=30)
    code = main(["review", "import", str(folder), str(path)])
    results.put(code)


def _start(targets):
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(len(targets)), context.Queue()
    processes = [context.Process(target=target, args=(*args, barrier, results))
                 for target, args in targets]
    for process in processes:
        process.start()
    try:
        codes = [results.get(timeout=60) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    return codes


def test_two_reviewers_importing_at_once_both_land(tmp_path):
    for round_ in range(ROUNDS):
        folder = save_dataset(DATASET, tmp_path / f"d{round_}")
        rows = _queue(folder, "ana")
        halves = [rows[0::2], [dict(row, reviewer="ben") for row in rows[1::2]]]
        paths = []
        for number, half in enumerate(halves):
            path = tmp_path / f"half{round_}-{number}.jsonl"
            path.write_text("".join(json.dumps(row) + "\n" for row in half))
            paths.append(path)
        codes = _start([(_importer, (folder, path)) for path in paths])
        assert codes == [0, 0], round_
        stored = load_dataset(folder).judgements
        # per question: 2 passages, the question, 2 claims = 5 items; 4 questions: 20 rows,
        # 10 in each half, all stored
        assert len(stored) == len(rows) == 20, round_
        assert {record["reviewer"] for record in stored} == {"ana", "ben"}


def _recorder(folder, started, barrier, results):
    def system(question):
        started.set()
        time.sleep(0.05)  # slow enough for the review to land meanwhile
        return {"retrieved": ["p0"], "answer": "Claim 0 one [1]."}

    barrier.wait(timeout=30)
    try:
        ragscore.record(str(folder), system, system="C", concurrency=1, progress=None)
        results.put(0)
    except Exception as error:  # noqa: BLE001 (any failure is what the test counts)
        results.put(f"{type(error).__name__}: {error}")


def _reviewer(folder, path, started, barrier, results):
    barrier.wait(timeout=30)
    started.wait(timeout=30)  # the recording read the folder and is calling the system
    results.put(main(["review", "import", str(folder), str(path)]))


def test_a_recording_and_a_review_at_once_both_land(tmp_path):
    import io

    folder = save_dataset(DATASET, tmp_path / "d")
    path = tmp_path / "review.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in _queue(folder, "ana")))
    started = multiprocessing.get_context("fork").Event()
    import sys
    sys.stderr, saved = io.StringIO(), sys.stderr  # the recorder's progress bar
    try:
        codes = _start([(_recorder, (folder, started)), (_reviewer, (folder, path, started))])
    finally:
        sys.stderr = saved
    assert sorted(map(str, codes)) == ["0", "0"], codes
    after = load_dataset(folder)
    assert len(after.judgements) == 20  # the review, imported during the recording
    assert set(after.systems) == {"A", "C"}  # and the recording, saved after it
    assert after.runs["q0"]["C"]["retrieved"] == ("p0",)
