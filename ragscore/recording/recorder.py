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
from ..io.jsonl import where
from ..render.progress import CallProgress
from .calls import RateLimit, call_once_with_retries, check_policy
from .fields import Fields
from .journal import Journal, journal_path
from .provenance import make_manifest, working_directory_revision

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


#: The most calls per question, and the most calls at once.
MAX_TRIALS, MAX_CONCURRENCY = 1000, 256


def _check_options(system, dataset, *, trials, concurrency, stop_after, resume):
    rules = dataset.rules
    valid = type(system) is str and (rules.is_id(system) if rules.open_labels else
                                     NAME_PATTERN.fullmatch(system) is not None)
    if not valid:
        raise InvalidInputError(f"system must be a valid system name; got {show(system)}")
    if system in dataset.systems and not resume:
        raise InvalidInputError(f"system {show(system)} already has runs in the dataset; "
                                "record under another name")
    for name, value, most in (("trials", trials, MAX_TRIALS),
                              ("concurrency", concurrency, MAX_CONCURRENCY)):
        if type(value) is not int or not 1 <= value <= most:
            raise InvalidInputError(f"{name} must be a whole number from 1 to {most}; got "
                                    f"{show(value)}")
    if type(stop_after) is not int or stop_after < 0:
        raise InvalidInputError(f"stop_after must be a whole number of at least 0 (0: never "
                                f"stop); got {show(stop_after)}")


