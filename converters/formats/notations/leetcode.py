"""LeetCode-style boards (problem 529 "Minesweeper", LintCode's copy): a character matrix as the sites print it.

    board = [["E","E","E","E","E"],["E","E","M","E","E"],["E","E","E","E","E"]], click = [3,0]
    [['B', '1', 'E', '1', 'B'], ['B', '1', 'M', '1', 'B']]      single quotes, no name
    ["B1E1B", "B1M1B"]                                          rows as strings
    B1E1B                                                       plain rows (spaces between cells allowed)
    B1M1B

and as the boards sit in solutions' code: `char[][] board = {{'E','E'},{'E','M'}};` (Java, C#, C++
`vector<vector<char>>`), `[][]byte{{'E','M'}}` (Go), or LeetCode's test-case file, where each board is
followed by its click on the next line (`[3,0]`) and several cases follow one another.

'E' an unrevealed empty cell and 'M' an unrevealed mine are both unknown cells (a player sees no
difference); 'B' a revealed blank is the count 0; '1'-'8' counts; 'X' a revealed mine is a known mine.
The board records every mine, so the total (M and X cells) is the puzzle's total, as a game's mine
counter shows it, and the hidden layout (mines on M and X) is the puzzle's known answer: when it fits
every count it is kept as '[real] ROW' notes, as ms-board keeps its [real] section (`--to ms-board`
writes it back as one), unless the board itself pins every mine down. A click after a board (`click =
[r, c]`, or the next two-number list) becomes a note. Code around the boards (declarations, calls,
comments) is skipped; a file with several boards is a collection (--puzzle N).

The writer prints one row per line in LeetCode's JSON; unknown cells are 'M' where the known answer
(the [real] notes, or a board that pins its mines down) has a mine and 'E' elsewhere. A known safe cell
without a count has no symbol (written 'E'), and without a known answer the total is lost.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, List, Optional, TextIO, Tuple

import numpy as np

from ...core.puzzle import Puzzle, neighbour_count
from ...core.wording import plural
from ..collection import PUZZLE_HELP, build_all, pick
from ..grammar import normalise_newlines
from ..registry import LIKELY, NO, POSSIBLE, register_format
from .ms_board import REAL_NOTE, real_layout
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_CELL = {"E": "?", "M": "?", "B": "0", "X": "*", **{str(d): str(d) for d in range(1, 9)}}
_WHAT = "a LeetCode cell (E or M unrevealed, B blank, 1-8, X revealed mine)"
_PLAIN = re.compile(r"[ \t]*[EMBX1-8](?:[ \t]*[EMBX1-8])*[ \t]*")
_CELLS = re.compile(r"[EMBX1-8]+")
_LEX = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/|\#[^\n]*)
  | (?P<doc>\"\"\".*?\"\"\"|\'\'\'.*?\'\'\')
  | (?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?P<open>[\[{(])
  | (?P<close>[\]})])
  | (?P<comma>,)
  | (?P<word>[^\s\[\]{}(),'"]+|['"])
""", re.X | re.S)
_PAIRS = {"[": "]", "{": "}", "(": ")"}
# the words a data file (not a program) may hold beside its boards and clicks: names and numbers
_DATA_WORDS = {"board", "click", "Input", "Output", "input", "output", *"0123456789"}


@dataclass
class _Group:
    """A bracketed group of the text: its opening offset and its items (tokens and nested groups)."""

    off: int
    bracket: str = ""
    items: List[Any] = field(default_factory=list)    # ("str"|"word", text, off) tuples or _Group

    @property
    def listlike(self) -> bool:
        """A list or an initializer ([...] or {...}), not a call's or a condition's parentheses."""
        return self.bracket in ("[", "{")


