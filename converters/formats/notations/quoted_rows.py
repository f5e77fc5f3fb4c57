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

from typing import List

from ...core.puzzle import Puzzle
from ...core.wording import plural
from .._rows import decode, symbol_table
from ..grammar import normalise_newlines
from ..registry import LIKELY, NO, WEAK, register_format
from ._grid_common import code_tokens, comment_note, fail, puzzle_at

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
    for kind, tok, off in toks:
        if kind == "comment":
            continue
        if kind == "str":
            if seen_close:
                raise fail("a row after the list was closed: this notation reads one list of rows", text, off, source)
            body = tok[1:-1]
            cells, bad = decode(body, _TABLE)
            if cells is None:
                raise fail(f"{body[bad]!r} is not a cell symbol (expected ? 0-8 * .)", text, off + 1 + bad, source)
            if not cells:
                raise fail("an empty row", text, off, source)
            if rows and len(cells) != len(rows[0]):
                raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                           "(the grid must be "
                           "rectangular)", text, off, source)
            rows.append(cells)
            starts.append(off + 1)
        elif kind == "open":
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
    return puzzle_at(rows, lambda r, c: starts[r] + c, text, source, notes=notes)


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


register_format("quoted-rows", [".rows"], "puzzle", reader=read_quoted_rows, detect=detect_quoted_rows,
                aliases=("rows",),
                description="quoted rows in native symbols: known = [\"01?1\", \"0111\"] (Python / JS / C)")
