"""What the constraint-model data notations share (MiniZinc data, Essence' parameters, ASP facts).

Their grids are integer matrices in the encoding of the constraint-model collections: -1 an unknown
cell, 0..8 the count shown. Each reader finds the grid's entries with their offsets in the text, maps
them to integers, and hands them here to become a Puzzle; an error about a cell points at its entry.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ..located_errors import error_at, symbol_name

UNKNOWN = -1
_CELL = {-1: "?", **{d: str(d) for d in range(9)}}
# puzzle code (-1 unknown, 0..8, 9 mine, 10 safe) -> the integer written by the writers (-1 for what the
# model's -1..8 domain cannot say; losses() reports it)
WRITE_VALUE = {-1: "-1", **{d: str(d) for d in range(9)}, 9: "-1", 10: "-1"}


def blank_comments(text: str, pattern: "re.Pattern[str]") -> Tuple[str, List[Tuple[int, str]]]:
    """Text with every comment matched by `pattern` turned to spaces (newlines and offsets kept).

    `pattern` matches strings too (group 'string'), so a comment character inside a string stays;
    the comments come back with their offsets, for the notes.
    """
    comments: List[Tuple[int, str]] = []
    parts: List[str] = []
    pos = 0
    for m in pattern.finditer(text):
        if m.lastgroup == "string":
            continue
        comments.append((m.start(), m.group()))
        parts.append(text[pos:m.start()])
        parts.append(re.sub(r"[^\n]", " ", m.group()))
        pos = m.end()
    if not comments:
        return text, comments
    parts.append(text[pos:])
    return "".join(parts), comments


def notes_before(comments: List[Tuple[int, str]], first: int, marker: str) -> Tuple[Optional[str], List[str]]:
    """The name and notes: the line comments (starting with `marker`) before offset `first`."""
    name: Optional[str] = None
    notes: List[str] = []
    for off, comment in comments:
        if off >= first:
            break
        if not comment.startswith(marker):
            continue
        for line in comment.split("\n"):
            body = line[len(marker):] if line.startswith(marker) else line
            body = body[1:] if body.startswith(" ") else body
            if name is None and not notes and body.startswith("name: "):
                name = body[6:]
            else:
                notes.append(body.rstrip())
    return name, notes


def split_items(body: str, start: int, sep: str = ",") -> List[Tuple[str, int]]:
    """The comma-separated items of a list body with their offsets in the text; one empty last item
    (a trailing comma) is dropped, any other empty item is kept for the caller to refuse."""
    items: List[Tuple[str, int]] = []
    pos = 0
    for piece in body.split(sep):
        stripped = piece.strip()
        lead = len(piece) - len(piece.lstrip())
        items.append((stripped, start + pos + (lead if stripped else 0)))
        pos += len(piece) + 1
    if items and not items[-1][0]:
        items.pop()
    return items


_INT = re.compile(r"[+-]?\s*[0-9]+")


def int_value(token: str, bindings: Dict[str, int], text: str, offset: int, source: Optional[str],
              what: str, unknown_names: Sequence[str] = (), bind: str = "{} = -1") -> int:
    """The integer a grid entry denotes: a literal, a name bound in the file, or a name that conventionally
    means unknown (`unknown_names`, e.g. hakank's X, bound to -1 in the model the data goes with)."""
    if _INT.fullmatch(token):
        return int("".join(token.split()))  # the pattern lets any whitespace (a newline, a tab) follow the sign
    if token in bindings:
        return bindings[token]
    if token in unknown_names:
        return UNKNOWN
    if not token:
        raise error_at(f"an empty entry in {what} (two commas in a row?)", text, offset, source)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", token):
        raise error_at(f"{symbol_name(token)} in {what} is not bound to a number in this file (bind it, e.g. "
                       f"'{bind.format(token)}' for an unknown cell)", text, offset, source)
    raise error_at(f"{symbol_name(token)} is not a whole number (in {what})", text, offset, source)


def build(values: List[List[Tuple[int, int]]], text: str, source: Optional[str], *, what: str,
          mines: Optional[int] = None, name: Optional[str] = None, notes: Sequence[str] = (),
          mines_offset: int = 0, known: Optional[Dict[Tuple[int, int], str]] = None) -> Puzzle:
    """A puzzle from rows of (value, offset) entries: -1 unknown, 0..8 a count (errors point at the entry).

    `known` overrides cells with native symbols ('*' known mine, '.' known safe), e.g. from ASP facts.
    """
    rows: List[str] = []
    for r, row in enumerate(values):
        cells = []
        for c, (v, off) in enumerate(row):
            sym = _CELL.get(v)
            if sym is None:
                raise error_at(f"{what}[{r + 1},{c + 1}] = {v}: expected -1 (unknown) or a count 0..8", text, off,
                               source)
            cells.append(sym)
        rows.append("".join(cells))
    if known:
        grid = [list(row) for row in rows]
        for (r, c), sym in known.items():
            grid[r][c] = sym
        rows = ["".join(row) for row in grid]
    try:
        return Puzzle.from_rows(rows, mines=mines, name=name, notes=notes)
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            if r < len(values) and c < len(values[r]):
                msg = exc.message.replace(f"cell ({r}, {c})", f"{what}[{r + 1},{c + 1}] (cell ({r}, {c}))")
                raise error_at(msg, text, values[r][c][1], source) from None
        raise error_at(exc.message, text, mines_offset, source) from None


def first_offset(values: List[List[Tuple[int, int]]]) -> int:
    """Offset of the first entry (where an error about the whole grid points)."""
    return values[0][0][1] if values and values[0] else 0


def check_shape(values: List[List[Tuple[int, int]]], text: str, source: Optional[str], what: str,
                at: int) -> None:
    """Refuse an empty or ragged grid, pointing at the first row that differs."""
    if not values or not values[0]:
        raise error_at(f"{what} has no entries", text, at, source)
    width = len(values[0])
    for r, row in enumerate(values):
        if len(row) != width:
            off = row[0][1] if row else at
            raise error_at(f"row {r + 1} of {what} has {len(row)} entr{'y' if len(row) == 1 else 'ies'}, the first "
                           f"row has {width} (the grid "
                           "must be rectangular)", text, off, source)


__all__ = ["PuzzleSyntaxError", "UNKNOWN", "WRITE_VALUE", "blank_comments", "notes_before", "split_items",
           "int_value", "build", "first_offset", "check_shape"]
