"""The report's plots: greyscale with hatches and markers (readable printed in black and white),
each with a title that states n, and labelled axes."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from clinical_envs.report.stats import Estimate

STYLES = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ((0, (5, 1)), "v"), ("-", "x")]
HATCHES = ["", "//", "..", "xx", "\\\\", "--"]
GREYS = ["0.15", "0.45", "0.7", "0.9", "0.3", "0.6"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError(
            "the report's figures need matplotlib: pip install 'clinical-envs[report]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    _pyplot().close(fig)
    return buffer.getvalue()


def curves(
    lines: Mapping[str, Sequence[tuple[int, float]]], title: str, xlabel: str, ylabel: str
) -> bytes:
    """One line per series (x, share), each with its own dash pattern and marker."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for i, (label, points) in enumerate(lines.items()):
        style, marker = STYLES[i % len(STYLES)]
        xs, ys = zip(*points, strict=True) if points else ((), ())
        ax.plot(xs, ys, linestyle=style, marker=marker, color="black", label=label)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel, ylim=(-0.03, 1.03))
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(True, color="0.85", linewidth=0.6)
    ax.legend(fontsize=8, frameon=False)
    return _png(fig)


def rate_bars(
    labels: Sequence[str], estimates: Sequence[Estimate], title: str, xlabel: str
) -> bytes:
    """Horizontal bars with 95% interval whiskers, n beside each bar."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.32 * max(1, len(labels))))
    ys = list(range(len(labels)))[::-1]
    values = [e.value for e in estimates]
    errors = [
        [max(0.0, e.value - e.low) for e in estimates],
        [max(0.0, e.high - e.value) for e in estimates],
    ]
    ax.barh(ys, values, color="0.75", edgecolor="black", hatch="//", xerr=errors, capsize=3)
    for y, e in zip(ys, estimates, strict=True):
        ax.text(1.02, y, f"n={e.n}", va="center", fontsize=8, transform=ax.get_yaxis_transform())
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set(title=title, xlabel=xlabel, xlim=(0, 1))
    return _png(fig)


def grouped_bars(
    groups: Sequence[str], series: Mapping[str, Sequence[Estimate]], title: str, ylabel: str
) -> bytes:
    """Bars per group, one hatch per series (runs side by side), with 95% whiskers."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.4, 3.8))
    width = 0.8 / max(1, len(series))
    for i, (label, estimates) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        values = [e.value for e in estimates]
        errors = [
            [max(0.0, e.value - e.low) for e in estimates],
            [max(0.0, e.high - e.value) for e in estimates],
        ]
        ax.bar(
            xs,
            values,
            width,
            label=label,
            color=GREYS[i % len(GREYS)],
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="black",
            yerr=errors,
            capsize=3,
        )
    ax.set_xticks(range(len(groups)), groups, fontsize=8, rotation=15)
    ax.set(title=title, ylabel=ylabel, ylim=(0, 1.05))
    ax.legend(fontsize=8, frameon=False, loc="lower left", bbox_to_anchor=(1.0, 0.0))
    return _png(fig)


def confusion(
    matrix: Sequence[Sequence[int]], rows: Sequence[str], columns: Sequence[str], title: str
) -> bytes:
    """Counts as a greyscale grid with the number printed in every non-empty cell."""
    plt = _pyplot()
    size = max(3.2, 0.28 * max(len(rows), len(columns)) + 1.8)
    fig, ax = plt.subplots(figsize=(size + 0.6, size))
    peak = max((v for r in matrix for v in r), default=0) or 1
    ax.imshow(matrix, cmap="Greys", vmin=0, vmax=peak * 1.25)
    for i, row in enumerate(matrix):
        for j, v in enumerate(row):
            if v:
                ax.text(
                    j,
                    i,
                    str(v),
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if v > peak * 0.6 else "black",
                )
    ax.set_xticks(range(len(columns)), columns, fontsize=7, rotation=90)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set(title=title, xlabel="recorded (chapter)", ylabel="gold (chapter)")
    return _png(fig)
