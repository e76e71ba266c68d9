"""The recorder: send every question of a test set to a system, keep what comes back.

One recorder for both ways in (an HTTP endpoint, :mod:`ragscore.recording.http`, or a Python
callable, :func:`record`). Calls run on ``concurrency`` threads, at most ``rate`` started
per second, each with retries (:mod:`ragscore.recording.calls`); every finished call is
appended to the journal at once (:mod:`ragscore.recording.journal`). When all calls are in, the
runs and the manifest (:mod:`ragscore.recording.provenance`) join the test set and the folder
is written atomically. A call that failed is recorded as a run marked ``failed`` (its
reason in the manifest) and the journal is kept, so ``resume=True`` tries only those again.
After ``stop_after`` calls in a row found nobody answering, the recording stops (the
endpoint is down): the journal keeps every finished call for a resume.
"""
import queue
import sys
import threading
from pathlib import Path

from ..core.rules import RULES, InvalidInputError, show
from ..io.format import NAME_PATTERN
from ..render.progress import CallProgress
from .calls import RateLimit, call_once_with_retries, check_policy
from .fields import Fields
from .journal import Journal, journal_path
from .provenance import code_revision, make_manifest

__all__ = ["RecordingStopped", "record", "record_calls"]


class RecordingStopped(InvalidInputError):
    """The recording stopped before every call was made; the journal keeps what finished."""


class RecordingInterrupted(KeyboardInterrupt):
    """Ctrl-C: the journal keeps every finished call; the message says how to resume."""


def _load(dataset):
    from ..folders import load_dataset

    return (load_dataset(dataset), Path(dataset)) if isinstance(dataset, (str, Path)) else \
        (dataset, None)


def _items(dataset, trials):
    items = []
    for case, labels in dataset.cases.items():
        question = labels.get("question")
        if type(question) is not str or not question.strip():
            raise InvalidInputError(f"case {show(case)} has no question text to send")
        items += [(case, question, trial) for trial in range(1, trials + 1)]
    return items


def _check_options(system, dataset, trials, concurrency, resume):
    rules = dataset.rules
    valid = type(system) is str and (rules.is_id(system) if rules.open_labels else
                                     NAME_PATTERN.fullmatch(system) is not None)
    if not valid:
        raise InvalidInputError(f"system must be a valid system name; got {show(system)}")
    if system in dataset.systems and not resume:
        raise InvalidInputError(f"system {show(system)} already has runs in the dataset; "
                                "record under another name")
    for name, value in (("trials", trials), ("concurrency", concurrency)):
        if type(value) is not int or value < 1:
            raise InvalidInputError(f"{name} must be a whole number of at least 1; got "
                                    f"{show(value)}")


def record(dataset, fn, *, system, out=None, trials=1, concurrency=8, retries=3,
           backoff=0.5, max_backoff=30.0, rate=None, paths=None, journal=None, resume=False,
           settings=None, manifest=None, stop_after=10, overwrite=False, progress=None):
    """Record ``fn`` (the team's pipeline: ``fn(question) -> dict``) on every question of
    ``dataset`` (a :class:`~ragscore.Dataset` or a folder) as system ``system``; return the
    dataset with the new runs and manifest, written to ``out`` when given (default: the
    folder ``dataset`` was read from).

    ``fn`` returns ``{"retrieved": [ids, best first], "answer": text, "delivered": [ids],
    "tokens": int, "cost": number}`` (all but ``retrieved`` optional; ``paths`` renames
    them, e.g. ``{"retrieved": "hits[*].id", "scores": "hits[*].score"}``). An exception
    from ``fn`` is retried, then recorded as a failed run with its reason.

    >>> import ragscore
    >>> course = ragscore.load_course()
    >>> recorded = record(course, lambda question: {"retrieved": ["launch"]}, system="C")
    >>> recorded.runs["launch"]["C"]["retrieved"], recorded.manifests["C"]["recorder"]["calls"]
    (('launch',), 4)
    """
    def call(case, question, trial):
        return fn(question)

    recorder = {"trials": trials, "concurrency": concurrency, "max_retries": retries}
    return record_calls(dataset, call, system=system, out=out, trials=trials,
                        concurrency=concurrency, retries=retries, backoff=backoff,
                        max_backoff=max_backoff, rate=rate, paths=paths, journal=journal,
                        resume=resume, settings=settings, manifest=manifest,
                        stop_after=stop_after, overwrite=overwrite, progress=progress,
                        recorder=recorder)


