"""``record``: every question of a test set posted to a running system, what it answered
written as that system's runs (the recorder is :mod:`ragscore.recording`): a
:class:`Recorded`, whose exit code is 1 when calls failed or the recording stopped and 130
when it was interrupted (it can be resumed)."""
from collections import namedtuple

from ..render.writers import Writer, writer_table
from .result import Result

__all__ = ["Recorded", "record"]


class Recorded(Result, namedtuple("Recorded", "lines errors code")):
    """A recording's outcome: the ``lines`` it prints, the ``errors`` said on standard
    error (a stop, an interruption, failed calls to record again) and its exit ``code``."""

    __slots__ = ()
    job = "a recording"

    @property
    def exit_code(self):
        return self.code

    @property
    def aside(self):
        return self.errors

    writers = writer_table(Writer("text", lambda result, display: "".join(
        f"{line}\n" for line in result.lines)))


def record(dataset, *, endpoint, system, resume=False, overwrite=False, **settings):
    """Record system ``system`` at ``endpoint`` on every question of the folder
    ``dataset`` (``settings``: :func:`ragscore.recording.record_endpoint`'s, ``out`` among
    them); return a :class:`Recorded`."""
    from ..recording import RecordingInterrupted, RecordingStopped, record_endpoint

    target = settings.get("out") or dataset
    try:
        recorded = record_endpoint(dataset, endpoint, system=system, resume=resume,
                                   overwrite=overwrite, flags=True, **settings)
    except RecordingStopped as error:
        return Recorded((), (f"ragscore: {error}",), 1)
    except RecordingInterrupted as error:
        return Recorded((), (f"ragscore: {error}",), 130)
    summary = recorded.manifests[system]["recorder"]
    line = (f"recorded {system}: {summary['calls']:,} calls, {summary['failed']:,} failed, "
            f"{summary['retries']:,} retries; wrote {target}")
    if summary["failed"]:
        first = summary["failures"][0]
        return Recorded((line,), (
            f"ragscore: {summary['failed']:,} calls failed and are recorded as failed runs "
            f"(first: case {first['case']}, trial {first['trial']}: {first['reason']}); "
            "run the same command again with --resume to try only those again",), 1)
    return Recorded((line, f"next: ragscore report {target}"), (), 0)
