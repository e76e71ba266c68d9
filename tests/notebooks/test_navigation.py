"""A course to find your way in: README's "Start here" lists every chapter at the path
JupyterLab shows; each chapter ends with a recap list and links to its neighbours and to the
glossary, which defines the terms the chapters use and names the works they build on.

Every test reads whatever chapters exist, so a chapter 9 is checked as soon as it is added.
"""
import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))
GLOSSARY = ROOT / "docs" / "glossary.md"
README = ROOT / "README.md"


def title(source):
    """``Chapter 2 — Denominators, ordering and missing values``."""
    return re.search(r"^# # (Chapter \d+ — .+)$", source.read_text(), re.M).group(1)


def markdown_links(source):
    """``[(text, target, tags)]`` of every markdown link in a chapter."""
    found = []
    for cell in jupytext.read(source).cells:
        if cell.cell_type == "markdown":
            for text, target in re.findall(r"\[([^\]]+)\]\(([^)\s]+)\)", cell.source):
                found.append((text, target, tuple(cell.metadata.get("tags", ()))))
    return found


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_chapter_has_a_recap_of_three_to_five_points(source):
    recaps = [cell.source for cell in jupytext.read(source).cells
              if cell.cell_type == "markdown" and cell.source.startswith("## Recap")]
    assert len(recaps) == 1, source.name
    points = re.findall(r"^- ", recaps[0], re.M)
    assert 3 <= len(points) <= 5, (source.name, len(points))
    assert not re.search(r"\bexercise\b", recaps[0], re.I)


@pytest.mark.parametrize("index", range(len(SOURCES)), ids=lambda i: SOURCES[i].name)
def test_each_chapter_links_its_neighbours_and_the_glossary(index):
    """The last cell (JupyterLab only) links the previous chapter, if any, and the next, if
    any, by their titles; the glossary is linked too. No link points at a chapter that
    does not exist, and none is shown in present mode."""
    source = SOURCES[index]
    links = markdown_links(source)
    last = jupytext.read(source).cells[-1]
    assert "lab-only" in last.metadata.get("tags", ()), source.name
    expected = []
    if index > 0:
        expected.append(("Previous", SOURCES[index - 1]))
    if index + 1 < len(SOURCES):
        expected.append(("Next", SOURCES[index + 1]))
    for word, neighbour in expected:
        target = neighbour.with_suffix(".ipynb").name
        assert re.search(rf"\*\*{word}:\*\*\s+\[[^\]]+\]\({re.escape(target)}\)", last.source), \
            (source.name, word, target)
        text = next(text for text, link, _ in links if link == target)
        assert text.split(" — ")[0] == title(neighbour).split(" — ")[0], (source.name, text)
    assert "(../docs/glossary.md)" in last.source
    if index + 1 == len(SOURCES):
        assert "**Next:**" not in last.source
    for _, target, tags in links:
        if target.endswith(".ipynb") or target.startswith("../"):
            assert "lab-only" in tags, (source.name, target)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_a_link_to_a_chapter_reads_its_title(source):
    """A chapter is named one way everywhere: its links at the top and at the end both read
    the chapter's own title (they once read "Scoring defects" at the top and "A scoring
    defect can make a weak system look strong" at the end)."""
    for text, target, _ in markdown_links(source):
        if re.fullmatch(r"\d\d_\w+\.ipynb", target):
            assert " ".join(text.split()) == title(NOTEBOOKS / target.replace(".ipynb", ".py")), \
                (source.name, text)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_relative_link_of_a_chapter_resolves(source):
    for _, target, _ in markdown_links(source):
        if not re.match(r"[a-z]+://", target):
            assert (NOTEBOOKS / target.split("#")[0]).resolve().is_file(), (source.name, target)


def test_the_link_check_notices_a_missing_neighbour(tmp_path):
    """The check above, on a chapter whose last cell links nowhere."""
    broken = tmp_path / "01_x.py"
    broken.write_text('# %% [markdown]\n# # Chapter 1 — X\n\n# %% [markdown] tags=["lab-only"]\n'
                      "# **Next:** [Chapter 2 — Y](09_nowhere.ipynb)\n")
    (_, target, _), = markdown_links(broken)
    assert not (tmp_path / target).is_file()


def start_here():
    text = README.read_text()
    return text[text.index("## Start here"):text.index("\n## ", text.index("## Start here") + 1)]


def test_start_here_lists_every_chapter_once_at_its_jupyterlab_path():
    """One numbered line per chapter, in order, naming `notebooks/NN_name.ipynb`: the path
    JupyterLab's file browser shows when `make lab` opens at the repository root."""
    section = start_here()
    listed = re.findall(r"^(\d+)\. `(notebooks/[^`]+\.ipynb)`: \S.*$", section, re.M)
    assert listed == [(str(n), f"notebooks/{source.with_suffix('.ipynb').name}")
                      for n, source in enumerate(SOURCES, start=1)]
    assert "being rebuilt" not in section


def test_make_lab_opens_at_the_root_where_those_paths_hold():
    makefile = (ROOT / "Makefile").read_text()
    lab = makefile[makefile.index("\nlab:"):makefile.index("\npresent:")]
    assert "--ServerApp.root_dir=$(CURDIR)" in lab and "$(LAB_OPTIONS)" in lab
    options = re.search(r"^LAB_OPTIONS := (.*)$", makefile, re.M).group(1)
    assert (f"--LabApp.default_url=/lab/tree/notebooks/"
            f"{SOURCES[0].with_suffix('.ipynb').name}") in options.split()


