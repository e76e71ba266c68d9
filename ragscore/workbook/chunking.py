"""Chapter 10's chunker in miniature: documents cut into chunks of at most N characters at
word boundaries, a run re-expressed on another chunking, and a panel whose chunk-size
slider derives the labels again and scores again.

Re-expressing a run is a teaching device, not a recording: the same system is imagined
finding the same text in a chunking cut differently. Its ranking becomes the new chunks that
hold a character of each chunk it ranked, in that order; each citation becomes the one new
chunk holding the most of the cited text (a system cites the passage it read). A real
chunker's runs are recorded again. The labels are never re-expressed: they are derived from
the spans by the package's one rule (:mod:`ragscore.core.spans`).
"""
import html
import re

from ..core.rules import fail
from ..core.spans import Chunking

__all__ = ["chunk_size_explorer", "chunked", "cut", "derived_rows", "project_run"]

_WORD = re.compile(r"\S+")
#: The slider: from, to, step (characters). Below 40 the labels table of a chunking runs
#: past a 1280x720 screen under its slider (the walkthrough on d909627), and the chapter's
#: points are made at 50, 60 and 120.
SIZES = (40, 160, 10)


def cut(documents, size):
    """``{chunk: (doc, start, end)}``: each document's words packed greedily into chunks of
    at most ``size`` characters (a longer word is a chunk of its own); a chunk is named
    ``DOC@START``. The spaces between chunks belong to none.

    >>> cut({"d": ("v1", "One two three four.")}, 8)
    {'d@0': ('d', 0, 7), 'd@8': ('d', 8, 13), 'd@14': ('d', 14, 19)}
    """
    if type(size) is not int or size < 1:
        fail("size", "a whole number of characters, at least 1", size)
    positions = {}
    for doc, (_, text) in documents.items():
        start = end = None
        for word in _WORD.finditer(text):
            if start is not None and word.end() - start > size:
                positions[f"{doc}@{start}"] = (doc, start, end)
                start = None
            if start is None:
                start = word.start()
            end = word.end()
        if start is not None:
            positions[f"{doc}@{start}"] = (doc, start, end)
    return positions


def project_run(run, old, new):
    """``run`` (its ``retrieved`` and ``claims``) re-expressed from the chunking ``old``
    (``{chunk: (doc, start, end)}``) on ``new`` (a :class:`~ragscore.core.spans.Chunking`),
    as the module docstring says.

    >>> old = {"s": ("d", 0, 10)}
    >>> new = Chunking({"a": ("d", 0, 4), "b": ("d", 4, 10)})
    >>> project_run({"retrieved": ("s",), "claims": (("x", ("s",)),)}, old, new)
    {'retrieved': ('a', 'b'), 'claims': (('x', ('b',)),)}
    """
    def pieces(chunk):
        return new.overlapping(*old[chunk])

    def most(chunk):
        _, start, end = old[chunk]
        found = pieces(chunk)
        held = [min(end, e) - max(start, s) for _, s, e in found]
        return found[held.index(max(held))][0]

    retrieved = tuple(dict.fromkeys(piece for chunk in run["retrieved"]
                                    for piece, _, _ in pieces(chunk)))
    claims = tuple((claim, tuple(dict.fromkeys(most(chunk) for chunk in cited)))
                   for claim, cited in run.get("claims") or ())
    return {"retrieved": retrieved, "claims": claims}


def chunked(dataset, size):
    """Span test set ``dataset`` cut into chunks of at most ``size`` characters
    (:func:`cut`), its runs re-expressed on them (:func:`project_run`); the labels stay the
    spans, derived anew on every reading."""
    positions = cut(dataset.documents, size)
    index = Chunking(positions)
    runs = {case: {system: project_run(run, dataset.positions, index)
                   for system, run in per_case.items()}
            for case, per_case in dataset.runs.items()}
    corpus = {chunk: dataset.documents[doc][1][start:end]
              for chunk, (doc, start, end) in positions.items()}
    return dataset._replace(
        corpus=corpus, runs=runs, positions=positions,
        sources={chunk: place[0] for chunk, place in positions.items()},
        versions={chunk: dataset.documents[place[0]][0] for chunk, place in positions.items()})


#: The column of :func:`derived_rows` naming each claim's chunks, each with its level.
CHUNKS = "chunks (full or partial)"


def derived_rows(dataset):
    """One row per expected claim of each question, as the rule derives them: the
    question's relevant chunks, each with its grade in brackets, and the claim's chunks,
    each with ``full`` (it holds an evidence span whole) or ``partial`` (it only overlaps
    one) in brackets, full ones first. One column for both levels keeps the table narrow
    enough for a projected page at 200%."""
    from ..io.answers import labelled

    view = labelled(dataset).spans
    rows = []
    for case, derived in view.cases.items():
        relevant = ", ".join(f"{chunk} ({grade})" for chunk, grade in derived.relevant.items()
                             if grade > 0) or "none"
        for claim, chunks in (derived.support or {"(none)": None}).items():
            levels = ([f"{chunk} (full)" for chunk in chunks.full]
                      + [f"{chunk} (partial)" for chunk in chunks.partial]) if chunks else []
            rows.append({"case": case, "relevant (grade)": relevant, "claim": claim,
                         CHUNKS: ", ".join(levels)})
    return rows


