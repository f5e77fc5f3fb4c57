"""MiniZinc / Zinc data (.dzn; and .mzn / .zinc files whose data is a Minesweeper grid), reader and writer.

The layout of hakank's MiniZinc Minesweeper problem files (minesweeper_*.mzn, which include his
minesweeper_model.mzn), copied widely since::

    % Problem from Gecode/examples/minesweeper.cc  problem 0     (comments before the data: the notes)
    include "minesweeper_model.mzn";
    r = 6;                                 (rows; also rows, nrows, height)
    c = 6;                                 (columns; also cols, ncols, width)
    game = array2d(1..r, 1..c, [           (also grid, board, puzzle, field)
        X,X,2,X,3,X,                       (X: unknown, bound to -1 by the model; -1 and _ too)
        ...
        ]);

Also read: 2-D literals (`game = [| 1, X | 2, 3 |];`), literal ranges (`array2d(1..5, 1..6, ...)`),
names bound in the file (`X = -1;`, `int: U = -1;`), a trailing comma, '%' and '/* */' comments, and
whole models with their data (declarations, constraints, solve and output items are skipped). A total
mine count is read from `mines` (also mine_count, num_mines, total_mines, n_mines). A number bound in the file and used nowhere warns.
A mine layout instead of a game (`square_size = 5; in_mine_pos = [| 0, -1, ... |];`, -1 or 1 a mine, 0 none;
also mine_pos, mine_layout, layout, minefield) reads as the full-reveal puzzle of the layout, or with
reveal_from (--reveal-from R,C) as the game after opening that cell. A game state as a player hands it to
a model (`rows = 12; cols = 12; mines_count = 21; not_mines = array2d(...); fields = array2d(...);`: in
`fields` -1 unchecked, 0..8 a count, 9 a revealed mine; `not_mines` 1 where no mine can be) reads with
the mask's cells known safe and the 9s known mines. The writer produces hakank's layout
with -1 for unknown cells (no name to bind), which his model and any model declaring `int: r; int: c;
array[1..r, 1..c] of -1..8: game;` take as is; the model's -1..8 domain has no known mines, known safe
cells or total, so those are written as -1 (unknown) with a warning. Name and notes are '%' comments.
"""
from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TextIO, Tuple

import numpy as np

from ...core.about import version
from ...core.errors import FormatError, LossyConversionWarning, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ..grammar import normalise_newlines, parser, syntax_error
from ..grid_rows import lost_parts
from ..located_errors import error_at
from ..mine_layouts import LAYOUT_HELP, REVEAL_HELP, layout_reading, parse_reveal_from
from ..registry import LIKELY, NO, POSSIBLE, register_format
from ._cpdata import WRITE_VALUE, blank_comments, build, check_shape, int_value, notes_before, split_items
from .parse_trees import offset, rule, rules, terminal

if TYPE_CHECKING:   # types only: Lark is imported when the grammar is first used
    from lark import Token

    from .parse_trees import Node

_COMMENTS = re.compile(r'(?P<string>"(?:[^"\\\n]|\\.)*")|%[^\n]*|/\*[\s\S]*?\*/')
ROWS = ("r", "rows", "nrows", "n_rows", "height")
COLS = ("c", "cols", "ncols", "n_cols", "width")
# the total mine count's spellings: mineconv's own notations say `mines`
TOTAL = ("mines", "mine_count", "num_mines", "total_mines", "n_mines", "nmines", "number_of_mines", "mines_count")
GRIDS = ("game", "grid", "board", "puzzle", "field", "fields")
# razogarz/minesweeper-engineering's data_gen.dzn: `fields` (-1 unchecked, 0..8 a count, 9 a revealed mine)
# beside `not_mines` (1 where the player knows there is no mine); 9 is read as a known mine in `fields` only
SAFE_MASKS = ("not_mines",)
REVEALED_MINE = {"fields": 9}
# mine layouts (GiorgioPaoletti-Unicam/minesweeper-csp's data_*.dzn: in_mine_pos, -1 a mine, 0 none, with
# square_size for both sides): read as the full-reveal puzzle of the layout, or the game after a first opening
LAYOUTS = ("in_mine_pos", "mine_pos", "mines_pos", "mine_positions", "mine_layout", "mines_layout", "layout",
           "minefield")
SQUARE = ("square_size",)
UNKNOWN_NAMES = ("X", "_")   # hakank's X is bound to -1 in the model file the data includes