#: Terms the chapters use that the glossary must define (each a heading of its own).
TERMS = ["precision at k", "recall at k", "reciprocal rank", "n/a", "support", "coverage",
         "abstention", "pooled", "macro", "slice", "left out as n/a", "delivered context",
         "manifest", "fingerprint", "gate", "policy", "kappa", "disclosure", "stale support",
         "conflict", "disputed", "held-out", "nDCG", "graded relevance", "unanswerable",
         "validation", "regression", "trial", "p-value", "bootstrap", "cutoff",
         "precision over returned items", "mutation", "cross-check", "TREC", "claim",
         "citation", "corpus", "run"]


def test_the_glossary_defines_each_term_under_a_heading():
    headings = [line[4:].lower() for line in GLOSSARY.read_text().splitlines()
                if line.startswith("### ")]
    missing = [term for term in TERMS
               if not any(re.search(rf"(^|[ ,(]){re.escape(term.lower())}\b", heading)
                          for heading in headings)]
    assert not missing, missing


def test_the_glossary_names_the_works_the_workbook_cites():
    references = " ".join(GLOSSARY.read_text().split("## References")[1].split())
    for work in ("RAGAS: Automated Evaluation of Retrieval Augmented Generation",
                 "Unanswerable Questions for SQuAD", "Introduction to Information Retrieval"):
        assert work in references, work


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_learner_code_carries_no_lint_suppressions(source):
    assert "noqa" not in source.read_text()


def lab_anchor(heading):
    """The id JupyterLab gives a Markdown heading: its text, spaces made hyphens (case and
    punctuation kept), the fragment a link must name to open at that heading."""
    return heading.strip().replace(" ", "-")


def glossary_headings():
    return [line[4:].strip() for line in GLOSSARY.read_text().splitlines()
            if line.startswith("### ")]


def glossary_links(source):
    return [target.partition("#")[2] for _, target, _ in markdown_links(source)
            if target.startswith("../docs/glossary.md#")]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_glossary_link_opens_its_term(source):
    """A chapter links its terms to their entries, each link naming the id JupyterLab gives
    the entry's heading (a link to the glossary alone opened it at the top)."""
    anchors = {lab_anchor(heading) for heading in glossary_headings()}
    linked = glossary_links(source)
    assert len(linked) >= 3, source.name
    assert not [anchor for anchor in linked if anchor not in anchors], source.name


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_each_bold_term_the_glossary_defines_is_linked(source):
    """A term in **bold** whose name heads a glossary entry (``support``, ``pooled``) has
    that entry among the chapter's term links."""
    names = {name.strip().lower(): lab_anchor(heading) for heading in glossary_headings()
             for name in heading.split(",")}
    bold = {term.lower() for cell in jupytext.read(source).cells if cell.cell_type == "markdown"
            for term in re.findall(r"\*\*([^*]+)\*\*", cell.source)}
    wanted = {names[term] for term in bold if term in names}
    assert wanted <= set(glossary_links(source)), (source.name, wanted - set(
        glossary_links(source)))


def bold_not_in_glossary(source):
    """Bold text of a chapter's Markdown that names no glossary entry. Labels ending in a
    colon (``**Promise:**``) and the word "bold" of "terms in **bold**" are not terms; an
    entry "X mean" or "X claim" may be named X (``macro``, ``supported``)."""
    names = {name.strip().lower() for heading in glossary_headings()
             for name in heading.split(",")}
    names |= {re.sub(r" (mean|claim)$", "", name) for name in names}
    bold = [term for cell in jupytext.read(source).cells if cell.cell_type == "markdown"
            for term in re.findall(r"\*\*([^*]+)\*\*", cell.source)]
    return [term for term in bold
            if not term.endswith(":") and term != "bold" and term.lower() not in names]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_bold_is_kept_for_glossary_terms(source):
    """Each chapter says its terms in **bold** are in the glossary, so nothing else is bold:
    emphasis, a list's lead words and names that are not glossary terms are in italics."""
    assert not bold_not_in_glossary(source), (source.name, bold_not_in_glossary(source))


def test_the_bold_check_notices_a_bold_word_that_is_no_term(tmp_path):
    chapter = tmp_path / "01_x.py"
    chapter.write_text("# %% [markdown]\n# **Promise:** terms in **bold**: **macro** mean, "
                       "**support**, **P@k**, **not** a term, **Frozen sources.**\n")
    assert bold_not_in_glossary(chapter) == ["not", "Frozen sources."]


def test_the_anchor_check_notices_a_link_to_a_missing_term(tmp_path):
    chapter = tmp_path / "01_x.py"
    chapter.write_text('# %% [markdown]\n# # Chapter 1 — X\n\n# %% [markdown] tags=["lab-only"]\n'
                       "# [support](../docs/glossary.md#Support) ·\n"
                       "# [a](../docs/glossary.md#support) · [b](../docs/glossary.md#coverage)\n")
    anchors = {lab_anchor(heading) for heading in glossary_headings()}
    assert [anchor for anchor in glossary_links(chapter) if anchor not in anchors] == ["Support"]
    assert lab_anchor("precision at k, P@k") == "precision-at-k,-P@k"
