"""The native reader (a block of grid rows is one Lark token) against the token-per-row reader it replaced.

The reference is the previous grammar and reader, kept here verbatim in substance: on random texts
(layouts, separators, headers before and after the grid, comments, bad symbols, ragged rows, CR/LF, BOM)
both must give the same puzzle, or the same error text (message, line, column, offending line).
"""
from __future__ import annotations

import random
import re
from typing import List, Optional, Tuple

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from mineconv.core.errors import MineconvError, PuzzleError, PuzzleSyntaxError
from mineconv.formats.notations.native import decode_row, read_native
from mineconv.formats.grammar import grammar_text, normalise_newlines, syntax_error
from mineconv.core.puzzle import Puzzle
from mineconv.core.wording import plural

ROW_GRAMMAR = r"""
start: (_item? _NL)*
_item: comment | header | row
comment: COMMENT
header: HEADER COMMENT?
row: ROW COMMENT?
COMMENT: /#[^\n]*/
HEADER.2: /[A-Za-z][A-Za-z0-9_\-]*[ \t]*:[^#\n]*/
ROW: /[^#\n]*[^#\n ]/
_NL: /\n/
%ignore / +/
"""
_row_parser = Lark(ROW_GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True,
                   maybe_placeholders=False)
# the header keys the native notation knows, in the order its error message lists them
HEADER_KEYS = ("mines", "name", "rows", "cols", "start", "wires")


def note(comment: str) -> str:
    """A '#' comment as a note: the '#' and one space after it dropped."""
    body = comment[1:]
    return body[1:] if body.startswith(" ") else body


