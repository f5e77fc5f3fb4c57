"""ASP facts (clingo / gringo input) describing a Minesweeper puzzle, reader and writer (`asp-facts`).

Read by content, never by the '.lp' extension (which stays CPLEX LP for writing). Coordinates are
1-based; a cell without a fact is unknown. The layouts in use::

    #const r = 6.  #const c = 6.            (rows, columns; also rows/cols, height/width)
    number(1,3,2).                          (row 1, column 3 shows 2: row first)

    cell(R,C) :- R = 1..5, C = 1..5.        (the size from the cell rule)
    number(cell(1,3),2).

    % number(col, row, #).                  (Jolyon Bloomfield's clingo puzzles: column first)
    number(3,1,2).  mine(4,2).  excluded(6,1).
    #const r=5.  #const c=6.  #const mine_count=8.

mine/2 is a known mine, excluded/2 a known safe cell without a count, `#const mine_count` (also
mines, num_mines, total_mines) the total. Rules, #show and other statements are skipped. The argument
order is the `order` option: row-first or col-first; by default the content decides (a comment naming
the arguments, such as '% number(col, row, #)', or coordinates that fit the declared size in only one
order), else row-first. The writer produces the row-first layout with '#const r' and '#const c',
name and notes as '%' comments.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, TextIO, Tuple

from ...core.about import version
from ...core.errors import PuzzleError
from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle
from ..grammar import normalise_newlines, parser, syntax_error
from ..grid_rows import lost_parts
from ..located_errors import error_at, symbol_name
from ..registry import LIKELY, NO, POSSIBLE, register_format
from ._cpdata import blank_comments, notes_before
from .parse_trees import offset, terminals

_COMMENTS = re.compile(r'(?P<string>"(?:[^"\\\n]|\\.)*")|%\*[\s\S]*?\*%|%[^\n]*')
_CONST = re.compile(r"#const\s+([a-z_][A-Za-z0-9_']*)\s*=\s*(\S[^.]*?)\s*\.$")
_FACT = re.compile(r"([a-z_][A-Za-z0-9_']*)\s*\((.*)\)\s*\.$", re.S)
_CELL_ARGS = re.compile(r"\s*cell\s*\(([^()]*)\)\s*,([^()]*)$")
_CELL_RULE = re.compile(r"cell\s*\(\s*([A-Z]\w*)\s*,\s*([A-Z]\w*)\s*\)\s*:-\s*(\w+)\s*=\s*(\w+)\s*\.\.\s*(\w+)\s*[,;]\s*"
                        r"(\w+)\s*=\s*(\w+)\s*\.\.\s*(\w+)\s*\.$")
_COL_FIRST_HINT = re.compile(r"number\s*\(\s*(?:col|column|x)\w*\s*,\s*(?:row|y)", re.I)
_ROW_FIRST_HINT = re.compile(r"number\s*\(\s*(?:row|r\b|y)\w*\s*,\s*(?:col|c\b|x)", re.I)
ROWS = ("r", "rows", "height", "nrows")
COLS = ("c", "cols", "width", "ncols")
TOTAL = ("mine_count", "mines", "num_mines", "total_mines")
ORDERS = ("row-first", "col-first")
MAX_CELLS = 2 ** 24  # the default of --max-cells; the limit in force is fileio.max_cells()
ORDER_HELP = ("argument order of the asp-facts number/3, mine/2 and excluded/2 facts: 'row-first' "
              "(number(Row,Col,N)) or 'col-first' (number(Col,Row,N), as in Jolyon Bloomfield's clingo "
              "puzzles); by default the content decides (a comment such as '%% number(col, row, #)', or "
              "coordinates that fit #const r/c in one order only), else row-first")


class _Fact:
    """One fact the reader uses: predicate, integer coordinates (as written) and their offsets."""

    def __init__(self, pred: str, args: List[int], offsets: List[int]) -> None:
        self.pred, self.args, self.offsets = pred, args, offsets


def _int(tok: str, consts: Dict[str, int], text: str, off: int, source: str) -> int:
    tok = tok.strip()
    if re.fullmatch(r"[+-]?[0-9]+", tok):
        return int(tok)
    if tok in consts:
        return consts[tok]
    raise error_at(f"{symbol_name(tok)} is not a whole number (nor a #const)", text, off, source)


def _args(body: str, start: int) -> List[Tuple[str, int]]:
    out = []
    pos = 0
    for piece in body.split(","):
        lead = len(piece) - len(piece.lstrip())
        out.append((piece.strip(), start + pos + lead))
        pos += len(piece) + 1
    return out


def read_asp_facts(text: str, source: str = "<string>", order: Optional[str] = None) -> Puzzle:
    """Parse ASP facts describing a Minesweeper puzzle (see the module docstring for the layouts)."""
    if order is not None and order not in ORDERS:
        raise error_at(f"--order must be one of {', '.join(ORDERS)}, not {order!r}", text, 0, source)
    text = normalise_newlines(text)
    blank, comments = blank_comments(text, _COMMENTS)
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("asp_facts").parse(blank)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, source, "ASP facts") from None
    consts: Dict[str, Tuple[int, int]] = {}
    raw_facts: List[Tuple[str, str, int]] = []
    size_rule: Optional[Tuple[List[str], int]] = None
    first = len(text)
    for tok in terminals(tree):
        pos = offset(tok)
        first = min(first, pos)
        s = str(tok)
        if tok.type == "CONST":
            m = _CONST.match(s)
            if m is None:
                raise error_at("a #const needs 'name = value.'", text, pos, source)
            value = m.group(2)
            if re.fullmatch(r"[+-]?[0-9]+", value):
                consts[m.group(1)] = (int(value), pos + m.start(2))
        elif tok.type == "FACT":
            m = _FACT.match(s)
            if m and m.group(1) in ("number", "mine", "excluded"):
                raw_facts.append((m.group(1), m.group(2), pos + m.start(2)))
        else:
            m = _CELL_RULE.match(s)
            if m and m.group(3) == m.group(1) and m.group(6) == m.group(2):
                size_rule = ([m.group(4), m.group(5), m.group(7), m.group(8)], pos)
    ints = {k: v for k, (v, _) in consts.items()}
    facts: List[_Fact] = []
    for pred, body, off in raw_facts:
        cm = _CELL_ARGS.match(body) if pred == "number" else None
        if cm:   # number(cell(R,C),N): always row first, the cell term says so
            parts = _args(cm.group(1), off + cm.start(1)) + _args(cm.group(2), off + cm.start(2))
            pred = "number-cell"
        else:
            parts = _args(body, off)
        want = 3 if pred.startswith("number") else 2
        if len(parts) != want:
            continue   # another predicate of the same name (number/1, mine/3 ...): not the puzzle's
        facts.append(_Fact(pred, [_int(t, ints, text, o, source) for t, o in parts], [o for _, o in parts]))
    rows, cols = _size(consts, size_rule, ints, text, source, first)
    if order is None:
        order = _infer_order(facts, rows, cols, comments)
    cells = bytearray(b"?") * (rows * cols)
    where: Dict[Tuple[int, int], int] = {}
    for f in facts:
        a, b = f.args[0], f.args[1]
        r, c = (a, b) if order == "row-first" or f.pred == "number-cell" else (b, a)
        what = f.pred.split("-")[0]
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise error_at(f"{what} at row {r}, column {c} ({order}) is outside the {rows} x {cols} board "
                           "(coordinates are 1-based; see --order)", text, f.offsets[0], source)
        if (r - 1, c - 1) in where:
            raise error_at(f"row {r}, column {c} is described twice", text, f.offsets[0], source)
        if what == "number":
            if not 0 <= f.args[2] <= 8:
                raise error_at(f"number at row {r}, column {c} is {f.args[2]}: a count is 0..8", text,
                               f.offsets[2], source)
            where[(r - 1, c - 1)] = f.offsets[2]
            sym = ord(str(f.args[2]))
        else:
            where[(r - 1, c - 1)] = f.offsets[0]
            sym = ord("*" if what == "mine" else ".")
        cells[(r - 1) * cols + (c - 1)] = sym
    total_key = next((k for k in TOTAL if k in consts), None)
    mines = consts[total_key][0] if total_key else None
    name, notes = notes_before(comments, first, "%")
    try:
        return Puzzle(rows, cols, cells.decode("ascii"), mines=mines, name=name, notes=tuple(notes))
    except PuzzleError as exc:
        off = where.get(exc.cell, 0) if exc.cell is not None else (consts[total_key][1] if total_key else 0)
        raise error_at(exc.message, text, off, source) from None


def _size(consts: Dict[str, Tuple[int, int]], size_rule: Optional[Tuple[List[str], int]], ints: Dict[str, int],
          text: str, source: str, first: int) -> Tuple[int, int]:
    """(rows, cols) from #const r/c (or rows/cols, height/width) or the cell rule, checked before any allocation."""
    r_key = next((k for k in ROWS if k in consts), None)
    c_key = next((k for k in COLS if k in consts), None)
    if r_key and c_key:
        rows, cols = consts[r_key][0], consts[c_key][0]
        at = consts[r_key][1]
    elif size_rule is not None:
        b, at = size_rule
        lo_r, hi_r, lo_c, hi_c = (_int(t, ints, text, at, source) for t in b)
        if lo_r != 1 or lo_c != 1:
            raise error_at("the cell rule's ranges must start at 1 (coordinates are 1-based)", text, at, source)
        rows, cols = hi_r, hi_c
    else:
        raise error_at("no board size: give '#const r = ROWS.' and '#const c = COLS.' or "
                       "'cell(R,C) :- R = 1..ROWS, C = 1..COLS.'", text, first if first < len(text) else 0, source)
    if rows < 1 or cols < 1:
        raise error_at(f"the board must be at least 1 x 1, not {rows} x {cols}", text, at, source)
    # cells without a fact are unknown, so the size is not bounded by the file's length: bound it outright
    too_big = too_many_cells(rows, cols)
    if too_big:
        raise error_at(too_big, text, at, source)
    return rows, cols


