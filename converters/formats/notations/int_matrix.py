"""Integer matrices as they are pasted from code and data: JSON, Python/JS list literals, numpy, CSV.

    [[2, 3, -1], [-1, 1, 0]]                       JSON, or a Python / JS list literal
    board = [[2, 3, X], [X, 1, 0],]                 a name, a trailing comma, X bound to unknown
    game = np.array([[ 2,  3, -1], [-1,  1,  0]])   numpy (also numpy.array, array, dtype=... after it)
    [[ 2  3 -1]                                     numpy's printout: no commas
     [-1  1  0]]
    2,3,-1                                          CSV (commas, semicolons, tabs or spaces)
    -1,1,0

The code of an unknown cell differs by source, so `codes` names the scheme (the CLI's --codes):
  -1         (default) constraint-model collections: -1 unknown, 0-8 counts
  9          9 unknown, 10 known mine, 0-8 counts
  mstoollib  ms-toollib's game_board: 0-8 counts, 10 unopened, 11 mine (flag or certain), 12 certain safe,
             and the after-game codes 14 (a wrong flag: not a mine), 18 (an unopened cell lit by a chord)
             as unknown, 15 (the mine stepped on) and 16 (the mines shown after a loss) as mines.
In pasted code the names X, _ and M stand for an unknown cell; `NAME = -1` (or any code) before the
matrix binds another name. Nothing is evaluated: a tokenizer reads numbers, names and brackets only.
'#', '//', '%' and '/* */' comments become notes. The writer produces a JSON matrix with -1 unknown
(`int-csv` writes the same as CSV); it cannot express known mines, known safe cells, the total, a name or
notes, and says so.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, List, Optional, TextIO, Tuple

from ...core.errors import FormatError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..registry import LIKELY, NO, POSSIBLE, WEAK, register_format
from .pasted_grids import code_tokens, comment_note, fail, puzzle_at

UNKNOWN = -1000   # what a name such as X stands for before the scheme is applied

SCHEMES: Dict[str, Dict[int, str]] = {
    "-1": {-1: "?", **{d: str(d) for d in range(9)}},
    "9": {9: "?", 10: "*", **{d: str(d) for d in range(9)}},
    "mstoollib": {**{d: str(d) for d in range(9)}, 10: "?", 11: "*", 12: ".", 14: "?", 15: "*", 16: "*",
                  18: "?"},
}
_SCHEME_TEXT = {"-1": "-1 unknown, 0-8 counts", "9": "9 unknown, 10 known mine, 0-8 counts",
                "mstoollib": "ms-toollib game_board: 0-8, 10 unopened, 11 mine, 12 safe, 14/18 unknown, 15/16 mine"}
_DEFAULT_NAMES = ("X", "_", "M")

_PAIR = {"[": "]", "{": "}", "(": ")"}
_CSV_LINE = re.compile(r"[ \t]*[-+]?[0-9]+(?:\.0*)?(?:[ \t]*[,;\t ][ \t]*[-+]?[0-9]+(?:\.0*)?)*[ \t]*[,;]?[ \t]*")


def _shown(token: str) -> str:
    """A number token as a message quotes it: cut in the middle when long (a 5,000-digit number must not
    come back as a 5,000-character message)."""
    return repr(token) if len(token) <= 24 else repr(f"{token[:10]}...{token[-10:]}") + f" ({len(token)} characters)"


def _whole(token: str, text: str, offset: int, source: str) -> int:
    try:
        value = float(token)
    except ValueError:  # pragma: no cover - the token pattern only matches numbers
        raise fail(f"{_shown(token)} is not a number", text, offset, source) from None
    if not math.isfinite(value):   # 1e400 reads as infinity: say so where it stands
        raise fail(f"{_shown(token)} is too large for a cell code", text, offset, source)
    if value != int(value) or abs(value) > 1_000_000:
        raise fail(f"{_shown(token)} is not a cell code (a whole number)", text, offset, source)
    return int(value)


def _scheme(codes: Optional[str], source: str) -> Tuple[str, Dict[int, str]]:
    key = "-1" if codes is None else str(codes).strip().lower()
    key = {"ms-toollib": "mstoollib", "ms_toollib": "mstoollib"}.get(key, key)
    if key not in SCHEMES:
        raise FormatError(f"unknown --codes scheme {codes!r} (one of: -1, 9, mstoollib)", source=source)
    return key, SCHEMES[key]


def read_int_matrix(text: str, source: str = "<string>", codes: Optional[str] = None) -> Puzzle:
    """Parse an integer matrix (JSON, list literal, numpy, CSV); `codes` names the unknown-cell scheme."""
    scheme_name, scheme = _scheme(codes, source)
    text = normalise_newlines(text)
    toks = code_tokens(text, source, "an integer matrix")
    notes = [comment_note(t) for k, t, _ in toks if k == "comment"]
    toks = [t for t in toks if t[0] != "comment"]
    if not toks:
        raise fail("no matrix found (expected [[...], ...] or comma-separated rows of integers)", text,
                   len(text), source)
    if any(k == "open" and t == "[" for k, t, _ in toks) or any(k == "open" and t == "{" for k, t, _ in toks):
        values, where, bindings = _bracketed(toks, text, source)
    else:
        values, where = _csv(text, source)
        bindings = {}
    rows = []
    for r, row in enumerate(values):
        cells = []
        for c, v in enumerate(row):
            if isinstance(v, str):   # a name
                bound = bindings.get(v, UNKNOWN if v in _DEFAULT_NAMES else None)
                if bound is None:
                    raise fail(f"unknown name {v!r} in the matrix (X, _ and M mean unknown; bind another name "
                               f"before the matrix, e.g. {v} = -1)", text, where(r, c), source)
                v = bound
            if v == UNKNOWN:
                cells.append("?")
                continue
            sym = scheme.get(v)
            if sym is None:
                raise fail(f"{v} is not a cell code of the {scheme_name!r} scheme ({_SCHEME_TEXT[scheme_name]})"
                           + _hint(v, scheme_name), text, where(r, c), source)
            cells.append(sym)
        rows.append("".join(cells))
    return puzzle_at(rows, where, text, source, notes=notes)


def _hint(v: int, scheme: str) -> str:
    if scheme == "-1" and v == 9:
        return "; --codes 9 reads 9 as unknown and 10 as a known mine"
    if scheme == "-1" and v == 10:
        return "; --codes 9 reads 10 as a known mine, --codes mstoollib as an unopened cell"
    if scheme == "-1" and 11 <= v <= 18:
        return "; --codes mstoollib reads ms-toollib's game_board codes"
    if scheme == "mstoollib" and v == -1:
        return "; -1 is a mine of ms-toollib's real board: read that with --codes -1"
    return ""


def _bracketed(toks: List[Tuple[str, str, int]], text: str, source: str):
    """The one nested matrix of a list literal; names bound to codes before it; what may follow it."""
    bindings: Dict[str, int] = {}
    i, n = 0, len(toks)
    start = None
    while i < n:
        kind, tok, off = toks[i]
        if kind == "open" and tok in "[{" and i + 1 < n and toks[i + 1][0] == "open" and toks[i + 1][1] in "[{":
            start = i
            break
        if kind == "name" and i + 2 < n and toks[i + 1][1] in ("=", ":") and toks[i + 2][0] == "num" \
                and (i + 3 >= n or toks[i + 3][1] in (";", ",") or toks[i + 3][0] == "name"):
            bindings[tok] = _whole(toks[i + 2][1], text, toks[i + 2][2], source)
            i += 3
            continue
        if kind == "open" and tok == "[" and i + 1 < n and toks[i + 1][1] == "]":
            i += 2           # int[][] board = ...
            continue
        if kind in ("name", "punct", "str") or (kind == "open" and tok == "("):
            i += 1
            continue
        raise fail(f"unexpected {tok!r} before the matrix (expected [[...]] or a list of rows)", text, off, source)
    if start is None:
        k, tok, off = toks[min(i, n - 1)]
        raise fail("no nested matrix [[...], ...] found", text, off, source)
    values: List[List[Any]] = []
    offsets: List[List[int]] = []
    opener = toks[start][1]
    i = start + 1
    while True:
        kind, tok, off = toks[i] if i < n else ("end", "", len(text))
        if kind == "close" and tok == _PAIR[opener]:
            i += 1
            break
        if kind == "punct" and tok == "," and values:
            i += 1
            continue
        if kind != "open" or tok not in "[{":
            raise fail(f"expected a row [...] or the closing {_PAIR[opener]!r}, got "
                       f"{tok!r}" if tok else f"the matrix is not closed (a missing {_PAIR[opener]!r})",
                       text, off, source)
        row, row_off, i = _row(toks, i, text, source)
        if not row:
            raise fail("an empty row", text, off, source)
        if values and len(row) != len(values[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(values[0])} "
                       "(the matrix must be "
                       "rectangular)", text, off, source)
        values.append(row)
        offsets.append(row_off)
    if not values:
        raise fail("the matrix has no rows", text, toks[start][2], source)
    depth = [t for t in toks[:start] if t[1] == "("]
    closers = 0
    while i < n:
        kind, tok, off = toks[i]
        if kind == "open" and tok in "[{":
            raise fail("a second matrix: this notation reads one matrix per file", text, off, source)
        if kind == "close":
            if tok != ")" or closers >= len(depth):
                raise fail(f"unexpected {tok!r} after the matrix", text, off, source)
            closers += 1
        i += 1
    return values, (lambda r, c: offsets[r][c]), bindings


def _row(toks, i, text, source):
    opener = toks[i][1]
    i += 1
    row: List[Any] = []
    offs: List[int] = []
    n = len(toks)
    while True:
        kind, tok, off = toks[i] if i < n else ("end", "", len(text))
        if kind == "close" and tok == _PAIR[opener]:
            return row, offs, i + 1
        if kind == "punct" and tok == "," and row:
            i += 1
            continue
        if kind == "num":
            row.append(_whole(tok, text, off, source))
        elif kind == "name" and tok not in ("True", "False", "true", "false", "None", "null"):
            row.append(tok)
        elif kind == "end":
            raise fail(f"the row is not closed (a missing {_PAIR[opener]!r})", text, off, source)
        else:
            raise fail(f"expected a cell code, a name such as X, or {_PAIR[opener]!r}, got {tok!r}",
                       text, off, source)
        offs.append(off)
        i += 1


def _csv(text: str, source: str):
    values: List[List[int]] = []
    offsets: List[List[int]] = []
    pos = 0
    for line in text.split("\n"):
        body = re.sub(r"(#|//|%).*", "", line)
        if body.strip():
            if not _CSV_LINE.fullmatch(body):
                bad = next((m.start() for m in re.finditer(r"[^-+0-9.,;\t ]", body)), 0)
                raise fail("not a row of integers (comma-, semicolon-, tab- or space-separated)", text, pos + bad,
                           source)
            row, offs = [], []
            for m in re.finditer(r"[-+]?[0-9]+(?:\.0*)?", body):
                row.append(_whole(m.group(), text, pos + m.start(), source))
                offs.append(pos + m.start())
            if values and len(row) != len(values[0]):
                raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(values[0])} "
                           "(the matrix must be "
                           "rectangular)", text, pos, source)
            values.append(row)
            offsets.append(offs)
        pos += len(line) + 1
    if not values:
        raise fail("no rows of integers found", text, len(text), source)
    return values, (lambda r, c: offsets[r][c])


# writing ----------------------------------------------------------------------------------------------
_CODE_OF = {"?": -1, **{str(d): d for d in range(9)}, "*": -1, ".": -1}


def _int_rows(puzzle: Puzzle) -> List[List[int]]:
    return [[_CODE_OF[ch] for ch in row] for row in puzzle.grid_lines]


def write_int_matrix(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write a JSON integer matrix, one row per line, -1 for an unknown cell."""
    rows = [json.dumps(r) for r in _int_rows(puzzle)]
    out.write("[" + ",\n ".join(rows) + "]\n")


