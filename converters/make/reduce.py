"""CNF formula -> Minesweeper board whose solutions are the formula's models, one to one (`mineconv reduce`).

Layout (Kaye's idea, with gadgets made exact: see make/gadgets.py). Variable i's wire runs along tile row
i from its variable cell at the left edge; clause j is a column of tiles whose accumulator runs down
from a 'false source' at the top to a 'forced true' count at the bottom. Where the column meets a
variable's wire, the tile is a plain crossing, or a tap that ORs the literal x or not-x into the
accumulator. So the accumulator arrives at the bottom holding the clause's value, and the '1' there
demands it. Every cell that is not a variable cell is decided by the variables, hence parsimony.

    rows = 13 n + 5, cols = 12 m + 7   (n variables, m clauses left after dropping tautologies)

A clause that holds a literal twice taps it once; a clause that holds x and not x is always true and gets
no column (a note says how many were dropped).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.errors import InputError, ResourceError
from ..core.fileio import PathLike
from ..core.puzzle import Puzzle
from ..core.wording import plural
from ..formats.dimacs_formula import Formula, read_formula
from .gadgets import (
    CROSSING,
    FALSE_SOURCE,
    SOURCE,
    TAP_NEGATIVE,
    TAP_POSITIVE,
    TILE_ACC_COL,
    TILE_HEIGHT,
    TILE_WIDTH,
    TILE_WIRE_ROW,
    TILES,
    TRUE_SINK,
    Gadget,
)

DEFAULT_MAX_CELLS = 4_000_000     # reduce refuses a board larger than this unless told otherwise
TOP = 2                           # rows above the first tile: a blank row, then the false sources' '0's
BOTTOM = 2                        # rows below the last accumulator cell: the forced '1's, then a blank row
LEFT = SOURCE.width               # a blank column, then the variable source X 1 ? 1 up to the first tile
RIGHT = 1                         # a blank column after the last wire cell


@dataclass(frozen=True)
class Label:
    """One gadget on a reduced board: its name, a caption and its cells (first and last row and column)."""

    gadget: str
    caption: str
    top: int
    left: int
    bottom: int
    right: int


def board_shape(variables: int, clauses: int) -> Tuple[int, int]:
    """(rows, cols) of the board for this many variables and (non-tautological) clauses."""
    return TOP + TILE_HEIGHT * variables + 1 + BOTTOM, LEFT + TILE_WIDTH * clauses + 1 + RIGHT


def size_law(variables: int, clauses: int) -> int:
    """Cells of the board: (13 n + 5) (12 m + 7), within 2000 n m + 10000 whenever n, m >= 1."""
    rows, cols = board_shape(variables, clauses)
    return rows * cols


def normal_clauses(formula: Formula) -> Tuple[Tuple[Tuple[int, ...], ...], int]:
    """The clauses that get a column (each literal once, in order) and how many tautologies were dropped."""
    kept = []
    for clause in formula.clauses:
        lits = tuple(dict.fromkeys(clause))
        if any(-lit in lits for lit in lits):
            continue
        kept.append(lits)
    return tuple(kept), len(formula.clauses) - len(kept)


def _tile(variable: int, clause: Sequence[int]) -> Gadget:
    if variable in clause:
        return TAP_POSITIVE
    if -variable in clause:
        return TAP_NEGATIVE
    return CROSSING


def _accumulator_cols(m: int) -> List[int]:
    return [LEFT + TILE_WIDTH * j + TILE_ACC_COL for j in range(m)]


def _marked(width: int, cols: Iterable[int], symbol: str) -> str:
    row = bytearray(b"." * width)
    for c in cols:
        row[c] = ord(symbol)
    return row.decode("ascii")


def _band(variable: int, clauses: Sequence[Sequence[int]], width: int) -> List[str]:
    """The TILE_HEIGHT rows of variable's tile row (its last shared row belongs to the next band)."""
    tiles = [_tile(variable, clause).symbols() for clause in clauses]
    source = "." + SOURCE.symbols()[1][:LEFT - 1]   # the source's E cell is the first tile's W
    rows = []
    for t in range(TILE_HEIGHT):
        left = source if t == TILE_WIRE_ROW else "." * LEFT
        if tiles:
            middle = "".join(tile[t][:TILE_WIDTH] for tile in tiles) + tiles[-1][t][TILE_WIDTH]
        else:
            middle = "?" if t == TILE_WIRE_ROW else "."
        rows.append(left + middle + "." * (width - LEFT - len(middle)))
    return rows


def check_size(variables: int, clauses: int, max_cells: int) -> None:
    """Refuse, before anything is built, a board of more than max_cells cells."""
    rows, cols = board_shape(variables, clauses)
    if rows * cols > max_cells:
        raise ResourceError(f"the board would be {rows} x {cols} = {rows * cols} cells ({plural(variables, 'variable')}, "
                            f"{plural(clauses, 'clause')}), more than the limit of {max_cells} (--max-cells)")


