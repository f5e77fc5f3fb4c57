"""Puzzle apps' level files: XML whose `<level id="..">` elements hold a board's rows in a CDATA block.

    <levels>
      <help><![CDATA[Numbers count the mines around them.]]></help>     (not a level: skipped)
      <level id="1"><![CDATA[
    1 1`                        one row a line, ended by a backquote (one version of the app) or a
     2 `                        backslash (another); a space is an unknown cell, a digit 0-8 a clue
    1  `
    ]]></level>
    </levels>

Built from the description in issue 20: no real file of this family turned up in three sessions of search,
so only what that description states is read, and everything else is refused with a located error rather
than guessed: a level's rows all end with the same mark, every row has the same width, a cell is a space or
a digit, an indented row is not trimmed (its spaces would be cells). Rows may also follow each other on one
line (`1 1` 2 ``). A level's `id` is its name; the total mine count is not given. A file with several levels
is a collection (--puzzle N, `mineconv info`). The XML is scanned with regular expressions, not parsed by an
XML library: no entity is expanded and every error points at its line and column. The writer puts a
puzzle's clues and unknown cells back in this layout, with backquotes.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any, List, Optional, TextIO, Tuple

from ...core.errors import AmbiguousInputWarning
from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..collection import PUZZLE_HELP, build_all, pick
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..registry import LIKELY, NO, POSSIBLE, register_format
from .pasted_grids import fail, puzzle_at

ENDS = "`\\"   # the row marks: a backquote in one version of the app, a backslash in another
_LEVEL = re.compile(r"""<level\b((?:[^<>"']|"[^"]*"|'[^']*')*)>""", re.I)
_CLOSE = re.compile(r"</level\s*>", re.I)
_CDATA_OPEN = "<![CDATA["
_CDATA_CLOSE = "]]>"
_ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)


@dataclass(frozen=True)
class Level:
    """One level: its id (None without one), rows of cells and where each row starts in the text."""

    ident: Optional[str]
    rows: Tuple[str, ...]
    offsets: Tuple[int, ...]
    number: int

    @property
    def label(self) -> str:
        """What `info` and --puzzle's warning call it: its id, or 'level k'."""
        return self.ident or f"level {self.number}"


def _rows(body: str, start: int, text: str, source: Optional[str]) -> Tuple[List[str], List[int]]:
    """The rows of one CDATA block (`start` is its offset in text): pieces ended by the level's mark."""
    marks = {ch for ch in ENDS if ch in body}
    if len(marks) > 1:
        second = max(body.index(ch) for ch in ENDS)   # where the mark the level began with changes
        raise fail("this level ends rows with both ` and \\: one mark or the other", text, start + second, source)
    if not marks:
        blank = not body.strip()
        raise fail("an empty level" if blank else "no row of this level ends with ` or \\ (the row mark)", text,
                   start, source)
    mark = marks.pop()
    rows: List[str] = []
    offs: List[int] = []
    pos = 0
    for piece in body.split(mark)[:-1]:
        at = start + pos
        pos += len(piece) + 1
        lead = len(piece) - len(piece.lstrip("\n"))
        row = piece[lead:]
        if "\n" in row:
            raise fail(f"a row ends at the end of its line without the mark {mark}", text,
                       at + lead + row.index("\n"), source)
        if not row:
            raise fail(f"an empty row (a {mark} with no cells before it)", text, at + lead, source)
        bad = next((j for j, ch in enumerate(row) if ch != " " and ch not in "012345678"), None)
        if bad is not None:
            raise fail(f"{row[bad]!r} is not a level cell (a space unknown, a digit 0-8 a clue)", text,
                       at + lead + bad, source)
        if rows and len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row of the level has {len(rows[0])}",
                       text, at + lead + min(len(row), len(rows[0])), source)
        rows.append(row)
        offs.append(at + lead)
    tail = body[pos:]
    if tail.strip():
        raise fail(f"text after the level's last row mark {mark}", text, start + pos + (len(tail) - len(tail.lstrip())),
                   source)
    why = too_many_cells(len(rows), len(rows[0]))
    if why:
        raise fail(why, text, start, source)
    return rows, offs


def _levels(text: str, source: Optional[str]) -> List[Level]:
    levels: List[Level] = []
    pos = 0
    while True:
        m = _LEVEL.search(text, pos)
        if m is None:
            return levels
        attrs = m.group(1)
        if attrs.rstrip().endswith("/"):
            raise fail("an empty <level/> element: a level's rows sit in a CDATA block inside it", text, m.start(),
                       source)
        close = _CLOSE.search(text, m.end())
        if close is None:
            raise fail("this <level> is never closed with </level>", text, m.start(), source)
        inner = text[m.end():close.start()]
        opened = inner.find(_CDATA_OPEN)
        if opened < 0 or inner[:opened].strip():
            at = m.end() + (opened if opened >= 0 and inner[:opened].strip() == "" else len(inner) - len(inner.lstrip()))
            raise fail("expected the level's rows in a <![CDATA[ ... ]]> block", text, at, source)
        body_start = m.end() + opened + len(_CDATA_OPEN)
        ended = text.find(_CDATA_CLOSE, body_start, close.start())
        if ended < 0:
            raise fail("this CDATA block is not closed with ]]> before </level>", text, body_start, source)
        after = text[ended + len(_CDATA_CLOSE):close.start()]
        if after.strip():
            raise fail("only the CDATA block may sit inside a <level>", text,
                       ended + len(_CDATA_CLOSE) + len(after) - len(after.lstrip()), source)
        rows, offs = _rows(text[body_start:ended], body_start, text, source)
        _warn_indented(rows, m.start(), text, source)
        ident = _ID.search(attrs)
        name = _unescape(next((g for g in ident.groups() if g is not None), "")) if ident else ""
        levels.append(Level(name or None, tuple(rows), tuple(offs), len(levels) + 1))
        pos = close.end()


def _warn_indented(rows: List[str], level_at: int, text: str, source: Optional[str]) -> None:
    """Rows that all start with the <level> line's own indentation were most likely indented with the XML:
    the spaces are still read as unknown cells (the format's rule), but not in silence."""
    line_start = text.rfind("\n", 0, level_at) + 1
    indent = len(text[line_start:level_at]) - len(text[line_start:level_at].lstrip(" "))
    if indent and text[line_start:level_at].strip() == "" and all(row.startswith(" " * indent) for row in rows):
        line = text.count("\n", 0, level_at) + 1
        warnings.warn(AmbiguousInputWarning(
            f"{source or '<string>'}:{line}: every row of this level starts with {plural(indent, 'space')}, as the "
            f"<level> line is indented: read as {plural(indent, 'column')} of unknown cells (a space is an unknown "
            "cell); if they are the XML's indentation, remove them"), stacklevel=5)


_ENTITIES = {"&amp;": "&", "&quot;": '"', "&apos;": "'", "&lt;": "<", "&gt;": ">"}


def _unescape(value: str) -> str:
    """An attribute's text with XML's five named entities replaced (no other entity is expanded)."""
    return re.sub(r"&(?:amp|quot|apos|lt|gt);", lambda m: _ENTITIES[m.group(0)], value)


def _build(level: Level, text: str, source: Optional[str]) -> Puzzle:
    cells = [row.replace(" ", "?") for row in level.rows]
    return puzzle_at(cells, lambda r, c: level.offsets[r] + c, text, source, name=level.ident)


def puzzles(text: str, *, source: str = "<string>", **options: Any) -> List[Tuple[str, Puzzle]]:
    """Every level of the file, as (its id, puzzle), in the file's order (help and other elements skipped)."""
    text = normalise_newlines(text)
    return build_all(_levels(text, source), lambda lv: lv.label, lambda lv: _build(lv, text, source))


def read_level_xml(text: str, source: str = "<string>", puzzle: Optional[Any] = None) -> Puzzle:
    """Parse one level of an app's level file (the first, or the one `puzzle` names, 1-based)."""
    text = normalise_newlines(text)
    found = _levels(text, source)
    _, level = pick(found, [lv.label for lv in found], puzzle, text=text, source=source, what="level")
    return _build(level, text, source)


def write_level_xml(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """One <level> in a <levels> file: rows of spaces (unknown) and digits, each ended by a backquote; the
    puzzle's name is its id (no id without a name)."""
    ident = "" if puzzle.name is None else ' id="{}"'.format(
        puzzle.name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;"))
    rows = "".join(re.sub(r"[^0-8]", " ", row) + "`\n" for row in puzzle.grid_lines)
    out.write(f"<levels>\n<level{ident}><![CDATA[\n{rows}]]></level>\n</levels>\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = lost_parts(puzzle, mines_as="a space, unknown", safe_as="a space, unknown")
    return [item for item in lost if item != "the puzzle name"]   # the name is the level's id


def detect_level_xml(text: str) -> float:
    """LIKELY for a <level> element holding a CDATA block of row-marked rows; POSSIBLE without the marks."""
    head = text[:1 << 16]
    m = _LEVEL.search(head)
    if m is None:
        return NO
    rest = head[m.end():m.end() + 4000]
    if not rest.lstrip().startswith(_CDATA_OPEN):
        return NO
    body = rest.lstrip()[len(_CDATA_OPEN):].split(_CDATA_CLOSE, 1)[0]
    if re.search(r"(?:^|\n)[ 0-8]+[`\\]", body):
        return LIKELY
    return POSSIBLE


# `.xml` alone is XCSP3's model extension for writing; a level file named *.xml is read by its content
register_format("level-xml", reader=read_level_xml, writer=write_level_xml,
                detect=detect_level_xml, losses=_losses, read_options={"puzzle": PUZZLE_HELP}, collection=puzzles,
                description="puzzle apps' level files: <level id=..> elements, rows in a CDATA block, each "
                            "ended by ` or \\ (space unknown, digit a clue); several per file (--puzzle N)")
