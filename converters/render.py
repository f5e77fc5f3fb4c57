"""SVG pictures of a board: the cells as a player sees them, or the analysis as a mine-probability heat map.

Plain SVG 1.1 text with no dependency, one <rect> per cell (class and data-r/data-c name the cell, fill
gives its colour), numbers as <text>, a legend under the grid. Any browser shows the file as it is.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

from .analysis import Analysis, count_text
from .analysis.propagation import MINE, SAFE
from .model.puzzle import Puzzle

COLOURS = {
    "unknown": "#bdbdbd",
    "count": "#eeeeee",
    "known-safe": "#eeeeee",
    "known-mine": "#ffcdd2",
    "safe": "#a5d6a7",       # proven safe by the analysis
    "mine": "#ef9a9a",       # proven mine by the analysis
}
DIGIT_COLOURS = ("", "#1565c0", "#2e7d32", "#c62828", "#283593", "#6d1b1b", "#00838f", "#212121", "#757575")
HEAT_STOPS: Tuple[Tuple[float, Tuple[int, int, int]], ...] = (
    (0.0, (26, 152, 80)), (0.5, (254, 224, 139)), (1.0, (215, 48, 39)))
GRID_LINE = "#757575"


def heat_colour(p: float) -> str:
    """Colour of a mine probability on the green-yellow-red scale of the legend."""
    p = min(1.0, max(0.0, float(p)))
    for (p0, c0), (p1, c1) in zip(HEAT_STOPS, HEAT_STOPS[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            rgb = tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
            return "#%02x%02x%02x" % rgb
    return "#%02x%02x%02x" % HEAT_STOPS[-1][1]


def render_svg(puzzle: Puzzle, analysis: Optional[Analysis] = None, cell: int = 24,
               heat: bool = True, title: Optional[str] = None) -> str:
    """The SVG text of the board; with an analysis, decided cells are marked and open cells heat-mapped."""
    if cell < 2:
        raise ValueError("cell size must be at least 2 pixels")
    R, C = puzzle.rows, puzzle.cols
    margin = max(4, cell // 3)
    legend_h = 0 if analysis is None else 76
    width = C * cell + 2 * margin
    width = max(width, 320 if analysis is not None else 0)
    height = R * cell + 2 * margin + legend_h
    font = max(6, int(cell * 0.62))
    show_text = cell >= 10
    decided = {}
    probs = {}
    if analysis is not None:
        values = analysis.values.tolist()
        for (r, c), v in zip(analysis.system.var_rc.tolist(), values):
            if v in (SAFE, MINE):
                decided[(r, c)] = v
        if heat and analysis.feasible:
            for r, row in enumerate(analysis.probability_grid()):
                for c, p in enumerate(row):
                    if p is not None:
                        probs[(r, c)] = p

    out: List[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
    ]
    name = title if title is not None else (puzzle.name or f"Minesweeper board {R} x {C}")
    out.append(f"<title>{escape(name)}</title>")
    out.append(f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>')
    out.append(f'<g stroke="{GRID_LINE}" stroke-width="{0.5 if cell < 10 else 1}">')
    texts: List[str] = []
    lines = puzzle.grid_lines()
    for r in range(R):
        y = margin + r * cell
        row = lines[r]
        for c in range(C):
            ch = row[c]
            x = margin + c * cell
            if ch == "?":
                v = decided.get((r, c))
                kind = "unknown" if v is None else ("safe" if v == SAFE else "mine")
                p = probs.get((r, c))
                fill = heat_colour(p) if p is not None else COLOURS[kind]
                if v == SAFE and p is None:
                    fill = COLOURS["safe"]
            elif ch == "*":
                kind, fill = "known-mine", COLOURS["known-mine"]
            elif ch == ".":
                kind, fill = "known-safe", COLOURS["known-safe"]
            else:
                kind, fill = "count", COLOURS["count"]
            extra = f' data-p="{probs[(r, c)]:.6g}"' if (r, c) in probs else ""
            out.append(f'<rect class="cell {kind}" data-r="{r}" data-c="{c}"{extra} x="{x}" y="{y}" '
                       f'width="{cell}" height="{cell}" fill="{fill}"/>')
            if not show_text:
                continue
            cx, cy = x + cell / 2, y + cell / 2
            if kind == "count" and ch != "0":
                texts.append(f'<text x="{cx:g}" y="{cy:g}" fill="{DIGIT_COLOURS[int(ch)]}">{ch}</text>')
            elif kind in ("known-mine", "mine"):
                texts.append(f'<circle class="mine-glyph" cx="{cx:g}" cy="{cy:g}" r="{cell * 0.28:g}" '
                             'fill="#212121"/>')
            elif kind == "safe":
                texts.append(f'<circle class="safe-glyph" cx="{cx:g}" cy="{cy:g}" r="{cell * 0.14:g}" '
                             'fill="#ffffff" stroke="#1b5e20"/>')
    out.append("</g>")
    if texts:
        out.append(f'<g font-family="DejaVu Sans, Arial, sans-serif" font-size="{font}" font-weight="bold" '
                   'text-anchor="middle" dominant-baseline="central">')
        out.extend(texts)
        out.append("</g>")
    if analysis is not None:
        out.extend(_legend(analysis, margin, R * cell + 2 * margin, width, heat and bool(probs)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(analysis: Analysis, x0: int, y0: int, width: int, heat: bool) -> Sequence[str]:
    """The legend: the probability scale (when heat-mapped) and a line of counts."""
    out = ['<g class="legend" font-family="DejaVu Sans, Arial, sans-serif" font-size="11" fill="#212121">']
    bar_w = max(120, min(width - 2 * x0 - 110, 300))
    if heat:
        out.append('<defs><linearGradient id="heat-scale" x1="0" y1="0" x2="1" y2="0">')
        for p, _ in HEAT_STOPS:
            out.append(f'<stop offset="{p:g}" stop-color="{heat_colour(p)}"/>')
        out.append("</linearGradient></defs>")
        out.append(f'<rect class="legend-scale" x="{x0}" y="{y0 + 4}" width="{bar_w}" height="12" '
                   'fill="url(#heat-scale)" stroke="#757575"/>')
        for p, anchor in ((0.0, "start"), (0.5, "middle"), (1.0, "end")):
            out.append(f'<text x="{x0 + bar_w * p:g}" y="{y0 + 30}" text-anchor="{anchor}">{p:g}</text>')
        out.append(f'<text x="{x0 + bar_w + 8}" y="{y0 + 14}">mine probability</text>')
    sols = "not counted" if analysis.solutions is None else count_text(analysis.solutions)
    first = f"solutions: {sols}" + ("   (unique)" if analysis.unique else "")
    second = (f"level {analysis.level}: {len(analysis.safe_cells())} safe, "
              f"{len(analysis.mine_cells())} certain mines")
    if not analysis.feasible:
        first, second = "no solution:", "the counts contradict each other"
    out.append(f'<text class="legend-summary" x="{x0}" y="{y0 + 48}">{escape(first)}</text>')
    out.append(f'<text class="legend-summary" x="{x0}" y="{y0 + 64}">{escape(second)}</text>')
    out.append("</g>")
    return out
