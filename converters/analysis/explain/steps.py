"""What an explanation records, and how its sentences name cells and lists.

`explain` (explain/walk.py) produces an Explanation: its Steps, each naming the Cells it decides and
the Clues (revealed counts) that justify it, with the JSON shape of `mineconv explain --json`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ...core.puzzle import Puzzle
from ...core.system import LinearSystem


class CellList(Sequence[Tuple[int, int]]):
    """(row, col) cells kept as one (n, 2) array, a tuple made per cell read: explain's open cells of a
    4000x4000 board as 16 million tuples took 2 GB."""

    def __init__(self, rc: np.ndarray) -> None:
        self.rc = np.asarray(rc, dtype=np.int64).reshape(-1, 2)

    def __len__(self) -> int:
        return len(self.rc)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return CellList(self.rc[i])
        r, c = self.rc[i].tolist()
        return (r, c)

    def __iter__(self) -> Iterator[Tuple[int, int]]:
        for start in range(0, len(self.rc), 65536):   # tuples a block at a time
            yield from map(tuple, self.rc[start:start + 65536].tolist())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and len(other) == len(self) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"CellList({list(self)!r})" if len(self) <= 20 else f"CellList(<{len(self)} cells>)"


class Cell(NamedTuple):
    """A cell decided by a step: 0-based row and column, and whether it is a mine."""

    row: int
    col: int
    mine: bool


class Clue(NamedTuple):
    """A revealed count named as a reason: its 0-based row and column, and the number it shows."""

    row: int
    col: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, as Clue always has


@dataclass(frozen=True)
class Step:
    """One deduction: the cells it decides, the level it needs, the counts (and total) that justify it."""

    level: str                   # gac, 2rc, 3rc or full
    cells: Tuple[Cell, ...]      # row-major
    because: Tuple[Clue, ...]    # row-major
    total: bool                  # True when the total mine count is part of the reason
    text: str                    # the step in plain English
    constraints: Tuple[int, ...] = ()   # indices into the LinearSystem's constraints of `because`

    def to_json(self, number: int) -> dict:
        """The step as `mineconv explain --json` prints it (number counts from 1)."""
        return {"step": number, "level": self.level,
                "cells": [{"row": c.row, "col": c.col, "value": "mine" if c.mine else "safe"} for c in self.cells],
                "because": [{"row": b.row, "col": b.col, "count": b.count} for b in self.because],
                "total": self.total, "text": self.text}


@dataclass(frozen=True)
class Explanation:
    """The steps of `explain`, in order, and where reasoning at `level` ended."""

    puzzle: Puzzle
    system: LinearSystem
    level: str
    steps: Tuple[Step, ...]
    values: np.ndarray           # (k,) int8 over the unknown cells in DIMACS order: -1 open, 0 safe, 1 mine
    consistent: bool             # False when reasoning proved that no solution exists
    conflict: Optional[str] = None            # the sentence naming the counts that contradict
    conflict_because: Tuple[Clue, ...] = ()
    conflict_total: bool = False              # True when the total mine count is part of the contradiction
    timed_out: bool = False
    timeout_message: Optional[str] = None
    stuck: Sequence[Tuple[int, int]] = field(default_factory=list)   # open cells when reasoning stopped
    memory_message: Optional[str] = None      # set when the next step would pass the memory budget

    @property
    def solved(self) -> bool:
        """True when the steps decide every unknown cell (and nothing contradicts)."""
        return self.consistent and not self.timed_out and self.memory_message is None and not self.stuck

    def to_json(self, open_cells: bool = True) -> dict:
        """The JSON report of `mineconv explain --json` ("open" left empty without open_cells: json_chunks
        writes it from the array)."""
        data = {"level": self.level, "solved": self.solved,
                "steps": [s.to_json(i) for i, s in enumerate(self.steps, 1)],
                "open": [list(rc) for rc in self.stuck] if open_cells else [], "consistent": self.consistent}
        if not self.consistent:
            data["conflict"] = {"text": self.conflict,
                                "because": [{"row": b.row, "col": b.col, "count": b.count}
                                            for b in self.conflict_because],
                                "total": self.conflict_total}
        if self.timed_out:
            data["status"] = "timeout"
        elif self.memory_message is not None:
            data["status"] = "memory"
        return data


def json_chunks(e: Explanation, dumps: Callable[[dict], str]) -> Iterator[str]:
    """The text of dumps(e.to_json()) in pieces, its open cells written from their array a row's run at a
    time: at 4000x4000 a [row, col] list per open cell took 2 GB and 30 s (json.dumps writes "[r, c]" alike)."""
    head, _, tail = dumps(e.to_json(open_cells=False)).rpartition('"open": []')
    rc = e.stuck.rc if isinstance(e.stuck, CellList) else np.asarray(list(e.stuck), dtype=np.int64).reshape(-1, 2)
    yield head + '"open": ['
    yield ", ".join(_open_pieces(rc, e.puzzle.cols))
    yield "]" + tail


def _open_pieces(rc: np.ndarray, cols: int) -> Iterator[str]:
    # a run of open cells (r, c0) ... (r, c1 - 1) is a slice of one line listing every column with "#"
    # for its row, the row put in by one replace: 16 million cells in well under a second when rows are
    # runs; cells one by one (about 0.3 s per million) where runs are short
    if not len(rc):
        return
    line = ", ".join(f"[#, {c}]" for c in range(cols))
    at = np.cumsum([0] + [len(f"[#, {c}]") + 2 for c in range(cols)])
    rows, cs = rc[:, 0], rc[:, 1]
    breaks = np.flatnonzero((rows[1:] != rows[:-1]) | (cs[1:] != cs[:-1] + 1)) + 1
    starts, stops = np.concatenate(([0], breaks)), np.concatenate((breaks, [len(rc)]))
    if len(starts) * 8 > len(rc) or cols > 1 << 16:
        yield from map("[{}, {}]".format, rows.tolist(), cs.tolist())
        return
    for i, j in zip(starts.tolist(), stops.tolist()):
        r, c0, c1 = int(rows[i]), int(cs[i]), int(cs[j - 1]) + 1
        yield line[at[c0]:at[c1] - 2].replace("#", str(r))


def cell_name(r: int, c: int) -> str:
    """'(3, 4)': a cell as every mineconv message names it (row, column, 0-based)."""
    return f"({r}, {c})"


def and_list(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c': items joined as a sentence lists them."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
