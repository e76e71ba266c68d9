"""``html``: the comparison of two systems as one self-contained HTML page to share (or a
Markdown summary for a pull request or a CI job summary): a :class:`Shared`.

The content comes from :mod:`ragscore.tables.share`, the page from
:mod:`ragscore.render.share_html`, the summary from :mod:`ragscore.render.share_github`, the
verdict (with a policy) from :func:`ragscore.usecases.gate.gate`.
"""
from collections import namedtuple

from ..core.rules import InvalidInputError, show
from ..engine import DEFAULT_ENGINE
from ..render.writers import data_writer, writer_table
from .reading import cutoff
from .result import Result

__all__ = ["PAGES", "Shared", "share_page"]


def _page(data):
    from ..render.share_html import render_html

    return render_html(data)


def _summary(data):
    from ..render.share_github import render_github

    return render_github(data)


#: What each format of the page renders: the whole page, or a Markdown summary.
PAGES = {"html": _page, "github": _summary}


class Shared(Result, namedtuple("Shared", "text out questions fmt")):
    """A page to share: its ``text`` in ``fmt``, the file it was written to (``out``;
    ``None``: the text goes to standard output) and how many ``questions`` it shows."""

    __slots__ = ()
    job = "a page to share"

    @property
    def aside(self):
        if self.out is None:
            return ()
        return (f"ragscore: wrote {self.fmt} report of {self.questions} questions to "
                f"{self.out} ({len(self.text.encode('utf-8')):,} bytes)",)

    writers = writer_table(*(data_writer(
        name, lambda result, display: result.text if result.out is None else "")
        for name in PAGES))


def share_page(dataset, *, baseline, candidate, fmt="html", out=None, policy=None, k=2,
               metrics=None, confidence=0.95, seed=0, allow_mismatch=False,
               engine=DEFAULT_ENGINE):
    """The page comparing ``candidate`` with ``baseline`` over ``dataset`` (a folder's path,
    or ``None`` with both as ``DIR:SYSTEM`` of two chunkings), headed by the verdict of
    ``policy`` when given; written to ``out`` atomically when given."""
    from ..io.outputs import check_output_file
    from ..tables.share import review_data
    from .gate import gate
    from .reading import loaded, paths

    target = None if out is None else check_output_file(out, flag="--out",
                                                        inputs=paths(dataset, policy))
    paired = {}
    if dataset is None:  # --baseline DIR:SYSTEM --candidate DIR:SYSTEM
        from ..engine.pairs import pair_folders

        pair = pair_folders(baseline, candidate, engine=engine,
                            allow_mismatch=allow_mismatch)
        data, source = pair.view, pair
        paired = {"counted": pair.counted, "cases_by_system": pair.cases}
    else:
        data = source = loaded(dataset)
    if not data.runs:
        raise InvalidInputError(f"{dataset} has no recorded runs: nothing to report")
    for role, name in (("baseline", baseline), ("candidate", candidate)):
        if name not in data.systems:
            raise InvalidInputError(f"--{role} {show(name)} has no runs in this test set; "
                                    f"systems: {', '.join(map(show, data.systems))}")
    if baseline == candidate:
        raise InvalidInputError(f"--baseline and --candidate must differ; both are "
                                f"{show(baseline)}")
    k = cutoff(k, data.rules)
    verdict = None
    if policy:
        verdict = gate(source, policy=policy, candidate=candidate, baseline=baseline,
                       engine=engine, allow_mismatch=allow_mismatch)
    found = review_data(data, baseline=baseline, candidate=candidate, k=k, metrics=metrics,
                        engine=engine, confidence=confidence, seed=seed, gate=verdict,
                        **paired)
    text = PAGES[fmt](found)
    if target is not None:
        from ..io.store import write_file_atomically

        write_file_atomically(target, [text])
    return Shared(text, out, len(found["questions"]), fmt)
