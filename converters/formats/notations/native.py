"""mineconv's native text notation (.txt, .mines) and its canonical form."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, TextIO, Tuple

from ...core.errors import MineconvError, PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import grammar_text, normalise_newlines, syntax_error
from ..mine_layouts import reveal_layout
from ..registry import LIKELY, NO, POSSIBLE, WEAK, register_format
from .parse_trees import line_column, rules, terminals

if TYPE_CHECKING:
    from lark import Lark

_BAD_CELL = re.compile(r"[^?0-8*.]")
_ROW_START = frozenset("?012345678*.")
_HEADER_KEYS = ("mines", "name", "rows", "cols", "start", "wires")
_WIRE = re.compile(r"([0-9]+)=([0-9]+),([0-9]+)")
_START = re.compile(r"([0-9]+)[ \t]*,[ \t]*([0-9]+)")
# a line the fast path reads without Lark: a comment from column 1, a header without a comment, a row of
# cell symbols alone (plain_rows, on whole blocks), or nothing (any other line, and the whole text goes to
# the grammar)
_SIMPLE_LINE = re.compile(r"(#.*)|([A-Za-z][A-Za-z0-9_\-]*[ \t]*:[^#]*)|")

# one line's item as the grammar parses it: (rule, token text, line, column, trailing comment or None)
Item = Tuple[str, str, int, int, Optional[str]]


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
    from lark import Lark
    return Lark(grammar_text("native"), parser="lalr", lexer="basic", propagate_positions=False,
                maybe_placeholders=False)


def simple_items(body: str) -> Optional[List[Item]]:
    """The items of a text made of simple lines only, as the grammar would give them, without Lark (importing
    and building it costs more than reading a small board); None when some line is not simple.

    Consecutive rows are one item, as the grammar's ROWS token spans a block of them.
    """
    items: List[Item] = []
    block: List[str] = []
    lines = body.split("\n")
    lines.pop()   # the body ends with a line end
    for number, line in enumerate(lines, 1):
        if line[:1] in _ROW_START:
            # a row of cell symbols alone, checked block by block in bulk below (a line that starts with a
            # symbol fits no branch of _SIMPLE_LINE)
            block.append(line)
            continue
        m = _SIMPLE_LINE.fullmatch(line)
        if m is None:
            return None
        if block:
            rows = "\n".join(block)
            if not plain_rows(rows):
                return None
            items.append(("rows", rows, number - len(block), 1, None))
            block = []
        if m.lastindex == 1:
            items.append(("comment", line, number, 1, None))
        elif m.lastindex == 2:
            items.append(("header", line, number, 1, None))
    if block:
        rows = "\n".join(block)
        if not plain_rows(rows):
            return None
        items.append(("rows", rows, len(lines) - len(block) + 1, 1, None))
    return items


_PLAIN = b"?012345678*.\n"


def plain_rows(block: str) -> bool:
    """Whether a block of rows holds only cell symbols and line ends (one bytes pass: a regular expression
    looks at a million-cell block ~10x slower)."""
    try:
        return not block.encode("ascii").translate(None, _PLAIN)
    except UnicodeEncodeError:
        return False


def parsed_items(body: str, source: str) -> List[Item]:
    """The items of any native text, parsed by the grammar."""
    from lark.exceptions import UnexpectedInput
    try:
        tree = _parser().parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "puzzle text") from None
    items: List[Item] = []
    for item in rules(tree):
        toks = terminals(item)
        line, column = line_column(toks[0])
        items.append((item.data, str(toks[0]), line, column, str(toks[1]) if len(toks) > 1 else None))
    return items


def read_native(text: str, source: str = "<string>", reveal_from: Optional[str] = None) -> Puzzle:
    """Parse the native text notation; with reveal_from, a whole layout is opened at that cell (or 'start')."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    items = simple_items(body)
    if items is None:
        items = parsed_items(body, source)
    reading = _Reading(body, source)
    for kind, token, line, column, comment in items:
        if kind == "comment":
            reading.notes.append(_note(token))
            continue
        if kind == "header":
            reading.add_header(token, line, column)
        else:
            reading.add_rows(token, line, column)
        if comment is not None:  # a trailing comment after a header or a row
            reading.notes.append(_note(comment))
    puzzle = reading.puzzle()
    return puzzle if reveal_from is None else reveal_layout(puzzle, reveal_from)


