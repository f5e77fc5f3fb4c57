"""GLPK MathProg data (.dat) in the layout of Chlond's minesweeper.mod, reader and writer.

Layout (a contract: the .mod writer embeds dat_section() and the solution readers rely on it)::

    # name: <name>                 (comment lines before 'data;' are the name and the notes)
    # <note>
    data;
    param n := C;                  (columns; Chlond's model is square and has only n)
    param m := R;                  (rows, written only when R != C; also read as 'rows'/'cols')
    param mines := N;              (total mines on the board, known mines included; only when known)
    param R :  1  2 ... C :=
       1      -1  2 ...            (-1 unexposed: unknown or a known mine; 0..8 the count shown;
       ...                          -2 known safe without a count: mineconv's extension)
    ;
    param M :  1  2 ... C :=       (1 = known mine, 0 otherwise; only when there are known mines)
       1       0  1 ...
    ;
    end;

The reader also takes '.' entries (the parameter's default: 'default d' if the table gives one,
else -1 (unexposed) for R and 0 for M), '#' and '/* */' comments anywhere, free whitespace, rows and
columns in any order, ':=' glued to the last column label, and files without 'data;' or 'end;'.

It also reads the AMPL / MathProg data of hakank's minesweeper.mod (ampl/minesweeper*.dat)::

    # Problem from Gecode/examples/minesweeper.cc  problem 0
    param r := 6;                  (rows; 'c' is the columns)
    param c := 6;
    param game: 1 2 3 4 5 6 :=     ('game' is another name of the table R)
        1 . . 2 . 3 .              ('.' = no value = the model's 'default -1': unknown)
        ...
    ;
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, TextIO, Tuple

import numpy as np

from ...core.about import version
from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines, parser, syntax_error
from ..located_errors import error_at, symbol_name
from ..registry import LIKELY, NO, register_format
from .parse_trees import offset, rule, rules, terminal

if TYPE_CHECKING:   # types only: Lark is imported when the grammar is first used
    from lark import Token
    from lark.exceptions import UnexpectedToken

_SCALARS = {"n": "cols", "cols": "cols", "c": "cols", "m": "rows", "rows": "rows", "r": "rows", "mines": "mines"}
_TABLES = ("R", "M")
_TABLE_ALIASES = {"game": "R"}    # hakank's AMPL model calls the grid 'game'
_R_DEFAULT = -1                   # a '.' in R with no 'default' clause: unexposed, as in hakank's 'default -1'
_BAD = 1000            # marks a value token that is not one of the usual small integers
_DOT = 999             # marks a '.' (default) entry
_LUT = {str(v): v for v in range(-9, 10)}
_LUT["."] = _DOT
# R value + 2 -> index into the symbol table; known mines are patched in afterwards
_R_SYMBOLS = np.frombuffer(b".?012345678", dtype=np.uint8)


def _blank_comments(text: str, source: str) -> Tuple[str, List[Tuple[int, str]]]:
    """Text with every comment replaced by spaces (newlines kept), and the '#' comments with offsets."""
    parts: List[str] = []
    hashes: List[Tuple[int, str]] = []
    pos = 0
    # str.find runs at C speed; a regex alternation over a 10 MB table is several times slower
    while True:
        h = text.find("#", pos)
        b = text.find("/*", pos)
        if h < 0 and b < 0:
            break
        if b < 0 or 0 <= h < b:
            end = text.find("\n", h)
            end = len(text) if end < 0 else end
            hashes.append((h, text[h:end]))
            parts.append(text[pos:h] + " " * (end - h))
        else:
            end = text.find("*/", b + 2)
            if end < 0:
                raise error_at("a '/*' comment that is never closed by '*/'", text, b, source)
            end += 2
            parts.append(text[pos:b] + re.sub(r"[^\n]", " ", text[b:end]))
        pos = end
    if not parts:
        return text, hashes
    parts.append(text[pos:])
    return "".join(parts), hashes


def _number(tok: str) -> Optional[int]:
    """The integer a MathProg numeric literal denotes, or None when it is not a whole number."""
    if not tok.isascii():  # float() also reads Unicode digits such as '٣': numbers are ASCII only
        return None
    try:
        v = float(tok)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2 ** 53 else None


def _tokens(body: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start and end offsets of the whitespace-separated tokens of a table body, and their values.

    Values -9..9 and '.' (_DOT) are decoded here with numpy, without a Python string per token (a
    4000 x 4000 table has 16 million); anything else is _BAD and left to the caller.
    """
    if body.isascii():
        b = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
        solid = b > 32
        pad = np.zeros(1, dtype=np.int8)  # int8 all the way: a 4000 x 4000 body is 50 MB of characters
        edges = np.diff(np.concatenate((pad, solid.view(np.int8), pad)))
        starts = np.flatnonzero(edges == 1)
        ends = np.flatnonzero(edges == -1)
        length = ends - starts
        c0 = b[starts]
        c1 = b[np.minimum(starts + 1, len(b) - 1)]
        vals = np.full(len(starts), _BAD, dtype=np.int16)
        one = length == 1
        digit0 = (c0 >= 48) & (c0 <= 57)
        digit1 = (c1 >= 48) & (c1 <= 57)
        vals[one & digit0] = c0[one & digit0].astype(np.int16) - 48
        vals[one & (c0 == 46)] = _DOT
        neg = (length == 2) & (c0 == 45) & digit1
        vals[neg] = 48 - c1[neg].astype(np.int16)
        return starts, ends, vals
    spans = [m.span() for m in re.finditer(r"\S+", body)]
    starts = np.array([a for a, _ in spans], dtype=np.int64)
    ends = np.array([e for _, e in spans], dtype=np.int64)
    vals = np.fromiter((_LUT.get(body[a:e], _BAD) for a, e in spans), dtype=np.int16, count=len(spans))
    return starts, ends, vals


