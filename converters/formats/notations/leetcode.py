"""LeetCode-style boards (problem 529 "Minesweeper"): a character matrix as LeetCode prints it.

    board = [["E","E","E","E","E"],["E","E","M","E","E"],["E","E","E","E","E"]], click = [3,0]
    [['B', '1', 'E', '1', 'B'], ['B', '1', 'M', '1', 'B']]      single quotes, no name
    ["B1E1B", "B1M1B"]                                          rows as strings
    B1E1B                                                       plain rows (spaces between cells allowed)
    B1M1B

'E' an unrevealed empty cell and 'M' an unrevealed mine are both unknown cells (a player sees no
difference); 'B' a revealed blank is the count 0; '1'-'8' counts; 'X' a revealed mine is a known mine.
The board records every mine, so the total number of mines (M and X cells) is the puzzle's total, as
a game's mine counter shows it. A `click = [r, c]` after the board becomes a note. Read only.
"""
from __future__ import annotations

import re
from typing import List, Tuple

from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..registry import LIKELY, NO, POSSIBLE, register_format
from ._grid_common import code_tokens, comment_note, fail, lines_with_offsets, puzzle_at

_CELL = {"E": "?", "M": "?", "B": "0", "X": "*", **{str(d): str(d) for d in range(1, 9)}}
_WHAT = "a LeetCode cell (E or M unrevealed, B blank, 1-8, X revealed mine)"
_PLAIN = re.compile(r"[ \t]*[EMBX1-8](?:[ \t]*[EMBX1-8])*[ \t]*")


def read_leetcode(text: str, source: str = "<string>") -> Puzzle:
    """Parse a LeetCode board: a list of character lists, a list of strings, or plain rows."""
    text = normalise_newlines(text)
    if "[" in text or '"' in text or "'" in text:
        rows, where, notes = _listed(text, source)
    else:
        rows, where, notes = _plain(text, source)
    mines = sum(row.count("M") + row.count("X") for row in rows)
    cells = ["".join(_CELL[ch] for ch in row) for row in rows]
    return puzzle_at(cells, where, text, source, mines=mines, notes=notes)


def _check(ch: str, text: str, off: int, source: str) -> str:
    if ch not in _CELL:
        raise fail(f"{ch!r} is not {_WHAT}", text, off, source)
    return ch


def _listed(text: str, source: str):
    toks = code_tokens(text, source, "a LeetCode board")
    notes = [comment_note(t) for k, t, _ in toks if k == "comment"]
    toks = [t for t in toks if t[0] != "comment"]
    rows: List[str] = []
    offs: List[List[int]] = []
    i, n = 0, len(toks)
    while i < n and not (toks[i][0] == "open" and toks[i][1] == "[") and toks[i][0] != "str":
        if toks[i][0] not in ("name", "punct"):
            raise fail(f"unexpected {toks[i][1]!r} before the board", text, toks[i][2], source)
        i += 1
    if i == n:
        raise fail("no board found (expected [[\"E\", ...], ...])", text, len(text), source)
    outer = toks[i][0] == "open"
    if outer:
        i += 1
    while i < n:
        kind, tok, off = toks[i]
        if kind == "close" and outer:
            i += 1
            break
        if kind == "punct" and tok == ",":
            i += 1
            continue
        if kind == "str":                         # a row as one string
            row = [(_check(ch, text, off + 1 + k, source), off + 1 + k) for k, ch in enumerate(tok[1:-1])]
            i += 1
        elif kind == "open" and tok == "[":       # a row as a list of one-character strings
            row = []
            i += 1
            while i < n and not (toks[i][0] == "close"):
                k2, t2, o2 = toks[i]
                if k2 == "str" and len(t2) == 3:
                    row.append((_check(t2[1], text, o2 + 1, source), o2 + 1))
                elif not (k2 == "punct" and t2 == ","):
                    raise fail(f"expected a one-character string such as \"E\", got {t2!r}", text, o2, source)
                i += 1
            if i == n:
                raise fail("the row is not closed (a missing ']')", text, len(text), source)
            i += 1
        elif not outer and kind in ("name", "punct"):
            break
        else:
            raise fail(f"expected a row, got {tok!r}", text, off, source)
        if not row:
            raise fail("an empty row", text, off, source)
        if rows and len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(rows[0])} (the board must be "
                       "rectangular)", text, off, source)
        rows.append("".join(ch for ch, _ in row))
        offs.append([o for _, o in row])
    else:
        if outer:
            raise fail("the board is not closed (a missing ']')", text, len(text), source)
    if not rows:
        raise fail("the board has no rows", text, len(text), source)
    rest = toks[i:]
    if rest:
        # what may follow: ', click = [r, c]' as LeetCode's examples give it
        words = " ".join(t for _, t, _ in rest)
        if not re.fullmatch(r"(?:[,;] )?(?:click [=:] \[ [0-9]+ , [0-9]+ \])? ?[;]?", words):
            raise fail(f"unexpected {rest[0][1]!r} after the board", text, rest[0][2], source)
        nums = [t for k, t, _ in rest if k == "num"]
        if nums:
            notes.append(f"click: [{nums[0]}, {nums[1]}]")
    return rows, (lambda r, c: offs[r][c]), notes


def _plain(text: str, source: str) -> Tuple[List[str], object, List[str]]:
    rows: List[str] = []
    offs: List[List[int]] = []
    for start, line in lines_with_offsets(text):
        if not line.strip():
            continue
        cells = [(m.group(), start + m.start()) for m in re.finditer(r"\S", line)]
        for ch, off in cells:
            _check(ch, text, off, source)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                       "(the board must be "
                       "rectangular)", text, start, source)
        rows.append("".join(ch for ch, _ in cells))
        offs.append([o for _, o in cells])
    if not rows:
        raise fail("no board rows found", text, len(text), source)
    return rows, (lambda r, c: offs[r][c]), []


def detect_leetcode(text: str) -> float:
    """LIKELY for a list of "E"/"M"/"B" character lists; POSSIBLE for plain rows holding E, M or B."""
    head = normalise_newlines(text[:4000])
    if re.search(r"\[\s*\[\s*(['\"])[EMBX1-8]\1\s*,", head):
        return LIKELY
    if re.search(r"\[\s*(['\"])[EMBX1-8]*[EB][EMBX1-8]*\1\s*[,\]]", head):
        return LIKELY
    lines = [ln for ln in head.split("\n") if ln.strip()]
    if lines and all(_PLAIN.fullmatch(ln) for ln in lines[:50]) and re.search(r"[EB]", head):
        widths = {len(ln.split()) if " " in ln.strip() else len(ln.strip()) for ln in lines[:50]}
        return POSSIBLE if len(widths) == 1 else NO
    return NO


register_format("leetcode", [".leetcode"], "puzzle", reader=read_leetcode, detect=detect_leetcode,
                description="LeetCode 529 board: [[\"E\",\"M\",\"B\",\"1\",\"X\"], ...] or plain rows; E/M unknown, "
                            "B = 0, X mine; total = M + X")
