"""The bulk text engine of the solver-file writers: million-line files from numpy arrays, no per-line Python.

Every piece of text a writer repeats (a variable name, a term, the tail of a line, a number) is an *item*:
one row of NUL-padded ASCII bytes, viewed as a single numpy void value so that it moves as a whole. A
*table* is a 1-D array of items; a line is a few items side by side; a block of lines is one gather of
items by index (`table.take(index)`), turned into bytes with every NUL dropped (`squeeze`). The writers
hand those bytes to their output with `emit`, a block at a time.

Worked example: the free MPS line ` x3_7 c2_6 1 c2_7 1\\n` (a column's two entries) is five items:

    heads.at(var)     ' x3_7 '    (' ', the variable's name, ' '; NUL-padded)
    names.at(row)     'c2_6'
    suffixes.at(...)  ' 1 '       (value 1, a second entry follows)
    names.at(row2)    'c2_7'
    suffixes.at(...)  ' 1\\n'      (value 1, end of line)

gathered for every line of a block at once by `join(n, [(heads, i), (names, j), ...])`, which fills one
structured array field by field and squeezes out the NUL padding. An LP constraint line
` c3_7: x2_6 + x2_7 = 1\\n` is items of one table built with `TableBuilder`: the head ` c3_7:`, the first
term ` x2_6`, a later term ` + x2_7`, the tail ` = 1\\n`; `TableBuilder.add` hands out each section's
named offsets, so call sites read `tails.at(rhs_index)`, not raw arithmetic on the table.

Work is done in chunks of lines (`chunks(n, size)`); the sizes are the module attributes below, read when a
writer runs (a test shrinks them with monkeypatch to cross every chunk boundary). Nothing here depends on
the machine's byte order: numbers become text through byte tables, and the one place that packs bytes into
integers (the MPS names) says '<u8' explicitly.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple, Union

from ..core.errors import InputError
from ..core.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

# chunk sizes (lines per numpy pass), looked up at call time: bounded memory on million-line files, and
# small pieces where the index arithmetic is heavy (fewer page faults, warm caches)
CHUNK = 1 << 16         # simple lines: names, bounds, the variable map, clauses, sums over every variable
ROW_CHUNK = 1 << 14     # constraint lines (LP, OPB, SMT-LIB) and MPS ROWS / RHS entries
COLUMN_CHUNK = 1 << 12  # MPS columns (ten entry slots each)
# small boards are written by the thousand in a batch, mostly at the same few sizes: the texts of cells
# ('x3_7', ' c3_7:') and of small numbers are built once per process and then only gathered
SMALL_CELLS = 1 << 14   # boards up to this many cells use a cached per-cell table (<= ~0.5 MB each)
SMALL_NUMBERS = 1 << 16  # numbers below this in magnitude use a cached table

Piece = Union[bytes, "np.ndarray"]   # constant bytes, or items / an (n, w) byte matrix


def chunks(n: int, size: Optional[int] = None) -> Iterator[Tuple[int, int]]:
    """(start, stop) ranges covering 0..n in steps of size (CHUNK, as it is now, when not given)."""
    step = max(1, CHUNK if size is None else size)
    for start in range(0, n, step):
        yield start, min(n, start + step)


# items -------------------------------------------------------------------------------------------
def items(matrix: np.ndarray) -> np.ndarray:
    """The rows of an (n, w) byte (or word) matrix as n void items of w bytes each."""
    raw = np.ascontiguousarray(matrix)
    n = raw.shape[0]
    width = _row_bytes(raw)
    if not width:
        return np.zeros(n, dtype="V1")   # a NUL byte: nothing once squeezed
    return raw.view(np.uint8).reshape(n, width).view(f"V{width}").ravel()


def as_bytes(block: np.ndarray) -> np.ndarray:
    """(n, w) uint8 view of n items (or of an (n, w) byte matrix)."""
    block = np.ascontiguousarray(block)
    return block.view(np.uint8).reshape(block.shape[0], _row_bytes(block))


def _row_bytes(block: np.ndarray) -> int:
    width = block.dtype.itemsize
    for d in block.shape[1:]:   # not np.prod: small boards call this thousands of times
        width *= d
    return width


def texts(choices: Sequence[str]) -> np.ndarray:
    """Constant texts as items (NUL-padded to the longest); read-only, made once per process."""
    return _texts(tuple(choices))


@lru_cache(maxsize=256)
def _texts(choices: Tuple[str, ...]) -> np.ndarray:
    raw = [c.encode("ascii") for c in choices]
    width = max([1] + [len(c) for c in raw])
    table = np.array([c.ljust(width, b"\0") for c in raw], dtype=f"V{width}")
    table.flags.writeable = False
    return table


def squeeze(block: np.ndarray) -> bytes:
    """The bytes of items (or a NUL-padded byte matrix), one after another, with every NUL dropped."""
    return np.ascontiguousarray(block).tobytes().translate(None, b"\0")


def rows_of(n: int, pieces: Sequence[Piece]) -> np.ndarray:
    """n items, each the pieces side by side: constant bytes, or per-line items / (n, w) byte matrices."""
    # one field per piece of a structured array: each field is filled an item at a time, several times
    # faster than copying a byte matrix into strided columns of a (n, width) uint8 buffer
    columns = []
    for p in pieces:
        if isinstance(p, bytes):
            if p:
                columns.append(texts((p.decode("ascii"),))[0])
        elif p.dtype.kind == "V" and p.ndim == 1 and p.dtype.names is None:
            columns.append(p)
        else:
            columns.append(items(p))
    if not columns:
        return np.zeros(n, dtype="V1")
    out = np.empty(n, dtype=np.dtype([(f"f{i}", c.dtype) for i, c in enumerate(columns)]))
    for i, c in enumerate(columns):
        out[f"f{i}"] = c
    return out.view(f"V{out.dtype.itemsize}")


def join(n: int, fields: Sequence[Any]) -> bytes:
    """n lines, each the fields side by side, as bytes without NULs. A field is constant bytes, n items,
    or (table, index): the table's items at index (one per line)."""
    if not n:
        return b""
    columns = []
    for f in fields:
        if isinstance(f, bytes):
            columns.append(texts((f.decode("ascii"),))[0])
        elif isinstance(f, tuple):
            table, index = f
            columns.append(table.take(index))
        else:
            columns.append(f)
    out = np.empty(n, dtype=np.dtype([(f"f{i}", c.dtype) for i, c in enumerate(columns)]))
    for i, c in enumerate(columns):
        out[f"f{i}"] = c
    return out.tobytes().translate(None, b"\0")