def reduce(formula: Formula, max_cells: int = DEFAULT_MAX_CELLS) -> Puzzle:
    """The board whose solutions are the formula's models, one to one; the `wires` hold the variables' cells."""
    clauses, dropped = normal_clauses(formula)
    n, m = formula.variables, len(clauses)
    check_size(n, m, max_cells)
    rows, width = board_shape(n, m)
    acc = _accumulator_cols(m)
    lines = ["." * width, _marked(width, acc, FALSE_SOURCE.rows[1][1])]
    for i in range(n):
        lines.extend(_band(i + 1, clauses, width))
    lines.append(_marked(width, acc, "?"))
    lines.append(_marked(width, acc, TRUE_SINK.rows[1][1]))
    lines.append("." * width)
    assert len(lines) == rows
    wires = tuple((TOP + TILE_HEIGHT * i + TILE_WIRE_ROW, 1 + SOURCE.cell("X")[1]) for i in range(n))
    notes = [f"reduced from the CNF formula {formula.source} by mineconv reduce: "
             f"{plural(n, 'variable')}, {plural(len(formula.clauses), 'clause')}",
             "each solution of the board is one model of the formula: variable i is true when the cell "
             "wires: i=ROW,COL holds a mine"]
    if dropped:
        notes.append(f"{plural(dropped, 'clause')} holding a literal and its negation (always true) "
                     "got no column")
    board = Puzzle.from_rows(lines, notes=notes).replace(wires=wires)
    return board if board.unknown_count else self_evident(board)


def self_evident(board: Puzzle) -> Puzzle:
    """A board of no unknown cell (no variable, no clause) with its total written: a grid of '.' alone,
    with no 'wires:' line, reads as the dots notation, where '.' is unknown (35 cells, 2**35 solutions);
    the 'mines:' line makes it read as the native board it is (no mine, one solution: the empty model)."""
    return board.replace(mines=board.known_mine_count, notes=board.notes + (
        "no unknown cell: the 'mines:' line keeps this board from reading as the dots notation",))


def reduce_cnf(cnf: Union[Formula, PathLike], max_cells: int = DEFAULT_MAX_CELLS) -> Puzzle:
    """The board whose solutions are a CNF formula's models, one to one (a Formula, or a DIMACS file's path)."""
    formula = cnf if isinstance(cnf, Formula) else read_formula(cnf, lambda n, m: check_size(n, m, max_cells))
    return reduce(formula, max_cells=max_cells)


def cnf_model(puzzle: Puzzle, mine_grid: np.ndarray) -> List[int]:
    """The formula's model a solution stands for: +i when variable i's cell holds a mine, else -i."""
    return [i if bool(mine_grid[r, c]) else -i for i, (r, c) in enumerate(puzzle.wires, 1)]


def _matches(puzzle: Puzzle, gadget: Gadget, top: int, left: int) -> bool:
    symbols = gadget.symbols()
    if top + gadget.height > puzzle.rows or left + gadget.width > puzzle.cols:
        return False
    rows = puzzle.grid_lines
    # a solved board holds '*' and '.' where the gadget has unknown cells
    return all(all(b == g or (g == "?" and b in "*.") for b, g in zip(rows[top + r][left:left + gadget.width], line))
               for r, line in enumerate(symbols))


def labels(puzzle: Puzzle) -> List[Label]:
    """The gadgets of a board `reduce` made, recognised cell by cell from its wires (a tile that was
    edited is left out)."""
    if not puzzle.wires:
        raise InputError("the board has no 'wires' header: it was not made by `mineconv reduce`")
    n = len(puzzle.wires)
    m = (puzzle.cols - LEFT - 1 - RIGHT) // TILE_WIDTH
    out = []
    for i, (r, c) in enumerate(puzzle.wires):
        out.append(Label("variable", f"x{i + 1}", r, c, r, LEFT - 1))
    for j, col in enumerate(_accumulator_cols(m)):
        out.append(Label("false source", f"C{j + 1}", 1, col, 1, col))
        out.append(Label("forced true", f"C{j + 1}", puzzle.rows - BOTTOM, col, puzzle.rows - BOTTOM, col))
    for i in range(n):
        for j in range(m):
            top, left = TOP + TILE_HEIGHT * i, LEFT + TILE_WIDTH * j
            tile: Optional[Gadget] = next((g for g in TILES if _matches(puzzle, g, top, left)), None)
            if tile is not None:
                caption = {"tap x": f"x{i + 1}", "tap not-x": f"-x{i + 1}"}.get(tile.name, "")
                out.append(Label(tile.name, caption, top, left, top + TILE_HEIGHT, left + TILE_WIDTH))
    return out
