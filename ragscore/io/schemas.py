"""The JSON Schemas shipped in ``ragscore/schemas/``, and checking a value against them.

Records, indexes, manifests, policies and baselines each have a schema; ``ragscore
validate`` checks a folder against them, and the gate checks manifests, policies and
baselines with them before reading any number (the ``jsonschema`` package does the work).
"""
import json

from ..core.rules import InvalidInputError, check_date, show

SCHEMAS = ("manifest", "dataset-index", "corpus-record", "case-record", "run-record", "policy",
           "baseline")


def schema(name):
    """The JSON Schema called ``name`` (one of :data:`SCHEMAS`), as shipped in the package.

    >>> schema("manifest")["required"]
    ['run_id', 'date', 'model']
    """
    if name not in SCHEMAS:
        raise InvalidInputError(f"schema must be one of {', '.join(SCHEMAS)}; got {show(name)}")
    from importlib import resources  # on first use: it costs a few ms at `import ragscore`

    text = resources.files("ragscore").joinpath("schemas", f"{name}.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def _jsonschema():
    """The ``jsonschema`` package, imported without its optional IRI grammar: jsonschema
    imports ``rfc3987_syntax`` (when installed, as JupyterLab's dependencies install it) only
    to check the ``iri`` formats, and that module builds a Lark parser as it is imported, a
    second or more of every command and chapter that reads a manifest, for a check no schema
    here asks for (they use no ``format``). Blocked for that one import, then unblocked."""
    import sys

    if "jsonschema" not in sys.modules and "rfc3987_syntax" not in sys.modules:
        sys.modules["rfc3987_syntax"] = None  # jsonschema imports it under suppress(ImportError)
        try:
            import jsonschema
        finally:
            del sys.modules["rfc3987_syntax"]
    import jsonschema

    return jsonschema


def schema_errors(value, name):
    """Every way ``value`` breaks the schema ``name``, as ``(field path, message)`` pairs,
    deepest first (an empty list: it conforms). Needs the ``jsonschema`` package."""
    from referencing import Registry, Resource

    jsonschema = _jsonschema()

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
        check_date(manifest["date"][:10], f"{place}: manifests[{show(system)}].date "
                                          "(its first ten characters)")