class _Table:
    """One tabular parameter: its header and body tokens, decoded into a (rows, cols) int array."""

    def __init__(self, name: str, name_pos: int, head: Token, body: Token, default: Optional[int]) -> None:
        self.name, self.name_pos, self.head, self.body, self.default = name, name_pos, head, body, default
        self._starts = np.zeros(0, dtype=np.int64)

    def decode(self, text: str, source: str) -> Tuple[np.ndarray, np.ndarray]:
        """(values in row-label order, the body token index of each value) after checking labels."""
        heads = str(self.head).split()
        cols = len(heads)
        col_labels = [_number(h) for h in heads]
        if sorted(col_labels, key=lambda v: -1 if v is None else v) != list(range(1, cols + 1)):
            bad = next((i for i, v in enumerate(col_labels) if v is None or not 1 <= v <= cols
                        or col_labels.index(v) != i), 0)
            offs = [m.start() for m in re.finditer(r"\S+", str(self.head))]
            raise error_at(f"the column labels of {self.name} must be 1 2 ... {cols} (each once); "
                           f"found {symbol_name(heads[bad])}", text, offset(self.head) + offs[bad], source)
        body = str(self.body)
        starts, ends, vals = _tokens(body)
        self._starts = starts
        width = cols + 1
        if len(starts) % width:
            whole = len(starts) // width
            raise self._fail(f"the table {self.name} has {plural(len(starts), 'entry', 'entries')}, not "
                             "a whole number of rows of "
                             f"{width} (a row label then {plural(cols, 'value')}); row {whole + 1} is incomplete or a "
                             "';' is missing", text, source, whole * width)
        nrows = len(starts) // width
        label_toks = [body[a:e] for a, e in zip(starts[0::width].tolist(), ends[0::width].tolist())]
        labels = [_number(t) for t in label_toks]
        order = list(range(1, nrows + 1))
        if labels != order:
            seen = set()
            for i, v in enumerate(labels):
                if v is None or not 1 <= v <= nrows or v in seen:
                    raise self._fail(f"row label {symbol_name(label_toks[i])} of {self.name}: rows must be "
                                     f"labelled 1..{nrows}, each once", text, source, i * width)
                seen.add(v)
        grid = vals.reshape(nrows, width)[:, 1:]
        for k in np.flatnonzero(grid == _BAD):  # unusual spellings ('1.0', '+2', '-01'): rare, one at a time
            r, c = divmod(int(k), cols)
            i = r * width + 1 + c
            tok = body[starts[i]:ends[i]]
            v = _number(tok)
            if v is None:
                raise self._fail(f"{symbol_name(tok)} is not a number (in the table {self.name})", text, source, i)
            grid[r, c] = v if -9 <= v <= 9 else _BAD - 1
        index = (np.arange(nrows)[:, None] * width + 1 + np.arange(cols)[None, :]).astype(np.int64)
        if col_labels != list(range(1, cols + 1)):
            perm = np.argsort(np.array(col_labels))
            grid, index = grid[:, perm], index[:, perm]
        if labels != order:
            perm = np.argsort(np.array(labels))
            grid, index = grid[perm], index[perm]
        return np.ascontiguousarray(grid), index

    def _fail(self, msg: str, text: str, source: str, token_index: int) -> PuzzleSyntaxError:
        if token_index < len(self._starts):
            off = offset(self.body) + int(self._starts[token_index])
        else:
            off = offset(self.body) + len(str(self.body).rstrip())
        return error_at(msg, text, off, source)  # type: ignore[return-value]

    def token_offset(self, token_index: int) -> int:
        """Offset in the text of the body token with this index (used only on the error path)."""
        return offset(self.body) + int(self._starts[int(token_index)])


