"""The evidence of a verdict, re-checked by hand's methods: additions for a guess, enumeration for a proof.

Nothing here trusts mineconv's analysis: a guess certificate's solutions are added up count by count; a
no-guess proof is re-derived from the counts it names (and the total when it says so) by walking every
way to meet them, cell by cell, keeping only each count's mines still needed (and the mines placed so
far, when the total takes part), as a person would do it on paper, only faster. `verdict.check_certificate`
calls these first, then compares every other field with what the board gives.
"""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...core.errors import VerificationError
from ...core.puzzle import CODE_MINE, CODE_UNKNOWN, Puzzle
from ...core.system import check_assignment
from ...core.wording import plural

Cell = Tuple[int, int]
State = Tuple[int, ...]
# the proof's enumeration keeps at most this many partial ways to meet its counts at once (a proof
# explain finds names a handful of counts; this bounds a forged proof that names hundreds)
MAX_STATES = 200_000
VALUES = ("safe", "mine")


def is_int(x: Any) -> bool:
    """True for a JSON whole number (not a bool, which Python counts as an int)."""
    return type(x) is int


def board_cell(puzzle: Puzzle, cell: Any, what: str) -> Cell:
    """[row, col] of the board as a tuple, or VerificationError naming `what`."""
    if not (isinstance(cell, list) and len(cell) == 2 and all(map(is_int, cell))
            and 0 <= cell[0] < puzzle.rows and 0 <= cell[1] < puzzle.cols):
        raise VerificationError(f"{what} is {cell!r}, not a cell [row, col] of the {puzzle.rows} x {puzzle.cols} board")
    return cell[0], cell[1]


def check_guess(puzzle: Puzzle, solutions: Any, size: Any) -> str:
    """A guess certificate's evidence: each solution meets every count (and the total), together they put
    a mine and no mine on every unknown cell, and `size` says how many there are."""
    if not isinstance(solutions, list) or not solutions:
        raise VerificationError("a guess certificate needs a non-empty list of solutions")
    unknown = puzzle.codes == CODE_UNKNOWN
    seen_mine = np.zeros_like(unknown)
    seen_safe = np.zeros_like(unknown)
    for number, cells in enumerate(solutions, 1):
        grid = _mine_grid(puzzle, cells, number)
        bad = check_assignment(puzzle, grid, puzzle.mines)
        if bad is not None:
            raise VerificationError(f"solution {number} is not a solution: {bad.message}")
        seen_mine |= grid & unknown
        seen_safe |= ~grid & unknown
    undecided = unknown & ~(seen_mine & seen_safe)
    if undecided.any():
        r, c = (int(x) for x in np.argwhere(undecided)[0])
        side = "a mine" if not seen_mine[r, c] else "no mine"
        raise VerificationError(f"no solution of the certificate puts {side} on ({r}, {c}): it does not show that "
                                "every unknown cell could go either way")
    if not is_int(size) or size != len(solutions):
        raise VerificationError(f"certificate_size is {str(size)[:40]!r}, but the certificate lists "
                                f"{len(solutions)} solutions")
    return (f"{len(solutions)} solutions, each meeting every count"
            f"{' and the total' if puzzle.mines is not None else ''}, put a mine and no mine on each of the "
            f"{int(unknown.sum())} unknown cells: no cell is decided, a guess is forced")


def _mine_grid(puzzle: Puzzle, cells: Any, number: int) -> np.ndarray:
    grid = np.zeros((puzzle.rows, puzzle.cols), dtype=bool)
    if not isinstance(cells, list):
        raise VerificationError(f"solution {number} is not a list of cells")
    for cell in cells:
        r, c = board_cell(puzzle, cell, f"a cell of solution {number}")
        if grid[r, c]:
            raise VerificationError(f"solution {number} names ({r}, {c}) twice")
        grid[r, c] = True
    return grid


