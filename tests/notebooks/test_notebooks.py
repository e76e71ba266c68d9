"""Each chapter's .py and .ipynb agree cell for cell, and every code cell was executed.

nbval (run by `make test`) then re-executes each .ipynb and compares the stored outputs.
"""
from pathlib import Path

import jupytext
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def test_there_are_six_chapters_each_paired():
    assert [p.name[:2] for p in SOURCES] == ["01", "02", "03", "04", "05", "06"]
    for source in SOURCES:
        assert source.with_suffix(".ipynb").exists(), source.name


def _cells(notebook):
    return [(cell.cell_type, cell.source.strip(), tuple(cell.metadata.get("tags", ())))
            for cell in notebook.cells]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_py_and_ipynb_agree_on_every_cell(source):
    from_py = jupytext.read(source)
    stored = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    assert _cells(from_py) == _cells(stored)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_code_cell_has_a_stored_execution(source):
    stored = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    code = [cell for cell in stored.cells if cell.cell_type == "code"]
    assert code
    for cell in code:
        assert cell.execution_count is not None, cell.source[:60]
        assert not any(output.output_type == "error" for output in cell.outputs), cell.source


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_chapter_shape(source):
    text = source.read_text()
    assert text.startswith("# %% [markdown]\n# # Chapter ")
    for part in ("**Promise:**", "You will learn", "## Recap", "## Exercises"):
        assert part in text, part
    assert "check_yourself(" in text


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_outputs_hold_nothing_machine_specific(source):
    text = source.with_suffix(".ipynb").read_text()
    for noise in (" at 0x", "/tmp/", "/root/", "Traceback"):
        assert noise not in text, noise


def test_the_pairing_check_notices_drift(tmp_path):
    source = SOURCES[0]
    stored = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    stored.cells[1].source += "\nedited only in the notebook"
    assert _cells(jupytext.read(source)) != _cells(stored)
