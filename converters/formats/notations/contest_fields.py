"""Programming-contest Minesweeper fields (UVa 10189 "Minesweeper", Programming Challenges 110102 and copies).

    4 4          input: fields of 'n m' then n rows of m cells,      Field #1:     output: one block per
    *...         '*' a mine, '.' no mine; '0 0' ends the input       *100          field, digits and '*'
    ....                                                             2210          (a fully revealed board)
    .*..                                                             1*10
    ....                                                             1110
    0 0

Either way a field is a mine layout (every mine known; an output block's counts are checked against
its mines) and reads as every layout does (--layout-as): its full reveal by default (every safe cell
its count, the mines to find, the total). Before that one rule an input field read as the layout
itself ('.' known safe without a count, '*' a known mine: --layout-as mines) and an output block as
its annotation (--layout-as annotated); reading them without the option warns once. A file holds several fields: read option `puzzle` (--puzzle N, 1-based) picks one, the first
otherwise (with a CollectionWarning naming how many there are). `puzzles(text)` gives all of them,
labelled 'Field #k'. A header claiming more cells than --max-cells is refused before anything is built.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle, neighbour_count
from ...core.wording import plural
from ..collection import PUZZLE_HELP, build_all, pick
from ..grammar import normalise_newlines
from ..mine_layouts import LAYOUT_HELP, layout_reading
from ..registry import LIKELY, NO, POSSIBLE, register_format
from .pasted_grids import fail, lines_with_offsets

_SIZE = re.compile(r"\s*(\d{1,9})\s+(\d{1,9})\s*")
_LABEL = re.compile(r"\s*Field\s*#\s*(\d{1,9})\s*:\s*", re.I)


@dataclass(frozen=True)
class Field:
    """One field of the file: its label, rows of cell symbols and where each row starts in the text."""

    label: str
    rows: Tuple[str, ...]
    offsets: Tuple[int, ...]


def _lines(text: str) -> List[Tuple[int, str]]:
    return [(off, line.rstrip()) for off, line in lines_with_offsets(text)]


def _input_fields(text: str, source: Optional[str]) -> List[Field]:
    lines = _lines(text)
    while lines and not lines[-1][1].strip():
        lines.pop()
    fields: List[Field] = []
    i = 0
    while i < len(lines):
        off, line = lines[i]
        i += 1
        if not line.strip():
            continue
        m = _SIZE.fullmatch(line)
        if m is None:
            raise fail("expected a field header 'n m' (rows, columns), or '0 0' to end", text, off, source)
        n, k = int(m.group(1)), int(m.group(2))
        if n == 0 and k == 0:
            break
        if n == 0 or k == 0:
            raise fail(f"a {n} x {k} field has no cells (only '0 0', the end mark, may have a zero)", text, off,
                       source)
        why = too_many_cells(n, k)
        if why:
            raise fail(why, text, off, source)
        if i + n > len(lines):
            raise fail(f"the header promises {plural(n, 'row')} and the file ends first", text, len(text), source)
        rows = lines[i:i + n]
        for roff, row in rows:
            bad = next((j for j, ch in enumerate(row) if ch not in "*."), None)
            if bad is not None:
                raise fail(f"{row[bad]!r} is not a field cell ('*' mine, '.' no mine)", text, roff + bad, source)
            if len(row) != k:
                raise fail(f"this row has {plural(len(row), 'cell')}, the header says {k}", text,
                           roff + min(len(row), k), source)
        fields.append(Field(f"Field #{len(fields) + 1}", tuple(r for _, r in rows), tuple(o for o, _ in rows)))
        i += n
    return fields


def _output_fields(text: str, source: Optional[str]) -> List[Field]:
    fields: List[Field] = []
    label = ""
    rows: List[str] = []
    offs: List[int] = []

    def close() -> None:
        if label:
            if not rows:
                raise fail(f"{label} has no rows", text, offs[0] if offs else len(text), source)
            fields.append(Field(label, tuple(rows), tuple(offs)))

    for off, line in _lines(text):
        m = _LABEL.fullmatch(line)
        if m is not None:
            close()
            label, rows, offs = f"Field #{int(m.group(1))}", [], []
            continue
        if not line.strip():
            continue
        if not label:
            raise fail("expected 'Field #1:' before the rows", text, off, source)
        bad = next((j for j, ch in enumerate(line) if ch not in "*012345678"), None)
        if bad is not None:
            raise fail(f"{line[bad]!r} is not an output cell ('*' or a count 0-8)", text, off + bad, source)
        if rows and len(line) != len(rows[0]):
            raise fail(f"this row has {plural(len(line), 'cell')}, the first row of {label} has {len(rows[0])}",
                       text, off + min(len(line), len(rows[0])), source)
        rows.append(line)
        offs.append(off)
    close()
    return fields


def _is_output(text: str) -> bool:
    first = next((line for line in text.split("\n") if line.strip()), "")
    return _LABEL.fullmatch(first) is not None


def _fields(text: str, source: Optional[str]) -> List[Field]:
    return _output_fields(text, source) if _is_output(text) else _input_fields(text, source)


def _build(field: Field, text: str, source: Optional[str], layout_as: Optional[str] = None) -> Puzzle:
    """The field's mine layout read as --layout-as says (the full reveal by default); an output block's
    counts are checked against its mines first."""
    mines = np.array([[ch == "*" for ch in row] for row in field.rows], dtype=bool)
    annotated = any(ch.isdigit() for row in field.rows for ch in row)
    if annotated:
        counts = neighbour_count(mines)
        for r, row in enumerate(field.rows):
            for c, ch in enumerate(row):
                if ch != "*" and int(ch) != int(counts[r, c]):
                    raise fail(f"{field.label} shows {ch} here, and {int(counts[r, c])} of its '*' cells are "
                               "around it", text, field.offsets[r] + c, source)
    puzzle = layout_reading(mines, layout_as, None, was="annotated" if annotated else "mines",
                            notation="contest-fields")
    return puzzle.replace(name=field.label)


def puzzles(text: str, *, source: str = "<string>", **options: Any) -> List[Tuple[str, Puzzle]]:
    """Every field of a contest file, as (label 'Field #k', puzzle), in the file's order."""
    text = normalise_newlines(text)
    layout_as = options.get("layout_as")
    return build_all(_fields(text, source), lambda f: f.label, lambda f: _build(f, text, source, layout_as))


