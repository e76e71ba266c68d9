"""Run manifests, JSON Schemas and the test set's fingerprint.

A manifest says what one run was: one system configuration on one test set (run ID, date,
code and prompt revisions, retrieval and generation settings, context cutoff, model, rubric
version, notes). Manifests live in the dataset index under ``manifests``; they are checked
against ``ragscore/schemas/manifest.schema.json`` with the ``jsonschema`` package.

The **fingerprint** is computed, never typed: ``corpus_sha256`` and ``questions_sha256`` are
the hex SHA-256 of the corpus and of the questions with their labels, each written in a
canonical form (records sorted by ID, keys sorted, ID sets sorted, compact UTF-8 JSON), so
the same content gives the same hash on any machine and in any key order, and a changed
question text, label or document changes it. Reviewers' judgements are not part of it.
"""
import hashlib
import json
from importlib import resources
from pathlib import Path

from ..core.rules import InvalidInputError, show

SCHEMAS = ("manifest", "dataset-index", "corpus-record", "case-record", "run-record", "policy",
           "baseline")
#: Lists that are sets: their order carries no meaning, so the fingerprint sorts them.
_SET_KEYS = frozenset({"relevant", "tags", "caller_groups", "conflicting", "groups"})


def schema(name):
    """The JSON Schema called ``name`` (one of :data:`SCHEMAS`), as shipped in the package.

    >>> schema("manifest")["required"]
    ['run_id', 'date', 'model']
    """
    if name not in SCHEMAS:
        raise InvalidInputError(f"schema must be one of {', '.join(SCHEMAS)}; got {show(name)}")
    text = resources.files("ragscore").joinpath("schemas", f"{name}.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def schema_errors(value, name):
    """Every way ``value`` breaks the schema ``name``, as ``(field path, message)`` pairs,
    deepest first (an empty list: it conforms). Needs the ``jsonschema`` package."""
    import jsonschema
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        (f"{other}.schema.json", Resource.from_contents(schema(other))) for other in SCHEMAS)
    validator = jsonschema.Draft202012Validator(schema(name), registry=registry)
    found = []
    for error in sorted(validator.iter_errors(value), key=lambda e: -len(e.absolute_path)):
        path = "".join(f"[{part}]" if type(part) is int else f".{part}"
                       for part in error.absolute_path).lstrip(".") or "(top level)"
        found.append((path, _message(error)))
    return found


def _message(error):
    """A short, safe message for one schema error (the offending value shown safely)."""
    if error.validator == "additionalProperties":
        return f"unknown key ({error.message.split('(')[-1].rstrip(')')})"
    if error.validator == "required":
        return f"missing key {error.message.split(' is a required')[0]}"
    return f"must satisfy {error.validator} {show(error.validator_value)}; got {show(error.instance)}"


def check_with_schema(value, name, place):
    """Raise :class:`~ragscore.core.rules.InvalidInputError` naming ``place`` and the field
    when ``value`` breaks the schema ``name``."""
    errors = schema_errors(value, name)
    if errors:
        field, message = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise InvalidInputError(f"{place}: {field}: {message}{more}")


def check_manifests(manifests, place):
    """Check a ``{system: manifest}`` map against the manifest schema."""
    if type(manifests) is not dict:
        raise InvalidInputError(f"{place}: key 'manifests' must be an object of system name "
                                f"to manifest; got {show(manifests)}")
    for system, manifest in manifests.items():
        check_with_schema(manifest, "manifest", f"{place}: manifests[{show(system)}]")


def _canonical(record):
    """``record`` with its set-like lists sorted (recursively in ``support``)."""
    out = {}
    for key, value in record.items():
        if key in _SET_KEYS and type(value) is list:
            value = sorted(value)
        elif key == "support" and type(value) is dict:
            value = {claim: sorted(sources) for claim, sources in value.items()}
        out[key] = value
    return out