class Section:
    """Where one group of items sits in a table built by TableBuilder."""

    def __init__(self, base: int, size: int) -> None:
        self.base = base
        self.size = size

    def at(self, i: Any) -> Any:
        """Table index of item i of this section (an int or an index array)."""
        return self.base + i

    @property
    def item(self) -> int:
        """Table index of a one-item section's item."""
        return self.base


class TableBuilder:
    """Collects groups of items into one table (each widened to the widest with NULs) and names where
    each group sits: `tails = builder.add(...)`, later `tails.at(k)`."""

    def __init__(self) -> None:
        self._parts: List[np.ndarray] = []
        self._size = 0

    def add(self, part: Union[np.ndarray, Sequence[str]]) -> Section:
        """Add items (or constant texts) as the next section."""
        block = part if isinstance(part, np.ndarray) else texts(part)
        self._parts.append(block)
        section = Section(self._size, block.shape[0])
        self._size += block.shape[0]
        return section

    def build(self) -> np.ndarray:
        """The table: every section's items, in the order added."""
        width = max([1] + [p.dtype.itemsize for p in self._parts])
        table = np.zeros(self._size, dtype=f"V{width}")
        at = 0
        for p in self._parts:
            n = p.shape[0]
            if n:
                # a narrower section goes in as the first field of a structured view: one item copy per row,
                # not a strided copy of w bytes (the rest of the row stays NUL)
                part = p if p.ndim == 1 and p.dtype.kind == "V" and p.dtype.names is None else items(p)
                w = part.dtype.itemsize
                layout = np.dtype({"names": ["f"], "formats": [f"V{w}"], "offsets": [0], "itemsize": width})
                table[at:at + n].view(layout)["f"] = part
            at += n
        return table


