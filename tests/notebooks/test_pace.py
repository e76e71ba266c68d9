"""The lesson at the source's pace: each chapter's core path (everything before its folded
"Going further" part) is short, all eleven chapters alike, chapters 1 to 6 together stay
within 1.5 times the source workbook's words, chapter 1 states the short route's time, and
nothing the source names has moved out of the core path.

Run as a script (``python tests/notebooks/test_pace.py``) it prints the counts per chapter.
"""
import re
import sys
from pathlib import Path

import jupytext
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
SEED = Path("/work/shared/seed/workbook.txt")

#: The source workbook's six chapters, counted as `wc -w` counts them (code included).
SOURCE_WORDS = 3705
#: Most prose words a chapter's core path may hold ("about 1,300"), every chapter's.
CORE_WORDS = 1300
#: Chapters 1-6's core paths together, at most this many times the source's words.
TOGETHER = 1.5
#: Longest core path, in minutes, of chapters 1-6.
CORE_MINUTES = 25
#: Longest core path, in minutes, of the later chapters cut to the pace, and which they are.
LATER_MINUTES = 30
TIMED_LATER = ("09", "10")

GOING_FURTHER = "## Going further"


def words(markdown):
    """The words of a markdown text as a reader counts them: a link's target, markup and
    punctuation are not words.

    >>> words("See [the glossary](../docs/glossary.md#n/a): **n/a** is not `0`.")
    7
    """
    text = re.sub(r"\]\([^)]*\)", "]", markdown)
    return len(re.findall(r"[A-Za-z0-9][\w'’@./-]*", text))


def split(source):
    """``(core cells, going-further cells)`` of a chapter: the Going further part runs from
    its heading to the last cell (the lab-only "Where next" links), which is in neither."""
    cells = jupytext.read(source).cells[:-1]
    at = next((i for i, cell in enumerate(cells) if cell.source.startswith(GOING_FURTHER)),
              len(cells))
    return cells[:at], cells[at:]


def counts(source):
    """``(core prose words, core output-free code cells, going-further prose words,
    minutes)`` of one chapter: every markdown cell a learner reads in JupyterLab on the core
    path (steps, recap, questionnaire, exercises and JupyterLab-only notes alike)."""
    core, further = split(source)
    prose = sum(words(cell.source) for cell in core if cell.cell_type == "markdown")
    extra = sum(words(cell.source) for cell in further if cell.cell_type == "markdown")
    minutes = int(re.search(r"\*\*Time:\*\* about (\d+) minutes", core[0].source).group(1))
    return prose, extra, minutes


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_a_going_further_part_is_folded_tagged_and_last(source):
    """Where a chapter has one, its Going further heading is folded when JupyterLab opens the
    chapter, it and every cell under it are tagged going-further (present mode leaves them
    out), and it comes after the exercises, followed only by the "Where next" links."""
    cells = jupytext.read(source).cells
    core, further = split(source)
    if not further:
        return
    heading = further[0]
    assert heading.metadata.get("jp-MarkdownHeadingCollapsed") is True, source.name
    # present mode's check looks for these words to know the part was left out; the heading
    # cell holds nothing else, since JupyterLab's fold hides the cells under it, not its own
    assert heading.source.split("\n")[1].startswith("Not needed for "), heading.source
    assert "\n\n" not in heading.source and len(heading.source.split("\n")) <= 3
    assert all("going-further" in cell.metadata.get("tags", ()) for cell in further)
    assert not any("going-further" in cell.metadata.get("tags", ()) for cell in core)
    assert any(cell.source.startswith("## Exercises") for cell in core)
    assert not re.search(r"^## (?!Going further)", "\n".join(c.source for c in further), re.M)
    assert cells[-1].source.startswith("## Where next"), "the fold must end before the links"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_core_path_is_short(source):
    prose, _, _ = counts(source)
    assert prose <= CORE_WORDS, (source.name, prose)


@pytest.mark.parametrize("source", [source for source in SOURCES if source in SOURCES[:6]
                                    or source.name[:2] in TIMED_LATER], ids=lambda p: p.name)
def test_each_core_path_is_quick(source):
    _, _, minutes = counts(source)
    limit = CORE_MINUTES if source in SOURCES[:6] else LATER_MINUTES
    assert minutes <= limit, (source.name, minutes)