def _infer_order(facts: List[_Fact], rows: int, cols: int, comments: List[Tuple[int, str]]) -> str:
    """The argument order the content shows: a comment naming the arguments, else coordinates that fit the
    board in one order only, else row-first."""
    for _, comment in comments:
        if _COL_FIRST_HINT.search(comment):
            return "col-first"
        if _ROW_FIRST_HINT.search(comment):
            return "row-first"
    plain = [f for f in facts if f.pred != "number-cell"]
    fits_row = all(f.args[0] <= rows and f.args[1] <= cols for f in plain)
    fits_col = all(f.args[1] <= rows and f.args[0] <= cols for f in plain)
    return "col-first" if fits_col and not fits_row else "row-first"


def write_asp_facts(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the row-first layout: #const r and c (and mine_count), then number/mine/excluded facts."""
    head = [f"% name: {puzzle.name}"] if puzzle.name is not None else []
    head.extend(f"% {n}" if n else "%" for n in puzzle.notes)
    lines = [f"#const r = {puzzle.rows}.", f"#const c = {puzzle.cols}."]
    if puzzle.mines is not None:
        lines.append(f"#const mine_count = {puzzle.mines}.")
    # after the first statement, so that it is not read back as a note
    lines.append(f"% mineconv {version()}: number(row, col, count), mine(row, col) = known mine, "
                 "excluded(row, col) = known safe; 1-based; a cell without a fact is unknown")
    codes = puzzle.codes
    for r, row in enumerate(codes.tolist(), 1):
        for c, v in enumerate(row, 1):
            if 0 <= v <= 8:
                lines.append(f"number({r},{c},{v}).")
            elif v == 9:
                lines.append(f"mine({r},{c}).")
            elif v == 10:
                lines.append(f"excluded({r},{c}).")
    out.write("".join(line + "\n" for line in head + lines))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = lost_parts(puzzle, mines_as=None, safe_as=None, total=False)
    return [item for item in lost if item not in ("the puzzle name", "the notes")]


_NUMBER = re.compile(r"(?m)^\s*number\s*\(\s*(?:cell\s*\(\s*)?[0-9]+\s*,\s*[0-9]+\s*(?:\)\s*)?,\s*[0-9]+\s*\)\s*\.")
_SIZE = re.compile(r"#const\s+(?:" + "|".join(ROWS + COLS) + r")\s*=|cell\s*\(\s*[A-Z]\w*\s*,\s*[A-Z]\w*\s*\)\s*:-")


def detect_asp_facts(text: str) -> float:
    """LIKELY for number facts with a board size (#const or the cell rule); POSSIBLE for number facts alone."""
    head = text[:20000]
    if not _NUMBER.search(head):
        return NO
    return LIKELY if _SIZE.search(head) else POSSIBLE


register_format("asp-facts", reader=read_asp_facts, writer=write_asp_facts,
                detect=detect_asp_facts, losses=_losses, read_options={"order": ORDER_HELP},
                description="ASP facts for clingo/gringo: #const r, c; number(R,C,N), number(cell(R,C),N); "
                            "mine/2, excluded/2; read by content (.lp stays CPLEX LP); --order row-first|col-first")
