"""Pictures of a board: the cells as a player sees them, or the analysis as a mine-probability map.

The drawing is plain SVG 1.1 text with no dependency: a visible title, row and column numbers (0-based,
as in every JSON output), one <rect> per cell (class and data-r/data-c name the cell, fill gives its
colour, a <title> child is its tooltip), numbers as <text>, and a legend under the grid. PNG and PDF are
the same SVG converted by CairoSVG (the usual Python SVG rasteriser: one drawing, three outputs).

The probability scale is ColorBrewer's YlOrRd, sequential in lightness and safe for colour-blind readers:
a 19% cell is a pale orange, never a colour that could pass for "safe". What the analysis proves is not a
shade of the scale: a proven safe cell is white with a check mark, a certain mine carries a mine glyph on
grey, and a mine given by the puzzle carries the same glyph on its own tint.
"""
from __future__ import annotations

import math
import os
import re
import textwrap
from html import escape as _html_escape
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from ..analysis import Analysis, analyze, count_text
from ..analysis.cellstate import MINE, SAFE
from ..core.errors import FormatError, InputError, ResourceError
from ..core.fileio import PathLike, atomic_output
from ..core.puzzle import Puzzle


def escape(text: str) -> str:
    """&, < and > as XML entities (what xml.sax.saxutils.escape does, without importing urllib)."""
    return _html_escape(text, quote=False)

COLOURS = {
    "unknown": "#bdbdbd",
    "count": "#eeeeee",
    "known-safe": "#eeeeee",
    "known-mine": "#f8bbd0",  # a mine the puzzle gives
    "safe": "#ffffff",        # proven safe by the analysis (with a check mark)
    "mine": "#9e9e9e",        # proven mine by the analysis (with a mine glyph)
}
DIGIT_COLOURS = ("", "#1565c0", "#2e7d32", "#c62828", "#283593", "#6d1b1b", "#00838f", "#212121", "#757575")
# ColorBrewer YlOrRd, 9 classes (colour-blind safe), from p = 0 to p = 1
HEAT_STOPS: Tuple[Tuple[float, Tuple[int, int, int]], ...] = tuple(
    (i / 8, tuple(int(h[k:k + 2], 16) for k in (1, 3, 5)))  # type: ignore[misc]
    for i, h in enumerate(("#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c",
                           "#bd0026", "#800026")))
GRID_LINE = "#757575"
SAFE_MARK = "#08519c"    # the check mark of a proven safe cell
MINE_GLYPH = "#212121"
FONT = "DejaVu Sans, Arial, sans-serif"
PICTURE_EXTENSIONS = (".svg", ".png", ".pdf")
PICTURES_INSTALL = "pip install 'mineconv[pictures]'"
CAIRO_INSTALL = "on Debian/Ubuntu: apt-get install libcairo2; on macOS: brew install cairo"
# draws over the grid: (x0, y0, cell, y below the picture) -> (SVG elements, extra height, least width)
Overlay = Callable[[float, float, int, int], Tuple[List[str], int, int]]


def heat_colour(p: float) -> str:
    """Colour of a mine probability on the legend's scale (pale yellow 0 to dark red 1)."""
    p = min(1.0, max(0.0, float(p)))
    for (p0, c0), (p1, c1) in zip(HEAT_STOPS, HEAT_STOPS[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            rgb = tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))
            return "#%02x%02x%02x" % rgb
    return "#%02x%02x%02x" % HEAT_STOPS[-1][1]


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45


def _label_step(n: int) -> int:
    # every index on small boards; every 5th or 10th on large ones so labels never overlap
    return 1 if n <= 30 else 5 if n <= 150 else 10


def _mine_glyph(cx: float, cy: float, cell: int, cls: str) -> str:
    r = cell * 0.24
    s = cell * 0.36
    return (f'<g class="{cls}"><path d="M{cx - s:g} {cy:g}H{cx + s:g}M{cx:g} {cy - s:g}V{cy + s:g}" '
            f'stroke="{MINE_GLYPH}" stroke-width="{max(1.0, cell / 12):g}"/>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{MINE_GLYPH}"/></g>')


