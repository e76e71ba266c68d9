"""The manifest a recording fills in: what was recorded, when, from which code, how.

Computed, never typed: the test set's fingerprint (:func:`~ragscore.io.manifest.
fingerprint`), the date (UTC), the recorder's name and version (the installed
distribution's) with the options it ran with, and the settings the user passed. The
system's ``code_revision`` is what the user gives (``--code-revision``); the recorder cannot
know it, so without it the manifest keeps only the git revision of the directory the
recording ran in, named as that (``recorder.working_directory_revision``). The endpoint is
kept without its query string or credentials; request headers are never kept.
"""
import datetime
import subprocess
from urllib.parse import urlsplit, urlunsplit

from ..core.rules import InvalidInputError, show

__all__ = ["DISTRIBUTION", "RECORDER", "make_manifest", "package_version", "public_url",
           "working_directory_revision"]

RECORDER = "ragscore record"
#: Manifest keys a user may give (the rest are filled in).
USER_KEYS = ("model", "prompt_revision", "retrieval", "generation", "context_cutoff",
             "rubric_version", "notes", "code_revision")


def working_directory_revision(cwd=None):
    """``git rev-parse HEAD`` in ``cwd`` (default: the working directory), or ``None`` when
    it is not a git checkout or git is not installed."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    revision = done.stdout.strip()
    return revision if done.returncode == 0 and revision else None


#: The distribution that installs ragscore (``[project] name`` in pyproject.toml).
DISTRIBUTION = "ragscore-workbook"


def package_version():
    """The installed ragscore's version (its distribution's metadata; the package's own
    ``__version__`` when it runs from a source tree that was not installed)."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        import sys

        return sys.modules[__name__.partition(".")[0]].__version__


#: The labels of ``[project.urls]`` (pyproject.toml) under which the project's address for
#: reports of a bug is looked for, in order.
REPORT_LABELS = ("issues", "bug tracker", "bugs", "source", "repository", "homepage")


def report_address(urls=None):
    """Where to report a bug, in words: the address pyproject.toml declares once under
    ``[project.urls]`` (as the installed distribution's ``Project-URL`` metadata, labelled
    as :data:`REPORT_LABELS` says), or the maintainers when it declares none (the project
    has no public home). ``urls``: ``{label: url}`` instead of the installed metadata.

    >>> report_address({})
    "report it to the maintainers with --debug's output"
    >>> report_address({"Issues": "https://example.org/ragscore/issues"})
    "report it at https://example.org/ragscore/issues with --debug's output"
    """
    if urls is None:
        urls = project_urls()
    found = {label.strip().lower(): url for label, url in urls.items()}
    url = next((found[label] for label in REPORT_LABELS if found.get(label)), None)
    return (f"report it at {url} with --debug's output" if url else
            "report it to the maintainers with --debug's output")


def project_urls():
    """``{label: url}`` of the installed distribution's ``[project.urls]`` (``{}`` when it
    declares none, or runs from a source tree that was not installed)."""
    from importlib import metadata

    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or ()
    except metadata.PackageNotFoundError:
        return {}
    return dict(entry.split(", ", 1) for entry in entries if ", " in entry)


def public_url(url):
    """``url`` without credentials, query or fragment (they may hold secrets).

    >>> public_url("https://user:secret@example.org:8443/ask?key=abc#x")
    'https://example.org:8443/ask'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def make_manifest(*, system, fingerprint, user=None, settings=None, recorder=None, now=None):
    """The manifest of one recording (see the module docstring); ``user`` holds the keys a
    user gave (:data:`USER_KEYS`), ``recorder`` the recorder's own options."""
    user = dict(user or {})
    unknown = sorted(set(user) - set(USER_KEYS))
    if unknown:
        raise InvalidInputError(f"manifest: key {show(unknown[0])} is filled in by the "
                                f"recorder or unknown (a user may give {', '.join(USER_KEYS)})")
    now = now or datetime.datetime.now(datetime.timezone.utc)
    date = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    manifest = {"run_id": f"{system}@{date}", "date": date, "model": "not stated"}
    manifest.update(user)
    manifest["fingerprint"] = {key: fingerprint[key]
                               for key in ("corpus_sha256", "questions_sha256")}
    if settings:
        manifest["settings"] = dict(settings)
    manifest["recorder"] = {"name": RECORDER, "version": package_version(), **(recorder or {})}
    return manifest