def write_int_csv(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the matrix as CSV rows, -1 for an unknown cell."""
    out.write("".join(",".join(map(str, r)) + "\n" for r in _int_rows(puzzle)))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    return lost_parts(puzzle, mines_as="-1, unknown", safe_as="-1, unknown")


_PREAMBLE = re.compile(r"\s*(?:(?:const|let|var|final)\s+)?(?:[A-Za-z_][\w.]*(?:\s*\[\s*\])*\s+)?"
                       r"[A-Za-z_][\w.]*(?:\s*\[\s*\])*\s*[=:]\s*")
_NUMPY = re.compile(r"(?:(?:np|numpy)\.)?(?:array|asarray|matrix)\s*\(\s*$")
_MATRIX_HEAD = re.compile(r"[\[{]\s*[\[{]\s*(?:[-+]?[0-9]|[A-Za-z_]\w*\s*[,\]}])")


def detect_int_matrix(text: str) -> float:
    """LIKELY for a numpy matrix, POSSIBLE for a nested list of integers or a CSV with codes beyond 0-8."""
    head = normalise_newlines(text[:4000])
    lines = [ln for ln in head.split("\n") if ln.strip() and not re.match(r"\s*(#|//|%)", ln)]
    if not lines:
        return NO
    body = "\n".join(lines)
    m = _MATRIX_HEAD.search(body)
    if m:
        before = body[:m.start()]
        # bindings such as 'X = -1;' may come first; anything else (a 'letting', an object) is another notation
        before = re.sub(r"[A-Za-z_]\w*\s*=\s*[-+]?[0-9]+\s*;?\s*", "", before)
        np_call = _NUMPY.search(before)
        if np_call:
            pre = before[:np_call.start()]
            return LIKELY if not pre.strip() or _PREAMBLE.fullmatch(pre) else NO
        if not before.strip() or _PREAMBLE.fullmatch(before):
            return POSSIBLE
        return NO
    if all(_CSV_LINE.fullmatch(ln) for ln in lines[:50]):
        nums = [int(float(v)) for v in re.findall(r"[-+]?[0-9]+(?:\.0*)?", body)]
        widths = {len(re.findall(r"[-+]?[0-9]+", ln)) for ln in lines[:50]}
        if len(widths) != 1:
            return NO
        if any(v < 0 or v > 8 for v in nums):
            return POSSIBLE
        # only counts 0-8: native reads the same grid, so this is a weak claim
        return WEAK if any(sep in body for sep in ",;\t") or len(lines) > 1 else NO
    return NO


_OPTIONS = {"codes": "the code of an unknown cell in an integer matrix: -1 (default; -1 unknown), 9 (9 unknown, "
                     "10 mine) or mstoollib (ms-toollib game_board: 10 unopened, 11 mine, 12 safe)"}

register_format("int-matrix", reader=read_int_matrix,
                writer=write_int_matrix, detect=detect_int_matrix, losses=_losses, read_options=_OPTIONS,
                description="integer matrix: JSON / Python / numpy [[2, -1], ...] or CSV; -1 unknown (--codes)")
register_format("int-csv", reader=read_int_matrix, writer=write_int_csv, losses=_losses,
                autodetect=False, read_options=_OPTIONS,
                description="integer matrix as CSV rows (-1 unknown; reads every int-matrix layout, --codes)")