class _Reading:
    """A native text being read: its notes, headers and rows so far, and where each row came from."""

    def __init__(self, body: str, source: str) -> None:
        self.body, self.source = body, source
        self.notes: List[str] = []
        self.given: Set[str] = set()  # the header keys seen
        self.counts: Dict[str, int] = {}  # the whole-number headers: mines, rows, cols
        self.name: Optional[str] = None
        self.start: Optional[Tuple[int, int, int, int]] = None  # row, col, and the line and column saying so
        # the cells of a reduced formula's variables, and the line and column saying so
        self.wires: Optional[Tuple[Tuple[Tuple[int, int], ...], int, int]] = None
        self.rows: List[str] = []
        # where rows came from: (first row, line, column offset, cell offsets or [] for the identity); a
        # block of plain rows is one entry, its later rows on the following lines at column 1
        self.row_pos: List[Tuple[int, int, int, List[int]]] = []

    def line_text(self, line: int) -> str:
        """The text of a 1-based line."""
        return self.body.split("\n")[line - 1]

    def fail(self, msg: str, line: int, col: Optional[int]) -> MineconvError:
        """A syntax error at a place in the text."""
        return PuzzleSyntaxError(msg, source=self.source, line=line, column=col, line_text=self.line_text(line))

    def add_header(self, tok: str, line: int, column: int) -> None:
        """Take one 'key: value' header line (the token's text, where it starts)."""
        if self.rows:
            raise self.fail("a 'key: value' header line after the grid has started", line, column)
        key, _, value = tok.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key not in _HEADER_KEYS:
            raise self.fail(f"unknown header key {key!r} (known: {', '.join(_HEADER_KEYS)})", line, column)
        if key in self.given:
            raise self.fail(f"header {key!r} given twice", line, column)
        if key == "name":
            self.name = value
        elif key == "start":
            m = _START.fullmatch(value)
            if not m:
                raise self.fail(f"header 'start' needs the first click as ROW,COL (0-based), got {value!r}",
                                line, column + tok.index(":") + 1)
            self.start = (int(m.group(1)), int(m.group(2)), line, column + tok.index(value))
        elif key == "wires":
            self.wires = (self.wire_cells(value, line, column), line, column)
        else:
            if not re.fullmatch(r"[0-9]+", value):
                raise self.fail(f"header {key!r} needs a whole number >= 0, got {value!r}", line,
                                column + tok.index(":") + 1)
            self.counts[key] = int(value)
        self.given.add(key)

    def wire_cells(self, value: str, line: int, column: int) -> Tuple[Tuple[int, int], ...]:
        """The cells of 'wires: 1=R,C 2=R,C ...' (variables numbered 1, 2, ... in order)."""
        wires = []
        for i, item in enumerate(value.split(), 1):
            m = _WIRE.fullmatch(item)
            if not m or int(m.group(1)) != i:
                raise self.fail(f"header 'wires' needs VARIABLE=ROW,COL for variables 1, 2, ... in order; item "
                                f"{i} is {item!r}", line, column)
            wires.append((int(m.group(2)), int(m.group(3))))
        return tuple(wires)

    def add_rows(self, block: str, line: int, col0: int) -> None:
        """Take a block of grid rows (the token's text, where it starts): a plain block whole, any other row by row."""
        rows = self.rows
        split = block.split("\n")
        if plain_rows(block):
            width = len(rows[0]) if rows else len(split[0])
            if set(map(len, split)) == {width}:  # else the loop below names the ragged row
                self.row_pos.append((len(rows), line, col0, []))
                rows.extend(split)
                split = []
        for s in split:
            s = s.rstrip(" ")  # the spaces before a line end inside the block
            try:
                cells, offsets = decode_row(s)
            except PuzzleSyntaxError as exc:
                raise self.fail(exc.message, line, col0 + (exc.column or 1) - 1) from None
            if rows and len(cells) != len(rows[0]):
                raise self.fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                                "(the grid must be rectangular)", line, col0)
            rows.append(cells)
            self.row_pos.append((len(rows) - 1, line, col0, offsets))
            line, col0 = line + 1, 1

    def first_click(self) -> Optional[Tuple[int, int]]:
        """The 'start' header's cell, checked against the grid, or None without one."""
        if self.start is None:
            return None
        rows = self.rows
        r, c, ln, col = self.start
        if not (r < len(rows) and c < len(rows[0])):
            raise self.fail(f"the first click 'start: {r},{c}' is outside the {len(rows)} x {len(rows[0])} grid "
                            "(row and column count from 0)", ln, col)
        if rows[r][c] == "*":
            raise self.fail(f"the first click 'start: {r},{c}' is on a known mine", ln, col)
        return (r, c)

    def puzzle(self) -> Puzzle:
        """The puzzle read, its errors pointed at the cell or header they are about."""
        rows = self.rows
        if not rows:
            raise PuzzleSyntaxError("no grid rows found", source=self.source, line=self.body.count("\n") or 1,
                                    column=1)
        for key, actual in (("rows", len(rows)), ("cols", len(rows[0]))):
            if key in self.counts and self.counts[key] != actual:
                lines = self.body.split("\n")
                ln = next(i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith(key))
                raise self.fail(f"header says {key}: {self.counts[key]} but the grid has {actual}", ln, 1)
        start = self.first_click()
        try:
            puzzle = Puzzle.from_rows(rows, mines=self.counts.get("mines"), name=self.name, notes=self.notes,
                                      start=start)
        except PuzzleError as exc:
            raise self.located(exc) from None
        if self.wires is None:
            return puzzle
        wires, line, column = self.wires
        try:
            return puzzle.replace(wires=wires)
        except PuzzleError as exc:
            raise self.fail(f"header 'wires': {exc.message}", line, column) from None

    def located(self, exc: PuzzleError) -> PuzzleSyntaxError:
        """The puzzle's complaint placed at its cell, or at the 'mines' header when it names no cell."""
        if exc.cell is not None:
            r, c = exc.cell
            first, line, col0, offsets = next(pos for pos in reversed(self.row_pos) if pos[0] <= r)
            if r > first:  # a later row of a plain block
                line, col0 = line + r - first, 1
            col = col0 + (offsets[c] if offsets else c)
            return PuzzleSyntaxError(exc.message, source=self.source, line=line, column=col,
                                     line_text=self.line_text(line))
        lines = self.body.split("\n")
        ln = next((i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith("mines")), 1)
        return PuzzleSyntaxError(exc.message, source=self.source, line=ln, column=1, line_text=lines[ln - 1])


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


register_format("native", reader=read_native, writer=write_native,
                detect=detect_native, losses=_losses, keeps_start=True, keeps_wires=True,
                read_options={"reveal_from": "on a whole layout (every cell a count or '*', as `generate` writes): "
                                             "the state after opening R,C, or 'start' (the start: header)"},
                description="mineconv text: ? unknown, 0-8 count, * mine, . safe; '#' notes, key: value headers")