def check_proof(puzzle: Puzzle, proof: Any, named: Optional[Tuple[Cell, Any]] = None) -> str:
    """A no-guess proof's evidence: every way to meet the counts it names (with the total when it says so)
    gives each of its cells, and the verdict's `named` cell, the value claimed. Returns what was checked."""
    if not isinstance(proof, dict):
        raise VerificationError("a no-guess certificate's proof is not a JSON object")
    claims = _claims(puzzle, proof.get("cells"))
    if named is not None:
        if named[1] not in VALUES:
            raise VerificationError(f"the verdict's value is {str(named[1])[:40]!r}, not 'safe' or 'mine'")
        claims = [named] + [claim for claim in claims if claim[0] != named[0]]
    counts = _named_counts(puzzle, proof.get("because"))
    total = proof.get("total")
    if type(total) is not bool:
        raise VerificationError(f"proof.total is {total!r}, not true or false")
    if total and puzzle.mines is None:
        raise VerificationError("the proof uses the total mine count, but the position gives none")
    if not counts and not total:
        raise VerificationError("the proof names no counts to check")
    cells, checks = local_problem(puzzle, counts, [cell for cell, _ in claims])
    window = None
    if total:
        assert puzzle.mines is not None
        left = puzzle.mines - puzzle.known_mine_count
        outside = puzzle.unknown_count - len(cells)   # cells no named count touches: only the total binds them
        window = (left - outside, left)
    possible = possible_values(len(cells), checks, window)
    if not any(possible):
        raise VerificationError("the named counts cannot all be met: the position has no solution")
    for (r, c), value in claims:
        if puzzle.codes[r, c] != CODE_UNKNOWN:
            raise VerificationError(f"({r}, {c}) is not an unknown cell")
        mine = value == "mine"
        if possible[cells.index((r, c))] != {mine}:
            raise VerificationError(f"the named counts allow ({r}, {c}) to be {'safe' if mine else 'a mine'}")
    used = plural(len(counts), "named count") + (" and the total" if total else "")
    shown = ", ".join(f"({r}, {c}) {'a mine' if v == 'mine' else 'safe'}" for (r, c), v in claims)
    others = f"; {plural(puzzle.unknown_count - len(cells), 'other')} bound by the total alone" if total else ""
    return f"every way to meet the {used} (over {plural(len(cells), 'unknown cell')}{others}) makes {shown}"


def _claims(puzzle: Puzzle, cells: Any) -> List[Tuple[Cell, str]]:
    """The proof's decided cells, [(cell, 'safe' | 'mine')], each an unknown cell named once."""
    if not isinstance(cells, list) or not cells:
        raise VerificationError("proof.cells must list the cells the step decides")
    out: List[Tuple[Cell, str]] = []
    for i, entry in enumerate(cells):
        if not (isinstance(entry, dict) and set(entry) == {"row", "col", "value"} and entry["value"] in VALUES):
            raise VerificationError(f"proof.cells[{i}] is {entry!r}, not {{\"row\": r, \"col\": c, \"value\": "
                                    "\"safe\" | \"mine\"}")
        cell = board_cell(puzzle, [entry["row"], entry["col"]], f"proof.cells[{i}]")
        if puzzle.codes[cell] != CODE_UNKNOWN:
            raise VerificationError(f"proof.cells[{i}] names {cell}, which is not an unknown cell")
        if cell in {c for c, _ in out}:
            raise VerificationError(f"proof.cells names {cell} twice")
        out.append((cell, entry["value"]))
    return out


def _named_counts(puzzle: Puzzle, because: Any) -> List[Cell]:
    """The counts a proof names, each a count of the board whose number it gives right, named once."""
    if not isinstance(because, list):
        raise VerificationError("proof.because must list the counts the proof uses")
    out: List[Cell] = []
    for i, entry in enumerate(because):
        if not (isinstance(entry, dict) and set(entry) == {"row", "col", "count"} and is_int(entry["count"])):
            raise VerificationError(f"proof.because[{i}] is {entry!r}, not {{\"row\": r, \"col\": c, \"count\": n}}")
        r, c = board_cell(puzzle, [entry["row"], entry["col"]], f"proof.because[{i}]")
        shown = int(puzzle.codes[r, c])
        if not 0 <= shown <= 8:
            raise VerificationError(f"proof.because[{i}] names ({r}, {c}), which is not a count of the position")
        if entry["count"] != shown:
            raise VerificationError(f"proof.because[{i}] says the count at ({r}, {c}) is {entry['count']}, "
                                    f"the position shows {shown}")
        if (r, c) in out:
            raise VerificationError(f"proof.because names ({r}, {c}) twice")
        out.append((r, c))
    return out


