"""ms-toollib / Metasweeper board files (.board): "MINESWEEPER-BOARD v0.1", ms-toollib's board standard.

    # MINESWEEPER-BOARD v0.1
    # Render: ascii
    author: eee555
    rows: 3
    columns: 4
    mines: 2
    game_mode: classic

    [real]            the layout: '*' a mine, 0-8 the count of a safe cell
    1*21
    112*
    0011

    [view]            what the player sees: U unopened, 0-8 opened, F flag, ? question mark,
    UU21              X the mine stepped on, @ a mine shown after the game, # a wrong flag
    1F2U
    0011

(as specified in ms-toollib's "board标准.md" and written by Metasweeper's board_to_board_string: header,
Render line, blank, metadata, blank, then each section followed by a blank line.) A file holds [real],
[view] or both; "Render: emoji" files use the emoji of the standard (⬜ 🚩 ❓ 💥 💣 ❌ and keycap digits).

Reading: the view is the puzzle: U and ? unknown, digits counts, F X @ * known mines, # (a flag shown
wrong after the game) known safe. The [real] layout is the puzzle's known answer: it is checked (its
counts must fit its mines, its mines must match `mines:`, and the view must agree with it: a count
equal to the real one, flags and shown mines on real mines, # on a safe cell), and real_layout()
returns it: it is kept in the notes as one '[real] ROW' note per row, unless the view already pins every
mine down (a full reveal with its total), so that a written board reads back as the same puzzle. A file
with only [real] reads as the full-reveal puzzle of that layout. `name:` is the puzzle name; other metadata (author, comment,
game_mode, ...) and '#' comments are notes. Declared rows/columns must match the boards. A '#' line
inside a section that reads as a row of the right width is a row (the standard's '#' cell would
otherwise make a view row starting with '#' a comment).

Writing: the header and "Render: ascii", a blank line, the notes in order ('key: value' notes as metadata, others as
'#' comments), name/rows/columns/mines, then [real] when the answer is known, then [view]. The answer
is known when the notes carry a [real] layout that fits the puzzle, or when the puzzle pins every mine
down (no unknown cell, or a total that makes every unknown cell a mine); otherwise only [view] is
written. The view has no symbol for a known safe cell without a count: it is written as U (a loss).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, TextIO, Tuple

import numpy as np

from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle, neighbour_count
from ...core.wording import plural
from ..grammar import normalise_newlines, parser, syntax_error
from ..mine_layouts import known_layout
from ..registry import CERTAIN, LIKELY, NO, register_format
from .parse_trees import line_column, rules, terminal

if TYPE_CHECKING:   # types only: Lark is imported when the grammar is first used
    from .parse_trees import Node

HEADER = "# MINESWEEPER-BOARD v0.1"
REAL_NOTE = "[real] "
RENDERS = ("ascii", "emoji")
_VIEW = {"U": "?", "?": "?", "F": "*", "X": "*", "@": "*", "*": "*", "#": ".", **{str(d): str(d) for d in range(9)}}
_REAL = {"*": "*", **{str(d): str(d) for d in range(9)}}
_EMOJI = {"\u2b1c": "U", "\U0001f6a9": "F", "\u2753": "?", "\U0001f4a5": "X", "\U0001f4a3": "@", "\u274c": "#"}
_BOMB = "\U0001f4a3"
_KEYCAP = "\u20e3"
_VS16 = "\ufe0f"
_RESERVED = ("rows", "columns", "mines", "name")
_META_NOTE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*: \S.*")
_RENDER = re.compile(r"#\s*Render\s*:\s*(\S*)\s*", re.IGNORECASE)
_Fail = Callable[[str, int, int], PuzzleSyntaxError]  # a syntax error at a line and column of the file


def _symbols(text: str, real: bool = False) -> Tuple[List[str], List[int]]:
    """The board symbols of a row, ASCII or emoji render, and the 0-based column where each starts (the
    bomb emoji is '@' in a view and '*' in a [real] layout, as Metasweeper's emoji export writes both)."""
    out: List[str] = []
    cols: List[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        start = i
        i += 1
        if ch in " \t":
            continue
        if ch.isdigit() and ch.isascii():
            while i < len(text) and text[i] in (_VS16, _KEYCAP):  # keycap digit: 1 U+FE0F U+20E3
                i += 1
        elif ch in _EMOJI:
            ch = "*" if real and ch == _BOMB else _EMOJI[ch]
            while i < len(text) and text[i] == _VS16:
                i += 1
        out.append(ch)
        cols.append(start)
    return out, cols


class _Board:
    """One [real] or [view] section: its rows as symbols, with line and column of every symbol."""

    def __init__(self, name: str, line: int) -> None:
        self.name = name
        self.line = line
        self.rows: List[List[str]] = []
        self.where: List[Tuple[int, int, List[int]]] = []   # (line, first column, symbol columns)
        self.texts: List[str] = []

    def add(self, text: str, line: int, column: int) -> None:
        symbols, cols = _symbols(text, self.name == "real")
        self.rows.append(symbols)
        self.where.append((line, column, cols))
        self.texts.append(text)

    def at(self, r: int, c: int) -> Tuple[int, int]:
        line, column, cols = self.where[r]
        return line, column + (cols[c] if c < len(cols) else len(self.texts[r]))


def read_ms_board(text: str, source: str = "<string>") -> Puzzle:
    """Parse an ms-toollib board file: the view as the puzzle, the real layout as its checked answer."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    lines = body.split("\n")

    def fail(msg: str, line: int, col: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=max(1, col),
                                 line_text=lines[line - 1] if 0 < line <= len(lines) else None)

    tree = _parse(body, lines, source)
    contents = _Contents(fail)
    for item in rules(tree)[1:]:
        contents.add(item)
    boards, meta = contents.boards, contents.meta
    if not boards:
        raise fail("no [real] or [view] section: the file holds no board", len(lines) - 1 or 1, 1)

    declared = {k: _int_meta(meta, k, fail) for k in ("rows", "columns", "mines")}
    _check_shapes(boards, declared, fail)
    real = _decoded(boards.get("real"), _REAL, fail)
    view = _decoded(boards.get("view"), _VIEW, fail)
    mines = declared["mines"]
    if real is not None:
        mines = _checked_real(real, view, mines, meta, fail)
    if view is not None:
        board, cells = view
    else:
        assert real is not None  # the file has a board: checked above
        board, cells = real[0], ["".join("?" if ch == "*" else ch for ch in row) for row in real[1]]
    try:
        puzzle = Puzzle.from_rows(["".join(row) for row in cells], mines=mines, name=contents.name,
                                  notes=contents.notes)
    except PuzzleError as exc:
        r, c = exc.cell if exc.cell is not None else (0, 0)
        line, column = board.at(r, c)
        raise fail(exc.message, line, column) from None
    if real is not None and _pinned(puzzle) != real[1]:
        # the answer goes into the notes only when the view does not already pin it down (a full reveal
        # with its total does), so that writing and reading back gives the same puzzle
        puzzle = puzzle.replace(notes=tuple(contents.notes) + tuple(REAL_NOTE + row for row in real[1]))
    return puzzle


def _parse(body: str, lines: List[str], source: str) -> Node:
    """The file's parse tree; a syntax error on the first line that is not blank names the header."""
    from lark.exceptions import UnexpectedInput
    try:
        return parser("ms_board").parse(body)
    except UnexpectedInput as exc:
        err = syntax_error(exc, body, source, "an ms-toollib board file")
        first = next((i for i, s in enumerate(lines) if s.strip()), 0) + 1
        if err.line == first:
            err.message = f"the first line must be the header '{HEADER}'"
            err.column = 1
        raise err from None


class _Contents:
    """What a board file's lines say, in order: metadata, notes, the Render line and the sections."""

    def __init__(self, fail: _Fail) -> None:
        self.fail = fail
        self.meta: Dict[str, Tuple[str, int, int]] = {}  # lower-case key -> (value, line, value's column)
        self.notes: List[str] = []
        self.boards: Dict[str, _Board] = {}
        self.current: Optional[_Board] = None
        self.render: Optional[str] = None
        self.name: Optional[str] = None

    def add(self, item: Node) -> None:
        """Take one line of the file (a comment, a 'key: value' line, a section label or a row)."""
        tok = terminal(item, 0)
        line, column = line_column(tok)
        raw = str(tok)
        s = raw.strip()
        col = column + len(raw) - len(raw.lstrip())
        if item.data == "comment":
            self.comment(s, line, col)
        elif item.data == "meta":
            self.metadata(s, line, col)
        elif item.data == "section":
            label = s[1:-1].strip().lower()
            if label not in ("real", "view"):
                raise self.fail(f"unknown section {s!r} (the standard has [real] and [view])", line, col)
            if label in self.boards:
                raise self.fail(f"a second [{label}] section (the first is on line {self.boards[label].line})",
                                line, col)
            self.current = self.boards[label] = _Board(label, line)
        else:
            if self.current is None:
                raise self.fail("a board row before any [real] or [view] section", line, col)
            self.current.add(s, line, col)

    def comment(self, s: str, line: int, col: int) -> None:
        """A '#' line: a board row that starts with '#', the Render line, or a note."""
        current = self.current
        if current is not None and _fits_as_row(s, current, self.boards, self.meta):
            current.add(s, line, col)
            return
        m = _RENDER.fullmatch(s)
        if m and self.render is None and current is None:
            self.render = m.group(1).lower()
            if self.render not in RENDERS:
                raise self.fail(f"unknown render {m.group(1)!r} (the standard has ascii and emoji)", line,
                                col + m.start(1))
            return
        note = s[1:]
        self.notes.append(note[1:] if note.startswith(" ") else note)

    def metadata(self, s: str, line: int, col: int) -> None:
        """A 'key: value' line: the name, a shape or total checked later, or a note."""
        key, _, value = s.partition(":")
        key, value = key.strip(), value.strip()
        low = key.lower()
        if low in self.meta:
            raise self.fail(f"'{key}' is given twice (first on line {self.meta[low][1]})", line, col)
        after = s.partition(":")[2]
        self.meta[low] = (value, line, col + len(s) - len(after.lstrip()))
        if low == "name":
            self.name = value
        elif low not in _RESERVED:
            self.notes.append(f"{key}: {value}")


def _decoded(board: Optional[_Board], table: Dict[str, str], fail: _Fail) -> Optional[Tuple[_Board, List[str]]]:
    """A section with its rows in puzzle symbols, or None when the file lacks it."""
    return None if board is None else (board, _decode(board, table, fail))


def _checked_real(real: Tuple[_Board, List[str]], view: Optional[Tuple[_Board, List[str]]],
                  mines: Optional[int], meta: Dict[str, Tuple[str, int, int]], fail: _Fail) -> int:
    """The [real] layout's mine total, once the layout and the view are checked against each other."""
    real_board, real_rows = real
    layout = np.array([[ch == "*" for ch in row] for row in real_rows], dtype=bool)
    _check_real(real_board, real_rows, layout, mines, meta, fail)
    if view is not None:
        _check_view(view[0], view[1], real_rows, fail)
    return int(layout.sum())


def _pinned(puzzle: Puzzle) -> Optional[List[str]]:
    """The layout rows ('*' mine, 0-8) when the puzzle pins every mine down, else None."""
    layout = known_layout(puzzle)
    if layout is None:
        return None
    counts = neighbour_count(layout)
    return ["".join("*" if m else str(n) for m, n in zip(mrow, nrow)) for mrow, nrow in zip(layout, counts)]


def _int_meta(meta: Dict[str, Tuple[str, int, int]], key: str, fail: _Fail) -> Optional[int]:
    if key not in meta:
        return None
    value, line, col = meta[key]
    if not re.fullmatch(r"[0-9]+", value):
        raise fail(f"'{key}' must be a whole number, not {value!r}", line, col)
    return int(value)


def _fits_as_row(s: str, board: _Board, boards: Dict[str, _Board], meta: Dict[str, Tuple[str, int, int]]) -> bool:
    """A '#' line inside a section that is a row of the standard's symbols, of the board's width (from the
    section's first row, else `columns:`, else the other section)."""
    symbols, _ = _symbols(s, board.name == "real")
    widths = [len(b.rows[0]) for b in (board, *boards.values()) if b.rows]
    if "columns" in meta and re.fullmatch("[0-9]{1,9}", meta["columns"][0]):
        widths.append(int(meta["columns"][0]))
    width = widths[0] if widths else None
    table = _REAL if board.name == "real" else _VIEW
    return width is not None and len(symbols) == width and all(ch in table for ch in symbols)


def _check_shapes(boards: Dict[str, _Board], declared: Dict[str, Optional[int]], fail: _Fail) -> None:
    shape: Optional[Tuple[int, int]] = None
    for board in boards.values():
        if not board.rows:
            raise fail(f"the [{board.name}] section has no rows", board.line, 1)
        width = len(board.rows[0])
        for r, row in enumerate(board.rows):
            if len(row) != width:
                line, col, _ = board.where[r]
                raise fail(f"this [{board.name}] row has {plural(len(row), 'cell')}, the first has {width}", line, col)
        if declared["rows"] is not None and declared["rows"] != len(board.rows):
            raise fail(f"'rows: {declared['rows']}' but the [{board.name}] section has "
                       f"{plural(len(board.rows), 'row')}",
                       board.line, 1)
        if declared["columns"] is not None and declared["columns"] != width:
            raise fail(f"'columns: {declared['columns']}' but the [{board.name}] rows have {plural(width, 'cell')}",
                       board.where[0][0], board.where[0][1])
        if shape is not None and shape != (len(board.rows), width):
            raise fail(f"the [{board.name}] board is {len(board.rows)} x {width}, the other is "
                       f"{shape[0]} x {shape[1]}", board.line, 1)
        shape = (len(board.rows), width)


def _decode(board: _Board, table: Dict[str, str], fail: _Fail) -> List[str]:
    out = []
    what = ("'*' or 0-8" if table is _REAL else "U, 0-8, F, ?, X, @, # or *")
    for r, row in enumerate(board.rows):
        for c, ch in enumerate(row):
            if ch not in table:
                line, col = board.at(r, c)
                raise fail(f"{ch!r} is not a [{board.name}] cell ({what})", line, col)
        out.append("".join(table[ch] for ch in row))
    return out


def _check_real(real: _Board, rows: List[str], layout: np.ndarray, mines: Optional[int],
                meta: Dict[str, Tuple[str, int, int]], fail: _Fail) -> None:
    counts = neighbour_count(layout)
    codes = np.array([[ord(ch) - 48 if ch != "*" else -1 for ch in row] for row in rows])
    wrong = np.argwhere((codes >= 0) & (codes != counts))
    if wrong.size:
        r, c = (int(v) for v in wrong[0])
        line, col = real.at(r, c)
        raise fail(f"the [real] layout shows {codes[r, c]} at row {r}, col {c} but {counts[r, c]} of its "
                   "neighbours are mines", line, col)
    if mines is not None and mines != int(layout.sum()):
        value, line, col = meta["mines"]
        raise fail(f"'mines: {mines}' but the [real] layout has {int(layout.sum())}", line, col)


def _check_view(view: _Board, view_rows: List[str], real_rows: List[str], fail: _Fail) -> None:
    for r, (vrow, rrow) in enumerate(zip(view_rows, real_rows)):
        for c, (v, real) in enumerate(zip(vrow, rrow)):
            symbol = view.rows[r][c]
            if v.isascii() and v.isdigit() and v != real:
                problem = f"shows {v} where the [real] layout has {'a mine' if real == '*' else real}"
            elif v == "*" and real != "*":
                problem = f"has {symbol!r} (a mine) where the [real] layout has no mine"
            elif v == "." and real == "*":
                problem = "has '#' (a wrong flag) on a cell the [real] layout mines"
            else:
                continue
            line, col = view.at(r, c)
            raise fail(f"the view disagrees with the real layout: row {r}, col {c} {problem}", line, col)


def _noted(puzzle: Puzzle) -> Optional[List[str]]:
    rows = [n[len(REAL_NOTE):] for n in puzzle.notes if n.startswith(REAL_NOTE)]
    if len(rows) != puzzle.rows or any(len(r) != puzzle.cols or set(r) - set("*012345678") for r in rows):
        return None
    return rows


def real_layout(puzzle: Puzzle) -> Optional[List[str]]:
    """The puzzle's known answer as [real] rows ('*' mine, 0-8): from its '[real] ROW' notes, else the
    layout the puzzle itself pins down (a full reveal with its total), else None."""
    return _noted(puzzle) or _pinned(puzzle)


def _answer(puzzle: Puzzle) -> Optional[List[str]]:
    """The real layout to write: from the notes when it agrees with the puzzle, else a pinned-down layout."""
    rows = _noted(puzzle)
    if rows is not None:
        layout = np.array([[ch == "*" for ch in row] for row in rows], dtype=bool)
        codes = puzzle.codes
        counts = neighbour_count(layout)
        real_codes = np.where(layout, -1, counts)
        shown = (codes >= 0) & (codes <= 8)
        agrees = (not (codes[shown] != real_codes[shown]).any() and not (layout & (codes == 10)).any()
                  and not (~layout & (codes == 9)).any()
                  and (real_codes[~layout] == np.array([[ord(ch) - 48 for ch in row] for row in rows])[~layout]).all()
                  and (puzzle.mines is None or puzzle.mines == int(layout.sum())))
        if agrees:
            return rows
    return _pinned(puzzle)


def write_ms_board(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the header, notes, metadata, [real] when the answer is known, and [view]."""
    answer = _answer(puzzle)
    mines = puzzle.mines if puzzle.mines is not None else (
        sum(row.count("*") for row in answer) if answer is not None else None)
    lines = [HEADER, "# Render: ascii", ""]  # Metasweeper's layout: a blank line after the header lines
    for note in puzzle.notes:
        if note.startswith(REAL_NOTE) and answer is not None:
            continue
        key = note.partition(":")[0].lower()
        if _META_NOTE.fullmatch(note) and key not in _RESERVED:
            lines.append(note)
        else:
            lines.append("# " + note if note else "#")
    if puzzle.name is not None:
        lines.append(f"name: {puzzle.name}")
    lines += [f"rows: {puzzle.rows}", f"columns: {puzzle.cols}"]
    if mines is not None:
        lines.append(f"mines: {mines}")
    lines.append("")
    if answer is not None:
        lines += ["[real]", *answer, ""]
    view = "\n".join(puzzle.grid_lines).translate(str.maketrans("?*.", "UFU"))
    lines += ["[view]", view, ""]
    out.write("\n".join(lines))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    st = puzzle.stats
    lost = []
    if st["known_safe"]:
        lost.append(f"{st['known_safe']} known safe cell(s) (written as U, unopened)")
    if any(n.startswith(REAL_NOTE) for n in puzzle.notes) and _answer(puzzle) is None:
        lost.append("the [real] layout in the notes (it does not fit the puzzle; written as comments)")
    return lost


def detect_ms_board(text: str) -> float:
    """CERTAIN on the '# MINESWEEPER-BOARD' header; LIKELY for [view]/[real] sections with rows:/columns:."""
    head = normalise_newlines(text[:20000]).lstrip("\n \t")
    if re.match(r"#[ \t]*MINESWEEPER-BOARD\b", head):
        return CERTAIN
    if (re.search(r"(?m)^[ \t]*\[(view|real)\][ \t]*$", head)
            and re.search(r"(?m)^[ \t]*columns[ \t]*:[ \t]*[0-9]+[ \t]*$", head)):
        return LIKELY
    return NO


register_format("ms-board", reader=read_ms_board, writer=write_ms_board,
                detect=detect_ms_board, losses=_losses,
                description="ms-toollib / Metasweeper board (MINESWEEPER-BOARD v0.1): metadata, [real] layout "
                            "(kept as the checked answer), [view] U/0-8/F/?/X/@/# (ascii or emoji)")
