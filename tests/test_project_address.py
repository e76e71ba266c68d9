"""One address for the project (issue 40), declared once in pyproject.toml's [project.urls]
and read by the internal-error message; with none declared (no public home yet) the message
asks for a report to the maintainers, and no page sends anyone to a repository this project
does not own."""
import tomllib
from pathlib import Path

import pytest

from ragscore.cli import main
from ragscore.io.course import COURSE_PATH
from ragscore.recording import provenance

ROOT = Path(__file__).resolve().parent.parent
NOT_OURS = "github.com/ragscore/ragscore"


def _declared():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"].get("urls")


def test_the_address_is_declared_once_and_read_from_the_installed_metadata():
    declared = _declared()
    assert declared is not None  # the table is there, empty until the project has a home
    assert provenance.project_urls() == declared


def test_no_page_or_message_names_a_repository_that_is_not_ours():
    paths = [ROOT / "README.md", ROOT / "pyproject.toml", *(ROOT / "docs").rglob("*.md"),
             *(ROOT / "ragscore").rglob("*.py"), *(ROOT / "notebooks").glob("*.py")]
    found = [path.relative_to(ROOT).as_posix() for path in paths
             if NOT_OURS in path.read_text(encoding="utf-8")]
    assert found == []


def _internal_error(monkeypatch, capsys):
    import ragscore.engine

    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(ragscore.engine, "count_folder", broken)
    assert main(["report", str(COURSE_PATH)]) == 3
    return capsys.readouterr().err


def test_without_a_declared_address_the_message_asks_the_maintainers(monkeypatch, capsys):
    monkeypatch.setattr(provenance, "project_urls", lambda: {})
    err = _internal_error(monkeypatch, capsys)
    assert err == ("ragscore: internal error (KeyError): \"'boom'\"; this is a bug, please "
                   "report it to the maintainers with --debug's output (run the command again "
                   "with --debug for the details)\n")


@pytest.mark.parametrize("urls, shown", [
    ({"Issues": "https://example.invalid/ragscore/issues",
      "Homepage": "https://example.invalid/ragscore"}, "https://example.invalid/ragscore/issues"),
    ({"Homepage": "https://example.invalid/ragscore"}, "https://example.invalid/ragscore"),
])
def test_a_declared_address_is_the_one_the_message_gives(monkeypatch, capsys, urls, shown):
    monkeypatch.setattr(provenance, "project_urls", lambda: urls)
    err = _internal_error(monkeypatch, capsys)
    assert f"please report it at {shown} with --debug's output" in err