def score_rows(dataset, *, k, system, names=("recall", "support", "coverage")):
    """``case`` and the registry metrics ``names`` (R@k, support and coverage unless told)
    of ``system`` on ``dataset`` at ``k``, each under its label (``span R@2``, ``chars@2``)."""
    from ..core.measures import closest
    from ..core.metrics import REGISTRY
    from ..engine import count_dataset
    from ..render.text import format_value

    for name in names:
        if name not in REGISTRY:
            fail("names", "registry metric names (nearest: "
                 f"{', '.join(closest(name, among=REGISTRY))})", name)
    counted = count_dataset(dataset, engine="reference")
    values = {name: counted.values(REGISTRY[name], k) for name in names}
    return [{"case": case, **{REGISTRY[name].label_at(k): format_value(values[name][position])
                              for name in names}}
            for position, (case, who) in enumerate(counted.keys) if who == system]


def _rows_html(rows, kind, caption=""):
    """A table of ``rows`` whose rows carry ``data-case`` (and ``data-claim``) and whose
    cells carry ``data-field`` (a metric's name for scores), for a browser test to find."""
    from ..core.metrics import REGISTRY
    from .cells import cell_html, header_html

    names = {REGISTRY[name].label_at(k): name for name in ("recall", "support", "coverage")
             for k in range(1, 11)}
    head = "".join(f"<th>{header_html(key)}</th>" for key in rows[0]) if rows else ""
    body = []
    for row in rows:
        claim = f' data-claim="{html.escape(row["claim"])}"' if "claim" in row else ""
        cells = "".join(f'<td data-field="{html.escape(names.get(key, key))}"'
                        + (' class="na"' if value == "n/a" else "")
                        + f">{cell_html(value)}</td>" for key, value in row.items())
        body.append(f'<tr data-case="{html.escape(row["case"])}"{claim}>{cells}</tr>')
    caption = (f'<caption style="text-align:left;white-space:nowrap">'
               f"{html.escape(caption)}</caption>" if caption else "")
    return (f'<table class="ragscore-table ragscore-chunk-{kind}">{caption}<tr>{head}</tr>'
            + "".join(body) + "</table>")


def chunk_size_explorer(dataset, *, size=60, k=2, system="B"):
    """A chunk-size slider over span test set ``dataset``: for each size, the labels the
    rule derives (each claim's full and partial chunks) and the scores of ``system`` at
    ``k`` on its re-expressed runs, the scores right under the slider so that both fit one
    projected screen. Attributes: ``size`` (IntSlider), ``labels`` and ``scores`` (HTML);
    ``panel.rows()`` gives ``(label rows, score rows)``."""
    import ipywidgets as widgets

    from .explore import LIVE_STYLE
    from .widgets import _panel

    low, high, step = SIZES
    if type(size) is not int or not low <= size <= high:
        fail("size", f"a whole number from {low} to {high}", size)
    if system not in dataset.systems:
        fail("system", f"one of {', '.join(dataset.systems)}", system)
    slider = widgets.IntSlider(value=size, min=low, max=high, step=step,
                               description="chunk size", continuous_update=False,
                               style={"description_width": "initial"})
    labels, scores = widgets.HTML(), widgets.HTML()
    cache = {}

    def rows():
        if slider.value not in cache:
            cut_ = chunked(dataset, slider.value)
            cache[slider.value] = (derived_rows(cut_), score_rows(cut_, k=k, system=system))
        return cache[slider.value]

    def body():
        found, scored = rows()
        return (f'<p data-size="{slider.value}">chunks of at most {slider.value} '
                f"characters, system {html.escape(system)}, k={k}</p>"
                + _rows_html(scored, "scores") + _rows_html(found, "labels"))

    def update(_=None):
        found, scored = rows()
        labels.value = LIVE_STYLE + _rows_html(
            found, "labels", f"The labels the rule derives from the spans at "
                             f"{slider.value} characters")
        scores.value = LIVE_STYLE + _rows_html(
            scored, "scores", f"System {system}'s scores at k = {k}, chunks of at most "
                              f"{slider.value} characters")

    slider.observe(update, names="value")
    update()
    panel = _panel([slider, scores, labels],
                   lambda p: f"chunk size explorer: {slider.value} characters, system "
                             f"{system}, k={k}", lambda p: body())
    panel.size, panel.labels, panel.scores, panel.rows = slider, labels, scores, rows
    return panel
