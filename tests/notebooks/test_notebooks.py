"""Each chapter's .py and .ipynb agree cell for cell, and every code cell was executed.

nbval (run by `make test`) then re-executes each .ipynb and compares the stored outputs.
"""
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def test_the_chapters_are_numbered_from_01_without_a_gap_each_paired():
    numbers = [p.name[:2] for p in SOURCES]
    assert len(numbers) >= 8
    assert numbers == [f"{n:02d}" for n in range(1, len(numbers) + 1)]
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


#: The YAML header `jupytext --sync` (or a save from JupyterLab) may add at the top of a .py.
JUPYTEXT_HEADER = re.compile(r"\A# ---\n(?:#.*\n)*?# ---\n\n?")


def chapter_text(text):
    """The chapter's source without a leading jupytext header, if there is one."""
    return JUPYTEXT_HEADER.sub("", text, count=1)


def check_shape(text):
    text = chapter_text(text)
    assert text.startswith("# %% [markdown]\n# # Chapter "), text[:80]
    for part in ("**Promise:**", "You will learn", "## Recap", "## Exercises"):
        assert part in text, part
    assert re.search(r'^check\("\d\d\.\d", answer\)$', text, re.M)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_chapter_shape(source):
    check_shape(source.read_text())


def test_chapter_shape_tolerates_the_jupytext_header():
    text = SOURCES[0].read_text()
    header = ("# ---\n# jupyter:\n#   jupytext:\n#     text_representation:\n"
              "#       extension: .py\n#       format_name: percent\n#   kernelspec:\n"
              "#     display_name: Python 3\n#     name: python3\n# ---\n\n")
    check_shape(header + text)
    with pytest.raises(AssertionError):
        check_shape("# a stray line\n" + text)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_exercises_keep_their_answers_out_of_sight(source):
    """Every exercise cell is `answer = None` then `check("NN.n", answer)` for an exercise
    of this chapter (at least two a chapter), and is tagged so that present mode leaves it
    out; after the Exercises heading every cell is an exercise or a JupyterLab-only note."""
    from ragscore.workbook.exercises import EXERCISES

    notebook = jupytext.read(source)
    checked = []
    for cell in notebook.cells:
        if cell.cell_type == "code" and re.search(r"\bcheck\(", cell.source):
            match = re.fullmatch(r'answer = None\ncheck\("(\d\d\.\d)", answer\)',
                                 cell.source.strip())
            assert match, cell.source
            checked.append(match.group(1))
            assert "exercise" in cell.metadata.get("tags", ()), cell.source
    assert len(checked) >= 2
    assert all(name.startswith(source.name[:2] + ".") and name in EXERCISES
               for name in checked)
    assert checked == sorted(set(checked))
    started = False
    for cell in notebook.cells:          # from the Exercises heading on, everything is tagged
        started = started or "## Exercises" in cell.source
        if started:
            assert {"exercise", "lab-only"} & set(cell.metadata.get("tags", ())), \
                cell.source[:60]


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