def read_mathprog_dat(text: str, source: str = "<string>") -> Puzzle:
    """Parse a MathProg data section in the minesweeper.mod layout."""
    text = normalise_newlines(text)
    blank, hashes = _blank_comments(text, source)
    from lark.exceptions import UnexpectedInput, UnexpectedToken
    try:
        tree = parser("dat").parse(blank)
    except UnexpectedInput as exc:
        err = syntax_error(exc, text, source, "MathProg data")
        if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
            err.message = _explain(exc)
        raise err from None
    first_stmt = len(text)
    scalars: Dict[str, Tuple[int, int]] = {}   # canonical key -> (value, offset)
    spelled: Dict[str, str] = {}                # canonical key -> the parameter name the file used
    tables: Dict[str, _Table] = {}
    for item in rules(tree):
        if item.data == "data_kw":
            first_stmt = min(first_stmt, item.meta.start_pos)
            continue
        if item.data == "end_kw":
            continue
        first_stmt = min(first_stmt, item.meta.start_pos)
        name_tok = terminal(item, 0)
        name = str(name_tok)
        if item.data == "scalar":
            key = _SCALARS.get(name)
            if key is None:
                known = ", ".join(sorted(_SCALARS) + list(_TABLES) + list(_TABLE_ALIASES))
                raise error_at(f"unknown parameter {name!r} (known: {known})", text, offset(name_tok), source)
            if key in scalars:
                raise error_at(f"the {key} count is given twice", text, offset(name_tok), source)
            vtok = terminal(item, 1)
            value = _number(str(vtok))
            if value is None or value < 0:
                raise error_at(f"param {name} needs a whole number >= 0, got {str(vtok)!r}", text,
                               offset(vtok), source)
            scalars[key] = (value, offset(vtok))
            spelled[key] = name
        else:
            name = _TABLE_ALIASES.get(name, name)
            if name not in _TABLES:
                raise error_at(f"unknown table {name!r} (known: R or game, the grid; M, the known mines)", text,
                               offset(name_tok), source)
            if name in tables:
                raise error_at(f"the table {name} is given twice", text, offset(name_tok), source)
            default = None
            if len(item.children) == 4:  # NAME default HEAD BODY
                dtok = terminal(rule(item, 1), 0)
                default = _number(str(dtok))
                if default is None:
                    raise error_at(f"the default of {name} must be a whole number", text, offset(dtok), source)
            head, body = terminal(item, -2), terminal(item, -1)
            tables[name] = _Table(name, offset(name_tok), head, body, default)
    if "R" not in tables:
        raise error_at("no 'param R : 1 2 ... :=' (or 'param game: ...') table (the grid) found", text, len(text),
                       source)
    puzzle_name, notes = _notes(hashes, first_stmt)
    return _build(text, source, scalars, tables, puzzle_name, notes, spelled)


