"""The Codewars "Mine Sweeper" kata layout: space-separated cells, 'x' a mine, the total given apart.

    map =
    ? ? ? ? ? ?
    ? ? ? 0 ? ?
    0 0 0 ? ? ?

    n = 6

'?' an unknown cell, 0-8 a count, 'x' (or 'X') a mine (the kata's answers mark mines so; here a known
mine); `n = N` (also `n: N`, `mines = N`) the total number of mines, before or after the grid; `map =`
and `result =` labels, `#` / `//` comment lines (notes), surrounding backquotes or triple quotes as
pasted from a test file are skipped. A map of '?' and digits alone is native text too, and reads the
same there; 'x', `n =` or `map =` is particular to the kata. Read only.
"""
from __future__ import annotations

import re
from typing import List, Optional

from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..registry import LIKELY, NO, WEAK, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_CELL = {"?": "?", "x": "*", "X": "*", **{str(d): str(d) for d in range(9)}}
_TOTAL = re.compile(r"[ \t]*(?:n|mines|N)[ \t]*[=:][ \t]*([0-9]+)[ \t]*;?[ \t]*")
_LABEL = re.compile(r"[ \t]*(?:const|let|var)?[ \t]*(?:map|result|board|field|solution)[ \t]*[=:][ \t]*"
                    r"(?:`|\"\"\"|''')?[ \t]*")
_FENCE = re.compile(r"[ \t]*(?:`|\"\"\"|''')?[ \t]*;?[ \t]*")
_ROW = re.compile(r"[ \t]*(?:`|\"\"\"|''')?([?xX0-8](?:[ \t]+[?xX0-8])*)(?:`|\"\"\"|''')?[ \t]*;?[ \t]*")


def read_kata(text: str, source: str = "<string>") -> Puzzle:
    """Parse a kata map: rows of space-separated '?', digits and 'x', with an optional `n = N` total."""
    text = normalise_newlines(text)
    rows: List[str] = []
    offs: List[List[int]] = []
    notes: List[str] = []
    mines: Optional[int] = None
    mines_at = 0
    ended = False
    for start, line in lines_with_offsets(text):
        s = line.strip()
        if not s or _FENCE.fullmatch(line):
            ended = ended or bool(rows) and not s == ""
            continue
        if s.startswith("#") or s.startswith("//"):
            notes.append(s.lstrip("#/").strip())
            continue
        m = _TOTAL.fullmatch(line)
        if m:
            if mines is not None:
                raise fail("the total (n = N) is given twice", text, start, source)
            mines, mines_at = int(m.group(1)), start + m.start(1)
            continue
        label = _LABEL.match(line) if not rows else None
        if label:
            if not line[label.end():].strip():
                continue
            start, line = start + label.end(), line[label.end():]   # map = `? ? 0 on one line
        m = _ROW.fullmatch(line)
        if m is None:
            bad = next((k for k, ch in enumerate(line) if not ch.isspace() and ch not in _CELL), len(line) - 1)
            raise fail(f"{line[bad]!r} is not a kata cell ('?' unknown, 0-8 count, x mine) separated by spaces",
                       text, start + bad, source)
        if ended:
            raise fail("a second grid: this notation reads one map per file", text, start, source)
        cells = [(mm.group(), start + m.start(1) + mm.start()) for mm in re.finditer(r"\S", m.group(1))]
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} (the map must be "
                       "rectangular)", text, start, source)
        rows.append("".join(_CELL[ch] for ch, _ in cells))
        offs.append([o for _, o in cells])
    if not rows:
        raise fail("no map rows found", text, len(text), source)
    return puzzle_at(rows, lambda r, c: offs[r][c], text, source, mines=mines, mines_offset=mines_at, notes=notes)


def _unlabelled(line: str) -> str:
    """The line without its `map =` label when a map row follows the label, else the line as it is."""
    m = _LABEL.match(line)
    if m and m.end() < len(line.rstrip()) and _ROW.fullmatch(line[m.end():]):
        return line[m.end():]
    return line


def detect_kata(text: str) -> float:
    """LIKELY with an 'x' cell, an `n = N` line or a `map =` label; WEAK for a bare map of '?' and digits."""
    lines = [ln for ln in normalise_newlines(text[:8000]).split("\n")
             if ln.strip() and not ln.strip().startswith(("#", "//"))]
    lines = [_unlabelled(ln) for ln in lines]
    labelled = len([ln for ln in normalise_newlines(text[:8000]).split("\n") if _LABEL.match(ln)])
    rows = [ln for ln in lines if _ROW.fullmatch(ln)]
    others = [ln for ln in lines if not _ROW.fullmatch(ln)]
    if not rows or any(not (_TOTAL.fullmatch(ln) or _LABEL.fullmatch(ln) or _FENCE.fullmatch(ln)) for ln in others):
        return NO
    widths = {len(ln.split()) for ln in rows}
    if len(widths) != 1 or not any(" " in ln.strip() for ln in rows):
        return NO
    if others or labelled or any(ch in ln for ln in rows for ch in "xX"):
        return LIKELY
    return WEAK


register_format("kata", reader=read_kata, detect=detect_kata,
                description="Codewars Mine Sweeper kata: '? ? 0' rows, x mine, n = N total")
