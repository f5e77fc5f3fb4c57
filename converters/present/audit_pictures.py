"""Pictures of a replay audit: the board at each guess, the clicked cells outlined, their risk written below."""
from __future__ import annotations

from pathlib import Path
from typing import List, Tuple
from xml.sax.saxutils import escape

from ..analysis.report import analyze
from ..analysis.verdicts.audit import CHORD, Audit, ClickAudit, position
from ..core.fileio import PathLike, atomic_output
from .picture import FONT, render_svg

CLICK_OUTLINE = "#1e88e5"


def guess_svg(result: Audit, click: ClickAudit, number: int) -> str:
    """The picture of one guess: the position the player saw, with the probabilities, the click outlined."""
    o = click.opening
    puzzle = position(result.counts, o.before, result.mines)
    analysis = analyze(puzzle)
    p = "not counted" if click.p_mine is None else f"{float(click.p_mine):.4f}"
    what = "chord on" if o.kind == CHORD else "left click on"
    why = "a safe cell existed elsewhere (avoidable)" if click.safe_elsewhere else "no safe cell anywhere (forced)"
    caption = f"P(mine) {p} at {o.time:.3f} s: {what} ({o.row}, {o.col}); {why}"

    def overlay(x0: float, y0: float, cell: int, below: int) -> Tuple[List[str], int, int]:
        drawn = [f'<g class="clicked" fill="none" stroke="{CLICK_OUTLINE}" stroke-width="3">']
        for r, c in o.risked:
            drawn.append(f'<rect x="{x0 + c * cell + 1.5:g}" y="{y0 + r * cell + 1.5:g}" '
                         f'width="{cell - 3}" height="{cell - 3}"/>')
        drawn.append("</g>")
        drawn.append(f'<text class="risk" x="{x0:g}" y="{below + 14}" font-family="{FONT}" font-size="12" '
                     f'fill="#212121">{escape(caption)}</text>')
        return drawn, 22, int(x0 + len(caption) * 6.6)

    return render_svg(puzzle, analysis, title=f"guess {number}: {Path(result.source).name or 'replay'}",
                      overlay=overlay)


def write_guess_pictures(result: Audit, folder: PathLike) -> List[Path]:
    """One SVG per guess (an opening after the first that risked a mine) in the folder; their paths."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for n, click in enumerate(result.guesses, 1):
        path = out_dir / f"guess-{n:03d}-{click.opening.row}-{click.opening.col}.svg"
        with atomic_output(path) as out:
            out.write(guess_svg(result, click, n))
        written.append(path)
    return written
