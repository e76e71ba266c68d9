"""``baseline save`` and ``baseline verify``: a system's results kept as a committed file, and
that file checked against the runs it says it came from.

:func:`save_baseline` reads the folder once (one snapshot: the counts and the fingerprint of
one version) and writes the file atomically, with the digest of the system's runs and of the
file's own content: a :class:`SavedBaseline`. :func:`verify_baseline` recomputes the file
from a folder's runs of that system and says whether it is equal, or which questions (and
fields) differ: a :class:`BaselineCheck`, exit code 1 when anything differs.
"""
from collections import namedtuple

from ..engine import DEFAULT_ENGINE
from ..render.writers import Writer, data_writer, writer_table
from .result import Result

__all__ = ["BaselineCheck", "SavedBaseline", "save_baseline", "verify_baseline"]


class SavedBaseline(Result, namedtuple("SavedBaseline", "path system questions test_set")):
    """A baseline written: its ``path``, the ``system``, how many ``questions`` and the test
    set's questions digest (``test_set``)."""

    __slots__ = ()
    job = "a saved baseline"
    writers = writer_table(Writer("text", lambda result, display: (
        f"baseline of system {result.system} written to {result.path}: {result.questions} "
        f"questions, test set {result.test_set[:12]}\n")))


def _recomputed(dataset, system, engine):
    """The baseline record of ``system`` as ``baseline save`` would write it now."""
    from ..engine import count_dataset
    from ..io.baseline import baseline_record, runs_digest
    from ..io.manifest import fingerprint
    from .gate import named_system, refuse_failed_calls

    counted = count_dataset(dataset, engine=engine)
    named_system(counted.by_system(), system, "baseline")
    refuse_failed_calls(dataset, system, "baseline")  # as gate --baseline refuses it
    return baseline_record(counted, system, fingerprint=fingerprint(dataset),
                           manifest=(dataset.manifests or {}).get(system),
                           runs_sha256=runs_digest(dataset, system))


def save_baseline(dataset, *, system, out, engine=DEFAULT_ENGINE):
    """Write the baseline of ``system`` of ``dataset`` (a folder's path or a Dataset) to
    ``out``, atomically; nothing is written into the folder."""
    from ..io.baseline import save_baseline as write
    from ..io.outputs import check_output_file
    from .reading import loaded, paths

    check_output_file(out, flag="--out", inputs=paths(dataset))  # checked before any work
    # one read: every file of the folder opened before any is read (io/store.py), so the
    # counts and the fingerprint are of one version even while someone saves the folder,
    # and nothing is written into it (no lock to hold, even on a read-only folder)
    record = _recomputed(loaded(dataset), system, engine)
    write(record, out)
    return SavedBaseline(str(out), system, len(record["questions"]),
                         record["fingerprint"]["questions_sha256"])


class BaselineCheck(Result, namedtuple("BaselineCheck", "path folder system digest fingerprint "
                                                        "runs questions")):
    """A baseline file held against the folder's runs: ``digest`` (why its content does not
    match its digest, else ``None``), ``fingerprint`` (``(key, in the file, now)`` for each
    test-set digest that differs), ``runs`` (whether the system's runs are the ones it was
    computed from: ``True``, ``False``, or ``None`` when the file does not say), and
    ``questions`` (``(case, field, in the file, recomputed)`` for each question that differs:
    ``field`` ``None`` when the question is on one side only)."""

    __slots__ = ()
    job = "a baseline check"

    @property
    def equal(self):
        return (self.digest is None and not self.fingerprint and self.runs is not False
                and not self.questions)

    @property
    def exit_code(self):
        return 0 if self.equal else 1

    writers = writer_table(Writer("text", lambda result, display: _check_text(result)),
                           data_writer("json", lambda result, display: _check_json(result)))


def _check_text(result):
    import json

    if result.equal:
        return (f"{result.path}: equal to the baseline of system {result.system} recomputed "
                f"from {result.folder} (content matches its digest; runs and test set "
                "unchanged)\n")
    lines = [f"{result.path}: differs from the baseline of system {result.system} recomputed "
             f"from {result.folder}:"]
    if result.digest:
        lines.append(f"- digest: {result.digest}")
    lines += [f"- fingerprint.{key}: {then} in the file, {now} now"
              for key, then, now in result.fingerprint]
    if result.runs is False:
        lines.append("- runs_sha256: the system's runs are not the ones the file was saved "
                     "from")
    for case, field, then, now in result.questions:
        if field is None:
            side = "in the file" if now is None else "in the folder's runs"
            lines.append(f"- question {case}: only {side}")
        else:
            lines.append(f"- question {case}: {field} {json.dumps(then)} in the file, "
                         f"{json.dumps(now)} recomputed")
    return "\n".join(lines) + "\n"


def _check_json(result):
    import json

    return json.dumps({"equal": result.equal, "path": result.path, "folder": result.folder,
                       "system": result.system, "digest": result.digest,
                       "fingerprint": [{"key": key, "file": then, "now": now}
                                       for key, then, now in result.fingerprint],
                       "runs": result.runs,
                       "questions": [{"case": case, "field": field, "file": then,
                                      "recomputed": now}
                                     for case, field, then, now in result.questions]},
                      indent=2, ensure_ascii=False) + "\n"


def _differences(stored, recomputed):
    """``(case, field, stored, recomputed)`` for each question whose counts differ."""
    found = []
    for case in list(stored) + [case for case in recomputed if case not in stored]:
        if case not in recomputed or case not in stored:
            found.append((case, None, stored.get(case), recomputed.get(case)))
            continue
        then, now = stored[case], recomputed[case]
        if then == now:
            continue
        if type(then) is dict and type(now) is dict:
            for field in sorted(set(then) | set(now)):
                if then.get(field) != now.get(field):
                    found.append((case, field, then.get(field), now.get(field)))
                    break
        else:
            found.append((case, "trials", then, now))
    return found


def verify_baseline(path, dataset, *, engine=DEFAULT_ENGINE):
    """Recompute the baseline file at ``path`` from ``dataset``'s runs of its system; return
    a :class:`BaselineCheck` (equal, or what differs)."""
    import json

    from ..io.baseline import digest_problem, read_baseline_record
    from .reading import loaded

    record = read_baseline_record(path)
    source = loaded(dataset)
    now = _recomputed(source, record["system"], engine)
    fingerprint = [(key, record["fingerprint"].get(key), now["fingerprint"].get(key))
                   for key in sorted(set(record["fingerprint"]) | set(now["fingerprint"]))
                   if record["fingerprint"].get(key) != now["fingerprint"].get(key)]
    saved_runs = record.get("runs_sha256")
    runs = None if saved_runs is None else saved_runs == now["runs_sha256"]
    recomputed = json.loads(json.dumps(now["questions"]))  # as the file holds it
    return BaselineCheck(str(path), str(dataset), record["system"], digest_problem(record),
                         fingerprint, runs, _differences(record["questions"], recomputed))
