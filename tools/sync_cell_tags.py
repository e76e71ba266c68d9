"""Give each chapter's .ipynb cells the tags of its .py cells, and the fold of its Going
further heading (``make notebooks`` runs it).

``jupytext --update`` keeps a stored cell's metadata when a new cell takes its place: a
questionnaire inserted before the Exercises heading came out tagged ``exercise``, so present
mode hid it. The .py is the source, so its tags win; the cells must already agree in type
and text (``jupytext --update`` makes them).
"""
import sys
from pathlib import Path

import jupytext
import nbformat


#: The cell metadata JupyterLab reads to fold a heading when it opens a notebook.
FOLDED = "jp-MarkdownHeadingCollapsed"


def sync(source):
    """Copy the tags of ``source``'s cells onto its .ipynb's; return how many changed."""
    text, stored_path = jupytext.read(source), source.with_suffix(".ipynb")
    stored = nbformat.read(stored_path, as_version=4)
    if [(c.cell_type, c.source.strip()) for c in text.cells] != \
            [(c.cell_type, c.source.strip()) for c in stored.cells]:
        raise SystemExit(f"{stored_path}: its cells differ from {source.name}'s; run "
                         "jupytext --to ipynb --update first")
    changed = 0
    for wanted, cell in zip(text.cells, stored.cells):
        tags = list(wanted.metadata.get("tags", ()))
        if tags != list(cell.metadata.get("tags", ())):
            changed += 1
            if tags:
                cell.metadata["tags"] = tags
            else:
                cell.metadata.pop("tags", None)
        folded = wanted.metadata.get(FOLDED, False)  # a Going further heading, folded
        if folded != cell.metadata.get(FOLDED, False):
            changed += 1
            if folded:
                cell.metadata[FOLDED] = True
            else:
                cell.metadata.pop(FOLDED, None)
    if changed:
        nbformat.write(stored, stored_path)
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        count = sync(Path(name))
        if count:
            print(f"{name}: {count} cell tags taken from the .py")