# numbers -----------------------------------------------------------------------------------------
# 4-digit groups as 4-byte words: zero-padded ('0042'), and left-trimmed with NUL padding ('\0\0\x0042');
# the trimmed table comes in two flavours for zero: blank (a leading group) or '0' (the last group). The
# words are only copied and viewed back as bytes, never computed on, so byte order does not matter.
@lru_cache(maxsize=None)
def digit_tables() -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(trimmed, last, lead): the word tables above, built on first use (not by every import of a writer)."""
    values = np.arange(10000)
    digits = (values[:, None] // np.array([1000, 100, 10, 1])) % 10 + ord("0")
    padded = digits.astype(np.uint8).view(np.uint32).ravel()
    # a leading zero digit is blank, the last digit never is ('0' for zero)
    shown = values[:, None] >= np.array([1000, 100, 10, 0])
    trimmed = np.where(shown, digits, 0).astype(np.uint8).view(np.uint32).ravel()
    lead = trimmed.copy()
    lead[0] = 0
    # index r + 10000 * (no digit printed yet)
    return trimmed, np.concatenate([padded, trimmed]), np.concatenate([padded, lead])


_MINUS = int.from_bytes(b"\0\0\0-", sys.byteorder)   # the uint32 word of "-" in the last byte, as numpy reads it


def number_words(values: np.ndarray, signed: bool = False) -> np.ndarray:
    """Decimal text of integers as an (n, g) uint32 matrix of 4-byte words, right-aligned, NUL-padded."""
    x = np.asarray(values, dtype=np.int64).ravel()
    n = x.shape[0]
    neg: Optional[np.ndarray] = None   # set exactly when signed
    if signed:
        neg = x < 0
        x = np.abs(x)
    elif n and int(x.min()) < 0:
        raise InputError("negative number given to an unsigned field")
    top = int(x.max()) if n else 0
    trimmed, table_last, table_lead = digit_tables()
    if top < 10000 and not signed:
        # one 4-digit group (row and column numbers): a single table lookup
        return trimmed[x].reshape(n, 1)
    groups = max(1, (len(str(top)) + 3) // 4)
    words = np.empty((n, groups + (1 if signed else 0)), dtype=np.uint32)
    parts: List[np.ndarray] = []
    rest = x
    for _ in range(groups):
        rest, r = np.divmod(rest, 10000)
        parts.append(r)
    first = 1 if signed else 0
    blank = np.ones(n, dtype=bool)  # no digit printed yet, so zeros are leading zeros
    for i, r in enumerate(reversed(parts)):
        table = table_last if i == groups - 1 else table_lead
        words[:, first + i] = table[r + 10000 * blank]
        blank &= r == 0
    if neg is not None:
        words[:, 0] = np.where(neg, _MINUS, 0)
    return words


def numbers(values: np.ndarray, signed: bool = False) -> np.ndarray:
    """Decimal text of integers as items, right-aligned and NUL-padded ('-' in front when negative)."""
    words = number_words(values, signed)
    if signed or words.shape[1] != 1 or not words.shape[0]:
        return items(words)
    # one 4-digit group: only as many bytes as the largest number has digits (row and column numbers of
    # a 1000 x 1000 board take 3), so every line built from them carries less padding
    width = len(str(int(np.asarray(values).max())))
    return items(as_bytes(words)[:, 4 - width:])


@lru_cache(maxsize=16)
def _number_table(prefix: bytes, suffix: bytes, bound: int) -> np.ndarray:
    values = np.arange(-bound + 1, bound)
    return rows_of(values.shape[0], [prefix, numbers(values, signed=True), suffix])


def number_items(values: np.ndarray, prefix: bytes = b"", suffix: bytes = b"") -> np.ndarray:
    """prefix + decimal value + suffix for each value, as items (a cached table for small values)."""
    v = np.asarray(values).ravel()
    bound = SMALL_NUMBERS
    if v.size and -bound < int(v.min()) and int(v.max()) < bound:
        return _number_table(prefix, suffix, bound).take(v.astype(np.intp) + (bound - 1))
    # no sign column when nothing is negative (the header's variable ids): the same text, less padding
    signed = bool(v.size) and int(v.min()) < 0
    return rows_of(v.shape[0], [prefix, numbers(v, signed=signed), suffix])


# cells -------------------------------------------------------------------------------------------
CellPiece = Union[bytes, str]  # constant bytes, or "r" / "c" for the cell's row / column number


def _pieces_at(pieces: Sequence[Any], r: np.ndarray, c: np.ndarray) -> np.ndarray:
    text = {"r": numbers(r) if "r" in pieces else b"", "c": numbers(c) if "c" in pieces else b""}
    return rows_of(r.shape[0], [text[p] if p == "r" or p == "c" else p for p in pieces])


@lru_cache(maxsize=16)
def _cell_table(rows: int, cols: int, pieces: Tuple[Any, ...]) -> np.ndarray:
    r, c = np.divmod(np.arange(rows * cols), cols)
    return _pieces_at(pieces, r, c)


def _runs(pieces: Sequence[Any]) -> List[Tuple[str, List[Any]]]:
    """The pieces cut into runs that each name one of "r" and "c" (constant pieces join the run before them, or
    the first run): (" x", "r", "_", "c", "\n") -> [("r", [" x", "r", "_"]), ("c", ["c", "\n"])]."""
    runs: List[Tuple[str, List[Any]]] = []
    lead: List[Any] = []
    for p in pieces:
        if p == "r" or p == "c":
            if runs and runs[-1][0] == p:
                runs[-1][1].append(p)
            else:
                runs.append((p, lead + [p]))
                lead = []
        elif runs:
            runs[-1][1].append(p)
        else:
            lead.append(p)
    if lead:   # no "r" nor "c" at all
        runs.append(("r", lead))
    return runs


def _pieces_by_line(shape: Tuple[int, int], pieces: Sequence[Any], r: np.ndarray, c: np.ndarray) -> np.ndarray:
    """_pieces_at for many cells of a big board: each run of pieces is made once per row (or column) of the
    board, then every cell's item is a gather of its row's and its column's runs (a million cells' numbers are
    not turned into text one by one)."""
    fields = []
    for which, run in _runs(pieces):
        size = shape[0] if which == "r" else shape[1]
        line = np.arange(size)
        table = _pieces_at(run, line, line)
        fields.append(table.take(r if which == "r" else c))
    return rows_of(r.shape[0], fields)


def cell_items(shape: Tuple[int, int], pieces: Tuple[Any, ...], r: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The pieces for each cell (r[i], c[i]) of a board of this shape as items, e.g. naming.name_pieces("x")."""
    rows, cols = shape
    if rows * cols <= SMALL_CELLS:
        return _cell_table(rows, cols, tuple(pieces)).take(r.astype(np.intp) * cols + c)
    if r.shape[0] > rows + cols:
        return _pieces_by_line(shape, pieces, r, c)
    return _pieces_at(pieces, r, c)


