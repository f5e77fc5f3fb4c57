"""pzprjs's saved files (pzprv3) of Minesweeper puzzles (puzzle type `mines`).

    pzprv3
    mines
    5                 the row count
    5                 the column count
    . 2 . . .         the question: '.' an empty (unknown) cell, a number a clue, '-' a clue whose number
    . . . . 1         is hidden (read as a known safe cell with no count)
    ...
    . . . . #         the answer, when saved: '#' a cell marked as a mine, '+' a cell marked safe,
    # # . . .         '.' no mark
    ...

pzprjs's own test scripts and answer strings write the same file on one line, `/` ending each line
(`pzprv3/mines/5/5/. 2 . . . /. . . . 1 /...`); it reads as the multi-line form, and errors name the
column on that one line.

The puzzle is the question. A saved answer is checked against it (no mark on a clue cell) and kept in
the notes: its rows, and whether its mines fit every clue ("verified") or which clue they break. What
follows the answer (pzprjs's trial data, history) is ignored. The writer puts a known mine in the
answer as '#' (read back as an unknown cell, the answer being a note) and cannot hold the total.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO, Tuple

import numpy as np

from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle, neighbour_count
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..registry import CERTAIN, LIKELY, NO, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at
from .puzzlink import mines_losses

HEADERS = ("pzprv3", "pzprv3.1")
Row = List[Tuple[str, int]]     # (token, offset in the text)


def _lines(text: str) -> List[Tuple[int, str]]:
    """(offset, line) of every line; a first line in the one-line form is split at its '/'s."""
    first, newline, rest = text.partition("\n")
    if _one_line(first):
        # '/' -> '\n' keeps every offset, so errors still point into the one line the user has
        text = first.replace("/", "\n") + newline + rest
    return [(off, line.rstrip()) for off, line in lines_with_offsets(text)]


def _one_line(first: str) -> bool:
    """Whether the first line is pzprjs's one-line form, 'pzprv3/mines/ROWS/COLS/row /row /...'."""
    return first.lstrip("\ufeff").strip().split("/", 1)[0] in HEADERS and "/" in first


def _header(lines: List[Tuple[int, str]], text: str, source: Optional[str]) -> Tuple[int, int]:
    if len(lines) < 4:
        raise fail("a pzprv3 file starts with 4 lines: pzprv3, the puzzle type, the row count, the column count",
                   text, len(text), source)
    (o0, tag), (o1, pid), (o2, rows_s), (o3, cols_s) = lines[:4]
    if tag.strip() not in HEADERS:
        raise fail(f"a pzprv3 file starts with the line 'pzprv3', not {tag.strip()[:20]!r}", text, o0, source)
    if pid.strip() != "mines":
        raise fail(f"this pzprv3 file holds a {pid.strip()[:20]!r} puzzle, not Minesweeper ('mines')", text, o1,
                   source)
    sizes: List[int] = []
    for off, value, what in ((o2, rows_s.strip(), "row count"), (o3, cols_s.strip(), "column count")):
        if not (value.isascii() and value.isdigit()) or len(value) > 9 or int(value) < 1:
            raise fail(f"line {len(sizes) + 3} must be the {what}, a whole number from 1 up, not {value[:20]!r}",
                       text, off, source)
        sizes.append(int(value))
    why = too_many_cells(sizes[0], sizes[1])
    if why:
        raise fail(why, text, o2, source)
    return sizes[0], sizes[1]


def _row(off: int, line: str, cols: int, text: str, source: Optional[str], what: str) -> Row:
    tokens: Row = []
    pos = 0
    for part in line.split(" "):
        if part:
            tokens.append((part, off + pos))
        pos += len(part) + 1
    if len(tokens) != cols:
        raise fail(f"this {what} row has {plural(len(tokens), 'cell')}, the board has {cols} columns", text,
                   off + len(line), source)
    return tokens


def _question_cell(token: str, off: int, text: str, source: Optional[str]) -> str:
    if token == ".":
        return "?"
    if token == "-":
        return "."
    if token.isascii() and token.isdigit():
        if int(token) > 8:
            raise fail(f"the clue {int(token)} is not a Minesweeper count (0-8)", text, off, source)
        return str(int(token))
    raise fail(f"{token!r} is not a question cell ('.' empty, a number, '-' hidden clue)", text, off, source)