def _digest(records):
    digest = hashlib.sha256()
    for record in sorted(records, key=lambda r: r["id"]):
        digest.update(json.dumps(_canonical(record), sort_keys=True, separators=(",", ":"),
                                 ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def fingerprint(dataset):
    """``{"corpus_sha256", "questions_sha256", "rubric"}`` of a dataset (see the module
    docstring for the canonical form).

    >>> from ragscore.io.course import load_course
    >>> fingerprint(load_course())["questions_sha256"][:12]
    '1ca9f41e3ebf'
    """
    from .dataset import dataset_records

    records = dataset_records(dataset)
    cases = ({key: value for key, value in record.items() if key != "reviews"}
             for record in records["cases"])
    return {"corpus_sha256": _digest(records["corpus"]), "questions_sha256": _digest(cases),
            "rubric": dataset.rubric}


def manifest_report(dataset):
    """What ``ragscore manifest DIR`` prints: the test set's fingerprint and, per system,
    its manifest (``None`` where none was recorded)."""
    manifests = dataset.manifests or {}
    return {"dataset": dataset.name, "fingerprint": fingerprint(dataset),
            "runs": {system: manifests.get(system) for system in
                     dict.fromkeys((*dataset.systems, *manifests))}}


def rubric_conflict(manifests, rubric, baseline, candidate):
    """Why ``baseline`` and ``candidate`` may not be compared: they were judged under
    different rubric versions (each run's manifest ``rubric_version``, else the dataset's
    ``rubric``), or ``None``.

    >>> rubric_conflict({"A": {"rubric_version": "1"}}, "2", "A", "B")
    'systems A and B were judged under different rubrics: 1 and 2'
    """
    manifests = manifests if type(manifests) is dict else {}

    def version(system):
        manifest = manifests.get(system)
        return (manifest if type(manifest) is dict else {}).get("rubric_version", rubric)

    before, after = version(baseline), version(candidate)
    if before != after:
        return (f"systems {baseline} and {candidate} were judged under different rubrics: "
                f"{before} and {after}")
    return None


_RECORD_SCHEMAS = {"corpus": "corpus-record", "cases": "case-record", "runs": "run-record"}


def validate_folder(path, *, max_bytes=None):
    """Check every file of a dataset folder against the shipped JSON Schemas, record by record
    (the index against ``dataset-index``, each line against its record schema), then load it.

    Slower than :func:`~ragscore.io.dataset.load_dataset` (which enforces the same rules by
    hand while it streams); useful when a file comes from another tool. Returns the number of
    records checked per file kind; raises :class:`~ragscore.io.jsonl.DatasetFileError` naming
    the file, the line and the field of the first problem.
    """
    from .dataset import INDEX, load_dataset
    from .jsonl import MAX_FILE_BYTES, DatasetFileError, records
    from .store import KINDS, snapshot

    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    index, opened = snapshot(path, limit)
    checked = {}
    try:
        for field, message in schema_errors(index, "dataset-index")[:1]:
            raise DatasetFileError(f"{Path(path) / INDEX}: {field}: {message}")
        for kind in KINDS:
            file_path, handle = opened[kind]
            checked[kind] = 0
            for number, record in records(handle, file_path, limit):
                errors = schema_errors(record, _RECORD_SCHEMAS[kind])
                if errors:
                    field, message = errors[0]
                    raise DatasetFileError(f"{file_path}, line {number}: {field}: {message}")
                checked[kind] += 1
    finally:
        for _, handle in opened.values():
            handle.close()
    load_dataset(path, max_bytes=limit)
    return checked


def rubric_mismatch(path, baseline, candidate):
    """Why ``baseline`` and ``candidate`` in the dataset folder at ``path`` may not be
    compared (they were judged under different rubric versions, as their manifests say),
    or ``None``. Reads only the small index."""
    from .dataset import INDEX
    from .jsonl import open_regular, read_json

    try:
        with open_regular(Path(path) / INDEX, 1 << 24) as handle:
            index = read_json(handle, Path(path) / INDEX, 1 << 24)
    except (OSError, InvalidInputError):
        return None  # the reader has already reported any problem with the folder
    if type(index) is not dict:
        return None
    return rubric_conflict(index.get("manifests"), index.get("rubric"), baseline, candidate)