class _Assign:
    """One assignment: its name, right-hand side text and where that text starts."""

    def __init__(self, name: Token, rhs: Token) -> None:
        self.name, self.rhs = name, rhs
        self.offset = offset(rhs)

    def value(self, text: str, source: str) -> Node:
        """The parsed right-hand side (located errors point into the original text)."""
        from lark.exceptions import UnexpectedInput
        try:
            return parser("dzn", start="value").parse(str(self.rhs))
        except UnexpectedInput as exc:
            pos = self.offset + max(0, getattr(exc, "pos_in_stream", 0) or 0)
            raise error_at(f"cannot read the value of {self.name} (expected a number, a name, a list, a 2-D "
                           "list [| ... |] or array2d(1..r, 1..c, [...]))", text, pos, source) from None


def read_dzn(text: str, source: str = "<string>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None) -> Puzzle:
    """Parse MiniZinc data holding a Minesweeper grid (-1 or X unknown, 0..8 counts) or a mine layout."""
    text = normalise_newlines(text)
    blank, comments = blank_comments(text, _COMMENTS)
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("dzn").parse(blank)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, source, "MiniZinc data") from None
    assigns: Dict[str, _Assign] = {}
    first = len(text)
    for item in rules(tree):
        if item.data == "include":
            continue
        first = min(first, item.meta.start_pos)
        if item.data == "skipped" or (item.data == "decl" and len(item.children) < 3):
            continue
        name_tok, rhs = terminal(item, -2), terminal(item, -1)
        if str(name_tok) in assigns:
            raise error_at(f"{name_tok} is assigned twice", text, offset(name_tok), source)
        assigns[str(name_tok)] = _Assign(name_tok, rhs)
    bindings: Dict[str, int] = {}
    for key, a in assigns.items():
        if key in GRIDS + LAYOUTS + SAFE_MASKS:
            continue
        try:
            tree_v = a.value(text, source)
        except PuzzleSyntaxError:
            if key in ROWS + COLS + TOTAL:
                raise
            continue   # other data of the model (sets, floats, expressions): not the puzzle's
        if tree_v.data == "int_lit":
            bindings[key] = int(str(tree_v.children[0]))
    for key in ROWS + COLS + TOTAL:
        given = assigns.get(key)
        if given is not None and given.value(text, source).data == "ref":
            ref = str(given.value(text, source).children[0])
            if ref not in bindings:
                raise error_at(f"{key} = {ref}: {ref} is not bound to a number in this file", text,
                               given.offset, source)
            bindings[key] = bindings[ref]
    grid_name = next((g for g in GRIDS + LAYOUTS if g in assigns), None)
    if grid_name is None:
        raise error_at("no grid found: expected 'game = array2d(1..r, 1..c, [...]);' (or grid, board, puzzle, "
                       "field; a 2-D list [| ... |] also does; a mine layout: in_mine_pos = [| 0, -1 | ... |])",
                       text, len(text), source)
    grid = assigns[grid_name]
    square = next((k for k in SQUARE if k in bindings), None)
    if square is not None:
        for names in (ROWS, COLS):
            bindings.setdefault(names[0], bindings[square])
            assigns.setdefault(names[0], assigns[square])
    values = _grid_values(grid, bindings, text, source)
    check_shape(values, text, source, grid_name, grid.offset)
    _check_sizes(values, bindings, assigns, grid_name, text, source)
    known = _known_cells(values, assigns, bindings, grid_name, text, source)
    total_key = next((k for k in TOTAL if k in bindings), None)
    mines: Optional[int] = None
    mines_offset = 0
    if total_key is not None:
        mines, mines_offset = bindings[total_key], assigns[total_key].offset
        if mines < 0:
            raise error_at(f"{total_key} must be a whole number >= 0", text, mines_offset, source)
    _warn_unread(bindings, assigns, grid_name, text, source)
    name, notes = notes_before(comments, first, "%")
    if grid_name in LAYOUTS:
        return _layout(values, grid_name, text, source, (reveal_from, layout_as), mines, mines_offset).replace(
            name=name, notes=tuple(notes))
    if layout_as is not None:
        raise error_at(f"--layout-as reads a mine layout, and {grid_name} is a game (its -1 cells are unknown, not "
                       "mines)", text, grid.offset, source, FormatError)
    if reveal_from is not None:
        raise error_at(f"--reveal-from opens a cell of a mine layout, and {grid_name} is a game (its -1 cells are "
                       "unknown, not mines)", text, grid.offset, source, FormatError)
    return build(values, text, source, what=grid_name, mines=mines, name=name, notes=notes,
                 mines_offset=mines_offset, known=known)


