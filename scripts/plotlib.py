"""What the plot scripts (plot_scan.py, plot_compact.py, plot_sort.py) share: matplotlib on the
Agg backend (no display), reading a benchmark CSV, a row of panels, and one way to finish and save
a figure. Needs Debian's matplotlib (run with /usr/bin/python3)."""

import matplotlib

from benchcsv import read_csv  # noqa: F401  (re-exported for the scripts)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported for the scripts)


def panels(count, width, height=4.2):
    """A figure with `count` panels side by side sharing the y axis; always a list of axes."""
    fig, axes = plt.subplots(1, count, figsize=(width * count, height), sharey=True)
    return fig, (list(axes) if count > 1 else [axes])


def label_axes(ax, xlabel, ylabel=None, title=None, title_size=None):
    ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, **({"fontsize": title_size} if title_size else {}))
    ax.grid(True, which="both", alpha=0.3)


def save(fig, path, legend_ax=None, legend_loc=None, suptitle=None):
    """Legend (8 pt) on legend_ax, optional overall title, tight layout, 110 dpi PNG; closes fig."""
    if legend_ax is not None:
        legend_ax.legend(fontsize=8, loc=legend_loc)
    if suptitle:
        fig.suptitle(suptitle)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
