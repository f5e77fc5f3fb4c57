"""advise(): the position's proven cells and the move to play, with its chance of a mine and why."""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

from ...core.errors import PuzzleError
from ...core.puzzle import Puzzle
from .endgame import search
from .guess import Candidate, guess_text, lowest_risk, percent, weigh
from .position import Counted, count_cells, neighbour_table, player_cells, safe_and_mines

Cell = Tuple[int, int]

# seconds of search when advise() is given no budget
DEFAULT_BUDGET = 1.0
# the searched endgame's alternatives shown, the best first
MAX_SHOWN = 8


@dataclass(frozen=True)
class Alternative:
    """A cell the engine weighed: its chance of a mine, its chance of progress when safe (None: not
    searched), its chance to win when the endgame was searched (None: not), and its score (higher wins)."""

    cell: Cell
    p_mine: float
    progress: Optional[float]
    win: Optional[float]
    score: float

    def to_json(self) -> Dict[str, Any]:
        """The JSON form: cell as [row, col]."""
        return {"cell": list(self.cell), "p_mine": self.p_mine, "progress": self.progress, "win": self.win,
                "score": self.score}


@dataclass(frozen=True)
class Advice:
    """The engine's answer for a position: proven-safe cells, proven mines, the move (a proven-safe cell when
    any exists, else the best guess; None when no cell is left to open), its exact chance of a mine, a line
    saying why, and the alternatives weighed."""

    safe: Tuple[Cell, ...]
    mines: Tuple[Cell, ...]
    move: Optional[Cell]
    p_mine: float
    why: str
    alternatives: Tuple[Alternative, ...] = ()

    def move_json(self) -> Optional[Dict[str, Any]]:
        """The move alone, as verdict and audit show it beside the player's: cell, chance of a mine, why."""
        if self.move is None:
            return None
        return {"cell": list(self.move), "p_mine": self.p_mine, "why": self.why}

    def to_json(self) -> Dict[str, Any]:
        """The JSON form (cells as [row, col])."""
        return {"move": None if self.move is None else list(self.move), "p_mine": self.p_mine, "why": self.why,
                "safe": [list(c) for c in self.safe], "mines": [list(c) for c in self.mines],
                "alternatives": [a.to_json() for a in self.alternatives]}


def advise(puzzle: Puzzle, *, budget: Optional[float] = None, known_mines: bool = False) -> Advice:
    """The best move in the position the player sees (opened numbers, unknown cells, the total when given;
    flags ignored, or with known_mines the '*' cells taken as mines, as the Puzzle model says); `budget`
    seconds cap any search (default DEFAULT_BUDGET), the lowest risk past it."""
    deadline = time.perf_counter() + (DEFAULT_BUDGET if budget is None else max(budget, 0.0))
    cells = puzzle.cells if known_mines else player_cells(puzzle)
    counted = count_cells(puzzle.rows, puzzle.cols, cells, puzzle.mines, puzzle)
    if not counted.solutions:
        raise PuzzleError("no mine layout fits this position's numbers" +
                          (" and its total" if puzzle.mines is not None else ""))
    cols = puzzle.cols
    safe, mines = safe_and_mines(counted)
    proven = tuple(divmod(i, cols) for i in safe), tuple(divmod(i, cols) for i in mines)
    if safe:
        return Advice(*proven, divmod(safe[0], cols), 0.0, safe_text(puzzle, cells, safe[0], mines))
    fallback = lowest_risk(counted)
    if fallback is None or fallback[1] >= 1.0:
        return Advice(*proven, None, 0.0, "nothing left to open")
    neighbours = neighbour_table(puzzle.rows, cols)
    searched = search(cells, counted, neighbours, puzzle.mines, deadline, MAX_SHOWN)
    if searched:
        return endgame_advice(proven, searched, counted, cols)
    weighed = weigh(cells, puzzle.rows, cols, puzzle.mines, counted, neighbours, deadline)
    best = weighed[0] if weighed else Candidate(fallback[0], fallback[1], None, 1.0 - fallback[1])
    return Advice(*proven, divmod(best.cell, cols), best.p_mine, guess_text(best, weighed),
                  tuple(alternative(c, cols) for c in weighed))


def endgame_advice(proven: Tuple[Tuple[Cell, ...], Tuple[Cell, ...]], searched: List[Tuple[int, int, int]],
                   counted: Counted, cols: int) -> Advice:
    """The advice of a searched endgame: the move likeliest to win, and the others with their chances."""
    chance = dict(zip(counted.unknown, counted.chances))
    cell, won, layouts = searched[0]
    share = Fraction(won, layouts)
    why = f"endgame searched: wins {share.numerator} in {share.denominator}"
    if share == 1:
        why = "endgame searched: wins every time"
    others = tuple(Alternative(divmod(c, cols), chance[c], None, w / n, w / n) for c, w, n in searched[:MAX_SHOWN])
    return Advice(*proven, divmod(cell, cols), chance[cell], why, others)


def alternative(c: Candidate, cols: int, win: Optional[float] = None) -> Alternative:
    """A weighed candidate as the Advice shows it."""
    return Alternative(divmod(c.cell, cols), c.p_mine, c.progress, win, c.score)


def safe_text(puzzle: Puzzle, cells: str, cell: int, mines: List[int]) -> str:
    """Why a proven-safe cell is safe: a single number around it that already has its mines, when one does."""
    if cells[cell] == ".":
        return "safe: marked safe on the board"
    cols = puzzle.cols
    proven = set(mines) | ({i for i, ch in enumerate(cells) if ch == "*"} if "*" in cells else set())
    for j in neighbour_table(puzzle.rows, cols)[cell]:
        if cells[j] in "012345678":
            around = neighbour_table(puzzle.rows, cols)[j]
            if int(cells[j]) == sum(k in proven for k in around):
                return f"safe: proven by the {cells[j]} at {divmod(j, cols)}, whose mines are all found"
    if puzzle.mines is not None:
        return "safe: no layout of the numbers and the mine total puts a mine there"
    return "safe: no layout of the numbers puts a mine there"


def describe(advice: Advice) -> str:
    """The advice as a player reads it: the move and why, then the proven cells."""
    if advice.move is None:
        return advice.why
    lines = [f"open {advice.move}: {advice.why}"]
    if advice.p_mine:
        lines[0] += f" (mine {percent(advice.p_mine)})" if "mine " not in advice.why else ""
    if advice.safe:
        lines.append(f"proven safe: {len(advice.safe)} cell(s)")
    if advice.mines:
        lines.append(f"proven mines: {len(advice.mines)} cell(s)")
    return "\n".join(lines)