def _known_cells(values: List[List[Tuple[int, int]]], assigns: Dict[str, "_Assign"], bindings: Dict[str, int],
                 grid_name: str, text: str, source: str) -> Dict[Tuple[int, int], str]:
    """Cells known beyond the grid's -1/0..8: a revealed mine code in the grid (made -1 in `values`, so the
    count check passes it) and the unknown cells a safe mask marks 1."""
    known: Dict[Tuple[int, int], str] = {}
    mine_code = REVEALED_MINE.get(grid_name)
    if mine_code is not None:
        for r, row in enumerate(values):
            for c, (v, off) in enumerate(row):
                if v == mine_code:
                    known[(r, c)] = "*"
                    row[c] = (-1, off)
    mask_name = next((k for k in SAFE_MASKS if k in assigns), None)
    if mask_name is None:
        return known
    if grid_name in LAYOUTS:
        raise error_at(f"{mask_name} marks known safe cells of a game, and {grid_name} is a mine layout", text,
                       assigns[mask_name].offset, source)
    mask = _grid_values(assigns[mask_name], bindings, text, source)
    check_shape(mask, text, source, mask_name, assigns[mask_name].offset)
    if (len(mask), len(mask[0])) != (len(values), len(values[0])):
        raise error_at(f"{mask_name} is {len(mask)} x {len(mask[0])} but {grid_name} is {len(values)} x "
                       f"{len(values[0])}", text, assigns[mask_name].offset, source)
    for r, row in enumerate(mask):
        for c, (v, off) in enumerate(row):
            if v not in (0, 1):
                raise error_at(f"{mask_name}[{r + 1},{c + 1}] = {v}: expected 1 (known to hold no mine) or 0", text,
                               off, source)
            if v and (r, c) in known:
                raise error_at(f"{mask_name}[{r + 1},{c + 1}] says no mine, but {grid_name} shows a mine there",
                               text, off, source)
            if v and values[r][c][0] == -1:
                known[(r, c)] = "."
    return known


def _check_sizes(values: List[List[Tuple[int, int]]], bindings: Dict[str, int], assigns: Dict[str, "_Assign"],
                 grid_name: str, text: str, source: str) -> None:
    rows, cols = len(values), len(values[0])
    for names, n, what in ((ROWS, rows, "rows"), (COLS, cols, "columns")):
        size_key = next((k for k in names if k in bindings), None)
        if size_key is not None and bindings[size_key] != n:
            shown = next((k for k in SQUARE if assigns.get(k) is assigns[size_key]), size_key)
            raise error_at(f"{shown} = {bindings[size_key]} but {grid_name} has {n} {what}", text,
                           assigns[size_key].offset, source)


def _layout(values: List[List[Tuple[int, int]]], grid_name: str, text: str, source: str,
            reading: Tuple[Optional[str], Optional[str]], mines: Optional[int], mines_offset: int) -> Puzzle:
    """The puzzle of a mine layout: -1 (or 1) a mine, 0 none; a stated total must match it."""
    first = 0
    for row in values:
        for v, off in row:
            if v not in (0, -1, 1):
                raise error_at(f"{grid_name} is a mine layout: each entry 0 (no mine) or -1 (a mine; 1 also does), "
                               f"not {v}", text, off, source)
            if v and first and v != first:
                raise error_at(f"{grid_name} writes a mine as {first} and here as {v}: one or the other, not both",
                               text, off, source)
            first = first or v
    grid = np.array([[v != 0 for v, _ in row] for row in values], dtype=bool)
    if mines is not None and mines != int(grid.sum()):
        raise error_at(f"the total says {mines} mines but {grid_name} holds {int(grid.sum())}", text, mines_offset,
                       source)
    try:
        return layout_reading(grid, reading[1], parse_reveal_from(reading[0]))   # (--reveal-from, --layout-as)
    except FormatError as exc:
        raise error_at(exc.message, text, 0, source, FormatError) from None


def _warn_unread(bindings: Dict[str, int], assigns: Dict[str, "_Assign"], grid_name: str, text: str,
                 source: str) -> None:
    """Warn about a number bound in the file that the puzzle does not use (a total under a name not read
    as one must not vanish in silence)."""
    used = set(ROWS + COLS + TOTAL + GRIDS + UNKNOWN_NAMES + LAYOUTS + SQUARE + SAFE_MASKS)
    referenced = {word for a in assigns.values() for word in re.findall(r"[A-Za-z_]\w*", str(a.rhs))}
    for key in bindings:
        if key in used or key in referenced:
            continue
        line = text.count("\n", 0, assigns[key].offset) + 1
        warnings.warn(LossyConversionWarning(
            f"{source}:{line}: {key} = {bindings[key]} is not read: the grid comes from {grid_name}, the size "
            f"from {'/'.join(ROWS[:2])} and {'/'.join(COLS[:2])}, the total mine count from {', '.join(TOTAL[:4])}, "
            f"...; if {key} is the total, name it mines"), stacklevel=3)