def _explain(exc: UnexpectedToken) -> str:
    """A message naming the token as written and what could have come instead."""
    tok = str(exc.token)
    if exc.token.type == "NAME" and exc.expected <= {"PARAM", "END", "DATA"}:
        return (f"unexpected {tok!r}: a puzzle's MathProg data holds only 'param' statements (n, m, rows, cols, "
                "r, c, mines, R, game, M)")
    ends = {"$END", "<END-OF-FILE>"}
    if exc.expected <= ends:
        return f"unexpected {tok!r} after 'end;' (the data section ends there)"
    words = []
    for name in sorted(exc.expected - ends):
        pattern = parser("dat").get_terminal(name).pattern
        words.append(repr(pattern.value) if pattern.type == "str" else name.lower())
    return f"unexpected {tok!r} in MathProg data (expected {' or '.join(words)})"


def _notes(hashes: List[Tuple[int, str]], first_stmt: int) -> Tuple[Optional[str], List[str]]:
    """The name and notes: the '#' comments before the first statement (or 'data;')."""
    name: Optional[str] = None
    notes: List[str] = []
    for off, comment in hashes:
        if off >= first_stmt:
            break
        body = comment[1:]
        body = body[1:] if body.startswith(" ") else body
        if name is None and body.startswith("name: "):
            name = body[6:]
        else:
            notes.append(body)
    return name, notes


def _build(text: str, source: str, scalars: Dict[str, Tuple[int, int]], tables: Dict[str, _Table],
           name: Optional[str], notes: List[str], spelled: Dict[str, str]) -> Puzzle:
    table = tables["R"]
    r_vals, r_index = table.decode(text, source)
    rows, cols = r_vals.shape
    r_vals = np.where(r_vals == _DOT, _R_DEFAULT if table.default is None else table.default, r_vals)
    if "cols" not in scalars:
        raise error_at("no 'param n := <columns>;' (or 'param c') found", text, table.name_pos, source)
    declared_cols, col_off = scalars["cols"]
    declared_rows, row_off = scalars.get("rows", (declared_cols, col_off))
    cname = spelled["cols"]
    if declared_cols != cols:
        raise error_at(f"param {cname} says {plural(declared_cols, 'column')} but the table R has "
                       f"{cols}", text, col_off,
                       source)
    if declared_rows != rows:
        what = (f"param {spelled['rows']} says" if "rows" in scalars
                else f"param {cname} (no param m: a square board) says")
        raise error_at(f"{what} {plural(declared_rows, 'row')} but the table R has {rows}", text, row_off, source)
    bad = (r_vals < -2) | (r_vals > 8)
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        shown = "." if r_vals[r, c] == _DOT else str(int(r_vals[r, c]))
        raise error_at(f"R[{r + 1},{c + 1}] = {shown}: expected -1 (unexposed), 0..8 (a count) or -2 (known "
                       "safe, mineconv's extension)", text, table.token_offset(r_index[r, c]), source)
    sym = _R_SYMBOLS[(r_vals + 2).astype(np.intp)]
    if "M" in tables:
        mt = tables["M"]
        m_vals, m_index = mt.decode(text, source)
        if m_vals.shape != (rows, cols):
            raise error_at(f"the table M is {m_vals.shape[0]} x {m_vals.shape[1]} but R is {rows} x {cols}",
                           text, mt.name_pos, source)
        m_vals = np.where(m_vals == _DOT, 0 if mt.default is None else mt.default, m_vals)
        bad = (m_vals != 0) & (m_vals != 1)
        if bad.any():
            r, c = (int(v) for v in np.argwhere(bad)[0])
            raise error_at(f"M[{r + 1},{c + 1}] must be 1 (known mine) or 0", text,
                           mt.token_offset(m_index[r, c]), source)
        clash = (m_vals == 1) & (r_vals != -1)
        if clash.any():
            r, c = (int(v) for v in np.argwhere(clash)[0])
            raise error_at(f"M[{r + 1},{c + 1}] = 1 marks a known mine, but R[{r + 1},{c + 1}] = "
                           f"{int(r_vals[r, c])} is not -1 (unexposed)", text, mt.token_offset(m_index[r, c]), source)
        sym = np.where(m_vals == 1, ord("*"), sym).astype(np.uint8)
    cells = sym.tobytes().decode("ascii")
    mines = scalars.get("mines", (None, 0))[0]
    try:
        return Puzzle(rows, cols, cells, mines=mines, name=name, notes=tuple(notes))
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            msg = exc.message.replace(f"cell ({r}, {c})", f"R[{r + 1},{c + 1}] (cell ({r}, {c}))")
            raise error_at(msg, text, table.token_offset(r_index[r, c]), source) from None
        off = scalars["mines"][1] if "mines" in scalars else 0
        raise error_at(exc.message, text, off, source) from None