@dataclass
class _Board:
    rows: List[str]
    offs: List[List[int]]
    click: Optional[Tuple[int, int]] = None
    notes: List[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"click {list(self.click)}" if self.click else "no click"


@dataclass
class _Tree:
    """The text as nested bracket groups, with its comments (and docstrings) set aside."""

    root: _Group
    notes: List[str]                      # the comments' texts
    asides: List[Tuple[int, int]]         # (start, end) of each comment's or docstring's body
    problem: Optional[Tuple[str, int]]    # the first bracket or quote that does not fit, and where


def _aside(kind: str, tok: str, pos: int) -> Tuple[int, int]:
    if kind == "doc":
        return pos + 3, pos + len(tok) - 3
    if tok.startswith("/*"):
        return pos + 2, pos + len(tok) - 2
    return pos + len(tok) - len(tok.lstrip("#/")), pos + len(tok)


def _tree(text: str, source: Optional[str]) -> _Tree:
    """The text as nested bracket groups; blanks and commas dropped. A bracket that closes nothing or a
    lone quote is noted (the first one) and passed over, so that prose and code around boards still read."""
    tree = _Tree(_Group(-1), [], [], None)
    stack: List[Tuple[str, _Group]] = [("", tree.root)]
    for m in _LEX.finditer(text):
        kind, tok, pos = m.lastgroup or "", m.group(), m.start()
        if kind in ("comment", "doc"):
            tree.asides.append(_aside(kind, tok, pos))
            body = text[tree.asides[-1][0]:tree.asides[-1][1]]
            if kind == "comment" and body.strip():
                tree.notes.append(" ".join(body.split()))
        elif kind == "open":
            if len(stack) > 200:   # no board nests that deep; the walks below recurse once per level
                raise fail("brackets nested more than 200 deep", text, pos, source)
            group = _Group(pos, tok)
            stack[-1][1].items.append(group)
            stack.append((_PAIRS[tok], group))
        elif kind == "close":
            if len(stack) > 1 and stack[-1][0] == tok:
                stack.pop()
            elif tree.problem is None:
                tree.problem = (f"{tok!r} closes nothing open here", pos)
        elif kind == "word" and tok in "'\"" and tree.problem is None:
            tree.problem = (f"an unclosed quote {tok}", pos)
        elif kind in ("str", "word"):
            stack[-1][1].items.append((kind, tok, pos))
    if len(stack) > 1 and tree.problem is None:
        tree.problem = (f"the board is not closed (a missing {stack[-1][0]!r})", len(text))
    return tree


def _strings(group: _Group) -> List[Tuple[str, int]]:
    return [(tok[1:-1], off) for item in group.items if isinstance(item, tuple) and item[0] == "str"
            for tok, off in [(item[1], item[2])]]


def _row_of_chars(group: _Group, text: str, source: Optional[str]) -> Optional[List[Tuple[str, int]]]:
    """The cells of a list of one-character strings holding a cell symbol (None when it is no such list:
    code such as a method body or {'+', '-'} is no row)."""
    strings = _strings(group)
    if not group.listlike or not strings or len(strings) != len(group.items):
        return None
    if not any(len(s) == 1 and s in _CELL for s, _ in strings):
        return None
    row = []
    for s, off in strings:
        if len(s) != 1:
            raise fail(f"expected a one-character string such as \"E\", got {s!r}", text, off, source)
        row.append((_check(s, text, off + 1, source), off + 1))
    return row


def _check(ch: str, text: str, off: int, source: Optional[str]) -> str:
    if ch not in _CELL:
        raise fail(f"{ch!r} is not {_WHAT}", text, off, source)
    return ch


def _board_of(group: _Group, text: str, source: Optional[str]) -> Optional[_Board]:
    """The board a group holds: rows as groups of one-character strings, or rows as strings."""
    rows: List[List[Tuple[str, int]]] = []
    starts: List[int] = []
    for item in group.items:
        if isinstance(item, _Group):
            row = _row_of_chars(item, text, source)
            if row is not None:
                rows.append(row)
                starts.append(item.off)
            elif any(isinstance(sub, _Group) and _strings(sub) for sub in item.items):
                return None     # a list of boards (a test table): each is found on its own
    if not rows:
        strings = _strings(group)
        if (group.bracket != "[" or not strings or len(strings) != len(group.items)
                or not any(_CELLS.fullmatch(s) for s, _ in strings)):
            return None
        rows = [[(_check(ch, text, off + 1 + k, source), off + 1 + k) for k, ch in enumerate(s)] for s, off in strings]
        starts = [off for _, off in strings]
    for row, start in zip(rows, starts):
        if not row:
            raise fail("an empty row", text, start, source)
        if len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(rows[0])} (the board must "
                       "be rectangular)", text, start, source)
    return _Board(["".join(ch for ch, _ in row) for row in rows], [[o for _, o in row] for row in rows])


def _click_of(group: _Group) -> Optional[Tuple[int, int]]:
    words = [item[1] for item in group.items if isinstance(item, tuple)]
    if len(words) == 2 and len(group.items) == 2 and all(w.isascii() and w.isdigit() and len(w) < 10 for w in words):
        return int(words[0]), int(words[1])
    return None


