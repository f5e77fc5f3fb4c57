"""A small line plot written as SVG text by hand (no plotting library): series over labelled dated runs.

The x axis is the sorted union of the points' labels ("2026-11-25 16:53 873a50c": date, time, commit), so
runs line up across series; the y axis starts at 0. Ours are solid lines, peers dashed. Output is
deterministic (fixed number formatting), so a regenerated plot is byte-identical.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import List, Sequence, Tuple

WIDTH, HEIGHT = 760, 480
LEFT, RIGHT, TOP, BOTTOM = 70, 100, 40, 240   # margins: y ticks, title, x labels and the legend below them
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f")


@dataclass(frozen=True)
class Series:
    """A named line: (x label, value) points; a peer's is drawn dashed."""

    name: str
    points: Sequence[Tuple[str, float]]
    peer: bool = False


def nice_top(value: float) -> float:
    """A round number at or above value (1, 2 or 5 times a power of ten), for the y axis's top."""
    if value <= 0:
        return 1.0
    step = 10.0 ** (len(str(int(value))) - 1) if value >= 1 else 1.0
    while step > value:
        step /= 10
    for factor in (1, 2, 5, 10):
        if factor * step >= value:
            return factor * step
    return 10 * step


def line_plot(title: str, series: Sequence[Series]) -> str:
    """The SVG text of the plot (a note in place of lines when there is no point)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH // 2}" y="22" text-anchor="middle" font-size="14">{escape(title)}</text>']
    labels = sorted({x for s in series for x, _ in s.points})
    if not labels:
        out.append(f'<text x="{WIDTH // 2}" y="{HEIGHT // 2}" text-anchor="middle">no dated figure yet</text>')
        return "\n".join(out + ["</svg>"]) + "\n"
    top = nice_top(max(v for s in series for _, v in s.points))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(label: str) -> float:
        return LEFT + (labels.index(label) + 0.5) * plot_w / len(labels)

    def y_of(value: float) -> float:
        return TOP + plot_h * (1 - value / top)

    out += axes(top, plot_w, plot_h)
    for label in labels:
        x = x_of(label)
        out.append(f'<text transform="translate({x:.1f},{TOP + plot_h + 8}) rotate(40)" font-size="9">'
                   f'{escape(label)}</text>')
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        dash = ' stroke-dasharray="5,3"' if s.peer else ""
        coords = " ".join(f"{x_of(x):.1f},{y_of(v):.1f}" for x, v in s.points)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"{dash}/>')
        out += [f'<circle cx="{x_of(x):.1f}" cy="{y_of(v):.1f}" r="3" fill="{colour}"/>' for x, v in s.points]
        ly = HEIGHT - 14 * (len(series) - i)
        out.append(f'<line x1="{LEFT}" y1="{ly - 4}" x2="{LEFT + 24}" y2="{ly - 4}" stroke="{colour}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{LEFT + 30}" y="{ly}">{escape(s.name)}{" (peer)" if s.peer else ""}</text>')
    return "\n".join(out + ["</svg>"]) + "\n"


def axes(top: float, plot_w: int, plot_h: int) -> List[str]:
    """The frame and five y ticks with their grid lines."""
    out = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>']
    for k in range(6):
        value = top * k / 5
        y = TOP + plot_h * (1 - k / 5)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.4g}</text>')
    return out