def local_problem(puzzle: Puzzle, counts: Sequence[Cell], extra: Sequence[Cell] = ()
                  ) -> Tuple[List[Cell], List[Tuple[List[int], int]]]:
    """The unknown cells around the named counts (then `extra` cells not among them), and each count as
    (indices of its unknown cells, mines it still needs)."""
    codes = puzzle.codes
    cells: List[Cell] = []
    index: Dict[Cell, int] = {}
    checks: List[Tuple[List[int], int]] = []

    def add(cell: Cell) -> int:
        if cell not in index:
            index[cell] = len(cells)
            cells.append(cell)
        return index[cell]

    for r, c in counts:
        need = int(codes[r, c])
        members = []
        for i in range(max(0, r - 1), min(puzzle.rows, r + 2)):
            for j in range(max(0, c - 1), min(puzzle.cols, c + 2)):
                if codes[i, j] == CODE_MINE:
                    need -= 1
                elif codes[i, j] == CODE_UNKNOWN:
                    members.append(add((i, j)))
        checks.append((members, need))
    for cell in extra:
        add(cell)
    return cells, checks


def possible_values(n: int, checks: Sequence[Tuple[Sequence[int], int]], window: Optional[Tuple[int, int]] = None
                    ) -> List[Set[bool]]:
    """For each of n cells, the values (True: a mine) it takes in some 0/1 assignment that meets every
    check (members, mines needed), with the number of mines in [window] when one is given.

    A forward pass keeps the distinct states (mines each check still needs, then the mines placed) after
    each cell; a backward pass keeps those that reach the end; a cell's value is possible when a kept
    state moves by it to a kept state.
    """
    lo, hi = window if window is not None else (0, n)
    member_of: List[List[int]] = [[] for _ in range(n)]
    later = [[0] * n for _ in checks]   # later[k][i]: members of check k after cell i
    for k, (members, _) in enumerate(checks):
        for m in members:
            member_of[m].append(k)
        for i in range(n):
            later[k][i] = sum(1 for m in members if m > i)
    start: State = tuple(need for _, need in checks) + (0,)
    if any(not 0 <= need <= len(members) for members, need in checks) or hi < 0:
        return [set() for _ in range(n)]

    def step(state: State, i: int, mine: bool) -> Optional[State]:
        if not mine:
            return state if all(state[k] <= later[k][i] for k in member_of[i]) else None
        if state[-1] + 1 > hi:
            return None
        new = list(state)
        for k in member_of[i]:
            new[k] -= 1
            if new[k] < 0:
                return None
        new[-1] += 1
        return tuple(new) if all(new[k] <= later[k][i] for k in member_of[i]) else None

    layers: List[FrozenSet[State]] = [frozenset([start])]
    for i in range(n):
        nxt = {s for state in layers[-1] for mine in (False, True) if (s := step(state, i, mine)) is not None}
        if len(nxt) > MAX_STATES:
            raise VerificationError(f"the proof's counts allow more than {MAX_STATES} partial arrangements at "
                                    "once: too large to check by enumeration")
        layers.append(frozenset(nxt))
    live = {s for s in layers[n] if s[-1] >= lo}
    possible: List[Set[bool]] = [set() for _ in range(n)]
    for i in range(n - 1, -1, -1):
        kept = set()
        for state in layers[i]:
            for mine in (False, True):
                s = step(state, i, mine)
                if s is not None and s in live:
                    possible[i].add(mine)
                    kept.add(state)
        live = kept
    return possible
