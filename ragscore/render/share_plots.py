"""The plots of the shareable report as inline SVG text, byte for byte the same on every run
(fixed ``svg.hashsalt``, no date in the metadata, text kept as text).

Both plots read :func:`ragscore.tables.share.review_data`: nothing is recomputed here. n/a
stays a gap (a mean that is n/a at some k is not drawn; a question whose delta is n/a is
left out of the delta plot and counted in its title).
"""
import io
import re

from .escape import plot_text

BASELINE_COLOUR, CANDIDATE_COLOUR = "#4d4d4d", "#2166ac"
UP_COLOUR, DOWN_COLOUR = "#2166ac", "#b2182b"
_RC = {"svg.hashsalt": "ragscore-share", "svg.fonttype": "none", "font.size": 9,
       "axes.titlesize": 10}


def _svg(figure):
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):]  # drop the XML header and doctype
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)
    return re.sub(r"\n\s*", "\n", text)


def _grid(count, columns=3, width=3.2, height=2.3):
    from matplotlib.figure import Figure

    rows = max(1, -(-count // columns))
    figure = Figure(figsize=(width * min(count, columns), height * rows), dpi=100,
                    layout="constrained")
    axes = figure.subplots(rows, min(count, columns), squeeze=False).ravel()
    for extra in axes[count:]:
        extra.set_visible(False)
    return figure, axes


def sweep_svg(data):
    """One small plot per measure: the macro mean of each system at k = 1 .. max_k (gaps
    where the mean is n/a), a dashed line at the report's k."""
    import matplotlib

    metrics = data["metrics"]
    curves = data["sweep"]["curves"]
    ks = list(range(1, data["sweep"]["max_k"] + 1))
    with matplotlib.rc_context(_RC):
        figure, axes = _grid(len(metrics))
        for ax, metric in zip(axes, metrics):
            for system, colour, style in ((data["baseline"], BASELINE_COLOUR, "--"),
                                          (data["candidate"], CANDIDATE_COLOUR, "-")):
                values = curves.get(metric["name"], {}).get(system)
                if values is None:
                    continue
                heights = [float("nan") if value is None else float(value) for value in values]
                ax.plot(ks, heights, style, color=colour, marker="o", markersize=2.5,
                        label=plot_text(system))
            ax.axvline(data["k"], color="#999999", linewidth=0.8, linestyle=":")
            ax.set_title(metric["label"].replace(f"@{data['k']}", "@k"))
            ax.set_xlabel("k")
            ax.set_xlim(0.5, ks[-1] + 0.5)
            if metric["kind"] != "count":  # a rate or a share of yes: the whole 0..1 range
                ax.set_ylim(-0.02, 1.02)
        axes[0].legend(fontsize=8, loc="best")
        return _svg(figure)


def _runs(values):
    """``[(value, how many)]`` of sorted values: a step plot needs only where they change."""
    steps = []
    for value in values:
        if steps and steps[-1][0] == value:
            steps[-1][1] += 1
        else:
            steps.append([value, 1])
    return steps


def delta_svg(data):
    """One small plot per measure: every question's candidate - baseline, sorted from the
    largest fall to the largest rise (blue where the candidate is better, red where worse:
    a rise is worse for a measure where lower is better); the title counts the
    questions that fell, rose and stayed, and those left out as n/a."""
    import matplotlib

    metrics = data["metrics"]
    with matplotlib.rc_context(_RC):
        figure, axes = _grid(len(metrics))
        for index, (ax, metric) in enumerate(zip(axes, metrics)):
            deltas = [row["delta"][index] for row in data["questions"]]
            defined = sorted(float(d) for d in deltas if d is not None)
            left_out = len(deltas) - len(defined)
            position = 0
            for value, times in _runs(defined):
                better = value < 0 if metric["lower_is_better"] else value > 0
                colour = "#999999" if value == 0 or metric.get("neutral") else \
                    UP_COLOUR if better else DOWN_COLOUR
                if value == 0:
                    ax.plot([position, position + times], [0, 0], color=colour, linewidth=2)
                else:
                    ax.fill_between([position, position + times], 0, value, color=colour,
                                    step="post", linewidth=0)
                position += times
            ax.axhline(0, color="black", linewidth=0.6)
            fell = sum(1 for d in defined if d < 0)
            rose = sum(1 for d in defined if d > 0)
            ax.set_title(f"{metric['label']}: {fell} fell, {rose} rose, "
                         f"{len(defined) - fell - rose} same"
                         + (f", {left_out} n/a" if left_out else ""), fontsize=8)
            ax.set_xlabel("questions, sorted by delta")
            ax.set_xlim(0, max(1, len(defined)))
        return _svg(figure)
