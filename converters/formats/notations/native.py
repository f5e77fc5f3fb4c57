"""mineconv's native text notation (.txt, .mines) and its canonical form."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, List, Optional, TextIO, Tuple

from lark import Lark
from lark.exceptions import UnexpectedInput

from ...core.errors import MineconvError, PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import grammar_text, normalise_newlines, syntax_error
from ..registry import LIKELY, NO, POSSIBLE, WEAK, register_format

_BAD_CELL = re.compile(r"[^?0-8*.]")
_NOT_PLAIN_BLOCK = re.compile(r"[^?0-8*.\n]")  # a block of plain rows holds only cell symbols and line ends
_HEADER_KEYS = ("mines", "name", "rows", "cols", "start", "wires")
_START = re.compile(r"([0-9]+)[ \t]*,[ \t]*([0-9]+)")
_WIRE = re.compile(r"([0-9]+)=([0-9]+),([0-9]+)")


def _fields(row: str) -> Tuple[List[str], List[int]]:
    """Split a separated row into fields and their 0-based start offsets."""
    if "\t" in row:
        sep = "\t"
    elif "," in row:
        sep = ","
    else:
        out, starts = [], []
        for m in re.finditer(r"\S+", row):
            out.append(m.group())
            starts.append(m.start())
        return out, starts
    out, starts, pos = [], [], 0
    for part in row.split(sep):
        stripped = part.strip(" ")
        lead = len(part) - len(part.lstrip(" "))
        out.append(stripped)
        starts.append(pos + lead)
        pos += len(part) + 1
    return out, starts


def decode_row(row: str) -> Tuple[str, List[int]]:
    """Cell symbols of one grid row and each cell's 0-based offset in the row text.

    Raises PuzzleSyntaxError (column only) at the first symbol that is not a cell.
    """
    if "\t" not in row and "," not in row and " " not in row:
        bad = _BAD_CELL.search(row)
        if bad:
            raise PuzzleSyntaxError(f"{bad.group()!r} is not a cell symbol (expected ? 0-8 * .)",
                                    column=bad.start() + 1)
        return row, []  # offsets are the identity; computed lazily on error
    fields, starts = _fields(row)
    cells = []
    for text, start in zip(fields, starts):
        if text == "":
            cells.append("?")  # an empty field in the tab/comma layout is an unknown cell
        elif len(text) == 1 and not _BAD_CELL.match(text):
            cells.append(text)
        else:
            what = "a field holds more than one cell" if len(text) > 1 and not _BAD_CELL.search(text) \
                else f"{text!r} is not a cell symbol (expected ? 0-8 * .)"
            raise PuzzleSyntaxError(what, column=start + 1)
    return "".join(cells), starts


@lru_cache(maxsize=None)
def _parser() -> Lark:
    """The native grammar's LALR parser: tokens carry their positions, so no tree positions are needed."""
    return Lark(grammar_text("native"), parser="lalr", lexer="basic", propagate_positions=False,
                maybe_placeholders=False)


