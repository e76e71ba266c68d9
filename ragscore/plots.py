"""Plots of the reports (defined in :mod:`ragscore.render.plots`): each takes ``ax=None`` and
returns the Axes."""
from .render.plots import plot_deltas, plot_heatmap, plot_sweep

__all__ = ["plot_deltas", "plot_heatmap", "plot_sweep"]
