"""Checking against the shipped schemas without paying for a grammar none of them uses."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragscore.io.schemas import SCHEMAS, schema, schema_errors

ROOT = Path(__file__).resolve().parents[2]


def test_no_shipped_schema_asks_for_a_format_check():
    def formats(node):
        if isinstance(node, dict):
            found = ["format"] if isinstance(node.get("format"), str) else []
            return found + [f for value in node.values() for f in formats(value)]
        if isinstance(node, list):
            return [f for value in node for f in formats(value)]
        return []

    assert not [name for name in SCHEMAS if formats(schema(name))]


def test_reading_a_dataset_with_manifests_does_not_build_the_iri_grammar():
    code = ("import sys, ragscore; ragscore.load_dataset('fixtures/course-runs'); "
            "print('rfc3987_syntax' in sys.modules, 'jsonschema' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    assert found == ["False", "True"]


def test_the_grammar_can_still_be_imported_afterwards():
    pytest.importorskip("rfc3987_syntax")
    code = ("import ragscore.io.schemas as s; s._jsonschema(); import sys; "
            "assert sys.modules.get('rfc3987_syntax', 0) is not None; import rfc3987_syntax; "
            "print('ok')")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip() == "ok"


def test_a_broken_manifest_is_still_named():
    manifest = json.loads(json.dumps({"run_id": "r", "date": "2026-01-01"}))
    assert schema_errors(manifest, "manifest") == [("(top level)", "missing key 'model'")]