def _walk(group: _Group, found: List[_Board], text: str, source: Optional[str]) -> None:
    """Collect the boards under group in order, each with the two-number list that follows it."""
    for item in group.items:
        if not isinstance(item, _Group):
            continue
        board = _board_of(item, text, source)
        if board is not None:
            found.append(board)
            continue
        click = _click_of(item)
        if (click is not None and found and found[-1].click is None
                and click[0] < len(found[-1].rows) and click[1] < len(found[-1].rows[0])):   # a cell of the board
            found[-1].click = click
            continue
        _walk(item, found, text, source)


def _in_asides(text: str, asides: List[Tuple[int, int]]) -> str:
    """The text with everything outside the comments and docstrings blanked (offsets kept)."""
    keep = [" "] * len(text)
    for i, ch in enumerate(text):
        if ch == "\n":
            keep[i] = ch
    for a, b in asides[:1000]:
        keep[a:b] = text[a:b]
    return "".join(keep)


def _boards(text: str, source: Optional[str]) -> List[_Board]:
    """Every board of the text in order, each with the click that follows it (before the next board).

    Boards in the code come first; a file whose code holds none is searched in its comments and
    docstrings (LeetCode's test cases pasted under a solution, a doctest)."""
    tree = _tree(text, source)
    found: List[_Board] = []
    _walk(tree.root, found, text, source)
    data = not _words(tree.root) - _DATA_WORDS
    if tree.problem is not None and (data or not found):
        raise fail(tree.problem[0], text, tree.problem[1], source)
    if not found and not any(isinstance(item, _Group) for item in tree.root.items):
        found = [_plain(text, source)]
    if not found and tree.asides:
        inner = _tree(_in_asides(text, tree.asides), source)
        _walk(inner.root, found, text, source)
    if found and data:
        found[0].notes = tree.notes   # a data file's comments are its notes; a program's are not
    return found


def _words(group: _Group) -> set:
    out = set()
    for item in group.items:
        if isinstance(item, _Group):
            out |= _words(item)
        elif item[0] == "word":
            out.add(item[1].strip("=:;+"))
    return out - {""}


def _plain(text: str, source: Optional[str]) -> _Board:
    rows: List[str] = []
    offs: List[List[int]] = []
    for start, line in lines_with_offsets(text):
        if not line.strip() or line.lstrip().startswith(("#", "//")):
            continue
        cells = [(m.group(), start + m.start()) for m in re.finditer(r"\S", line)]
        for ch, off in cells:
            _check(ch, text, off, source)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                       "(the board must be rectangular)", text, start, source)
        rows.append("".join(ch for ch, _ in cells))
        offs.append([o for _, o in cells])
    if not rows:
        raise fail("no board rows found", text, len(text), source)
    return _Board(rows, offs)


def _answer_notes(rows: List[str], puzzle: Puzzle) -> List[str]:
    """The hidden layout (mines on M and X) as '[real] ROW' notes, or a note naming the count it breaks."""
    layout = np.array([[ch in "MX" for ch in row] for row in rows], dtype=bool)
    counts = neighbour_count(layout)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch.isdigit() and int(counts[r, c]) != int(ch) or ch == "B" and counts[r, c]:
                return [f"answer: the board's {plural(int(layout.sum()), 'mine')} break the count "
                        f"{0 if ch == 'B' else ch} at row {r + 1}, column {c + 1} ({int(counts[r, c])} around it)"]
    real = ["".join("*" if layout[r, c] else str(int(counts[r, c])) for c in range(len(row)))
            for r, row in enumerate(rows)]
    pinned = real_layout(puzzle)
    return [] if pinned == real else [REAL_NOTE + row for row in real]


def _build(board: _Board, text: str, source: Optional[str]) -> Puzzle:
    mines = sum(row.count("M") + row.count("X") for row in board.rows)
    cells = ["".join(_CELL[ch] for ch in row) for row in board.rows]
    notes = list(board.notes)
    if board.click is not None:
        notes.append(f"click: [{board.click[0]}, {board.click[1]}]")
    offs = board.offs
    puzzle = puzzle_at(cells, lambda r, c: offs[r][c], text, source, mines=mines, notes=notes)
    return puzzle.replace(notes=tuple(notes) + tuple(_answer_notes(board.rows, puzzle)))


