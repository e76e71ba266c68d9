"""``manifest``, ``validate`` and ``upgrade``: a dataset folder's fingerprint and run
manifests, its check against the shipped JSON Schemas, and its rewrite in format version 5."""
import json
from collections import namedtuple

from ..render.writers import Writer, writer_table
from .result import Result

__all__ = ["Manifest", "Upgraded", "Validated", "manifest", "upgrade", "validate"]


class Manifest(Result, namedtuple("Manifest", "report")):
    """The test set's fingerprint and each system's run manifest (``report``, a dict)."""

    __slots__ = ()
    job = "a manifest"
    # JSON read by programs: escaped against control characters, never wrapped
    writers = writer_table(Writer("json", lambda result, display: json.dumps(
        result.report, indent=2, ensure_ascii=False) + "\n", fitted=False))


def manifest(dataset):
    """The :class:`Manifest` of ``dataset`` (a folder's path or a Dataset)."""
    from ..io.manifest import manifest_report
    from .reading import loaded

    return Manifest(manifest_report(loaded(dataset)))


class Validated(Result, namedtuple("Validated", "folder checked")):
    """A folder checked: how many records of each kind (``checked``) passed."""

    __slots__ = ()
    job = "a validation"
    writers = writer_table(Writer("text", lambda result, display: (
        f"{result.folder}: valid against the shipped JSON Schemas and the reader: "
        + ", ".join(f"{count} {kind} records" for kind, count in result.checked.items())
        + "\n")))


def validate(folder):
    """Check ``folder`` against the JSON Schemas, then load it as every report does."""
    from ..folders import validate_folder

    return Validated(str(folder), validate_folder(folder))


class Upgraded(Result, namedtuple("Upgraded", "folder before after")):
    """A folder rewritten from format version ``before`` to ``after``."""

    __slots__ = ()
    job = "an upgrade"
    writers = writer_table(Writer("text", lambda result, display: (
        f"{result.folder}: format version {result.before} rewritten as version "
        f"{result.after} (the test set in JSON Lines, the runs in Parquet)\n")))


def upgrade(folder):
    """Rewrite ``folder`` (any format version) in format version 5, atomically."""
    from ..folders import upgrade_folder

    before, after = upgrade_folder(folder)
    return Upgraded(str(folder), before, after)
