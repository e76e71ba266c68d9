"""Plots of the reports, with matplotlib. Each helper takes ``ax=None``, returns the Axes, and
draws numbers computed by :mod:`ragscore.tables`; nothing is recomputed here and no global
style (``rcParams``) is changed."""
import numpy as np

from ..core.metrics import REGISTRY, get


def _label(metric, k="k"):
    return get(metric).label_at(k)


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax


def plot_sweep(sweep_table, *, metric="recall", ax=None):
    """One line per system: the macro mean of ``metric`` against k (from :func:`sweep`).

    Points where the mean is n/a are left as gaps, not drawn at 0.
    """
    ax = _axes(ax)
    for system in dict.fromkeys(sweep_table.index.get_level_values("system")):
        rows = sweep_table.xs(system, level="system")
        values = rows[metric].to_numpy(dtype=float, na_value=np.nan)  # n/a: a gap, not 0
        ax.plot(rows.index.to_numpy(), values, marker="o", label=f"system {system}")
    ax.set_xlabel("cutoff k")
    ax.set_ylabel(f"mean {_label(metric)} (answerable questions)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_xticks(sorted(set(sweep_table.index.get_level_values("k"))))
    ax.legend()
    return ax


def plot_deltas(comparison, *, metric="support", ax=None):
    """Per-question bars of candidate - baseline for ``metric`` (from :func:`compare`).

    A question whose delta is n/a gets no bar and an "n/a" label, so it is not read as 0.
    """
    ax = _axes(ax)
    rows = comparison[comparison["metric"] == metric]
    cases = list(rows["case"])
    deltas = rows["delta"]
    heights = deltas.astype("float64").fillna(0.0).tolist()
    colours = ["#b2182b" if h < 0 else "#2166ac" for h in heights]
    bars = ax.bar(cases, heights, color=colours)
    for bar, missing in zip(bars, deltas.isna()):
        if missing:
            bar.set_height(0.0)
            bar.set_visible(False)
            ax.annotate("n/a", (bar.get_x() + bar.get_width() / 2, 0), ha="center",
                        va="bottom", color="grey")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(f"{_label(metric)}: candidate - baseline")
    ax.set_ylim(-1.05, 1.05)
    return ax


def plot_heatmap(table, *, ax=None):
    """Per-question heatmap of the table's metrics; n/a cells are hatched grey, not coloured
    as 0. Columns are labelled at the table's cutoff (P@2).

    Abstention is drawn as 1 (yes) or 0 (no). The legend names the n/a marking.
    """
    from matplotlib.patches import Patch

    ax = _axes(ax)
    metrics = [name for name in table.columns if name in REGISTRY]
    values = table[metrics].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    masked = np.ma.masked_invalid(values)
    image = ax.imshow(masked, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    for row, column in zip(*np.nonzero(np.isnan(values))):
        ax.add_patch(_hatch(column, row))
    k = table.attrs.get("k", "k")
    ax.set_xticks(range(len(metrics)), [_label(m, k) for m in metrics], rotation=30, ha="right")
    ax.set_yticks(range(len(table)), [f"{case} {system}" for case, system in table.index])
    ax.figure.colorbar(image, ax=ax, label="score")
    ax.legend(handles=[Patch(facecolor="lightgrey", hatch="///", edgecolor="grey",
                             label="n/a (undefined, not 0)")],
              loc="upper left", bbox_to_anchor=(1.25, 1.0), frameon=False)
    return ax


def _hatch(column, row):
    from matplotlib.patches import Rectangle

    return Rectangle((column - 0.5, row - 0.5), 1, 1, facecolor="lightgrey", hatch="///",
                     edgecolor="grey", linewidth=0, gid="na")
