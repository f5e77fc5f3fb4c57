"""The self-describing comment header every solver file starts with, and reading a puzzle back from it.

Layout, in the file format's own comment syntax (prefix P = 'c', '\\', '*', '#' or ';'):

    P mineconv 0.1.0 <format title>
    P name: <name>                      (when the puzzle has one)
    P mines: <N>                        (total mine count, when given)
    P grid <row 0 of the canonical grid>
    ...
    P vars: <k> cell variables ...      (the numbering rule, one line)
    P var <id> <row> <col> <name>       (one line per variable: the variable map)
    P <extra lines the writer adds>
"""
from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional, Tuple, Union

from ..core.about import version
from ..core.errors import SolutionSyntaxError
from ..core.lazy import LazyModule
from ..core.naming import VAR_FORM, VAR_PREFIX, name_pieces
from ..core.puzzle import Puzzle
from ..encode import bulk_text

if TYPE_CHECKING:
    import numpy as np

    from ..core.system import LinearSystem
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

PREFIXES = ("c", "\\", "*", "#", ";")
_FIRST = re.compile(r"(c|\\|\*|#|;) mineconv (\S+)")


def header_pieces(puzzle: Puzzle, system: LinearSystem, prefix: str, title: str,
                  extra: Iterable[str] = ()) -> Iterator[Union[str, bytes]]:
    """The comment block for the top of a solver file in pieces: the comment lines as one str, then a big
    board's variable map as ASCII bytes, a chunk at a time (a million-cell map is never one str, nor decoded
    and encoded again on its way to the file)."""
    p = prefix + " "
    lines = [f"{p}mineconv {version()} {title}"]
    if puzzle.name is not None:
        lines.append(f"{p}name: {puzzle.name}")
    total = puzzle.mines if system.total is None else system.total + puzzle.known_mine_count
    if total is not None:
        lines.append(f"{p}mines: {total}")
    grid = p + "grid "
    lines.append(grid + ("\n" + grid).join(puzzle.grid_lines))
    k = system.num_vars
    lines.append(f"{p}vars: {k} cell variables, ids 1..{k} in row-major order over the unknown cells; "
                 f"name {VAR_FORM}, 0-based")
    lines.extend(p + line for line in extra)
    head = "\n".join(lines) + "\n"
    shape = (puzzle.rows, puzzle.cols)
    if k <= bulk_text.CHUNK:
        yield head + _var_map(p, system.var_rc, shape) if k else head
        return
    yield head
    for start, stop in bulk_text.chunks(k):
        yield _var_bytes(p, system.var_rc[start:stop], start + 1, shape)


def header_text(puzzle: Puzzle, system: LinearSystem, prefix: str, title: str,
                extra: Iterable[str] = ()) -> str:
    """The comment block for the top of a solver file (ends with a newline)."""
    return "".join(piece if isinstance(piece, str) else piece.decode("ascii")
                   for piece in header_pieces(puzzle, system, prefix, title, extra))


def write_header(out: Any, puzzle: Puzzle, system: LinearSystem, prefix: str, title: str,
                 extra: Iterable[str] = ()) -> None:
    """Write header_text's comment block to a writer's output, the variable map's bytes as they are made."""
    for piece in header_pieces(puzzle, system, prefix, title, extra):
        if isinstance(piece, str):
            out.write(piece)
        else:
            bulk_text.emit(out, piece)


# the last variable map made: (weak reference to the system's var_rc, board shape, prefix, text). A batch
# writes CNF and LP of one board in turn from one system: the second file only swaps the comment prefix.
_LAST_MAP: Optional[Tuple[Any, Tuple[int, int], str, str]] = None


def _var_map(p: str, rc: np.ndarray, shape: Tuple[int, int]) -> str:
    """The whole variable map of a board (one chunk), reusing the last one made from the same array."""
    global _LAST_MAP
    last = _LAST_MAP
    if last is not None and last[0]() is rc and last[1] == shape:
        old, text = last[2], last[3]
        if old == p:
            return text
        return p + text[len(old):].replace("\n" + old + "var ", "\n" + p + "var ")
    text = _var_lines(p, rc, 1, shape)
    _LAST_MAP = (weakref.ref(rc), shape, p, text)
    return text


def _var_lines(p: str, rc: np.ndarray, first: int, shape: Tuple[int, int]) -> str:
    """'<p>var <id> <row> <col> x<row>_<col>' lines for variables first.. at these cells of a board."""
    return _var_bytes(p, rc, first, shape).decode("ascii")


def _var_bytes(p: str, rc: np.ndarray, first: int, shape: Tuple[int, int]) -> bytes:
    """_var_lines as ASCII bytes."""
    # built in bulk (numpy items): a Python loop or np.char costs seconds on a million cells
    n = rc.shape[0]
    ids = bulk_text.number_items(np.arange(first, first + n), prefix=(p + "var ").encode("ascii"))
    cells = bulk_text.cell_items(shape, (b" ", "r", b" ", "c") + name_pieces(VAR_PREFIX, " ", "\n"), rc[:, 0], rc[:, 1])
    return bulk_text.join(n, [ids, cells])


def read_header(text: str, source: str = "<string>") -> Optional[Puzzle]:
    """The puzzle recorded in a mineconv file's comment header, or None when there is no header."""
    lines = text.lstrip("\ufeff").splitlines()
    start = next((i for i, ln in enumerate(lines[:5]) if _FIRST.match(ln)), None)
    if start is None:
        return None
    prefix = lines[start][0]
    rows: List[str] = []
    name: Optional[str] = None
    mines: Optional[int] = None
    for ln in lines[start + 1:]:
        if not ln.startswith(prefix + " "):
            break
        body = ln[2:]
        if body.startswith("grid "):
            rows.append(body[5:])
        elif body.startswith("name: "):
            name = body[6:]
        elif body.startswith("mines: "):
            try:
                mines = int(body[7:])
            except ValueError:
                raise SolutionSyntaxError(f"bad mine count in the header: {body!r}", source=source) from None
        elif body.startswith("var"):
            break
    if not rows:
        raise SolutionSyntaxError("mineconv header without a grid", source=source, line=start + 1)
    try:
        return Puzzle.from_rows(rows, mines=mines, name=name)
    except Exception as exc:  # a damaged header is bad input, reported as such
        raise SolutionSyntaxError(f"the header's grid is damaged: {exc}", source=source) from None
