"""Recording runs from a live system: the test set's questions in, a dataset folder out.

Two ways in, one recorder (:mod:`ragscore.recording.recorder`): :func:`record` calls the team's
own pipeline, ``fn(question) -> dict``; :func:`record_endpoint` (``ragscore record``, :mod:`ragscore.cli.record`) posts
each question to an HTTP endpoint and reads the answer by JSON paths. See ``docs/record.md``.
"""
from .http import record_endpoint
from .recorder import RecordingInterrupted, RecordingStopped, record

__all__ = ["RecordingInterrupted", "RecordingStopped", "record", "record_endpoint"]