def _answer_notes(question: List[str], answer: List[Row], cols: int, text: str, source: Optional[str]) -> List[str]:
    marks = [[tok for tok, _ in row] for row in answer]
    for r, row in enumerate(answer):
        for c, (tok, off) in enumerate(row):
            if tok not in (".", "#", "+"):
                raise fail(f"{tok!r} is not an answer mark ('#' mine, '+' safe, '.' none)", text, off, source)
            if tok != "." and question[r][c] != "?":
                raise fail(f"the answer marks the clue cell at row {r + 1}, column {c + 1}", text, off, source)
    if all(tok == "." for row in marks for tok in row):
        return []
    mine = np.array([[tok == "#" for tok in row] for row in marks], dtype=bool)
    counts = neighbour_count(mine)
    notes = ["answer: " + "/".join("".join(row) for row in marks)]
    for r, qrow in enumerate(question):
        for c, ch in enumerate(qrow):
            if ch.isdigit() and int(counts[r, c]) != int(ch):
                notes.append(f"answer: its {plural(int(mine.sum()), 'mine')} break the clue {ch} at row {r + 1}, "
                             f"column {c + 1} ({int(counts[r, c])} marked around it)")
                return notes
    notes.append(f"answer: verified, its {plural(int(mine.sum()), 'mine')} fit every clue")
    return notes


def read_pzprv3(text: str, source: str = "<string>") -> Puzzle:
    """Parse a pzprjs file of a Minesweeper puzzle: the question is the puzzle, the answer becomes notes."""
    text = normalise_newlines(text)
    lines = _lines(text)
    rows, cols = _header(lines, text, source)
    body = lines[4:]
    while body and not body[-1][1].strip():
        body.pop()
    if len(body) < rows:
        raise fail(f"the header promises {plural(rows, 'row')} and the file ends after {len(body)}", text,
                   len(text), source)
    question_rows = [_row(off, line, cols, text, source, "question") for off, line in body[:rows]]
    question = ["".join(_question_cell(tok, off, text, source) for tok, off in row) for row in question_rows]
    notes: List[str] = []
    rest = body[rows:]
    if len(rest) >= rows and all(line.strip() for _, line in rest[:rows]) and rest[0][1].strip()[:1] in ".#+":
        answer = [_row(off, line, cols, text, source, "answer") for off, line in rest[:rows]]
        notes = _answer_notes(question, answer, cols, text, source)
    offs = [[off for _, off in row] for row in question_rows]
    return puzzle_at(question, lambda r, c: offs[r][c], text, source, notes=notes)


def write_pzprv3(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write a pzprv3 file: the question, then an answer holding the known mines as '#'."""
    lines = ["pzprv3", "mines", str(puzzle.rows), str(puzzle.cols)]
    question = {"?": ".", "*": ".", ".": "-"}
    for r in range(puzzle.rows):
        lines.append("".join(question.get(ch, ch) + " " for ch in puzzle.row(r)))
    for r in range(puzzle.rows):
        lines.append("".join(("#" if ch == "*" else ".") + " " for ch in puzzle.row(r)))
    out.write("\n".join(lines) + "\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = [item.replace("written as empty cells", "written as '#' in the answer, read back as unknown cells")
            for item in mines_losses(puzzle)]
    return lost


def detect_pzprv3(text: str) -> float:
    """CERTAIN for a pzprv3 file of a 'mines' puzzle; LIKELY for one of another type (its reader says so)."""
    lines = normalise_newlines(text[:200]).lstrip("\ufeff").split("\n")
    head = lines[0].split("/") if _one_line(lines[0]) else lines
    if not head or head[0].strip() not in HEADERS:
        return NO
    return CERTAIN if len(head) > 1 and head[1].strip() == "mines" else LIKELY


register_format("pzprv3", reader=read_pzprv3, writer=write_pzprv3, detect=detect_pzprv3,
                losses=_losses,
                description="pzprjs saved file of a 'mines' puzzle: pzprv3, mines, rows, cols, question rows "
                            "('.' unknown, digits, '-' hidden clue = safe), answer rows kept as notes")
