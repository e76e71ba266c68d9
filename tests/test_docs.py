"""The tables the docs take from the registries are what the registries say today."""
import importlib.util
import json
from pathlib import Path

from ragscore.core.gate import CHECKS, SEVERITIES

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("update_docs", ROOT / "tools" / "update_docs.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_generated_tables_are_up_to_date():
    tool = _tool()
    for path, tables in tool.TABLES.items():
        assert (ROOT / path).read_text(encoding="utf-8") == tool.updated(path, tables), (
            f"{path}: run python tools/update_docs.py")


def test_the_tool_notices_a_stale_table(tmp_path, monkeypatch):
    tool = _tool()
    stale = (ROOT / "docs" / "ci.md").read_text().replace("| `min_each` |", "| `min_any` |")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "ci.md").write_text(stale)
    assert tool.updated("docs/ci.md", tool.TABLES["docs/ci.md"]) != stale


def test_the_policy_schema_knows_the_registered_checks():
    schema = json.loads((ROOT / "ragscore" / "schemas" / "policy.schema.json").read_text())
    rule = schema["properties"]["rule"]["items"]["properties"]
    assert rule["check"]["enum"] == list(CHECKS)
    assert rule["severity"]["enum"] == list(SEVERITIES)


def test_the_docs_index_lists_every_page_once():
    """docs/README.md gives every page of docs/ one line (issue 41's front door)."""
    import re

    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| \[([a-z0-9-]+\.md)\]\(\1\) \| \S", index, re.MULTILINE)
    pages = sorted(path.name for path in (ROOT / "docs").glob("*.md") if path.name != "README.md")
    assert sorted(listed) == pages and len(set(listed)) == len(listed)


def test_the_readme_is_a_front_door():
    """At most 15 KB, its three doors on the first screen, pointing at pages that exist."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 15_000
    first_screen = text[:text.index("### Learn")]
    assert "**Learn**" in first_screen and "**Use**" in first_screen \
        and "**Contribute**" in first_screen
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        assert (ROOT / target).exists(), target
