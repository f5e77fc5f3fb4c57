"""puzz.link / pzprjs addresses of Minesweeper puzzles (pzprjs's puzzle type `mines`).

    https://puzz.link/p?mines/5/5/g2m13l13g0j
    http://pzv.jp/p.html?mines/5/5/g2m13l13g0j
    mines/5/5/g2m13l13g0j                      the same without the address part

The three fields after `mines` are the column count, the row count and the body. The body is pzprjs's
"number16" encoding, cells in row-major order: a hex digit 0-f is a clue of that value (only 0-8 are
Minesweeper counts), `-` and two hex digits a larger number, `+`, `=`, `%`, `*`, `$` longer ones,
`.` a clue cell whose number is hidden (read as a known safe cell with no count), and a letter `g`-`z`
a run of 1-20 empty (unknown) cells. A body that stops early leaves the rest empty, as pzprjs does.
The writer gives the puzz.link address (`https://puzz.link/p?mines/COLS/ROWS/BODY`); a known mine and
the total mine count have no place in it.
"""
from __future__ import annotations

import re
from typing import Any, List, Optional, TextIO, Tuple

from ...core.errors import FormatError
from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..registry import CERTAIN, LIKELY, NO, register_format
from .pasted_grids import fail, puzzle_at

# the address part is optional; any host serving pzprjs (puzz.link, pzv.jp, pzprxs, a local copy) will do
_ADDRESS = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://[^\s?]*?(?:/p|/p\.html|/list\.html)?\?)?")
_URL = re.compile(r"(?P<pid>[A-Za-z0-9_]+)/(?P<cols>[^/\s]*)/(?P<rows>[^/\s]*)/(?P<body>[^/\s]*)/?")
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240), "$": (5, 77776)}
_HEX = "0123456789abcdef"
PIDS = ("mines",)
MAX_RUN = 20


def _size(text: str, value: str, off: int, what: str, source: Optional[str]) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > 9 or int(value) < 1:
        raise fail(f"the {what} must be a whole number from 1 up, not {value!r}", text, off, source)
    return int(value)


def split_address(text: str, source: Optional[str]) -> Tuple[str, int, int, str, int]:
    """(puzzle type, cols, rows, body, offset of the body) of a pzprjs address; the header is checked first."""
    lead = len(text) - len(text.lstrip())
    m = _ADDRESS.match(text, lead)
    start = m.end() if m else lead
    u = _URL.match(text, start)
    if u is None or text[u.end():].strip():
        where = u.end() if u is not None else start
        raise fail("expected a pzprjs address: [https://puzz.link/p?]mines/COLS/ROWS/BODY", text, where, source)
    pid = u.group("pid")
    if pid not in PIDS:
        raise fail(f"this is a pzprjs address of a {pid!r} puzzle, not Minesweeper ('mines')", text, u.start("pid"),
                   source)
    cols = _size(text, u.group("cols"), u.start("cols"), "column count", source)
    rows = _size(text, u.group("rows"), u.start("rows"), "row count", source)
    why = too_many_cells(rows, cols)
    if why:
        raise fail(why, text, u.start("cols"), source)
    return pid, cols, rows, u.group("body"), u.start("body")


