"""Plots of the reports, with matplotlib. Each helper takes ``ax=None``, returns the Axes, and
draws numbers computed by :mod:`ragscore.tables`; nothing is recomputed here and no global
style (``rcParams``) is changed."""
import numpy as np

from ..core.metrics import REGISTRY, YES_NO, get
from ..core.rules import InvalidInputError, fail
from .escape import plot_text
from .text import format_delta

#: Figure size (inches) and resolution for a projector: 900 x 450 pixels.
PROJECTOR_SIZE = (9.0, 4.5)
PROJECTOR_DPI = 100
#: Font sizes in points: titles and axis labels, then ticks, legends and annotations.
LABEL_POINTS = 14
TEXT_POINTS = 12


def _label(metric, k="k"):
    return get(metric).label_at(k)


def projector_figure(size=PROJECTOR_SIZE):
    """A matplotlib ``Figure`` (not registered with pyplot) sized for a projector."""
    from matplotlib.figure import Figure

    return Figure(figsize=size, dpi=PROJECTOR_DPI)


def _axes(ax, size=PROJECTOR_SIZE):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=size, dpi=PROJECTOR_DPI)
    return ax


def _fonts(ax):
    ax.xaxis.label.set_fontsize(LABEL_POINTS)
    ax.yaxis.label.set_fontsize(LABEL_POINTS)
    ax.title.set_fontsize(LABEL_POINTS)
    ax.tick_params(labelsize=TEXT_POINTS)


def check_sweep_metric(sweep_table, metric):
    """Raise unless ``metric`` is a registered metric with a column in ``sweep_table``."""
    get(metric)
    if metric not in sweep_table.columns:
        names = [name for name in sweep_table.columns if name in REGISTRY]
        fail("metric", f"a column of the sweep table ({', '.join(names)})", metric)


def plot_sweep(sweep_table, *, metric="recall", ax=None, mark_k=None, highlight=None):
    """One line per system: the macro mean of ``metric`` against k (from :func:`sweep`).

    Points where the mean is n/a are left as gaps, not drawn at 0. ``mark_k`` draws a dashed
    line and a label at that cutoff; ``highlight`` (a system name) draws that system thicker.
    The legend sits outside the axes, in the same place whatever the data.
    """
    check_sweep_metric(sweep_table, metric)
    if len(sweep_table) == 0:
        raise InvalidInputError("sweep_table has no rows (a dataset without runs): nothing to "
                                "plot")
    ax = _axes(ax)
    systems = list(dict.fromkeys(sweep_table.index.get_level_values("system")))
    for system in systems:
        rows = sweep_table.xs(system, level="system")
        values = rows[metric].to_numpy(dtype=float, na_value=np.nan)  # n/a: a gap, not 0
        wide = highlight is not None and system == highlight
        ax.plot(rows.index.to_numpy(), values, marker="o", markersize=9 if wide else 6,
                linewidth=4 if wide else 1.5, label=f"system {plot_text(system)}",
                gid=f"system {system}")
    ks = sorted(set(sweep_table.index.get_level_values("k")))
    if mark_k is not None:
        mark_cutoff(ax, mark_k)
    ax.set_xlabel("cutoff k")
    ax.set_ylabel(f"mean {_label(metric)}")
    ax.set_title(sweep_title(metric, highlight))
    ax.set_ylim(-0.05, 1.1)
    ax.set_xlim(min(ks) - 0.3, max(ks) + 0.3)
    ax.set_xticks(ks)
    from matplotlib.lines import Line2D

    # Fixed proxies: the legend neither moves nor changes when a line is highlighted.
    handles = [Line2D([], [], color=line.get_color(), marker="o", linewidth=2,
                      label=line.get_label()) for line in ax.get_lines()
               if str(line.get_gid()).startswith("system ")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize=TEXT_POINTS, frameon=False)
    _fonts(ax)
    return ax


def _yes_no(value):
    return "n/a" if value is None or value != value else ("yes" if value else "no")


def sweep_title(metric, highlight=None):
    """The sweep plot's title, naming the highlighted system if there is one."""
    title = f"mean {_label(metric)} over answerable questions"
    return title if highlight is None else \
        f"{title}; thick line: system {plot_text(highlight)}"


