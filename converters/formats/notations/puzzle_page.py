"""Saved game pages of puzzle-minesweeper.com: the HTML of the board, read straight from the page.

    <div class="minesweeper5x5" id="game" ...>
      <div class="minesweeper-cell-back" ...>
        <div class="cell selectable task cell-x" style="top: 3px; left: 3px;">      a clue cell ('task')
          <div class="number number-2">2</div>
        </div>
        <div class="cell selectable cell-off" style="top: 3px; left: 34px;">        an unknown cell
          <div class="number"></div>
        </div>
        ...

The site draws its board with a script; what a saved page (the browser's "save complete page", or the
game element's outer HTML as scrapers keep it) holds is the drawn board: one `cell` div per cell, placed by
the `top` and `left` of its style, with a `number` div inside that shows the clue or nothing. The grid is
derived from the distinct top and left values (sorted, one step apart), so any cell size reads; a cell off
that lattice, a missing row or column, two cells at one place or a board whose count of cells is not rows
times columns is a located error. Clue cells are safe with their count; every other cell is unknown; the
site states no mine total (its puzzles have one solution), so none is read.

A player's marks (a non-clue cell whose class is not `cell-off`, e.g. `cell-on`) are not read: no saved
page with marks was found to say what each class means, so the board is read as given, with a warning.
In a whole page only the cells inside the game element (`id="game"`, or a `minesweeperRxC` class) count,
and the markup inside it must be well formed; outside it the page may be as loose as HTML allows.

The writer gives the game element in the same markup (31-pixel cells, as on the site's 5x5 boards); a
known mine, a known safe cell without a count and the total have no place in it.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any, Dict, List, Optional, TextIO, Tuple

from ...core.errors import AmbiguousInputWarning, MineconvError
from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..registry import CERTAIN, LIKELY, NO, WEAK, register_format
from .pasted_grids import fail, puzzle_at

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track",
         "wbr"}
_BOARD_CLASS = re.compile(r"minesweeper(\d{1,6})x(\d{1,6})")
_PX = re.compile(r"\s*(-?\d{1,7}(?:\.\d{1,6})?)px\s*")
_GAME_HINT = re.compile(r"""class\s*=\s*["'][^"']*\bminesweeper(?:\d+x\d+|-cell-back)\b""")
_CELL_HINT = re.compile(r"""class\s*=\s*["'](?:[^"']*\s)?cell(?:\s[^"']*)?["']""")
_NUMBER_HINT = re.compile(r"""class\s*=\s*["'](?:[^"']*\s)?number(?:\s[^"']*)?["']""")
_HEAD = 4000
PITCH = 31      # the site's cell step on its 5x5 boards, in pixels
OFFSET = 3      # where its first cell sits inside the board


@dataclass
class _Cell:
    off: int                              # where the cell's tag starts
    top: str
    left: str
    task: bool
    marks: List[str]                      # its cell-* classes other than cell-off (a player's marks)
    number: Optional[Tuple[str, int]] = None   # the number div's text and where the div starts


@dataclass
class _Open:
    tag: str
    off: int
    role: str = ""                        # "game", "cell", "number" or ""


@dataclass
class _Page:
    game: Optional[Tuple[int, str]] = None     # the game element: its offset and class
    inside: List[_Cell] = field(default_factory=list)      # the cells inside the game element
    loose: List[_Cell] = field(default_factory=list)       # the cells outside it

    @property
    def cells(self) -> List[_Cell]:
        """The board's cells: those of the game element, or every cell of a page (a fragment) without one."""
        return self.inside if self.game is not None else self.loose


class _Reader(HTMLParser):
    """Walks the page once, collecting the cell divs (strict inside the game element, lenient outside)."""

    def __init__(self, text: str, source: Optional[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self.source = text, source
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.stack: List[_Open] = []
        self.page = _Page()
        self.cell: Optional[_Cell] = None
        self.digits: Optional[List[str]] = None

    def where(self) -> int:
        """The character offset of the tag being handled."""
        line, col = self.getpos()
        return self.starts[min(line, len(self.starts)) - 1] + col

    def inside_game(self) -> bool:
        return any(o.role == "game" for o in self.stack)

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        off = self.where()
        values = {k: v or "" for k, v in attrs}
        classes = values.get("class", "").split()
        role = ""
        if tag == "div" and self.page.game is None and (
                values.get("id") == "game" or any(_BOARD_CLASS.fullmatch(c) for c in classes)):
            self.page.game = (off, values.get("class", ""))
            role = "game"
        elif tag == "div" and "cell" in classes:
            role = "cell"
            self.start_cell(off, values.get("style", ""), classes)
        elif tag == "div" and "number" in classes and self.cell is not None:
            role = "number"
            if self.cell.number is not None:
                raise fail("a second number div in one cell", self.text, off, self.source)
            self.cell.number = ("", off)
            self.digits = []
        if tag not in _VOID:
            self.stack.append(_Open(tag, off, role))

    def handle_startendtag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        if tag == "div" and ("cell" in (dict(attrs).get("class") or "").split() or self.inside_game()):
            raise fail("a self-closed <div/> on the board: HTML has no such element (write <div></div>)",
                       self.text, self.where(), self.source)

    def start_cell(self, off: int, style: str, classes: List[str]) -> None:
        if self.cell is not None:
            raise fail("a cell inside another cell (the cell opened at line "
                       f"{self.text.count(chr(10), 0, self.cell.off) + 1} is not closed)", self.text, off, self.source)
        pos = {}
        for part in style.split(";"):
            name, _, value = part.partition(":")
            pos[name.strip().lower()] = value
        for side in ("top", "left"):
            if side not in pos:
                # another site's board (minesweeper.online's cells are placed by their ids) lands here too
                guess = "" if self.page.game else ": is this a puzzle-minesweeper.com board?"
                raise fail(f"a cell without its position (style=\"top: ..px; left: ..px\"; no {side}){guess}",
                           self.text, off, self.source)
            if not _PX.fullmatch(pos[side]):
                raise fail(f"the cell's {side} {pos[side].strip()[:20]!r} is not a position in pixels such as 34px",
                           self.text, off, self.source)
        marks = [c for c in classes if c.startswith("cell-") and c != "cell-off"] if "task" not in classes else []
        self.cell = _Cell(off, pos["top"].strip()[:-2], pos["left"].strip()[:-2], "task" in classes, marks)

    def handle_endtag(self, tag: str) -> None:
        off = self.where()
        game = next((i for i, o in enumerate(self.stack) if o.role == "game"), None)
        strict = game is not None or self.cell is not None
        if strict and self.stack[-1].tag != tag:
            raise fail(f"</{tag}> where the open <{self.stack[-1].tag}> should close: the board's markup is broken",
                       self.text, off, self.source)
        if not strict:
            if all(o.tag != tag for o in self.stack):
                return      # a stray end tag outside the board: browsers drop it too
            while self.stack[-1].tag != tag:
                self.stack.pop()
        self.close_element(self.stack.pop())

    def close_element(self, element: _Open) -> None:
        if element.role == "number" and self.cell is not None and self.cell.number is not None:
            self.cell.number = ("".join(self.digits or []).strip(), self.cell.number[1])
            self.digits = None
        elif element.role == "cell" and self.cell is not None:
            (self.page.inside if self.inside_game() else self.page.loose).append(self.cell)
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.digits is not None:
            self.digits.append(data)

    def finish(self) -> _Page:
        """The page read so far, after checking that the board was closed."""
        for element in self.stack:
            if element.role in ("game", "cell", "number"):
                what = {"game": "the game element", "cell": "this cell", "number": "this number div"}[element.role]
                raise fail(f"{what} is never closed (a missing </{element.tag}>)", self.text, element.off,
                           self.source)
        return self.page


def _page(text: str, source: Optional[str]) -> _Page:
    reader = _Reader(text, source)
    try:
        reader.feed(text)
        reader.close()
    except MineconvError:
        raise
    except (AssertionError, ValueError) as exc:   # html.parser's own complaints (a broken <![ section ...)
        raise fail(f"broken markup: {exc}", text, reader.where(), source) from None
    return reader.finish()


def _axis(cells: List[_Cell], side: str, text: str, source: Optional[str]) -> Dict[str, int]:
    """Each distinct top (or left) value -> its row (or column): sorted values, one step apart."""
    values = sorted({Fraction(getattr(c, side)) for c in cells})
    word = "row" if side == "top" else "column"
    if len(values) == 1:
        return {getattr(c, side): 0 for c in cells}
    step = min(b - a for a, b in zip(values, values[1:]))
    index: Dict[Fraction, int] = {}
    for v in values:
        k = (v - values[0]) / step
        if abs(k - round(k)) > Fraction(1, 20):
            cell = next(c for c in cells if Fraction(getattr(c, side)) == v)
            shown = ", ".join(f"{float(x):g}px" for x in values[:4]) + (", ..." if len(values) > 4 else "")
            raise fail(f"this cell's {side} {getattr(cell, side)}px is off the grid: the cells' {side} values "
                       f"({shown}) are not whole steps of {float(step):g}px apart, as {word}s are",
                       text, cell.off, source)
        index[v] = round(k)
        if index[v] != len(index) - 1:
            cell = next(c for c in cells if Fraction(getattr(c, side)) == v)
            raise fail(f"no cell in {word} {len(index)} (the {side} values jump from "
                       f"{float(values[len(index) - 2]):g}px to {getattr(cell, side)}px, steps of {float(step):g}px "
                       "elsewhere): the spacing is not uniform", text, cell.off, source)
    return {getattr(c, side): index[Fraction(getattr(c, side))] for c in cells}


def _symbol(cell: _Cell, text: str, source: Optional[str]) -> str:
    if cell.number is None:
        raise fail("a cell without its number div (<div class=\"number\">): not a puzzle-minesweeper.com board",
                   text, cell.off, source)
    shown, off = cell.number
    if not shown:
        if cell.task:
            raise fail("a clue cell (class 'task') whose number div is empty", text, off, source)
        return "?"
    if not (len(shown) == 1 and shown in "012345678"):
        raise fail(f"{shown[:20]!r} is not a Minesweeper count (0-8)", text, off, source)
    return shown


def _grid(page: _Page, text: str, source: Optional[str]) -> Tuple[List[str], Dict[Tuple[int, int], int]]:
    """The board's rows and where each cell's div starts."""
    cells = page.cells
    rows_of, cols_of = _axis(cells, "top", text, source), _axis(cells, "left", text, source)
    rows, cols = max(rows_of.values()) + 1, max(cols_of.values()) + 1
    why = too_many_cells(rows, cols)
    if why:
        raise fail(why, text, cells[0].off, source)
    at: Dict[Tuple[int, int], str] = {}
    offs: Dict[Tuple[int, int], int] = {}
    for cell in cells:
        where = (rows_of[cell.top], cols_of[cell.left])
        if where in at:
            raise fail(f"a second cell at top {cell.top}px, left {cell.left}px (row {where[0] + 1}, column "
                       f"{where[1] + 1}): cells overlap", text, cell.off, source)
        at[where] = _symbol(cell, text, source)
        offs[where] = cell.off
    if len(at) != rows * cols:     # found without walking the whole lattice, which may be huge
        per_row = [0] * rows
        for r, _ in at:
            per_row[r] += 1
        r = next(r for r in range(rows) if per_row[r] < cols)
        c = next(c for c in range(cols) if (r, c) not in at)
        raise fail(f"no cell at row {r + 1}, column {c + 1}: a {rows} x {cols} board needs {rows * cols} cells, "
                   f"this one has {len(at)}", text, page.game[0] if page.game else cells[0].off, source)
    return ["".join(at[r, c] for c in range(cols)) for r in range(rows)], offs


def _check_game(page: _Page, rows: int, cols: int, text: str, source: Optional[str]) -> None:
    if page.game is None:
        return
    off, classes = page.game
    size = next((m for m in map(_BOARD_CLASS.fullmatch, classes.split()) if m), None)
    if size is not None and sorted((int(size.group(1)), int(size.group(2)))) != sorted((rows, cols)):
        raise fail(f"the game element says {size.group(0)}, its cells make a {rows} x {cols} board", text, off,
                   source)


def read_puzzle_page(text: str, source: str = "<string>") -> Puzzle:
    """Parse a saved puzzle-minesweeper.com page (or its game element): cells by their top/left, numbers as clues."""
    text = normalise_newlines(text)
    page = _page(text, source)
    if page.game is not None and "minesweeper" not in page.game[1] and page.game[1].strip():
        raise fail(f"the game element's class is {page.game[1].strip()[:40]!r}, not minesweeperRxC: this page holds "
                   "another puzzle-*.com game, not Minesweeper", text, page.game[0], source)
    if not page.cells:
        raise fail("an HTML page, but no puzzle-minesweeper.com board in it (no <div class=\"cell ...\" "
                   "style=\"top: ..px; left: ..px\">; the site draws its board with a script: save the page after "
                   "it has loaded, or the game element's outer HTML)", text, page.game[0] if page.game else 0, source)
    rows, offs = _grid(page, text, source)
    _check_game(page, len(rows), len(rows[0]), text, source)
    marked = [c for c in page.cells if c.marks]
    if marked:
        line = text.count("\n", 0, marked[0].off) + 1
        kinds = sorted({m for c in marked for m in c.marks})
        warnings.warn(AmbiguousInputWarning(
            f"{source}:{line}: {plural(len(marked), 'cell')} marked by the player ({', '.join(kinds)}) read as "
            "unknown: what the site's mark classes mean is not established, so the puzzle is read as given"),
            stacklevel=2)
    return puzzle_at(rows, lambda r, c: offs[r, c], text, source)


def write_puzzle_page(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the board as the site's game element: a cell div per cell, clues in 'task' cells."""
    def side(n: int) -> int:     # the board's inner size for n cells
        return PITCH * n + 5

    lines = [f'<div class="minesweeper{puzzle.rows}x{puzzle.cols}" id="game" style="position: relative; '
             f'width: {side(puzzle.cols) + 10}px; height: {side(puzzle.rows) + 10}px;">',
             f'    <div class="minesweeper-cell-back" style="position: absolute; top: 5px; left: 5px; '
             f'width: {side(puzzle.cols)}px; height: {side(puzzle.rows)}px;">']
    for r in range(puzzle.rows):
        for c, ch in enumerate(puzzle.row(r)):
            place = f'style="top: {OFFSET + PITCH * r}px; left: {OFFSET + PITCH * c}px;"'
            if ch.isdigit():
                lines += [f'        <div class="cell selectable task cell-x" {place}>',
                          f'            <div class="number number-{ch}">{ch}</div>']
            else:
                lines += [f'        <div class="cell selectable cell-off" {place}>',
                          '            <div class="number"></div>']
            lines.append("        </div>")
    lines += ["    </div>", "</div>"]
    out.write("\n".join(lines) + "\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    return lost_parts(puzzle, mines_as="unknown cells", safe_as="unknown cells")


def could_be_page(text: str) -> bool:
    """The necessary condition of detect_puzzle_page: the text's first non-blank character is '<'."""
    return text[:_HEAD].lstrip("\ufeff \t\n\r")[:1] == "<"


def detect_puzzle_page(text: str) -> float:
    """CERTAIN for the game element's markup, LIKELY for cell and number divs, WEAK for any other HTML (so that
    such a page is told it holds no board rather than misread)."""
    if not could_be_page(text):
        return NO
    if _GAME_HINT.search(text):
        return CERTAIN
    if _CELL_HINT.search(text) and _NUMBER_HINT.search(text):
        return LIKELY
    return WEAK


register_format("puzzle-page", reader=read_puzzle_page, writer=write_puzzle_page,
                detect=detect_puzzle_page, losses=_losses,
                description="a saved puzzle-minesweeper.com game page (HTML): cell divs placed by their style's "
                            "top/left, a number div the clue, an empty one an unknown cell")
