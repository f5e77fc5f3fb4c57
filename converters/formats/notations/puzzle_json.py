"""Puzzle JSON of the aspuzzle ASP puzzle framework (jolyonb/aspuzzle, puzzles/minesweeper*.json).

    {"puzzle_type": "Minesweeper", "grid_type": "RectangularGrid",
     "url": "...", "source": "...",
     "grid": [".2...", "..32.", ...],           '.' an unknown cell, 0-8 a count
     "num_mines": 7,                             optional total
     "solutions": [{"mine/1": ["mine(loc=cell(row=1, col=4))", ...]}]}   optional, 1-based

Every given solution is checked against the grid (and the total): a solution that puts a mine on a
number, misses a count or the total is an error that names the cell and points at the solution. `source`
becomes the puzzle's name and `url` a note. Read only (mineconv json is the writable JSON notation).
"""
from __future__ import annotations

import json
import re
from typing import Any, List, Optional

import numpy as np

from ...core.puzzle import Puzzle
from ...core.system import check_assignment
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..located_errors import error_at, is_whole, json_item_offset, json_key_offset, load_json
from ..registry import CERTAIN, NO, register_format
from .pasted_grids import puzzle_at

_KEYS = ("puzzle_type", "grid_type", "grid", "num_mines", "solutions", "url", "source", "name", "notes")
_MINE = re.compile(r"\s*mine\(\s*loc\s*=\s*cell\(\s*row\s*=\s*([0-9]+)\s*,\s*col\s*=\s*([0-9]+)\s*\)\s*\)\s*")
_CELLS = str.maketrans({".": "?"})


def read_puzzle_json(text: str, source: str = "<string>") -> Puzzle:
    """Parse an aspuzzle Minesweeper puzzle, checking every solution it lists."""
    text = normalise_newlines(text)
    doc = load_json(text, source)

    def fail(msg: str, key: Optional[str] = None, offset: Optional[int] = None) -> Exception:
        off = offset if offset is not None else (json_key_offset(text, key) if key else 0)
        return error_at(msg, text, off, source)

    if not isinstance(doc, dict):
        raise fail(f"expected a JSON object {{\"puzzle_type\": \"Minesweeper\", ...}}, not {type(doc).__name__}")
    ptype = doc.get("puzzle_type")
    if not isinstance(ptype, str) or ptype.lower() != "minesweeper":
        raise fail(f"\"puzzle_type\" must be \"Minesweeper\", got {json.dumps(ptype)}", "puzzle_type")
    extra = [k for k in doc if k not in _KEYS]
    if extra:
        raise fail(f"unknown key {extra[0]!r} (known: {', '.join(_KEYS)})", extra[0])
    if doc.get("grid_type", "RectangularGrid") != "RectangularGrid":
        raise fail(f"only \"RectangularGrid\" is supported, got {json.dumps(doc['grid_type'])}", "grid_type")
    grid = doc.get("grid")
    if not isinstance(grid, list) or not grid or not all(isinstance(r, str) for r in grid):
        raise fail("\"grid\" must be a non-empty list of row strings ('.' unknown, 0-8 counts)",
                   "grid" if "grid" in doc else None)
    rows: List[str] = []
    for i, row in enumerate(grid):
        bad = re.search(r"[^.0-8]", row)
        off = json_item_offset(text, "grid", i)
        if bad:
            raise fail(f"{bad.group()!r} is not a cell of the grid ('.' unknown, 0-8 counts)",
                       offset=off + 1 + bad.start())
        if rows and len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(rows[0])} (the grid must be "
                       "rectangular)", offset=off)
        rows.append(row.translate(_CELLS))
    mines = doc.get("num_mines")
    if mines is not None and (not is_whole(mines) or mines < 0):
        raise fail(f"\"num_mines\" must be a whole number >= 0 or null, got {json.dumps(mines)}", "num_mines")
    name = doc.get("name", doc.get("source"))
    if name is not None and not isinstance(name, str):
        raise fail("\"source\" must be a string", "source" if "source" in doc else "name")
    notes = []
    if isinstance(doc.get("url"), str):
        notes.append(doc["url"])
    if isinstance(doc.get("notes"), list):
        notes.extend(str(n) for n in doc["notes"])

    def where(r: int, c: int) -> int:
        return json_item_offset(text, "grid", r) + 1 + c

    puzzle = puzzle_at(rows, where, text, source, mines=mines, mines_offset=json_key_offset(text, "num_mines"),
                       name=" ".join(name.split()) if name else None, notes=[" ".join(n.split()) for n in notes])
    _check_solutions(puzzle, doc.get("solutions"), text, source, fail)
    return puzzle


def _check_solutions(puzzle: Puzzle, sols: Any, text: str, source: str, fail: Any) -> None:
    """Each listed solution must satisfy the puzzle; the error names the cell and points at the solution."""
    if sols is None:
        return
    if not isinstance(sols, list):
        raise fail("\"solutions\" must be a list of {\"mine/1\": [...]} objects", "solutions")
    for k, sol in enumerate(sols):
        at = json_item_offset(text, "solutions", k)
        if not isinstance(sol, dict) or not isinstance(sol.get("mine/1", []), list):
            raise fail(f"solution {k + 1} must be an object {{\"mine/1\": [\"mine(loc=cell(row=R, col=C))\", ...]}}",
                       offset=at)
        grid = np.zeros((puzzle.rows, puzzle.cols), dtype=bool)
        key_at = json_key_offset(text, "mine/1", at)
        for i, atom in enumerate(sol.get("mine/1", [])):
            item_at = json_item_offset(text, "mine/1", i, at) if key_at else at
            m = _MINE.fullmatch(atom) if isinstance(atom, str) else None
            if m is None:
                raise fail(f"solution {k + 1}: {json.dumps(atom)[:40]} is not mine(loc=cell(row=R, col=C))",
                           offset=item_at)
            r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
            if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
                raise fail(f"solution {k + 1}: cell (row={r + 1}, col={c + 1}) is outside the {puzzle.rows} x "
                           f"{puzzle.cols} grid", offset=item_at)
            grid[r, c] = True
        bad = check_assignment(puzzle, grid)
        if bad is not None:
            where = bad.cell
            what = f" (row={where[0] + 1}, col={where[1] + 1} counting from 1)" if where else ""
            raise fail(f"solution {k + 1} does not solve the puzzle: {bad.message}{what}", offset=at)


def detect_puzzle_json(text: str) -> float:
    """CERTAIN for a JSON object whose "puzzle_type" is "Minesweeper"."""
    head = text[:4000].lstrip("\ufeff \t\r\n")
    if head.startswith("{") and re.search(r'"puzzle_type"\s*:\s*"[Mm]inesweeper"', head):
        return CERTAIN
    return NO


register_format("puzzle-json", reader=read_puzzle_json, detect=detect_puzzle_json,
                description="aspuzzle puzzle JSON: \"puzzle_type\": \"Minesweeper\", \"grid\" rows ('.' unknown), "
                            "num_mines; solutions checked")