def _check_mark(x: float, y: float, cell: int) -> str:
    pts = [(0.22, 0.52), (0.42, 0.72), (0.78, 0.30)]
    d = "M" + " L".join(f"{x + cell * a:g} {y + cell * b:g}" for a, b in pts)
    return (f'<path class="safe-glyph" d="{d}" fill="none" stroke="{SAFE_MARK}" '
            f'stroke-width="{max(1.0, cell / 9):g}" stroke-linecap="round" stroke-linejoin="round"/>')


TITLE_FONT = 14  # the caption's font size (bold)
# advance widths of ASCII space..tilde in DejaVu Sans Bold, the first font of FONT, in 1/2048 em (its units);
# Arial Bold, the fallback, is no wider. Any other character counts as a full em, as wide as CJK glyphs.
ASCII_ADVANCE = (
    713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425,
    1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700,
    1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585,
    2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458,
    702, 702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192,
    1458, 748, 1458, 1716,
)


def title_width(text: str, font: float = TITLE_FONT) -> float:
    """The width in pixels of the bold caption `text` at this font size (DejaVu Sans Bold metrics)."""
    units = sum(ASCII_ADVANCE[ord(ch) - 32] if " " <= ch <= "~" else 2048 for ch in text)
    return units * font / 2048


def _svg_frame(name: str, width: int, height: int, margin: float) -> List[str]:
    """The opening of a picture: the svg element, its title, a white background and the caption."""
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<title>{escape(name)}</title>",
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text class="caption" x="{margin}" y="17" font-family="{FONT}" font-size="{TITLE_FONT}" '
        'font-weight="bold" '
        f'fill="#212121">{escape(name)}</text>',
    ]


def _coordinate_labels(R: int, C: int, x0: float, y0: float, cell: float, font: int) -> List[str]:
    """Column numbers above the grid and row numbers left of it (every few on big boards)."""
    out = [f'<g class="coordinates" font-family="{FONT}" font-size="{font}" fill="#616161">']
    for c in range(0, C, _label_step(C)):
        out.append(f'<text x="{x0 + (c + 0.5) * cell:g}" y="{y0 - 4:g}" text-anchor="middle">{c}</text>')
    for r in range(0, R, _label_step(R)):
        out.append(f'<text x="{x0 - 4:g}" y="{y0 + (r + 0.5) * cell:g}" text-anchor="end" '
                   f'dominant-baseline="central">{r}</text>')
    out.append("</g>")
    return out