def read_native(text: str, source: str = "<string>") -> Puzzle:
    """Parse the native text notation."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "puzzle text") from None
    notes: List[str] = []
    header: dict = {}
    rows: List[str] = []
    # where rows came from: (first row, line, column offset, cell offsets or [] for the identity); a block
    # of plain rows is one entry, its later rows on the following lines at column 1
    row_pos: List[Tuple[int, int, int, List[int]]] = []

    def line_text(line: int) -> str:
        return body.split("\n")[line - 1]

    def fail(msg: str, line: int, col: Optional[int]) -> MineconvError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=line_text(line))

    for item in tree.children:
        toks = item.children
        tok = toks[0]
        if item.data == "comment":
            notes.append(_note(str(tok)))
            continue
        if item.data == "header":
            if rows:
                raise fail("a 'key: value' header line after the grid has started", tok.line, tok.column)
            key, _, value = str(tok).partition(":")
            key, value = key.strip().lower(), value.strip()
            if key not in _HEADER_KEYS:
                raise fail(f"unknown header key {key!r} (known: {', '.join(_HEADER_KEYS)})", tok.line, tok.column)
            if key in header:
                raise fail(f"header {key!r} given twice", tok.line, tok.column)
            if key == "name":
                header[key] = value
            elif key == "start":
                m = _START.fullmatch(value)
                if not m:
                    raise fail(f"header 'start' needs the first click as ROW,COL (0-based), got {value!r}",
                               tok.line, tok.column + str(tok).index(":") + 1)
                header[key] = (int(m.group(1)), int(m.group(2)), tok.line,
                               tok.column + str(tok).index(value))
            elif key == "wires":
                header[key] = (_wires(value, lambda msg: fail(msg, tok.line, tok.column)), tok.line, tok.column)
            else:
                if not re.fullmatch(r"[0-9]+", value):
                    raise fail(f"header {key!r} needs a whole number >= 0, got {value!r}", tok.line,
                               tok.column + str(tok).index(":") + 1)
                header[key] = int(value)
        else:
            line, col0 = tok.line, tok.column
            block = str(tok)
            split = block.split("\n")
            if not _NOT_PLAIN_BLOCK.search(block):
                width = len(rows[0]) if rows else len(split[0])
                if all(len(row) == width for row in split):  # else the loop below names the ragged row
                    row_pos.append((len(rows), line, col0, []))
                    rows.extend(split)
                    split = []
            for s in split:
                s = s.rstrip(" ")  # the spaces before a line end inside the block
                try:
                    cells, offsets = decode_row(s)
                except PuzzleSyntaxError as exc:
                    raise fail(exc.message, line, col0 + (exc.column or 1) - 1) from None
                if rows and len(cells) != len(rows[0]):
                    raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                               "(the grid must be rectangular)", line, col0)
                rows.append(cells)
                row_pos.append((len(rows) - 1, line, col0, offsets))
                line, col0 = line + 1, 1
        if len(toks) > 1:  # a trailing comment after a header or a row
            notes.append(_note(str(toks[1])))
    if not rows:
        raise PuzzleSyntaxError("no grid rows found", source=source, line=body.count("\n") or 1, column=1)
    for key, actual in (("rows", len(rows)), ("cols", len(rows[0]))):
        if key in header and header[key] != actual:
            lines = body.split("\n")
            ln = next(i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith(key))
            raise fail(f"header says {key}: {header[key]} but the grid has {actual}", ln, 1)
    start = None
    if "start" in header:
        r, c, ln, col = header["start"]
        if not (r < len(rows) and c < len(rows[0])):
            raise fail(f"the first click 'start: {r},{c}' is outside the {len(rows)} x {len(rows[0])} grid "
                       "(row and column count from 0)", ln, col)
        if rows[r][c] == "*":
            raise fail(f"the first click 'start: {r},{c}' is on a known mine", ln, col)
        start = (r, c)
    wires: Tuple[Tuple[int, int], ...] = ()
    if "wires" in header:
        wires, ln, col = header["wires"]
        try:
            Puzzle(len(rows), len(rows[0]), "".join(rows), wires=wires)
        except PuzzleError as exc:
            raise fail(f"header 'wires': {exc.message}", ln, col) from None
    try:
        return Puzzle.from_rows(rows, mines=header.get("mines"), name=header.get("name"), notes=notes,
                                start=start).replace(wires=wires)
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            first, line, col0, offsets = next(pos for pos in reversed(row_pos) if pos[0] <= r)
            if r > first:  # a later row of a plain block
                line, col0 = line + r - first, 1
            col = col0 + (offsets[c] if offsets else c)
            raise PuzzleSyntaxError(exc.message, source=source, line=line, column=col,
                                    line_text=line_text(line)) from None
        lines = body.split("\n")
        ln = next((i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith("mines")), 1)
        raise PuzzleSyntaxError(exc.message, source=source, line=ln, column=1, line_text=lines[ln - 1]) from None


def _wires(value: str, fail: Callable[[str], MineconvError]) -> Tuple[Tuple[int, int], ...]:
    """The cells of 'wires: 1=R,C 2=R,C ...' (variables numbered 1, 2, ... in order)."""
    wires = []
    for i, item in enumerate(value.split(), 1):
        m = _WIRE.fullmatch(item)
        if not m or int(m.group(1)) != i:
            raise fail(f"header 'wires' needs VARIABLE=ROW,COL for variables 1, 2, ... in order; item {i} "
                       f"is {item!r}")
        wires.append((int(m.group(2)), int(m.group(3))))
    return tuple(wires)


def _note(comment: str) -> str:
    body = comment[1:]
    return body[1:] if body.startswith(" ") else body


def canonical_text(puzzle: Puzzle) -> str:
    """The canonical text form: '#' notes, 'name:'/'mines:'/'start:' headers, then R lines of C symbols."""
    parts = [f"# {n}" if n else "#" for n in puzzle.notes]
    if puzzle.name is not None:
        parts.append(f"name: {puzzle.name}")
    if puzzle.mines is not None:
        parts.append(f"mines: {puzzle.mines}")
    if puzzle.start is not None:
        parts.append(f"start: {puzzle.start[0]},{puzzle.start[1]}")
    if puzzle.wires:
        parts.append("wires: " + " ".join(f"{i}={r},{c}" for i, (r, c) in enumerate(puzzle.wires, 1)))
    head = "\n".join(parts) + "\n" if parts else ""
    return head + "\n".join(puzzle.grid_lines) + "\n"


def write_native(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the canonical native text form."""
    out.write(canonical_text(puzzle))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    if puzzle.name is not None and (puzzle.name != puzzle.name.strip() or "#" in puzzle.name):
        lost.append("a name with surrounding spaces or '#'")
    return lost


def detect_native(text: str) -> float:
    """LIKELY for rows with '?' or a 'key: value' header, POSSIBLE for a bare grid others share, WEAK if ragged."""
    particular = False
    plain_widths = set()
    seen_row = False
    head = text[:1 << 16]
    lines = normalise_newlines(head).split("\n")
    if len(head) < len(text):
        lines.pop()  # cut short: the last line's width says nothing
    for line in lines[:200]:
        s = line.split("#", 1)[0].rstrip(" ")
        if not s.strip():
            continue
        if re.match(r"[A-Za-z][A-Za-z0-9_\-]*[ \t]*:", s):
            if s.split(":")[0].strip().lower() not in _HEADER_KEYS:
                return NO
            particular = True
            continue
        if not re.fullmatch(r"[?0-8*.\t, ]+", s):
            return NO
        seen_row = True
        particular = particular or "?" in s
        if not re.search(r"[\t, ]", s):
            plain_widths.add(len(s))
    if not seen_row:
        return NO
    if len(plain_widths) > 1:
        return WEAK  # plain rows of different widths are no grid (hakank's count lines "6" over rows, say)
    # a grid of '.' and digits alone is also the dots notation, where '.' is unknown: the registry
    # compares both readings
    return LIKELY if particular else POSSIBLE


register_format("native", [".txt", ".mines"], "puzzle", reader=read_native, writer=write_native,
                detect=detect_native, losses=_losses, aliases=("text", "txt"), keeps_start=True,
                keeps_wires=True,
                description="mineconv text: ? unknown, 0-8 count, * mine, . safe; '#' notes, key: value headers")