# the grid ------------------------------------------------------------------------------------------
RANGE_SPAN = 64   # value_table lists every integer of a range up to this wide


def value_table(values: np.ndarray) -> Tuple[List[int], np.ndarray]:
    """A short ascending list of integers covering a small-range array, and each value's index in it: every
    integer from the least value to the greatest when they span at most RANGE_SPAN (right-hand sides of
    counts, -8..8: one subtraction, no count of each value), else only those that occur (bincount)."""
    v = np.asarray(values)
    if not v.shape[0]:
        return [], np.zeros(0, dtype=np.intp)
    low, high = int(v.min()), int(v.max())
    # shifted once, into the index type (not copied to int64 first, nor shifted again for the lookup)
    shifted = np.subtract(v, low, dtype=np.intp)
    if high - low < RANGE_SPAN:
        return list(range(low, high + 1)), shifted
    seen = np.bincount(shifted)
    lookup = (np.cumsum(seen > 0) - 1).astype(np.intp)
    return (np.flatnonzero(seen) + low).tolist(), lookup.take(shifted)


# output ------------------------------------------------------------------------------------------
def emit(out: Any, data: bytes) -> None:
    """Hand a block of ASCII bytes to a writer's output: as bytes to an output that takes them (the
    registry's, see formats.writing.ByteOutput), else as text through the stream's own write(), so that a text
    stream's newline translation applies to these lines as to every other."""
    write_bytes = getattr(out, "write_bytes", None)
    if write_bytes is not None:
        write_bytes(data)
    else:
        out.write(data.decode("ascii"))
