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
