"""Exercism's minesweeper exercise data (`canonical-data.json` of exercism/problem-specifications).

    {"exercise": "minesweeper", "cases": [
      {"description": "mine surrounded by spaces", "property": "annotate",
       "input": {"minefield": ["   ", " * ", "   "]},          older versions: "input": [rows], and rows
       "expected": ["111", "1*1", "111"]}, ...]}               framed by '+---+' and '|...|' borders

Each case's minefield ('*' a mine, ' ' no mine) is a layout and its expected rows are the annotation:
the count of each safe cell, blank for zero. A case reads as every mine layout does (--layout-as): its
full reveal by default (every safe cell its count, the mines to find, the total stated); it read as
the annotation (counts and '*' known mines) before the one rule, which --layout-as annotated gives. The annotation is checked against the layout (the same mines, every
count right); a case without one is annotated from its layout. Groups of cases (a case holding
"cases") are walked in order. Every case is numbered as the file orders it (1-based), also one with an
empty board ("no rows", "no columns"): it is not a puzzle, so it is listed as empty and asking for it
is an error that says so. Read option `puzzle` (--puzzle N) picks a case, the first with a board
otherwise; `puzzles(text)` gives all of them, labelled by their description (an empty one as Empty).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle, neighbour_count
from ...core.wording import plural
from ..collection import PUZZLE_HELP, Empty, build_all, pick
from ..grammar import normalise_newlines
from ..located_errors import error_at, load_json
from ..mine_layouts import LAYOUT_HELP, layout_reading
from ..registry import CERTAIN, LIKELY, NO, register_format


@dataclass(frozen=True)
class Case:
    """One case with a board: its description, the layout rows, the annotation rows, where it starts."""

    label: str
    minefield: Tuple[str, ...]
    expected: Optional[Tuple[str, ...]]
    offset: int
    empty: Optional[Empty] = None   # a case without a board keeps its number


def _rows_of(value: Any) -> Optional[List[Any]]:
    if isinstance(value, dict):
        value = value.get("minefield", value.get("board"))
    return value if isinstance(value, list) else None


def _unframe(rows: List[str]) -> List[str]:
    """The rows inside a '+---+' / '|...|' frame (rows without a frame as they are)."""
    if len(rows) >= 2 and all(len(r) >= 2 and r[0] == r[-1] == "+" and set(r[1:-1]) <= {"-"}
                              for r in (rows[0], rows[-1])) and all(len(r) >= 2 and r[0] == r[-1] == "|"
                                                                     for r in rows[1:-1]):
        return [r[1:-1] for r in rows[1:-1]]
    return rows


def _walk(node: Any, text: str, source: Optional[str], found: List[Case], cursor: List[int]) -> None:
    for case in node.get("cases", []) if isinstance(node, dict) else []:
        if not isinstance(case, dict):
            continue
        at = text.find('"description"', cursor[0])
        cursor[0] = at + 1 if at >= 0 else cursor[0]
        if "cases" in case:
            _walk(case, text, source, found, cursor)
            continue
        rows = _rows_of(case.get("input"))
        if rows is None:
            raise error_at("this case has no minefield (\"input\": {\"minefield\": [rows]})", text, max(at, 0),
                           source)
        if not all(isinstance(r, str) for r in rows):
            raise error_at("a minefield row must be a string", text, max(at, 0), source)
        expected = case.get("expected")
        exp_rows = _unframe(expected) if isinstance(expected, list) and all(
            isinstance(r, str) for r in expected) else None
        field = _unframe(rows)
        label = " ".join(str(case.get("description", f"case {len(found) + 1}")).split())
        if not field or not field[0]:   # "no rows", "no columns": numbered in its place, not a puzzle
            found.append(Case(label, (), None, max(at, 0), Empty("no columns" if rows else "no rows", max(at, 0))))
            continue
        found.append(Case(label, tuple(field), tuple(exp_rows) if exp_rows is not None else None, max(at, 0)))


def _cases(text: str, source: Optional[str]) -> List[Case]:
    data = load_json(text, source)
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise error_at("expected exercism canonical data: an object with \"cases\"", text, 0, source)
    found: List[Case] = []
    _walk(data, text, source, found, [0])
    return found


def _row_offset(text: str, row: str, start: int) -> int:
    at = text.find(json.dumps(row), start)
    return at + 1 if at >= 0 else start


def _build(case: Case, text: str, source: Optional[str], layout_as: Optional[str] = None) -> Puzzle:
    assert case.empty is None, "an empty case is never built"
    field = case.minefield
    width = len(field[0])
    why = too_many_cells(len(field), width)
    if why:
        raise error_at(why, text, case.offset, source)
    for r, row in enumerate(field):
        off = _row_offset(text, row, case.offset)
        bad = next((j for j, ch in enumerate(row) if ch not in "* "), None)
        if bad is not None:
            raise error_at(f"{row[bad]!r} is not a minefield cell ('*' mine, ' ' no mine)", text, off + bad, source)
        if len(row) != width:
            raise error_at(f"minefield row {r + 1} has {plural(len(row), 'cell')}, the first has {width}", text, off,
                           source)
    mines = np.array([[ch == "*" for ch in row] for row in field], dtype=bool)
    counts = neighbour_count(mines)
    cells = [["*" if mines[r, c] else str(int(counts[r, c])) for c in range(width)] for r in range(len(field))]
    if case.expected is not None:
        _check_annotation(case, cells, text, source)
    return layout_reading(mines, layout_as, None, was="annotated", notation="exercism").replace(name=case.label)


def _check_annotation(case: Case, cells: List[List[str]], text: str, source: Optional[str]) -> None:
    expected = case.expected or ()
    if len(expected) != len(cells):
        raise error_at(f"the expected annotation has {plural(len(expected), 'row')}, the minefield "
                       f"{len(cells)}", text, case.offset, source)
    for r, row in enumerate(expected):
        off = _row_offset(text, row, case.offset)
        if len(row) != len(cells[r]):
            raise error_at(f"expected row {r + 1} has {plural(len(row), 'cell')}, the minefield "
                           f"{len(cells[r])}", text, off, source)
        for c, ch in enumerate(row):
            want = cells[r][c]
            if (ch == " " and want == "0") or ch == want:
                continue
            raise error_at(f"the annotation shows {ch!r} at row {r + 1}, column {c + 1}; the minefield gives "
                           f"{' ' if want == '0' else want!r}", text, off + c, source)


def puzzles(text: str, *, source: str = "<string>", **options: Any) -> List[Tuple[str, Puzzle]]:
    """Every case as (description, puzzle) in the file's order; a case without a board as (description, Empty)."""
    text = normalise_newlines(text)
    layout_as = options.get("layout_as")
    return build_all(_cases(text, source), lambda c: c.label,
                     lambda c: c.empty or _build(c, text, source, layout_as))


def read_exercism(text: str, source: str = "<string>", puzzle: Optional[Any] = None,
                  layout_as: Optional[str] = None) -> Puzzle:
    """Parse one case of exercism's minesweeper data (the first, or the one `puzzle` names, 1-based)."""
    text = normalise_newlines(text)
    found = _cases(text, source)
    _, case = pick(found, [repr(c.label) for c in found], puzzle, text=text, source=source, what="case",
                   empty=lambda c: c.empty)
    return _build(case, text, source, layout_as)


def detect_exercism(text: str) -> float:
    """CERTAIN for '"exercise": "minesweeper"'; LIKELY for cases with a "minefield" input."""
    head = text[:2000]
    if '"exercise"' in head and '"minesweeper"' in head:
        return CERTAIN
    return LIKELY if '"cases"' in head and '"minefield"' in text[:20000] else NO


register_format("exercism", reader=read_exercism, detect=detect_exercism,
                read_options={"puzzle": PUZZLE_HELP, "layout_as": LAYOUT_HELP}, collection=puzzles,
                description="exercism minesweeper canonical-data.json: each case's minefield ('*', ' ') and "
                            "its expected annotation, read fully revealed; several per file (--puzzle N)")
