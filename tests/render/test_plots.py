"""Plots are checked for their data: line points, bar heights, masked cells, legends."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ragscore.plots import plot_deltas, plot_heatmap, plot_sweep  # noqa: E402
from ragscore.reports import compare, question_table, sweep  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_sweep_lines_carry_the_means(course):
    ax = plot_sweep(sweep(course, max_k=3), metric="recall")
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"system A", "system B"}
    assert list(lines["system A"].get_xdata()) == [1, 2, 3]
    np.testing.assert_allclose(lines["system A"].get_ydata(), [0.5, 2.5 / 3, 2.5 / 3])
    np.testing.assert_allclose(lines["system B"].get_ydata(), [2.5 / 3, 1.0, 1.0])


def test_sweep_uses_the_given_axes(course):
    _, ax = plt.subplots()
    assert plot_sweep(sweep(course, max_k=2), metric="coverage", ax=ax) is ax


def test_delta_bars_heights_and_na(course):
    rows = compare(question_table(course, k=2), baseline="A", candidate="B")
    ax = plot_deltas(rows, metric="support")
    bars = {tick.get_text(): patch for tick, patch in zip(ax.get_xticklabels(), ax.patches)}
    assert bars["launch"].get_height() == -0.5
    assert bars["owner"].get_height() == 1.0
    assert bars["rollback"].get_height() == 0.0
    assert not bars["region"].get_visible()  # n/a: no bar ...
    assert "n/a" in [text.get_text() for text in ax.texts]  # ... but a label


def test_heatmap_masks_na_and_says_so(course):
    table = question_table(course, k=2)
    ax = plot_heatmap(table)
    data = ax.get_images()[0].get_array()
    assert data.shape == (8, 6)
    assert int(data.mask.sum()) == 15  # 6 answerable abstentions + 4 region A + 5 region B
    assert data[6, 3] == 0.0 and not data.mask[6, 3]      # region A support is a real 0
    assert data.mask[7, 3]                                # region B support is n/a
    assert data[7, 5] == 1.0                              # region B abstained correctly
    hatched = [p for p in ax.patches if p.get_gid() == "na"]
    assert len(hatched) == 15 and all(p.get_hatch() == "///" for p in hatched)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["n/a (undefined, not 0)"]


def test_importing_plots_changes_no_rcparams():
    import importlib
    import subprocess
    import sys

    code = ("import matplotlib; before = dict(matplotlib.rcParams); import ragscore.plots; "
            "print(before == dict(matplotlib.rcParams))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True"
    assert importlib.import_module("ragscore.plots")


def _font_sizes(ax):
    texts = [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.texts,
             *ax.get_xticklabels(), *ax.get_yticklabels()]
    legend = ax.get_legend()
    if legend is not None:
        texts += list(legend.get_texts())
    return [text.get_fontsize() for text in texts if text.get_text()]


@pytest.mark.parametrize("draw", ["sweep", "deltas", "heatmap"])
def test_plots_are_projector_ready(course, draw):
    table = question_table(course, k=2)
    ax = {"sweep": lambda: plot_sweep(sweep(course, max_k=3), mark_k=2),
          "deltas": lambda: plot_deltas(compare(table, baseline="A", candidate="B")),
          "heatmap": lambda: plot_heatmap(table)}[draw]()
    width, _ = ax.figure.get_size_inches() * ax.figure.dpi
    assert width >= 800
    assert min(_font_sizes(ax)) >= 12


def test_sweep_marks_the_current_k_and_keeps_its_legend_still(course):
    from ragscore.render.plots import mark_cutoff

    ax = plot_sweep(sweep(course, max_k=5), metric="recall", mark_k=2, highlight="B")
    legend = ax.get_legend()
    assert legend._loc == 2 and tuple(legend.get_bbox_to_anchor()._bbox.bounds[:2]) == (1.01, 1.0)
    marker = next(line for line in ax.get_lines() if line.get_gid() == "current k")
    assert list(marker.get_xdata()) == [2, 2]
    assert "current k = 2" in [text.get_text() for text in ax.texts]
    widths = {line.get_gid(): line.get_linewidth() for line in ax.get_lines()}
    assert widths["system B"] > widths["system A"]
    mark_cutoff(ax, 4)
    assert list(marker.get_xdata()) == [4, 4]
    assert [text.get_text() for text in ax.texts].count("current k = 4") == 1
    assert [h.get_linewidth() for h in legend.legend_handles] == [2, 2]


def test_a_zero_delta_is_drawn_and_abstention_reads_yes_no(course):
    rows = compare(question_table(course, k=2), baseline="A", candidate="B")
    ax = plot_deltas(rows, metric="support")
    labels = [text.get_text() for text in ax.texts]
    # regressions first: launch 1.00 -> 0.50, region 0.00 -> n/a (no longer defined),
    # owner 0.00 -> 1.00, rollback 1.00 -> 1.00
    assert labels == ["-0.50", "n/a", "+1.00", "0.00"]
    assert [line.get_gid() for line in ax.get_lines() if line.get_marker() == "D"] == \
        ["zero rollback"]
    ax = plot_deltas(rows, metric="abstention_correct")
    # region no -> yes; the answerable questions' abstention is n/a on both sides
    assert [text.get_text() for text in ax.texts] == ["no \u2192 yes", "n/a", "n/a", "n/a"]


def test_heatmap_labels_at_the_table_cutoff(course):
    ax = plot_heatmap(question_table(course, k=2))
    assert [t.get_text() for t in ax.get_xticklabels()][:3] == ["P@2", "R@2", "RR@2"]


def test_the_current_k_words_stay_inside_the_axes_at_either_end():
    """At k = 1 the words were centred on the first tick and covered the y axis's 0.0."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ragscore.render.plots import mark_cutoff

    figure, ax = plt.subplots()
    ax.plot([1, 2, 3, 4, 5], [0, 0.5, 1, 1, 1])
    for k in (1, 5, 3):
        mark_cutoff(ax, k)
        figure.canvas.draw()
        words = next(text for text in ax.texts if text.get_gid() == "current k text")
        box = words.get_window_extent()
        axes = ax.get_window_extent()
        assert axes.x0 <= box.x0 and box.x1 <= axes.x1, (k, box, axes)
        assert words.get_text() == f"current k = {k}"
    plt.close(figure)
