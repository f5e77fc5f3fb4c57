"""Gadget labels over the picture of a board `mineconv reduce` made (`render --annotate`)."""
from __future__ import annotations

from html import escape as _html_escape
from typing import Dict, List, Tuple

from ..core.puzzle import Puzzle
from ..make.gadgets import GADGETS
from ..make.reduce import labels
from .picture import FONT, Overlay


def escape(text: str) -> str:
    """&, < and > as XML entities (what xml.sax.saxutils.escape does, without importing urllib)."""
    return _html_escape(text, quote=False)

# one colour per gadget kind (Okabe-Ito, distinguishable by colour-blind readers)
GADGET_COLOURS: Dict[str, str] = {
    "variable": "#0072b2",
    "crossing": "#999999",
    "tap x": "#009e73",
    "tap not-x": "#d55e00",
    "false source": "#cc79a7",
    "forced true": "#e69f00",
}
_ROW = 16   # legend line height in pixels


def _box(colour: str, x: float, y: float, w: float, h: float, kind: str) -> str:
    return (f'<rect class="gadget {escape(kind)}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
            f'fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-width="2"/>')


def gadget_overlay(puzzle: Puzzle) -> Overlay:
    """An overlay for render_svg: a box and a caption on every gadget, and a legend naming the gadgets."""
    found = labels(puzzle)
    summaries = {g.name: g.summary for g in GADGETS}

    def draw(x0: float, y0: float, cell: int, below: int) -> Tuple[List[str], int, int]:
        out = ['<g class="gadgets">']
        text = [f'<g class="gadget-captions" font-family="{FONT}" font-size="{max(8, int(cell * 0.55))}" '
                'font-weight="bold">']
        for lab in found:
            colour = GADGET_COLOURS[lab.gadget]
            x, y = x0 + lab.left * cell, y0 + lab.top * cell
            w, h = (lab.right - lab.left + 1) * cell, (lab.bottom - lab.top + 1) * cell
            out.append(_box(colour, x + 1, y + 1, w - 2, h - 2, lab.gadget))
            if lab.caption:   # in a tile's bottom left corner; right of a one-row gadget
                tx, ty = (x + 3, y + h - 4) if lab.bottom > lab.top else (x + w + 3, y + cell * 0.75)
                if lab.gadget == "variable":   # the blank column left of the variable's cell
                    tx = x - cell + 1
                text.append(f'<text x="{tx:g}" y="{ty:g}" fill="{colour}">{escape(lab.caption)}</text>')
        out.append("</g>")
        kinds = [k for k in GADGET_COLOURS if any(lab.gadget == k for lab in found)]
        legend = [f'<g class="gadget-legend" font-family="{FONT}" font-size="11" fill="#212121">']
        for i, kind in enumerate(kinds):
            y = below + i * _ROW
            legend.append(_box(GADGET_COLOURS[kind], x0, y + 2, 12, 12, kind))
            legend.append(f'<text x="{x0 + 18:g}" y="{y + 12}">{escape(kind)}: {escape(summaries[kind])}</text>')
        legend.append("</g>")
        return out + text + ["</g>"] + legend, len(kinds) * _ROW + 8, 520

    return draw