def record_calls(dataset, call, *, system, out=None, trials=1, concurrency=8, retries=3,
                 backoff=0.5, max_backoff=30.0, rate=None, paths=None, journal=None,
                 resume=False, settings=None, manifest=None, stop_after=10, overwrite=False,
                 progress=None, recorder=None):
    """:func:`record` with ``call(case, question, trial)`` (what the HTTP recorder passes);
    ``recorder`` holds the options the manifest states."""
    from ..io.manifest import fingerprint

    dataset, folder = _load(dataset)
    out = folder if out is None else Path(out)
    _check_options(system, dataset, trials, concurrency, resume)
    policy = check_policy(retries=retries, backoff=backoff, max_backoff=max_backoff)
    limit = RateLimit(rate)
    items = _items(dataset, trials)
    rules = RULES["open"]
    fields = Fields(paths, corpus_ids=frozenset(dataset.corpus), rules=rules)
    prints = fingerprint(dataset)
    header = {"system": system, "trials": trials,
              "fingerprint": {key: prints[key] for key in ("corpus_sha256",
                                                           "questions_sha256")}}
    if journal is None and out is not None:
        journal = journal_path(out, system)
    book = Journal(journal, header, resume=resume) if journal is not None else None
    entries = {}
    for entry in (book.entries if book else ()):
        entries[entry["case"], entry["trial"]] = entry
    todo = [item for item in items
            if entries.get((item[0], item[2]), {"failed": True}).get("failed")]
    bar = CallProgress(len(todo), stream=sys.stderr if progress is None else progress,
                       label=f"recording {system}", already=len(items) - len(todo))
    try:
        _run(todo, call, fields.read, entries, book, bar, policy=policy, limit=limit,
             concurrency=concurrency, stop_after=stop_after)
    except RecordingStopped:
        if book is not None and not resume and not any(
                not entry.get("failed") for entry in entries.values()):
            book.remove()  # nothing was ever answered: no journal to resume from
        raise
    finally:
        bar.close()
        if book is not None:
            book.close()
    recorded = _recorded(dataset, system, items, entries, trials, header, settings,
                         manifest, {**(recorder or {}), "rate": rate})
    failed = recorded.manifests[system]["recorder"]["failed"]
    if out is not None:
        from ..folders import save_dataset

        # the folder read, or one this recording wrote before a resume, is replaced
        same = folder is not None and out.resolve() == folder.resolve()
        save_dataset(recorded, out, overwrite=overwrite or same or resume)
    if book is not None and not failed:
        book.remove()
    return recorded


def _run(todo, call, read, entries, book, bar, *, policy, limit, concurrency, stop_after):
    """Make the calls in ``todo`` on worker threads; journal each as it finishes."""
    work, results, stop = queue.Queue(), queue.Queue(), threading.Event()
    for item in todo:
        work.put(item)

    def worker():
        while not stop.is_set():
            try:
                item = work.get_nowait()
            except queue.Empty:
                return
            try:
                results.put(call_once_with_retries(call, read, item, policy=policy,
                                                   limit=limit, stop=stop))
            except BaseException as error:  # noqa: BLE001 (reported by the main thread)
                results.put((error, False))

    threads = [threading.Thread(target=worker, daemon=True, name=f"ragscore-record-{n}")
               for n in range(min(concurrency, len(todo)))]
    for thread in threads:
        thread.start()
    down = received = 0
    try:
        while received < len(todo):
            try:
                entry, connection = results.get(timeout=0.2)
            except queue.Empty:
                if not any(thread.is_alive() for thread in threads) and results.empty():
                    break
                continue
            received += 1
            if isinstance(entry, BaseException):
                raise entry
            if entry is None:
                continue
            entries[entry["case"], entry["trial"]] = entry
            if book is not None:
                book.append(entry)
            bar.update(entry)
            down = down + 1 if connection else 0
            if stop_after and down >= stop_after:
                stop.set()
                answered = sum(not e.get("failed") for e in entries.values())
                if not answered:
                    raise RecordingStopped(
                        f"stopped: {down} calls in a row found nobody answering; is the "
                        f"system running at that address? (last: {entry['reason']})")
                kept = f"; the journal keeps the {answered:,} finished calls" if book else ""
                raise RecordingStopped(
                    f"stopped: {down} calls in a row found nobody answering (last: "
                    f"{entry['reason']}){kept}; when the system is back, run the same "
                    "command again with --resume")
    except KeyboardInterrupt:
        stop.set()
        where = f" in {book.path}" if book else ""
        raise RecordingInterrupted(
            f"interrupted: {sum(not e.get('failed') for e in entries.values()):,} finished "
            f"calls are kept{where}; run the same command again with --resume to continue"
        ) from None
    finally:
        stop.set()


def _recorded(dataset, system, items, entries, trials, header, settings, manifest,
              recorder):
    """``dataset`` with ``system``'s runs (one per question, or its trials) and manifest."""
    runs = {case: {name: run for name, run in per_case.items() if name != system}
            for case, per_case in dataset.runs.items()}
    failures, retries = [], 0
    for case, _, trial in items:
        entry = entries[case, trial]
        run = {key: (tuple(value) if key in ("retrieved", "delivered") else value)
               for key, value in entry.items()
               if key in ("retrieved", "answer", "delivered", "tokens", "cost", "latency_ms")}
        run.setdefault("retrieved", ())
        run["retries"], run["failed"] = entry["retries"], bool(entry.get("failed"))
        retries += entry["retries"]
        if run["failed"]:
            failures.append({"case": case, "trial": trial, "reason": entry["reason"]})
        if trials > 1:
            run["trial"] = trial
            runs.setdefault(case, {}).setdefault(system, []).append(run)
        else:
            runs.setdefault(case, {})[system] = run
    filled = make_manifest(
        system=system, fingerprint=header["fingerprint"], user=manifest, settings=settings,
        revision=code_revision(),
        recorder={**recorder, "calls": len(items), "retries": retries,
                  "failed": len(failures), "failures": failures})
    notes = tuple(note for note in dataset.notes if not note.startswith(f"system {system}: "))
    if failures:
        notes += (f"system {system}: {len(failures):,} of {len(items):,} recorded calls "
                  "failed (their reasons are in its manifest)",)
    return dataset._replace(runs=runs, ids="open", notes=notes,
                            manifests={**(dataset.manifests or {}), system: filled})