def render_svg(puzzle: Puzzle, analysis: Optional[Analysis] = None, cell: int = 24,
               heat: bool = True, title: Optional[str] = None, percent: bool = False,
               coordinates: bool = True, overlay: Optional[Overlay] = None) -> str:
    """The SVG text of the board; with an analysis, decided cells get symbols and open cells the heat scale.

    `overlay(x0, y0, cell, below)` draws over the grid (whose top left corner is x0, y0) and may add a
    legend from y = below: it returns the SVG elements and the extra height and least width they need.
    """
    if cell < 2:
        raise InputError("cell size must be at least 2 pixels")
    R, C = puzzle.rows, puzzle.cols
    margin = max(4, cell // 3)
    name = title if title is not None else (puzzle.name or f"Minesweeper board {R} x {C}")
    title_h = 24
    label_font = max(6, min(11, int(cell * 0.5)))
    label_w = (len(str(R - 1)) * label_font * 0.62 + 6) if coordinates else 0
    label_h = (label_font + 6) if coordinates else 0
    x0 = margin + label_w
    y0 = title_h + label_h
    legend_h = 0 if analysis is None else 96
    width = math.ceil(x0 + C * cell + margin)
    width = max(width, 360 if analysis is not None else 0, math.ceil(2 * margin + title_width(name)))
    height = math.ceil(y0 + R * cell + margin + legend_h)
    drawn, more_h, least_w = overlay(x0, y0, cell, height) if overlay is not None else ([], 0, 0)
    width, height = max(width, least_w), height + more_h
    decided, probs = _proven_and_heat(analysis, heat)

    out = _svg_frame(name, width, height, margin)
    if coordinates:
        out.extend(_coordinate_labels(R, C, x0, y0, cell, label_font))
    out.extend(_board_layers(puzzle, x0, y0, cell, decided, probs, percent))
    if analysis is not None:
        out.extend(_legend(analysis, margin, math.ceil(y0 + R * cell + margin), width, heat and bool(probs)))
    out.extend(drawn)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _proven_and_heat(analysis: Optional[Analysis], heat: bool
                     ) -> Tuple[Dict[Tuple[int, int], int], Dict[Tuple[int, int], float]]:
    """The cells the analysis decides (SAFE or MINE) and, when heat-mapped, each open cell's probability."""
    decided: Dict[Tuple[int, int], int] = {}
    probs: Dict[Tuple[int, int], float] = {}
    if analysis is not None:
        for (r, c), v in zip(analysis.system.var_rc.tolist(), analysis.values.tolist()):
            if v in (SAFE, MINE):
                decided[(r, c)] = v
        if heat and analysis.feasible:
            for r, row in enumerate(analysis.probability_grid):
                for c, p in enumerate(row):
                    if p is not None:
                        probs[(r, c)] = p
    return decided, probs


def _given_look(ch: str) -> Tuple[str, str, str]:
    """(class, fill, tooltip) of a cell the puzzle gives: a known mine, a known safe cell or a count."""
    if ch == "*":
        return "known-mine", COLOURS["known-mine"], "known mine (given)"
    if ch == ".":
        return "known-safe", COLOURS["known-safe"], "known safe (given)"
    return "count", COLOURS["count"], f"count {ch}"


def _open_look(v: Optional[int], p: Optional[float]) -> Tuple[str, str, str]:
    """(class, fill, tooltip) of an unknown cell: its proof (v, SAFE or MINE) first, else its heat (p)."""
    kind = "unknown" if v is None else ("safe" if v == SAFE else "mine")
    fill = COLOURS[kind] if (v is not None or p is None) else heat_colour(p)
    tip = {"safe": "proven safe", "mine": "certain mine"}.get(kind, "unknown")
    if kind == "unknown" and p is not None:
        tip = f"unknown: mine probability {100 * p:.1f}%"
    return kind, fill, tip


def _cell_rect(kind: str, r: int, c: int, x: float, y: float, cell: int, fill: str, tip: str,
               extra: str = "") -> str:
    """A cell's square: its class and coordinates name it, its title child is the tooltip."""
    return (f'<rect class="cell {kind}" data-r="{r}" data-c="{c}"{extra} x="{x:g}" y="{y:g}" '
            f'width="{cell}" height="{cell}" fill="{fill}"><title>row {r}, col {c}: {tip}</title></rect>')


def _digit(ch: str, cx: float, cy: float) -> str:
    return f'<text x="{cx:g}" y="{cy:g}" fill="{DIGIT_COLOURS[int(ch)]}">{ch}</text>'


def _digit_layer(texts: List[str], cell: int) -> List[str]:
    """The count digits in one group that carries their shared font (nothing when there are none)."""
    if not texts:
        return []
    return [f'<g font-family="{FONT}" font-size="{max(6, int(cell * 0.62))}" font-weight="bold" '
            'text-anchor="middle" dominant-baseline="central">', *texts, "</g>"]


def _percent_label(p: float, fill: str, cx: float, cy: float, cell: int) -> str:
    ink = "#ffffff" if _dark(fill) else "#212121"
    return (f'<text class="percent" x="{cx:g}" y="{cy:g}" fill="{ink}" font-family="{FONT}" '
            f'font-size="{max(6, int(cell * 0.4))}" text-anchor="middle" '
            f'dominant-baseline="central">{round(100 * p)}</text>')


def _board_layers(puzzle: Puzzle, x0: float, y0: float, cell: int, decided: Dict[Tuple[int, int], int],
                  probs: Dict[Tuple[int, int], float], percent: bool) -> List[str]:
    """render's grid: the cells' squares, then the symbols over them, then the count digits."""
    out = [f'<g stroke="{GRID_LINE}" stroke-width="{0.5 if cell < 10 else 1}">']
    marks: List[str] = []
    texts: List[str] = []
    lines = puzzle.grid_lines
    for r in range(puzzle.rows):
        y = y0 + r * cell
        row = lines[r]
        for c in range(puzzle.cols):
            ch = row[c]
            x = x0 + c * cell
            p = probs.get((r, c))
            kind, fill, tip = _open_look(decided.get((r, c)), p) if ch == "?" else _given_look(ch)
            extra = f' data-p="{p:.6g}"' if p is not None else ""
            out.append(_cell_rect(kind, r, c, x, y, cell, fill, tip, extra))
            if cell < 10:
                continue
            cx, cy = x + cell / 2, y + cell / 2
            if kind == "count" and ch != "0":
                texts.append(_digit(ch, cx, cy))
            elif kind in ("known-mine", "mine"):
                marks.append(_mine_glyph(cx, cy, cell, "mine-glyph"))
            elif kind == "safe":
                marks.append(_check_mark(x, y, cell))
            elif kind == "unknown" and percent and p is not None and cell >= 18:
                marks.append(_percent_label(p, fill, cx, cy, cell))
    out.append("</g>")
    out.extend(marks)
    out.extend(_digit_layer(texts, cell))
    return out


def _legend(analysis: Analysis, x0: int, y0: int, width: int, heat: bool) -> Sequence[str]:
    """The legend: the probability scale (when heat-mapped), the symbols, and a line of counts."""
    out = [f'<g class="legend" font-family="{FONT}" font-size="11" fill="#212121">']
    bar_w = max(120, min(width - 2 * x0 - 110, 300))
    if heat:
        out.append('<defs><linearGradient id="heat-scale" x1="0" y1="0" x2="1" y2="0">')
        for p, _ in HEAT_STOPS:
            out.append(f'<stop offset="{p:g}" stop-color="{heat_colour(p)}"/>')
        out.append("</linearGradient></defs>")
        out.append(f'<rect class="legend-scale" x="{x0}" y="{y0 + 4}" width="{bar_w}" height="12" '
                   'fill="url(#heat-scale)" stroke="#757575"/>')
        for p, anchor in ((0.0, "start"), (0.25, "middle"), (0.5, "middle"), (0.75, "middle"), (1.0, "end")):
            out.append(f'<text x="{x0 + bar_w * p:g}" y="{y0 + 30}" text-anchor="{anchor}">{round(p * 100)}%</text>')
        out.append(f'<text x="{x0 + bar_w + 8}" y="{y0 + 14}">mine probability</text>')
    # the symbols, each drawn as on the board
    key = 14
    ky = y0 + 38
    out.append(f'<rect class="legend-key safe" x="{x0}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{COLOURS["safe"]}" stroke="{GRID_LINE}"/>')
    out.append(_check_mark(x0, ky, key))
    out.append(f'<text x="{x0 + key + 4}" y="{ky + 11}">proven safe</text>')
    kx = x0 + 100
    out.append(f'<rect class="legend-key mine" x="{kx}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{COLOURS["mine"]}" stroke="{GRID_LINE}"/>')
    out.append(_mine_glyph(kx + key / 2, ky + key / 2, key, "legend-mine"))
    out.append(f'<text x="{kx + key + 4}" y="{ky + 11}">certain mine</text>')
    sols = "not counted" if analysis.solutions is None else count_text(analysis.solutions)
    first = f"solutions: {sols}" + ("   (unique)" if analysis.unique else "")
    n_mines = len(analysis.mine_cells)
    second = (f"level {analysis.level}: {len(analysis.safe_cells)} safe, "
              f"{n_mines} certain {'mine' if n_mines == 1 else 'mines'}")
    if not analysis.feasible:
        first, second = "no solution:", "the counts contradict each other"
    out.append(f'<text class="legend-summary" x="{x0}" y="{y0 + 70}">{escape(first)}</text>')
    out.append(f'<text class="legend-summary" x="{x0}" y="{y0 + 86}">{escape(second)}</text>')
    out.append("</g>")
    return out


def picture_kind(path: PathLike) -> str:
    """'svg', 'png' or 'pdf' from the output's extension ('-' is SVG on stdout); anything else is refused."""
    if str(path) == "-":
        return "svg"
    ext = os.path.splitext(str(path))[1].lower()
    if ext not in PICTURE_EXTENSIONS:
        raise FormatError(f"a picture is written as .svg, .png or .pdf, not {ext or 'a name without extension'!r}",
                          source=str(path))
    return ext[1:]


def svg_to(svg: str, kind: str, scale: float = 1.0) -> bytes:
    """The SVG converted to PNG or PDF bytes with CairoSVG (pip install 'mineconv[pictures]')."""
    try:
        import cairosvg
    except ImportError:
        raise ResourceError(f"{kind.upper()} output needs CairoSVG, which is not installed: "
                            f"{PICTURES_INSTALL} (SVG needs nothing)") from None
    except OSError as exc:  # the Python package is there but its C library, libcairo, is not
        raise ResourceError(f"{kind.upper()} output needs the cairo library, which CairoSVG cannot load: "
                            f"{CAIRO_INSTALL} (SVG needs nothing; {exc})") from None
    convert = cairosvg.svg2png if kind == "png" else cairosvg.svg2pdf
    return convert(bytestring=svg.encode("utf-8"), scale=scale)


def write_picture(svg: str, path: PathLike, scale: float = 1.0) -> None:
    """Write the picture as SVG, PNG or PDF by the path's extension, atomically."""
    kind = picture_kind(path)
    if kind == "svg":
        with atomic_output(path) as out:
            out.write(svg)
        return
    data = svg_to(svg, kind, scale)
    with atomic_output(path, binary=True) as out:
        out.write(data)


HIGHLIGHT_NEW = "#ffe082"      # a cell decided by the step shown (amber: apart from white, grey and pink)
HIGHLIGHT_BECAUSE = "#d81b60"  # the outline of a count that justifies the step


def step_svg(puzzle: Puzzle, decided: Dict[Tuple[int, int], int], step, number: int, cell: int = 24) -> str:
    """One step of an explanation as SVG: cells decided before it as safe/mine symbols, its own cells on
    amber, the counts that justify it outlined, and the step's sentence under the board.

    `decided` maps (row, col) to SAFE or MINE for the cells decided by earlier steps; `step` is an
    analysis.steps.Step.
    """
    R, C = puzzle.rows, puzzle.cols
    margin = max(4, cell // 3)
    label_font = max(6, min(11, int(cell * 0.5)))
    x0 = margin + len(str(R - 1)) * label_font * 0.62 + 6
    y0 = 24 + label_font + 6
    width = max(math.ceil(x0 + C * cell + margin), 420)
    wrap = _wrapped(step.text, max(40, int((width - 2 * margin) / 6.2)))
    legend_y = math.ceil(y0 + R * cell + margin)
    height = legend_y + 30 + 15 * len(wrap) + margin
    new = {(c.row, c.col): (MINE if c.mine else SAFE) for c in step.cells}
    because = {(b.row, b.col) for b in step.because}
    name = f"Step {number} ({step.level})"
    out = _svg_frame(name, width, height, margin) + _coordinate_labels(R, C, x0, y0, cell, label_font)
    out.extend(_step_board(puzzle, decided, new, because, x0, y0, cell))
    out.extend(_step_legend(margin, legend_y, wrap))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _wrapped(text: str, width: int) -> List[str]:
    """The step's sentence in lines of at most width characters; a cell's name never breaks across lines."""
    # its inner space is non-breaking while wrapping
    glued = re.sub(r"\((\d+), (\d+)\)", "(\\1,\u00a0\\2)", text)
    return [line.replace("\u00a0", " ") for line in textwrap.wrap(glued, width)]


def _step_look(ch: str, r: int, c: int, decided: Dict[Tuple[int, int], int], new: Dict[Tuple[int, int], int],
               because: Set[Tuple[int, int]]) -> Tuple[str, str, str]:
    """(class, fill, tooltip) of a cell in a step's picture: this step's cells amber, its reasons marked."""
    if ch == "?":
        v = new.get((r, c), decided.get((r, c)))
        kind = "unknown" if v is None else ("safe" if v == SAFE else "mine")
        tip = {"safe": "safe", "mine": "mine"}.get(kind, "unknown")
        if (r, c) in new:
            return f"new {kind}", HIGHLIGHT_NEW, f"decided in this step: {tip}"
        return kind, COLOURS[kind], tip
    kind, fill, tip = _given_look(ch)
    if kind == "count" and (r, c) in because:
        return "count because", fill, f"count {ch}: a reason for this step"
    return kind, fill, tip


def _step_board(puzzle: Puzzle, decided: Dict[Tuple[int, int], int], new: Dict[Tuple[int, int], int],
                because: Set[Tuple[int, int]], x0: float, y0: float, cell: int) -> List[str]:
    """A step's grid: the cells' squares, the symbols, the outlines of the reasons, then the count digits."""
    R, C = puzzle.rows, puzzle.cols
    out = [f'<g stroke="{GRID_LINE}" stroke-width="{0.5 if cell < 10 else 1}">']
    marks: List[str] = []
    texts: List[str] = []
    outlines: List[str] = []
    lines = [puzzle.cells[r * C:(r + 1) * C] for r in range(R)]
    for r in range(R):
        for c in range(C):
            ch = lines[r][c]
            x, y = x0 + c * cell, y0 + r * cell
            kind, fill, tip = _step_look(ch, r, c, decided, new, because)
            if kind == "count because":
                w = max(2.0, cell / 8)
                outlines.append(f'<rect class="because-outline" data-r="{r}" data-c="{c}" x="{x + w / 2:g}" '
                                f'y="{y + w / 2:g}" width="{cell - w:g}" height="{cell - w:g}" fill="none" '
                                f'stroke="{HIGHLIGHT_BECAUSE}" stroke-width="{w:g}"/>')
            out.append(_cell_rect(kind, r, c, x, y, cell, fill, tip))
            if cell < 10:
                continue
            cx, cy = x + cell / 2, y + cell / 2
            if kind.startswith("count") and ch != "0":
                texts.append(_digit(ch, cx, cy))
            elif kind in ("known-mine", "mine", "new mine"):
                marks.append(_mine_glyph(cx, cy, cell, "mine-glyph"))
            elif kind in ("safe", "new safe"):
                marks.append(_check_mark(x, y, cell))
    out.append("</g>")
    out.extend(marks)
    out.extend(outlines)
    out.extend(_digit_layer(texts, cell))
    return out


def _step_legend(margin: int, ky: int, wrap: List[str]) -> List[str]:
    """The key of a step's picture (reason, decided now, safe, mine) and the step's sentence under it."""
    key = 14
    out = [f'<g class="legend" font-family="{FONT}" font-size="11" fill="#212121">']
    out.append(f'<rect class="legend-key because" x="{margin}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{COLOURS["count"]}" stroke="{HIGHLIGHT_BECAUSE}" stroke-width="2"/>')
    out.append(f'<text x="{margin + key + 4}" y="{ky + 11}">the reason</text>')
    kx = margin + 95
    out.append(f'<rect class="legend-key new" x="{kx}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{HIGHLIGHT_NEW}" stroke="{GRID_LINE}"/>')
    out.append(f'<text x="{kx + key + 4}" y="{ky + 11}">decided now</text>')
    kx += 105
    out.append(f'<rect class="legend-key safe" x="{kx}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{COLOURS["safe"]}" stroke="{GRID_LINE}"/>')
    out.append(_check_mark(kx, ky, key))
    out.append(f'<text x="{kx + key + 4}" y="{ky + 11}">safe</text>')
    kx += 60
    out.append(f'<rect class="legend-key mine" x="{kx}" y="{ky}" width="{key}" height="{key}" '
               f'fill="{COLOURS["mine"]}" stroke="{GRID_LINE}"/>')
    out.append(_mine_glyph(kx + key / 2, ky + key / 2, key, "legend-mine"))
    out.append(f'<text x="{kx + key + 4}" y="{ky + 11}">mine</text>')
    for i, line in enumerate(wrap):
        out.append(f'<text class="step-text" x="{margin}" y="{ky + 34 + 15 * i}">{escape(line)}</text>')
    out.append("</g>")
    return out


def step_svgs(explanation) -> List[str]:
    """One step_svg per step of an analysis.explain.Explanation, each showing what came before it."""
    decided: Dict[Tuple[int, int], int] = {}
    pictures = []
    for number, step in enumerate(explanation.steps, 1):
        pictures.append(step_svg(explanation.puzzle, decided, step, number))
        for c in step.cells:
            decided[(c.row, c.col)] = MINE if c.mine else SAFE
    return pictures


def render(puzzle: Puzzle, analysis: Union[Analysis, bool, None] = None, **options: Any) -> str:
    """The SVG text of the board; `analysis` (an Analysis, or True to compute one) marks and heat-maps cells.

    `options` are render_svg's: cell (pixels), heat, title, percent, coordinates.
    """
    if isinstance(analysis, bool):
        analysis = analyze(puzzle) if analysis else None
    return render_svg(puzzle, analysis, **options)
