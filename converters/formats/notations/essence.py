"""Essence' parameter files (.param, .eprime-param), both dialects, reader and writer.

The layout of hakank's Essence' Minesweeper parameters (essence_savile_row/minesweeper*.param for
Savile Row, essence_tailor/ for Tailor), given to a model with `given r : int`, `given c : int` and
`given game : matrix indexed by [int(1..r),int(1..c)] of int(-1..8)`::

    language ESSENCE' 1.0                  (Tailor: 'ESSENCE' 1.0' and 'param' instead of 'letting')
    $ Problem from Gecode/examples/minesweeper.cc  problem 0     ('$' comments: the notes)
    letting r be 6                         (rows; also rows, height)
    letting c be 6                         (columns; also cols, width)
    letting game be [                      (also grid, board, puzzle, field)
       [-1,-1,2,-1,3,-1],                  (-1 unknown, 0..8 the count shown)
       ...
       ]

Also read: names bound in the file (`letting X be -1`), index domains in matrix literals
(`[1, 2; int(1..2)]`), `letting NAME be domain ...` lines (skipped), a total mine count in
`mine_count` (also num_mines, total_mines). The writer produces the Savile Row dialect; the model's
-1..8 domain has no known mines, known safe cells or total, so those are written as -1 (unknown) with
a warning. Name and notes are '$' comments after the language line.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TextIO, Tuple

from ...core.about import version
from ...core.puzzle import Puzzle
from ..grammar import normalise_newlines, parser, syntax_error
from ..grid_rows import lost_parts
from ..located_errors import error_at
from ..registry import LIKELY, NO, POSSIBLE, register_format
from ._cpdata import WRITE_VALUE, blank_comments, build, check_shape, int_value, notes_before, split_items
from .parse_trees import offset, rule, rules, terminal, terminals

if TYPE_CHECKING:   # types only: Lark is imported when the grammar is first used
    from lark import Token

    from .parse_trees import Node

_COMMENTS = re.compile(r"(?P<string>(?!))|\$[^\n]*")
ROWS = ("r", "rows", "nrows", "height")
COLS = ("c", "cols", "ncols", "width")
TOTAL = ("mines", "mine_count", "num_mines", "total_mines", "n_mines", "nmines", "number_of_mines")
GRIDS = ("game", "grid", "board", "puzzle", "field")


def read_essence(text: str, source: str = "<string>") -> Puzzle:
    """Parse an Essence' parameter file holding a Minesweeper grid (-1 unknown, 0..8 counts)."""
    text = normalise_newlines(text)
    blank, comments = blank_comments(text, _COMMENTS)
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("essence").parse(blank)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, source, "Essence' parameters") from None
    lets: Dict[str, Tuple[Token, Node]] = {}
    first = len(text)
    for item in rules(tree):
        if item.data == "header":
            continue
        first = min(first, item.meta.start_pos)
        if item.data == "domain":
            continue
        name_tok, value = terminal(item, 1), rule(item, 2)
        if str(name_tok) in lets:
            raise error_at(f"{name_tok} is given twice", text, offset(name_tok), source)
        lets[str(name_tok)] = (name_tok, value)
    bindings: Dict[str, int] = {}
    for key, (_, value) in lets.items():
        if value.data == "int_lit":
            bindings[key] = int(str(value.children[0]))
    for key, (_, value) in lets.items():
        if value.data == "ref" and key in ROWS + COLS + TOTAL:
            ref = terminal(value, 0)
            bindings[key] = int_value(str(ref), bindings, text, offset(ref), source, f"the value of {key}")
    grid_name = next((g for g in GRIDS if g in lets), None)
    if grid_name is None:
        matrices = [k for k, (_, v) in lets.items() if v.data == "matrix"]
        if len(matrices) != 1:
            raise error_at("no grid found: expected 'letting game be [[...], ...]' (or grid, board, puzzle, field)",
                           text, len(text), source)
        grid_name = matrices[0]
    name_tok, value = lets[grid_name]
    if value.data != "matrix":
        raise error_at(f"{grid_name} must be a matrix of rows: [[-1, 2, ...], ...]", text, offset(name_tok), source)
    values = []
    for row in terminals(value):
        if row.type != "ROW":
            continue
        body = str(row)[1:-1].split(";")[0]
        values.append([(int_value(t, bindings, text, off, source, grid_name, bind="letting {} be -1"), off)
                       for t, off in split_items(body, offset(row) + 1)])
    check_shape(values, text, source, grid_name, offset(name_tok))
    for names, n, what in ((ROWS, len(values), "rows"), (COLS, len(values[0]), "columns")):
        size_key = next((k for k in names if k in bindings), None)
        if size_key is not None and bindings[size_key] != n:
            raise error_at(f"{size_key} is {bindings[size_key]} but {grid_name} has {n} {what}", text,
                           offset(lets[size_key][0]), source)
    total_key = next((k for k in TOTAL if k in bindings), None)
    mines: Optional[int] = None
    mines_offset = 0
    if total_key is not None:
        mines, mines_offset = bindings[total_key], offset(lets[total_key][0])
        if mines < 0:
            raise error_at(f"{total_key} must be a whole number >= 0", text, mines_offset, source)
    name, notes = notes_before(comments, first, "$")
    return build(values, text, source, what=grid_name, mines=mines, name=name, notes=notes,
                 mines_offset=mines_offset)


def write_essence(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write Savile Row's dialect: language line, r, c, then the game matrix with -1 for unknown cells."""
    head = ["language ESSENCE' 1.0"]
    if puzzle.name is not None:
        head.append(f"$ name: {puzzle.name}")
    head.extend(f"$ {n}" if n else "$" for n in puzzle.notes)
    rows = [",".join(WRITE_VALUE[v] for v in row) for row in puzzle.codes.tolist()]
    body = ",\n".join(f"    [{r}]" for r in rows)
    out.write("\n".join(head) + f"\nletting r be {puzzle.rows}\nletting c be {puzzle.cols}\n"
              f"$ mineconv {version()}: -1 = unknown cell, 0..8 = the count shown\n"
              f"letting game be [\n{body}\n]\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = lost_parts(puzzle, mines_as="-1, unknown", safe_as="-1, unknown")
    return [item for item in lost if item not in ("the puzzle name", "the notes")]


_HEADER = re.compile(r"^(?:\s*\$[^\n]*\n)*\s*(?:language\s+)?ESSENCE'")
_MATRIX = re.compile(r"(?m)^\s*(?:letting|param)\s+[A-Za-z_]\w*\s+be\s+\[")


def detect_essence(text: str) -> float:
    """LIKELY for an ESSENCE' header with a matrix parameter; POSSIBLE for the matrix alone."""
    head = text[:20000]
    if not _MATRIX.search(head):
        return NO
    return LIKELY if _HEADER.match(head) else POSSIBLE


register_format("essence", reader=read_essence,
                writer=write_essence, detect=detect_essence, losses=_losses,
                description="Essence' parameters as in hakank's files: letting r be R ... letting game be [[...]] "
                            "(Savile Row) or ESSENCE' 1.0 + param (Tailor); -1 unknown")