def _range_len(rng: Node, bindings: Dict[str, int], text: str, base: int, source: str) -> Tuple[int, int]:
    """(length, offset) of an index range lo..hi whose bounds are numbers or names bound in the file."""
    ends = []
    for b in rules(rng):
        tok = terminal(b, 0)
        ends.append(int_value(str(tok), bindings, text, base + offset(tok), source, "an index range"))
    off = base + offset(terminal(rule(rng, 0), 0))
    if ends[1] < ends[0]:
        raise error_at(f"the index range {ends[0]}..{ends[1]} is empty", text, off, source)
    return ends[1] - ends[0] + 1, off


def _entries(body: str, start: int, bindings: Dict[str, int], text: str, source: str,
             what: str) -> List[Tuple[int, int]]:
    """(value, offset) of each entry of a list body."""
    return [(int_value(tok, bindings, text, off, source, what, UNKNOWN_NAMES), off)
            for tok, off in split_items(body, start)]


def _grid_values(grid: _Assign, bindings: Dict[str, int], text: str, source: str) -> List[List[Tuple[int, int]]]:
    """The grid's rows of (value, offset), checked against its declared index ranges."""
    tree = grid.value(text, source)
    base = grid.offset
    what = str(grid.name)
    if tree.data == "list2":
        tok = terminal(tree, 0)
        body = str(tok)[2:-2]
        out = []
        pos = base + offset(tok) + 2
        for piece in body.split("|"):
            if piece.strip():
                out.append(_entries(piece, pos, bindings, text, source, what))
            pos += len(piece) + 1
        return out
    if tree.data == "array2d":
        (nr, r_off), (nc, _) = (_range_len(rule(tree, i), bindings, text, base, source) for i in (0, 1))
        tok = terminal(tree, 2)
    elif tree.data == "list1":
        tok = terminal(tree, 0)
        row_key, col_key = (next((k for k in names if k in bindings), None) for names in (ROWS, COLS))
        if row_key is None or col_key is None:
            raise error_at(f"{what} is a flat list: give its shape with array2d(1..r, 1..c, [...]) or r and c",
                           text, base, source)
        nr, nc = bindings[row_key], bindings[col_key]
        r_off = base
    else:
        raise error_at(f"{what} must be a 2-D array (array2d(1..r, 1..c, [...]) or [| ... |])", text, base, source)
    flat = split_items(str(tok)[1:-1], base + offset(tok) + 1)
    if len(flat) != nr * nc:
        raise error_at(f"{what} is {nr} x {nc} = {nr * nc} entries but the list has {len(flat)}", text, r_off,
                       source)
    vals = [(int_value(t, bindings, text, off, source, what, UNKNOWN_NAMES), off) for t, off in flat]
    return [vals[i * nc:(i + 1) * nc] for i in range(nr)]


def write_dzn(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write hakank's layout: r, c, then game = array2d(1..r, 1..c, [...]) with -1 for unknown cells."""
    head = [f"% name: {puzzle.name}"] if puzzle.name is not None else []
    head.extend(f"% {n}" if n else "%" for n in puzzle.notes)
    codes = puzzle.codes.tolist()
    body = "\n".join("    " + ",".join(WRITE_VALUE[v].rjust(2) for v in row) + "," for row in codes)
    # the explanation follows the first item, so that it is not read back as a note
    out.write("".join(line + "\n" for line in head) + f"r = {puzzle.rows};\nc = {puzzle.cols};\n"
              f"% mineconv {version()}: -1 = unknown cell, 0..8 = the count shown\n"
              f"game = array2d(1..r, 1..c, [\n{body}\n]);\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = lost_parts(puzzle, mines_as="-1, unknown", safe_as="-1, unknown")
    return [item for item in lost if item not in ("the puzzle name", "the notes")]


_GRID_RE = re.compile(r"\b(?:" + "|".join(GRIDS + LAYOUTS) + r")\s*=\s*(?:array2d\s*\(|\[\|)")
_ANY_2D = re.compile(r"\b[A-Za-z_]\w*\s*=\s*(?:array2d\s*\(|\[\|)")


def detect_dzn(text: str) -> float:
    """LIKELY for a grid assigned with array2d( or [| (MiniZinc syntax); POSSIBLE for another 2-D array."""
    head = text[:20000]
    if _GRID_RE.search(head):
        return LIKELY
    return POSSIBLE if _ANY_2D.search(head) else NO


register_format("dzn", reader=read_dzn, writer=write_dzn, detect=detect_dzn, losses=_losses,
                read_options={"reveal_from": REVEAL_HELP + " (mine layouts only)",
                                                         "layout_as": LAYOUT_HELP + " (mine layouts only)"},
                description="MiniZinc data as in hakank's problem files: r = R; c = C; game = array2d(1..r, 1..c, "
                            "[...]); -1 or X unknown (.mzn/.zinc data files read by content)")