# writing ----------------------------------------------------------------------------------------
# the comment block of every written file (its first line, naming the version, is added when writing: the
# version is looked up on first use, not at import)
_EXPLAIN = (
    "# n = columns, m = rows (only when not square), mines = total mines on the board (known mines included)",
    "# R[i,j]: -1 = unexposed cell (unknown, or a known mine listed in M), 0..8 = the count shown,",
    "#         -2 = known safe cell without a count (mineconv's extension: not in Chlond's model)",
    "# M[i,j]: 1 = known mine, 0 otherwise (only when the puzzle has known mines)",
)
# puzzle code (-1 unknown, 0..8, 9 mine, 10 safe) + 1 -> the R entry
_R_ENTRIES = ["-1"] + [str(d) for d in range(9)] + ["-1", "-2"]
_M_ENTRIES = ["0"] * 10 + ["1", "0"]


def _table(name: str, index: np.ndarray, entries: List[str], rows: int, cols: int) -> str:
    """A tabular parameter: a line of column labels, then one line per row (label, then entries)."""
    w = len(str(rows))
    cw = max(2, len(str(cols)))
    lut = np.array([(" " + e.rjust(cw)).encode("ascii") for e in entries], dtype=f"S{cw + 1}")
    cells = lut[index]
    head = f"param {name} :\n" + " " * w + "".join(f" {c:>{cw}}" for c in range(1, cols + 1)) + " :="
    row_bytes = np.ascontiguousarray(cells).view(f"S{(cw + 1) * cols}").ravel()
    body = "\n".join(f"{str(i).rjust(w)}{b.decode('ascii')}" for i, b in enumerate(row_bytes.tolist(), 1))
    return f"{head}\n{body}\n;\n"


def dat_section(puzzle: Puzzle) -> str:
    """The MathProg data section of a puzzle, from 'data;' to 'end;' inclusive (ends with a newline)."""
    rows, cols = puzzle.rows, puzzle.cols
    index = (puzzle.codes + 1).astype(np.intp)
    out = ["data;", f"# mineconv {version()}: a Minesweeper puzzle in the data layout of Chlond's minesweeper.mod",
           *_EXPLAIN, f"param n := {cols};"]
    if rows != cols:
        out.append(f"param m := {rows};")
    if puzzle.mines is not None:
        out.append(f"param mines := {puzzle.mines};")
    text = "\n".join(out) + "\n" + _table("R", index, _R_ENTRIES, rows, cols)
    if puzzle.known_mine_count:
        text += _table("M", index, _M_ENTRIES, rows, cols)
    return text + "end;\n"


def write_mathprog_dat(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the name and notes as comments, then the data section."""
    head = []
    if puzzle.name is not None:
        head.append(f"# name: {puzzle.name}")
    head.extend(f"# {n}" if n else "#" for n in puzzle.notes)
    out.write("".join(line + "\n" for line in head))
    out.write(dat_section(puzzle))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    if puzzle.name is None and any(n.startswith("name: ") for n in puzzle.notes[:1]):
        lost.append("a first note that begins with 'name: ' (it would be read back as the name)")
    return lost


def detect_mathprog_dat(text: str) -> float:
    """LIKELY for MathProg data that declares the grid table (R or game) and its size."""
    head = text[:20000]
    table = re.search(r"\bparam\s+(R|game)\b[^;]*:=", head) is not None
    size = re.search(r"\bparam\s+(n|c|cols)\s*:=", head) is not None
    return LIKELY if table and size else NO


register_format("dat", reader=read_mathprog_dat, writer=write_mathprog_dat, detect=detect_mathprog_dat, losses=_losses,
                description="GLPK MathProg / AMPL data: Chlond's minesweeper.mod (R table, -1 unexposed) or "
                            "hakank's (param r, c, game; '.' unknown)")