def record(dataset, fn, *, system, out=None, trials=1, concurrency=8, retries=3,
           backoff=0.5, max_backoff=30.0, rate=None, paths=None, journal=None, resume=False,
           settings=None, manifest=None, stop_after=10, overwrite=False, progress=None,
           code_revision=None):
    """Record ``fn`` (the team's pipeline: ``fn(question) -> dict``) on every question of
    ``dataset`` (a :class:`~ragscore.Dataset` or a folder) as system ``system``; return the
    dataset with the new runs and manifest, written to ``out`` when given (default: the
    folder ``dataset`` was read from).

    ``fn`` returns ``{"retrieved": [ids, best first], "answer": text, "delivered": [ids],
    "tokens": int, "cost": number}`` (all but ``retrieved`` optional; ``paths`` renames
    them, e.g. ``{"retrieved": "hits[*].id", "scores": "hits[*].score"}``). An exception
    from ``fn`` is retried, then recorded as a failed run with its reason.
    ``code_revision`` names the revision of the system recorded (its manifest's
    ``code_revision``); without it the manifest keeps the git revision of the working
    directory, said to be that (``recorder.working_directory_revision``).

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
                        recorder=recorder, code_revision=code_revision)


def record_calls(dataset, call, *, system, out=None, trials=1, concurrency=8, retries=3,
                 backoff=0.5, max_backoff=30.0, rate=None, paths=None, journal=None,
                 resume=False, settings=None, manifest=None, stop_after=10, overwrite=False,
                 progress=None, recorder=None, code_revision=None, flags=False):
    """:func:`record` with ``call(case, question, trial)`` (what the HTTP recorder passes);
    ``recorder`` holds the options the manifest states; ``flags``: name the options as the
    command line spells them (``--out``) in errors.

    Every option, the output folder and the journal are checked before the first call."""
    from ..io.manifest import fingerprint

    dataset, folder = _load(dataset)
    out = folder if out is None else Path(out)
    _check_options(system, dataset, trials=trials, concurrency=concurrency,
                   stop_after=stop_after, resume=resume)
    policy = check_policy(retries=retries, backoff=backoff, max_backoff=max_backoff)
    limit = RateLimit(rate)
    if code_revision is not None and (type(code_revision) is not str
                                      or not code_revision.strip()
                                      or not code_revision.isprintable()):
        raise InvalidInputError(f"code_revision must be a non-blank line of text; got "
                                f"{show(code_revision)}")
    if journal is None and out is not None:
        journal = journal_path(out, system)
    _check_outputs(out, journal, folder=folder, overwrite=overwrite, resume=resume,
                   flags=flags)
    items = _items(dataset, trials)
    rules = RULES["open"]
    fields = Fields(paths, corpus_ids=frozenset(dataset.corpus), rules=rules)
    prints = fingerprint(dataset)
    header = {"system": system, "trials": trials,
              "fingerprint": {key: prints[key] for key in ("corpus_sha256",
                                                           "questions_sha256")}}
    book = Journal(journal, header, resume=resume, check=fields.journalled) \
        if journal is not None else None
    entries, replaced = {}, 0
    for entry in (book.entries if book else ()):
        earlier = entries.get((entry["case"], entry["trial"]))
        replaced += earlier["retries"] if earlier else 0
        entries[entry["case"], entry["trial"]] = entry
    todo = [item for item in items
            if entries.get((item[0], item[2]), {"failed": True}).get("failed")]
    bar = CallProgress(len(todo), stream=sys.stderr if progress is None else progress,
                       label=f"recording {system}", already=len(items) - len(todo))
    try:
        replaced += _run(todo, call, fields.read, entries, book, bar, policy=policy,
                         limit=limit, concurrency=concurrency, stop_after=stop_after)
    except RecordingStopped:
        if book is not None and not resume and not any(
                not entry.get("failed") for entry in entries.values()):
            book.remove()  # nothing was ever answered: no journal to resume from
        raise
    finally:
        bar.close()
        if book is not None:
            book.close()
    def made(base):
        return _recorded(base, system, items, entries, trials, header, settings, manifest,
                         {**(recorder or {}), "rate": rate}, replaced_retries=replaced,
                         code_revision=code_revision)

    recorded = made(dataset)
    failed = recorded.manifests[system]["recorder"]["failed"]
    if out is not None:
        from ..folders import save_dataset, update_dataset

        if folder is not None and out.resolve() == folder.resolve():  # in place: the runs
            recorded = update_dataset(out, lambda now: made(  # join the folder as it is now
                _still_the_same(now, system, header, resume, out)))
        else:  # a folder this recording wrote before a resume is replaced
            save_dataset(recorded, out, overwrite=overwrite or resume)
    if book is not None and not failed:
        book.remove()
    return recorded


def _check_outputs(out, journal, *, folder, overwrite, resume, flags):
    """The output folder and the journal, checked before the first call: the folder a new
    one, this dataset's own, or (``overwrite``, or a resume of this recording) a ragscore
    dataset; the journal a regular file outside every dataset folder."""
    from ..io.outputs import check_output_file, check_output_folder

    if out is not None:
        check_output_folder(out, flag="--out" if flags else "out", saves=folder,
                            inputs=() if folder is None else (folder,),
                            overwrite=overwrite or resume)
    if journal is not None:
        flag = "--journal" if flags else "journal"
        check_output_file(journal, flag=flag)
        if out is not None and Path(out).resolve() in (Path(journal).resolve(),
                                                       *Path(journal).resolve().parents):
            raise InvalidInputError(f"{flag} {where(journal)} is the output folder or inside "
                                    "it; keep the journal beside it")


def _still_the_same(now, system, header, resume, folder):
    """``now`` (the folder as it is when the recording is saved, under its lock), unless
    its questions or corpus changed since the recording started or another recording
    saved ``system`` meanwhile: then nothing is saved (the journal keeps every call)."""
    from ..io.manifest import fingerprint

    prints = fingerprint(now)
    changed = [key for key, value in header["fingerprint"].items() if prints[key] != value]
    if changed:
        raise InvalidInputError(f"{folder}: its {changed[0]} changed while system "
                                f"{show(system)} was being recorded; nothing saved (the "
                                "journal keeps every call: record again with --resume)")
    if system in now.systems and not resume:
        raise InvalidInputError(f"{folder}: system {show(system)} was saved by another "
                                "recording meanwhile; nothing saved (record under another "
                                "name; the journal keeps every call)")
    return now


def _run(todo, call, read, entries, book, bar, *, policy, limit, concurrency, stop_after):
    """Make the calls in ``todo`` on worker threads; journal each as it finishes; return
    the retries of the entries they replaced (failed calls made again)."""
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
    down = received = replaced = 0
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
            earlier = entries.get((entry["case"], entry["trial"]))
            replaced += earlier["retries"] if earlier else 0
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
        return replaced
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
              recorder, *, replaced_retries=0, code_revision=None):
    """``dataset`` with ``system``'s runs (one per question, or its trials) and manifest;
    the manifest's retry total counts every retry made, those of failed calls made again
    (``replaced_retries``) too."""
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
    user = dict(manifest or {})
    if code_revision is not None:
        user["code_revision"] = code_revision
    if "code_revision" not in user:  # not the system's, said so: where the command ran
        found = working_directory_revision()
        if found is not None:
            recorder = {**recorder, "working_directory_revision": found}
    filled = make_manifest(
        system=system, fingerprint=header["fingerprint"], user=user, settings=settings,
        recorder={**recorder, "calls": len(items), "retries": retries + replaced_retries,
                  "failed": len(failures), "failures": failures})
    notes = tuple(note for note in dataset.notes if not note.startswith(f"system {system}: "))
    if failures:
        notes += (f"system {system}: {len(failures):,} of {len(items):,} recorded calls "
                  "failed (their reasons are in its manifest)",)
    return dataset._replace(runs=runs, ids="open", notes=notes,
                            manifests={**(dataset.manifests or {}), system: filled})