def mark_cutoff(ax, k):
    """Mark cutoff ``k`` on a plot against k: a shaded band, a dashed line and the words
    "current k = 2" at the foot, beside the band on its roomier side (so at k = 1 they never
    cover the y axis's labels). Calling it again moves the same three artists."""
    artists = {artist.get_gid(): artist for artist in [*ax.lines, *ax.patches, *ax.texts]}
    if "current k" not in artists:
        ax.axvspan(k - 0.2, k + 0.2, color="#ffe08a", alpha=0.6, zorder=0, gid="current k band")
        ax.axvline(k, color="black", linestyle="--", linewidth=1.5, gid="current k",
                   label="_current k")
        ax.text(k, 0.03, "", transform=ax.get_xaxis_transform(), ha="center", va="bottom",
                fontsize=TEXT_POINTS, fontweight="bold", gid="current k text",
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.9})
        artists = {artist.get_gid(): artist for artist in [*ax.lines, *ax.patches, *ax.texts]}
    artists["current k"].set_xdata([k, k])
    band = artists["current k band"]
    band.set_x(k - 0.2) if hasattr(band, "set_x") else band.set_xy(
        [[k - 0.2, 0], [k - 0.2, 1], [k + 0.2, 1], [k + 0.2, 0], [k - 0.2, 0]])
    text = artists["current k text"]
    low, high = ax.get_xlim()
    left = k <= (low + high) / 2  # the words go to the roomier side, clear of both axes
    text.set_x(k + 0.25 if left else k - 0.25)
    text.set_horizontalalignment("left" if left else "right")
    text.set_text(f"current k = {k}")
    return ax


def plot_deltas(comparison, *, metric="support", ax=None):
    """Per-question bars of candidate - baseline for ``metric`` (from :func:`compare`).

    Each bar is labelled with its delta (``+0.50``); a zero delta gets a diamond at 0 and
    ``0.00`` so it is seen as "no change", not missed; a question whose delta is n/a gets no
    bar and an "n/a" label, so it is not read as 0. For a yes/no metric (abstention) the label
    says what changed (``no -> yes``) rather than a number.
    """
    ax = _axes(ax)
    yes_no = get(metric).kind == YES_NO
    rows = comparison[comparison["metric"] == metric]
    cases = list(rows["case"])
    deltas = rows["delta"]
    heights = deltas.astype("float64").fillna(0.0).tolist()
    colours = ["#b2182b" if h < 0 else "#2166ac" for h in heights]
    bars = ax.bar(range(len(cases)), heights, color=colours,
                  tick_label=[plot_text(case) for case in cases])
    before = rows["baseline"].astype("float64").tolist()
    after = rows["candidate"].astype("float64").tolist()
    for bar, case, missing, height, old, new in zip(bars, cases, deltas.isna(), heights,
                                                     before, after):
        middle = bar.get_x() + bar.get_width() / 2
        bar.set_gid(f"delta {case}")
        if missing:
            bar.set_height(0.0)
            bar.set_visible(False)
            label = "n/a"
        elif height == 0:
            ax.plot([middle], [0.0], marker="D", markersize=10, color="#555555",
                    label="_zero", gid=f"zero {case}")
            label = "0.00"
        else:
            label = format_delta(height)
        if yes_no and not missing:
            label = f"{_yes_no(old)} \u2192 {_yes_no(new)}"
        up = height >= 0
        ax.annotate(label, (middle, height), xytext=(0, 8 if up else -8),
                    textcoords="offset points", ha="center", va="bottom" if up else "top",
                    fontsize=TEXT_POINTS, color="grey" if missing else "black")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(f"{_label(metric)}: candidate \u2212 baseline")
    ax.set_title(f"{_label(metric)} per question: candidate minus baseline")
    ax.set_ylim(-1.25, 1.25)
    _fonts(ax)
    return ax


def plot_heatmap(table, *, ax=None):
    """Per-question heatmap of the table's metrics; n/a cells are hatched grey, not coloured
    as 0. Columns are labelled at the table's cutoff (P@2).

    Abstention is drawn as 1 (yes) or 0 (no). The legend names the n/a marking.
    """
    from matplotlib.patches import Patch

    ax = _axes(ax, size=(9.0, 6.0))
    metrics = [name for name in table.columns if name in REGISTRY]
    values = table[metrics].astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    masked = np.ma.masked_invalid(values)
    image = ax.imshow(masked, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    for row, column in zip(*np.nonzero(np.isnan(values))):
        ax.add_patch(_hatch(column, row))
    k = table.attrs.get("k", "k")
    ax.set_xticks(range(len(metrics)), [_label(m, k) for m in metrics], rotation=30, ha="right")
    ax.set_yticks(range(len(table)), [plot_text(f"{case} {system}")
                                      for case, system in table.index])
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label("score (abstention: 1 yes, 0 no)", fontsize=TEXT_POINTS)
    bar.ax.tick_params(labelsize=TEXT_POINTS)
    ax.legend(handles=[Patch(facecolor="lightgrey", hatch="///", edgecolor="grey",
                             label="n/a (undefined, not 0)")],
              loc="upper left", bbox_to_anchor=(1.3, 1.0), frameon=False, fontsize=TEXT_POINTS)
    _fonts(ax)
    return ax


def _hatch(column, row):
    from matplotlib.patches import Rectangle

    return Rectangle((column - 0.5, row - 0.5), 1, 1, facecolor="lightgrey", hatch="///",
                     edgecolor="grey", linewidth=0, gid="na")