def test_chapters_1_to_6_together_keep_the_sources_pace():
    total = sum(counts(source)[0] for source in SOURCES[:6])
    assert total <= TOGETHER * SOURCE_WORDS, total


def test_the_source_word_count_is_the_seeds():
    if not SEED.exists():
        pytest.skip(f"{SEED} is not on this machine")
    assert len(SEED.read_text(encoding="utf-8").split()) == SOURCE_WORDS


def test_chapter_1_gives_the_short_route_and_its_time():
    """Chapter 1's opening states the route through chapters 1-6 in minutes per chapter and
    in all; both agree with the chapters' own time estimates."""
    opening = jupytext.read(SOURCES[0]).cells[0].source
    route = re.search(r"\*\*The short route:\*\* chapters 1 to 6 .*? about (\d+) hours? (\d+)"
                      r"\s+minutes\s+\(([\d + ]+)\)", opening, re.S)
    assert route, opening
    minutes = [counts(source)[2] for source in SOURCES[:6]]
    assert [int(n) for n in route.group(3).split("+")] == minutes
    assert int(route.group(1)) * 60 + int(route.group(2)) == sum(minutes)
    assert "Going further" in opening


def _core_text(number, *, moved=()):
    """The text of chapter ``number``'s core path, prose and stored outputs; a cell whose
    source holds one of ``moved`` is left out, as if moved under Going further."""
    import nbformat

    core, _ = split(SOURCES[number - 1])
    stored = {cell.source.strip(): cell for cell in nbformat.read(
        SOURCES[number - 1].with_suffix(".ipynb"), as_version=4).cells}
    text = []
    for cell in core:
        if any(part in cell.source for part in moved):
            continue
        text.append(cell.source)
        for output in stored[cell.source.strip()].get("outputs", []):
            data = output.get("data", {})
            text.append(output.get("text", "") + data.get("text/plain", "")
                        + data.get("text/html", ""))
    return "\n".join(text)


#: What the source workbook names, and the core path that must still show it.
SOURCE_NAMES = {
    "the eight-row table at k = 2": (4, [r"launch A \| 0\.50 1\.00 1\.00 1\.00 1\.00 n/a",
                                         r"owner A \| 0\.50 1\.00 0\.50 0\.00 0\.00 n/a",
                                         r"region B \| n/a n/a n/a n/a n/a yes"]),
    "the ten tested behaviours": (5, [r"ten behaviours", r"Table\(behaviour_rows\(results\)\)"]),
    "the three mutations": (5, [r"short-list denominator", r"any citation suffices",
                                r"no visible-context check"]),
    "the n/a rule": (2, [r"n/a is not zero", r"\*\*n/a\*\*, never 0"]),
    "the strict citation rule": (3, [r"\*every\*\s+cited note is labelled as supporting that"
                                     r"\s+very claim and is among the top k"]),
    "the integration plan": (6, [r"manifest", r"one controlled change", r"practical test "
                                 r"collection", r"Permissions", r"Latency, cost", r"hosted judge",
                                 r"Acceptance", r"Monitoring"]),
}


@pytest.mark.parametrize("name", sorted(SOURCE_NAMES))
def test_nothing_the_source_names_left_the_core_path(name):
    number, patterns = SOURCE_NAMES[name]
    text = _core_text(number)
    for pattern in patterns:
        assert re.search(pattern, text), (name, pattern)


def test_the_core_check_notices_a_moved_table():
    """The eight-row table's cell, moved under Going further, is no longer found."""
    _, patterns = SOURCE_NAMES["the eight-row table at k = 2"]
    text = _core_text(4, moved=("render(table, k=2",))
    assert not all(re.search(pattern, text) for pattern in patterns)


if __name__ == "__main__":
    total = 0
    print("chapter  core prose words  going-further words  minutes")
    for source in SOURCES:
        prose, extra, minutes = counts(source)
        total += prose if source in SOURCES[:6] else 0
        print(f"{source.name[:2]:>7}  {prose:>16}  {extra:>19}  {minutes:>7}")
    print(f"chapters 1-6: {total} core prose words; the source: {SOURCE_WORDS} "
          f"(limit {TOGETHER * SOURCE_WORDS:.0f})", file=sys.stdout)
