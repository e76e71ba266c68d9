"""Each chapter's .py and .ipynb agree cell for cell, and every code cell was executed.

nbval (run by `make test`) then re-executes each .ipynb and compares the stored outputs.
"""
import html
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
    return [(cell.cell_type, cell.source.strip(), tuple(cell.metadata.get("tags", ())),
             cell.metadata.get("jp-MarkdownHeadingCollapsed", False))
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
    out; after the Exercises heading every cell is an exercise, a JupyterLab-only note or
    part of the folded Going further (tests/notebooks/test_pace.py)."""
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
            assert {"exercise", "lab-only", "going-further"} & set(
                cell.metadata.get("tags", ())), \
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


def promise_cell(source):
    """The chapter's first cell: title, promise, time, prerequisites, what you will learn."""
    return jupytext.read(source).cells[0].source


def check_opening(text):
    """The promise, then a time estimate in minutes and the prerequisites, then the list of
    what the chapter teaches."""
    promise, time_at, before_at, learn = (text.find(part) for part in (
        "**Promise:**", "**Time:**", "**Before this chapter:**", "You will learn"))
    assert -1 < promise < time_at < learn and -1 < promise < before_at < learn, text[:200]
    assert re.search(r"\*\*Time:\*\* about \d{1,3} minutes\.", text), text[:300]
    assert re.search(r"\*\*Before this chapter:\*\* \S[^\n]*", text)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_chapter_opens_with_its_time_and_prerequisites(source):
    check_opening(promise_cell(source))


def test_the_opening_check_notices_a_missing_time():
    text = promise_cell(SOURCES[0])
    with pytest.raises(AssertionError):
        check_opening(re.sub(r"\*\*Time:\*\*[^*]*", "", text))


def quick_checks(notebook, chapter):
    """Positions of the cells showing ``chapter``'s quick check, and of the Recap heading."""
    found = [at for at, cell in enumerate(notebook.cells) if cell.cell_type == "code"
             and cell.source.strip() == f'show(quick_check("{chapter}"))']
    recap = next(at for at, cell in enumerate(notebook.cells) if cell.source.startswith("## Recap"))
    return found, recap


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_chapter_has_its_quick_check_after_a_step(source):
    """One cell shows the chapter's own quick check, between its steps and the Recap, and not
    among the exercises (present mode shows it: the room answers it)."""
    from ragscore.workbook.quickcheck import QUICK_CHECKS

    notebook = jupytext.read(source)
    chapter = source.name[:2]
    found, recap = quick_checks(notebook, chapter)
    assert len(found) == 1 and found[0] < recap, (source.name, found)
    steps = [at for at, cell in enumerate(notebook.cells) if cell.source.startswith("## Step")]
    assert steps and steps[0] < found[0]
    step = QUICK_CHECKS[chapter].step
    heading = max(at for at in steps if at < found[0])
    assert notebook.cells[heading].source.startswith(f"## Step {step}:"), (source.name, step)
    assert not {"exercise", "lab-only"} & set(notebook.cells[found[0]].metadata.get("tags", ()))


def questionnaire(notebook):
    cells = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"
             and cell.source.startswith("## Questionnaire")]
    return cells


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_chapter_ends_with_a_questionnaire_answered_in_its_steps(source):
    """After the Recap and before the Exercises: five to eight numbered questions, each naming
    the step of this chapter whose text answers it."""
    notebook = jupytext.read(source)
    found = questionnaire(notebook)
    assert len(found) == 1, source.name
    order = [cell.source.split("\n")[0] for cell in notebook.cells
             if cell.source.startswith(("## Recap", "## Questionnaire", "## Exercises"))]
    assert order == ["## Recap", "## Questionnaire", "## Exercises"], order
    items = re.findall(r"^(\d+)\. (.+?)(?=^\d+\. |\Z)", found[0], re.M | re.S)
    assert 5 <= len(items) <= 8 and [int(n) for n, _ in items] == list(range(1, len(items) + 1))
    steps = {int(match.group(1)) for cell in notebook.cells
             for match in [re.match(r"## Step (\d+):", cell.source)] if match}
    for _, item in items:
        named = [int(n) for n in re.findall(r"\(steps? (\d+)(?:(?: and |, )\d+)*\)", item)]
        assert named and set(named) <= steps, (source.name, item)


def page_lines(output):
    """The lines a stored output puts on the page as text: a stream, the text of a
    pre-formatted block in HTML (command output), or plain text with no richer form."""
    if output.output_type == "stream":
        return output.text.splitlines()
    data = output.get("data", {})
    if "text/html" in data:
        blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", data["text/html"], re.S)
        blocks = [re.sub(r'<span class="rs-gap"[^>]*>.*?</span>', "", block, flags=re.S)
                  for block in blocks]    # the spaces a stored wrap replaced: not shown
        return [line for block in blocks
                for line in html.unescape(re.sub(r"<[^>]+>", "", block)).splitlines()]
    if {"image/png", "application/vnd.jupyter.widget-view+json"} & set(data):
        return []
    return data.get("text/plain", "").splitlines()


def wide_lines(notebook, width):
    from itertools import chain

    return [line for cell in notebook.cells for line in
            chain.from_iterable(page_lines(output) for output in cell.get("outputs", []))
            if len(line) > width]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_no_stored_output_line_is_wider_than_the_page(source):
    """Command output, streams and plain text fit :data:`PAGE_COLUMNS` (80): JupyterLab shows
    about 85 monospace characters at 1280 pixels, present mode about 95. Tables are HTML,
    which the page wraps."""
    from ragscore.workbook.explore import PAGE_COLUMNS

    stored = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    assert not wide_lines(stored, PAGE_COLUMNS)


def test_the_width_check_notices_a_wide_line_in_command_output():
    from ragscore.workbook.explore import PAGE_COLUMNS, CommandOutput

    stored = nbformat.read(SOURCES[0].with_suffix(".ipynb"), as_version=4)
    wide = CommandOutput("x" * 90)                       # one word: never wrapped
    stored.cells.append(nbformat.v4.new_code_cell("CommandOutput(...)", outputs=[
        nbformat.v4.new_output("execute_result", data={"text/html": wide._repr_html_(),
                                                       "text/plain": repr(wide)})]))
    stored.cells.append(nbformat.v4.new_code_cell("print(...)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="y " * 50 + "\n")]))
    assert wide_lines(stored, PAGE_COLUMNS) == ["x" * 90, ("y " * 50).rstrip("\n")]