def _found(text: str, source: Optional[str]) -> List[_Board]:
    found = _boards(text, source)
    if not found:
        raise fail("no board found (expected [[\"E\", ...], ...])", text, len(text), source)
    return found


def puzzles(text: str, *, source: str = "<string>", **options: Any) -> List[Tuple[str, Puzzle]]:
    """Every board of a LeetCode file, labelled by its size and click."""
    text = normalise_newlines(text)
    return build_all(_found(text, source), lambda b: b.label, lambda b: _build(b, text, source))


def read_leetcode(text: str, source: str = "<string>", puzzle: Optional[Any] = None) -> Puzzle:
    """Parse a LeetCode board (the first, or the one `puzzle` names): lists, strings, code or plain rows."""
    text = normalise_newlines(text)
    found = _found(text, source)
    _, board = pick(found, [b.label for b in found], puzzle, text=text, source=source, what="board")
    return _build(board, text, source)


def _unknown_symbols(puzzle: Puzzle) -> np.ndarray:
    """'M' where the known answer has a mine, 'E' elsewhere (every unknown cell 'E' without an answer)."""
    answer = real_layout(puzzle)
    if answer is None:
        return np.full((puzzle.rows, puzzle.cols), "E")
    return np.array([["M" if ch == "*" else "E" for ch in row] for row in answer])


def write_leetcode(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the board as LeetCode prints it, one row per line: E/M unknown, B, 1-8, X known mine."""
    hidden = _unknown_symbols(puzzle)
    lines = []
    for r in range(puzzle.rows):
        cells = []
        for c, ch in enumerate(puzzle.row(r)):
            sym = {"0": "B", "*": "X", ".": "E"}.get(ch, ch)
            cells.append(f'"{hidden[r, c] if ch == "?" else sym}"')
        lines.append(("[[" if r == 0 else " [") + ",".join(cells) + ("]]" if r == puzzle.rows - 1 else "],"))
    out.write("\n".join(lines) + "\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    st = puzzle.stats
    if st["known_safe"]:
        lost.append(f"{plural(st['known_safe'], 'known safe cell')} without a count (written as 'E', unknown)")
    if real_layout(puzzle) is None and st["unknown"]:
        lost.append("the total mine count and which unknown cells hold mines (no known answer: every unknown "
                    "cell written as 'E')")
    if puzzle.name is not None:
        lost.append("the puzzle name")
    if any(not n.startswith(REAL_NOTE) for n in puzzle.notes):
        lost.append("the notes")
    return lost


def detect_leetcode(text: str) -> float:
    """LIKELY for a list of "E"/"M"/"B" character lists (brackets or braces); POSSIBLE for plain rows of them."""
    wide = text[:1 << 16]    # in a solution's source the board may sit far down, in main() or a test
    if re.search(r"[\[{]\s*[\[{]\s*(['\"])[EMBX1-8]\1\s*,", wide):
        return LIKELY
    head = normalise_newlines(text[:4000])
    if re.search(r"[\[{]\s*[\[{]\s*(['\"])[EMBX1-8]\1\s*,", head):
        return LIKELY
    if re.search(r"[\[{]\s*(['\"])[EMBX1-8]\1\s*,\s*(['\"])[EMBX1-8]\2", head) and re.search(r"['\"][EMB]['\"]", head):
        return LIKELY
    if re.search(r"\[\s*(['\"])[EMBX1-8]*[EB][EMBX1-8]*\1\s*[,\]]", head):
        return LIKELY
    lines = [ln for ln in head.split("\n") if ln.strip()]
    if lines and all(_PLAIN.fullmatch(ln) for ln in lines[:50]) and re.search(r"[EBM]", head):
        widths = {len(ln.split()) if " " in ln.strip() else len(ln.strip()) for ln in lines[:50]}
        return POSSIBLE if len(widths) == 1 else NO
    return NO


register_format("leetcode", reader=read_leetcode, writer=write_leetcode,
                detect=detect_leetcode, losses=_losses, read_options={"puzzle": PUZZLE_HELP}, collection=puzzles,
                description="LeetCode 529 board: [[\"E\",\"M\",\"B\",\"1\",\"X\"], ...], code ({{'E','M'}}), "
                            "test-case files (several boards) or plain rows; E/M unknown, B = 0, X mine; "
                            "total = M + X; the M/X layout kept as the answer")