def read_contest_fields(text: str, source: str = "<string>", puzzle: Optional[Any] = None,
                 layout_as: Optional[str] = None) -> Puzzle:
    """Parse one field of a contest input or output file (the first, or the one `puzzle` names, 1-based)."""
    text = normalise_newlines(text)
    found = _fields(text, source)
    _, field = pick(found, [f.label for f in found], puzzle, text=text, source=source, what="field")
    return _build(field, text, source, layout_as)


def detect_contest_fields(text: str) -> float:
    """LIKELY for 'n m' then rows of '*' and '.', or a 'Field #1:' block; POSSIBLE for a lone field."""
    head = normalise_newlines(text[:4000])
    lines = [ln.strip() for ln in head.split("\n") if ln.strip()]
    if not lines:
        return NO
    if _LABEL.fullmatch(lines[0]):
        return LIKELY if len(lines) > 1 and re.fullmatch(r"[*0-8]+", lines[1]) else NO
    m = _SIZE.fullmatch(lines[0])
    if m is None or int(m.group(1)) == 0:
        return NO
    n, k = int(m.group(1)), int(m.group(2))
    body = lines[1:1 + n]
    if not body or not all(re.fullmatch(r"[*.]+", row) and len(row) == k for row in body):
        return NO
    return LIKELY if re.search(r"^\s*0\s+0\s*$", head, re.M) or len(lines) > n + 1 else POSSIBLE


register_format("contest-fields", reader=read_contest_fields, detect=detect_contest_fields,
                read_options={"puzzle": PUZZLE_HELP, "layout_as": LAYOUT_HELP}, collection=puzzles,
                description="UVa 10189 fields: 'n m' then rows of '*' (mine) and '.' (safe, no count) until "
                            "'0 0', or the 'Field #k:' output blocks; several per file (--puzzle N)")
