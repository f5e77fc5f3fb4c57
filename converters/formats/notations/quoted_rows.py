"""Quoted row lists in mineconv's own cell symbols, as pasted from Python, JavaScript or C source.

    known = ["01?1", "0111"]            a name, brackets, one line
    const board = [                     JS, single or double quotes, a trailing comma, comments
      '01?1',   // top
      '0111',
    ];
    "01?1"                              bare quoted lines (commas optional)
    "0111"

Cells are the native symbols: '?' unknown, 0-8 a count, '*' a known mine, '.' known safe. Nothing is
evaluated; comments become notes. Gecode's specifications look the same but use '.' for an unknown cell
(the dot notation): a list holding no '?' or '*' is claimed only weakly by detection, so the reading
under which '.' is unknown can win. Read only.
"""
from __future__ import annotations

import warnings
from typing import List

from ...core.errors import AmbiguousInputWarning
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import decode, symbol_table
from ..registry import LIKELY, NO, WEAK, register_format
from .pasted_grids import code_tokens, comment_note, fail, puzzle_at

_TABLE = symbol_table({ch: ch for ch in "?012345678*."})


def read_quoted_rows(text: str, source: str = "<string>") -> Puzzle:
    """Parse a list of quoted rows in native cell symbols."""
    text = normalise_newlines(text)
    toks = code_tokens(text, source, "a list of quoted rows")
    notes = [comment_note(t) for k, t, _ in toks if k == "comment"]
    rows: List[str] = []
    starts: List[int] = []
    depth = 0
    seen_close = False
    joined: List[int] = []      # offsets of literals joined to the one before them
    after_literal = False       # the last token (comments aside) inside the brackets was a literal
    for kind, tok, off in toks:
        if kind == "comment":
            continue
        if kind == "str":
            if seen_close:
                raise fail("a row after the list was closed: this notation reads one list of rows", text, off, source)
            cells = _cells(tok, off, text, source)
            if depth > 0 and after_literal:
                # Python and C join adjacent literals into one string ("01" "?1" is "01?1"); JavaScript refuses
                rows[-1] += cells
                joined.append(off)
            else:
                rows.append(cells)
                starts.append(off + 1)
            after_literal = True
            continue
        after_literal = False
        if kind == "open":
            if rows:
                raise fail(f"unexpected {tok!r} between rows", text, off, source)
            depth += 1
        elif kind == "close":
            if depth == 0:
                raise fail(f"unexpected {tok!r}", text, off, source)
            depth -= 1
            seen_close = bool(rows)
        elif kind == "punct" and tok in ",;":
            continue
        elif not rows and kind in ("name", "punct"):
            continue   # const known = ...
        else:
            raise fail(f"unexpected {tok!r} (expected quoted rows such as \"01?1\")", text, off, source)
    if not rows:
        raise fail("no quoted rows found", text, len(text), source)
    if joined:
        line = text.count("\n", 0, joined[0]) + 1
        warnings.warn(AmbiguousInputWarning(
            f"{source}:{line}: {plural(len(joined), 'quoted row')} with no comma before {'it' if len(joined) == 1 else 'them'} "
            "joined to the row before, as Python and C join adjacent string literals (JavaScript refuses them); "
            "put a comma between rows that are meant apart"), stacklevel=2)
    for r, row in enumerate(rows[1:], 1):
        if len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(rows[0])} "
                       "(the grid must be rectangular)", text, starts[r] - 1, source)
    return puzzle_at(rows, lambda r, c: starts[r] + c, text, source, notes=notes)


def _cells(tok: str, off: int, text: str, source: str) -> str:
    """The cells of one quoted literal, checked symbol by symbol."""
    body = tok[1:-1]
    cells, bad = decode(body, _TABLE)
    if cells is None:
        raise fail(f"{body[bad]!r} is not a cell symbol (expected ? 0-8 * .)", text, off + 1 + bad, source)
    if not cells:
        raise fail("an empty row", text, off, source)
    return cells


def detect_quoted_rows(text: str) -> float:
    """LIKELY for quoted rows of native symbols with a '?' or '*'; WEAK for rows of '.' and digits only."""
    head = normalise_newlines(text[:4000])
    try:
        toks = code_tokens(head, None, "")
    except Exception:
        return NO
    strs = [t[1][1:-1] for t in toks if t[0] == "str"]
    others = [t for t in toks if t[0] in ("num",)]
    if not strs or others or any(decode(s, _TABLE)[0] is None or not s for s in strs):
        return NO
    if len({len(s) for s in strs}) != 1 and len(text) <= 4000:
        return NO
    return LIKELY if any("?" in s or "*" in s for s in strs) else WEAK


register_format("quoted-rows", reader=read_quoted_rows, detect=detect_quoted_rows,
                description="quoted rows in native symbols: known = [\"01?1\", \"0111\"] (Python / JS / C)")
