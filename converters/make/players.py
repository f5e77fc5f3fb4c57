"""The players `mineconv play` can put on a board: a name -> factory table, each factory making one game's
player for a search budget.

`baseline` is mineconv's exact analysis and nothing more: a proven-safe cell when there is one, else the
lowest exact P(mine), the first such cell in row order. `engine` is `mineconv.analysis.advice.advise`'s
move, offered when that module is there.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, List, Optional

from ..analysis.report import analyze
from ..core.errors import InputError
from ..core.puzzle import Puzzle
from .play import Cell, Player

PlayerFactory = Callable[[Optional[float]], Player]


class SafeQueue:
    """The proven-safe cells a player's last analysis found, played one per call without analysing again."""

    def __init__(self) -> None:
        self.queue: List[Cell] = []

    def next_queued(self, puzzle: Puzzle) -> Optional[Cell]:
        """The next queued cell still closed in `puzzle` (a flood fill may have opened some), else None."""
        cells, cols = puzzle.cells, puzzle.cols
        while self.queue:
            r, c = self.queue.pop()
            if cells[r * cols + c] == "?":
                return r, c
        return None


class Baseline(SafeQueue):
    """Exact analysis + lowest P(mine), first in row order; proven-safe cells first.

    The safe cells one analysis proves stay safe as the game goes on, so they are played one per call
    without analysing again; the position is analysed once they are all open (the cells open when the
    player next has to guess are the same whatever the order the safe ones were opened in).
    """

    def __init__(self, budget: Optional[float] = None) -> None:
        super().__init__()
        self.budget = budget

    def __call__(self, puzzle: Puzzle) -> Cell:
        """The next cell to open."""
        queued = self.next_queued(puzzle)
        if queued is not None:
            return queued
        a = analyze(puzzle) if self.budget is None else analyze(puzzle, timeout=self.budget)
        safe = a.safe_cells
        if safe:
            self.queue = safe[::-1]    # popped from the end: row order
            return self.queue.pop()
        if a.mine_solutions is not None and a.solutions:
            ms = a.mine_solutions
            best = min(range(len(ms)), key=ms.__getitem__)   # the first lowest, variables in row order
            r, c = a.system.var_rc[best].tolist()
            return int(r), int(c)
        mines = set(a.mine_cells)
        probs = a.approx_probabilities
        unknown = [rc for rc in puzzle.unknown_cells if rc not in mines]
        if probs is not None:
            chance = dict(zip(map(tuple, a.system.var_rc.tolist()), probs))
            return min(unknown, key=lambda rc: chance.get(rc, 1.0))
        if not unknown:
            raise InputError("the position has no cell left to open")
        return unknown[0]


def engine_factory() -> Optional[PlayerFactory]:
    """advise's move as a player, when the engine (analysis/advice) is there; None when it is not (a missing
    module inside it is an error, not an absent engine)."""
    try:
        module = importlib.import_module("..analysis.advice", __package__)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.endswith("analysis.advice"):
            return None
        raise
    advise = module.advise

    def factory(budget: Optional[float]) -> Player:
        return Engine(advise, budget)
    return factory


class Engine(SafeQueue):
    """advise's move; the other cells one advice proves safe are played one per call without asking again.

    Safe cells stay safe as more cells open, so whatever order they are opened in, the position the engine
    next has to guess in is the same (the least one closed under opening proven-safe cells): the guesses,
    and so the games' outcomes, are those of asking advise at every move, for one count per turn instead of
    one per click (tests/make/test_play.py compares the two game for game).
    """

    def __init__(self, advise: Callable[..., Any], budget: Optional[float] = None) -> None:
        super().__init__()
        self.advise = advise
        self.budget = budget

    def __call__(self, puzzle: Puzzle) -> Cell:
        """The next cell to open."""
        queued = self.next_queued(puzzle)
        if queued is not None:
            return queued
        advice = self.advise(puzzle, budget=self.budget)
        if advice.p_mine == 0.0:   # the move is proven safe, the first in row order; the rest queue behind it
            self.queue = [cell for cell in reversed(advice.safe) if cell != advice.move]
        return advice.move


PLAYERS: Dict[str, PlayerFactory] = {"baseline": Baseline}
_ENGINE = engine_factory()
if _ENGINE is not None:
    PLAYERS["engine"] = _ENGINE
DEFAULT_PLAYER = "engine" if "engine" in PLAYERS else "baseline"


def player_factory(name: str) -> PlayerFactory:
    """The factory of the player of this name."""
    if name not in PLAYERS:
        raise InputError(f"unknown player {name!r}; valid: {', '.join(PLAYERS)}")
    return PLAYERS[name]