def reference_read(text: str, source: str = "<string>") -> Puzzle:
    """The previous reader: one ROW token per grid line."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    try:
        tree = _row_parser.parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "puzzle text") from None
    lines = body.split("\n")
    notes: List[str] = []
    header: dict = {}
    rows: List[str] = []
    row_pos: List[Tuple[int, int, List[int]]] = []

    def fail(msg: str, line: int, col: Optional[int]) -> MineconvError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=lines[line - 1])

    for item in tree.children:
        toks = item.children
        tok = toks[0]
        if len(toks) > 1:
            notes.append(note(str(toks[1])))
        if item.data == "comment":
            notes.append(note(str(tok)))
        elif item.data == "header":
            if rows:
                raise fail("a 'key: value' header line after the grid has started", tok.line, tok.column)
            key, _, value = str(tok).partition(":")
            key, value = key.strip().lower(), value.strip()
            if key not in HEADER_KEYS:
                raise fail(f"unknown header key {key!r} (known: {', '.join(HEADER_KEYS)})", tok.line, tok.column)
            if key in header:
                raise fail(f"header {key!r} given twice", tok.line, tok.column)
            if key == "name":
                header[key] = value
            else:
                if not re.fullmatch(r"\d+", value):
                    raise fail(f"header {key!r} needs a whole number >= 0, got {value!r}", tok.line,
                               tok.column + str(tok).index(":") + 1)
                header[key] = int(value)
        else:
            try:
                cells, offsets = decode_row(str(tok))
            except PuzzleSyntaxError as exc:
                raise fail(exc.message, tok.line, tok.column + (exc.column or 1) - 1) from None
            if rows and len(cells) != len(rows[0]):
                raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} "
                           "(the grid must be rectangular)", tok.line, tok.column)
            rows.append(cells)
            row_pos.append((tok.line, tok.column, offsets))
    if not rows:
        raise PuzzleSyntaxError("no grid rows found", source=source, line=len(lines) - 1 or 1, column=1)
    for key, actual in (("rows", len(rows)), ("cols", len(rows[0]))):
        if key in header and header[key] != actual:
            ln = next(i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith(key))
            raise fail(f"header says {key}: {header[key]} but the grid has {actual}", ln, 1)
    try:
        return Puzzle.from_rows(rows, mines=header.get("mines"), name=header.get("name"), notes=notes)
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            line, col0, offsets = row_pos[r]
            raise PuzzleSyntaxError(exc.message, source=source, line=line,
                                    column=col0 + (offsets[c] if offsets else c),
                                    line_text=lines[line - 1]) from None
        ln = next((i + 1 for i, t in enumerate(lines) if t.strip().lower().startswith("mines")), 1)
        raise PuzzleSyntaxError(exc.message, source=source, line=ln, column=1, line_text=lines[ln - 1]) from None


def outcome(reader, text: str) -> tuple:
    """What a reader makes of a text: the puzzle's fields, or the error's class and full text."""
    try:
        p = reader(text, "in.txt")
        return ("ok", p.rows, p.cols, p.cells, p.mines, p.name, p.notes)
    except MineconvError as exc:
        assert exc.exit_status == 2
        return ("error", type(exc).__name__, str(exc))


PIECES = ["?", "1", "2", "0", "*", ".", "8", "3", " ", "  ", "\t", ",", "#", "x", "\n", "\n", "\n", "\n",
          "mines: 3", "name: a b", "rows: 2", "cols: 3", "colour: r", "\r\n", "a:", "mines: x", "#c\n", "??",
          "1?", "\ufeff", "\r"]


def random_text(rng: random.Random) -> str:
    """Noise, or a plausible board in some layout with optional headers, comments and noise after it."""
    noise = "".join(rng.choices(PIECES, k=rng.randint(0, 30)))
    if rng.random() < 0.4:
        return noise
    rows, cols = rng.randint(1, 5), rng.randint(1, 5)
    sep = rng.choice(["", "", " ", ",", "\t", ", "])
    lines = [rng.choice(["", "", " ", "  "]) + sep.join(rng.choices("??????0123456*.", k=cols))
             + rng.choice(["", "", " ", "  #c", " # n", "\t"]) for _ in range(rows)]
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, rows), rng.choice(["", "  ", "# mid", "mines: 2", "  mines: 2", "??"]))
    head = rng.choice(["", "# hi\n", "mines: 2\n", "name: q\nmines: 1\n", "rows: %d\ncols: %d\n" % (rows, cols)])
    tail = rng.choice(["", "\n", "\nmines: 3\n", "\n\n", "\n# end"])
    return head + "\n".join(lines) + tail + (noise if rng.random() < 0.3 else "")


@pytest.mark.parametrize("seed", range(4))
def test_block_reader_matches_row_reader(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1500):
        text = random_text(rng)
        assert outcome(read_native, text) == outcome(reference_read, text), repr(text)


def test_a_block_is_one_token() -> None:
    # the shipped grammar (grammars/native.lark) lexed as the reader's LALR parser lexes it
    native = Lark(grammar_text("native"), parser="lalr", lexer="basic", maybe_placeholders=False)
    tokens = [t.type for t in native.lex("# n\nmines: 3\n??1\n  ?2?  \n1,?,?\n\n???  # c\n??1\n")]
    assert tokens == ["COMMENT", "_NL", "HEADER", "_NL", "ROWS", "_NL", "_NL", "ROWS", "COMMENT", "_NL",
                      "ROWS", "_NL"]


SIMPLE_LINES = ["", "# a note", "#", "mines: 3", "name: q  ", "Rows:2", "??1", "*.?", "012345678", "?",
                "x:y", "mines: 3\t"]


@pytest.mark.parametrize("seed", range(3))
def test_the_fast_path_gives_the_grammars_items(seed: int) -> None:
    from mineconv.formats.notations.native import parsed_items, simple_items

    rng = random.Random(seed)
    simple = 0
    for _ in range(800):
        lines = rng.choices(SIMPLE_LINES, k=rng.randint(0, 8))
        if rng.random() < 0.3:   # a line the fast path must leave to the grammar
            lines.insert(rng.randint(0, len(lines)), rng.choice([" ??", "?? ", "1 2", "?? # c", "mines: 1 # c",
                                                                  " # c", "  ", "?,?", "a?"]))
        body = "\n".join(lines) + "\n"
        items = simple_items(body)
        if items is not None:
            simple += 1
            assert items == parsed_items(body, "<t>"), repr(body)
        elif rng.random() < 0.3:
            assert any(not re.fullmatch(r"#.*|[A-Za-z][\w\-]*[ \t]*:[^#]*|[?0-8*.]*", line) for line in lines)
    assert simple > 400