def decode_body(body: str, cells: int, text: str, base: int, source: Optional[str]) -> Tuple[List[str], List[int]]:
    """The cell symbols of a number16 body and, for each, its offset in text (an empty run points at its letter)."""
    out: List[str] = []
    offs: List[int] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if len(out) >= cells:
            raise fail(f"the body goes on after the board's {cells} cells", text, base + i, source)
        if ch in _HEX:
            value, width = int(ch, 16), 1
        elif ch in _LONG:
            digits, add = _LONG[ch]
            field = body[i + 1:i + 1 + digits]
            if len(field) != digits or any(d not in _HEX for d in field):
                raise fail(f"{ch!r} must be followed by {digits} hex digits", text, base + i, source)
            value, width = int(field, 16) + add, 1 + digits
        elif ch == ".":
            out.append(".")
            offs.append(base + i)
            i += 1
            continue
        elif "g" <= ch <= "z":
            run = int(ch, 36) - 15
            if len(out) + run > cells:
                raise fail(f"a run of {run} empty cells goes past the board's {cells} cells", text, base + i, source)
            out += ["?"] * run
            offs += [base + i] * run
            i += 1
            continue
        else:
            raise fail(f"{ch!r} is not a character of pzprjs's number encoding (0-f, '-', '.', g-z)", text,
                       base + i, source)
        if value > 8:
            raise fail(f"the clue {value} is not a Minesweeper count (0-8)", text, base + i, source)
        out.append(str(value))
        offs.append(base + i)
        i += width
    end = base + len(body)
    out += ["?"] * (cells - len(out))
    offs += [end] * (cells - len(offs))
    return out, offs


def read_puzzlink(text: str, source: str = "<string>") -> Puzzle:
    """Parse a puzz.link / pzv.jp address of a Minesweeper puzzle (or its `mines/COLS/ROWS/BODY` part)."""
    text = normalise_newlines(text)
    _, cols, rows, body, base = split_address(text, source)
    cells, offs = decode_body(body, rows * cols, text, base, source)
    grid = ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
    return puzzle_at(grid, lambda r, c: offs[r * cols + c], text, source)


def encode_body(puzzle: Puzzle) -> str:
    """The number16 body of a puzzle's cells (a known mine becomes an empty cell)."""
    parts: List[str] = []
    run = 0
    for ch in puzzle.cells:
        if ch in "?*":
            run += 1
            if run == MAX_RUN:
                parts.append(_run_letter(run))
                run = 0
            continue
        if run:
            parts.append(_run_letter(run))
            run = 0
        parts.append(ch)   # a count 0-8 is its own hex digit; '.' is pzprjs's hidden clue
    if run:
        parts.append(_run_letter(run))
    return "".join(parts)


def _run_letter(run: int) -> str:
    return "ghijklmnopqrstuvwxyz"[run - 1]


def write_puzzlink(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the puzz.link address of the puzzle, one line."""
    if puzzle.rows < 1 or puzzle.cols < 1:
        raise FormatError("a puzz.link address needs a board of at least one cell")
    out.write(f"https://puzz.link/p?mines/{puzzle.cols}/{puzzle.rows}/{encode_body(puzzle)}\n")


def mines_losses(puzzle: Puzzle, **options: Any) -> List[str]:
    """What a pzprjs Minesweeper puzzle cannot hold: known mines, the total, the name and the notes."""
    st = puzzle.stats
    lost = []
    if st["known_mines"]:
        lost.append(f"{st['known_mines']} known-mine mark(s) (written as empty cells)")
    return lost + lost_parts(puzzle, mines_as=None, safe_as=None)


def detect_puzzlink(text: str) -> float:
    """CERTAIN for a pzprjs address of a `mines` puzzle; LIKELY for one of another puzzle type (to say so)."""
    head = text[:200].strip()
    if "\n" in head or not head:
        return NO
    m = _ADDRESS.match(head)
    u = _URL.match(head, m.end() if m else 0)
    if u is None:
        return NO
    if u.group("pid") in PIDS:
        return CERTAIN if re.fullmatch(r"\d+", u.group("cols")) else LIKELY
    return LIKELY if m is not None and m.end() > 0 else NO


register_format("puzzlink", reader=read_puzzlink, writer=write_puzzlink,
                detect=detect_puzzlink, losses=mines_losses,
                description="puzz.link / pzv.jp address of a pzprjs 'mines' puzzle: "
                            "https://puzz.link/p?mines/COLS/ROWS/BODY (number16 body: 0-8 clues, '.' hidden "
                            "clue = safe, g-z runs of unknown cells)")
