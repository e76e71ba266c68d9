"""Every figure the workbook states appears, live, in the stored outputs of its chapter.

Each entry is (chapter, a pattern over the chapter's text outputs); the numbers are the
workbook's own. nbval then keeps those outputs equal to a fresh run.
"""
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

FIGURES = [
    ("01", r"launch\s+The fictional release window starts on Monday\."),
    ("01", r"region\s+Which region hosts the backup\?\s+\(none\)\s+\(none\)"),
    ("01", r"must be unique within the tuple; got 'owners'"),
    ("01", r"must be an ID in the corpus; got 'ghost'"),                 # unknown document
    ("01", r"corpus\['archive'\] must be non-blank text"),               # empty source text
    ("02", r"rollback\s+A\s+rollback\s+0\.50\s+0\.50\s+1\.00"),           # P@2, R@2 0.50
    ("02", r"1\s+2\s+1\s+0\.50\s+1\.00"),                                  # over returned 1.00
    ("02", r"owner\s+A\s+archive, owners\s+0\.50\s+1\.00\s+0\.50"),        # RR@2 0.50
    ("02", r"owner\s+B\s+owners, archive\s+0\.50\s+1\.00\s+1\.00"),        # RR@2 1.00
    ("02", r"region\s+B\s+\(none\)\s+n/a\s+n/a\s+n/a"),
    ("02", r"owner\s+empty list\s+\(none\)\s+0\.00\s+0\.00\s+0\.00"),
    ("02", r"owners, archve\s+refused: .* must be an ID in the corpus; got 'archve'"),
    ("03", r"launch\s+B as recorded\s+2\s+1\.00\s+0\.50\s+1\.00"),         # support 0.50
    ("03", r"owner\s+A as recorded\s+2\s+1\.00\s+0\.00\s+0\.00"),          # recall 1, support 0
    ("03", r"rollback\s+A as recorded\s+2\s+0\.50\s+1\.00\s+0\.50"),       # 1.00 / 0.50
    ("03", r"rollback\s+B as recorded\s+1\s+0\.50\s+0\.50\s+0\.50"),       # k = 1
    ("03", r"owner\s+no claims\s+2\s+1\.00\s+n/a\s+0\.00\s+n/a"),
    ("03", r"region\s+B as recorded\s+2\s+n/a\s+n/a\s+n/a\s+yes"),
    ("03", r"region\s+A as recorded\s+2\s+n/a\s+0\.00\s+n/a\s+no"),
    ("03", r"must be unique within the run; got 'aurora'"),
    ("04", r"launch A \| 0\.50 1\.00 1\.00 1\.00 1\.00 n/a\nlaunch B \| 0\.50 1\.00 1\.00 0\.50 "
           r"1\.00 n/a\nrollback A \| 0\.50 0\.50 1\.00 1\.00 0\.50 n/a\nrollback B \| 1\.00 "
           r"1\.00 1\.00 1\.00 1\.00 n/a\nowner A \| 0\.50 1\.00 0\.50 0\.00 0\.00 n/a\nowner B "
           r"\| 0\.50 1\.00 1\.00 1\.00 1\.00 n/a\nregion A \| n/a n/a n/a 0\.00 n/a no\n"
           r"region B \| n/a n/a n/a n/a n/a yes"),
    ("04", r"A\s+0\.83\s+mean R@2 over the 3 answerable"),
    ("04", r"B\s+1\.00\s+mean R@2 over the 3 answerable"),
    ("04", r"A\s+0\.67\s+mean support over the 3 answerable"),
    ("04", r"B\s+0\.83\s+mean support over the 3 answerable"),
    ("04", r"A\s+0\.67\s+2 supported of 3 claims"),
    ("04", r"B\s+0\.80\s+4 supported of 5 claims"),
    ("04", r"launch\s+support\s+1\.00\s+0\.50\s+-0\.50\s+regressed"),
    ("04", r"region\s+abstention\s+no\s+yes\s+no → yes\s+improved"),
    ("05", r"384\s+10\s+3840\s+0"),
    # the ten behaviours of the workbook's test file, each failed by exactly its defect
    ("05", r"a short list keeps k as the denominator of P@k\s+1\s+pass\s+FAIL\s+pass\s+pass"),
    ("05", r"a citation to a note outside the top k does not count\s+1\s+pass\s+pass\s+pass"
           r"\s+FAIL"),
    ("05", r"a missing, unknown or partly wrong citation does not count\s+4\s+pass\s+pass"
           r"\s+FAIL\s+pass"),
    ("05", r"short-list denominator\s+\d+ / [1-9]\d* / 0\s+.*test_short_list"),
    ("05", r"any citation suffices\s+\d+ / [1-9]\d* / 0\s+.*test_missing_unknown_or_mixed"),
    ("05", r"no visible-context check\s+\d+ / [1-9]\d* / 0\s+.*test_citation_outside"),
    ("05", r"1\s+2\s+1\s+0\.50\s+1\.00"),
]


def _text_outputs(chapter):
    notebook = nbformat.read(next(NOTEBOOKS.glob(f"{chapter}_*.ipynb")), as_version=4)
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.parametrize("chapter, pattern", FIGURES, ids=lambda v: v[:40])
def test_the_workbook_figure_is_live_in_its_chapter(chapter, pattern):
    assert re.search(pattern, _text_outputs(chapter)), pattern


def test_every_chapter_of_the_workbook_has_its_figures():
    assert sorted({chapter for chapter, _ in FIGURES}) == ["01", "02", "03", "04", "05"]
