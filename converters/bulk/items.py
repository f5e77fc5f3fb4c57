"""Bulk text building for the solver-file writers: many lines at once from numpy arrays, no per-line Python.

Each line is a row of fixed-width byte fields (decimal numbers right-aligned, padded with NUL bytes, and
constant pieces that a mask can blank out); the rows are laid out in one byte matrix and the NUL bytes are
squeezed out at the end. That keeps a million-line file to a handful of numpy operations.

The fastest writers (MPS, OPB, SMT-LIB) go one step further: every piece of text they repeat (a name, a
term, a line's tail) is built once as a row of 4-byte words and viewed as one opaque numpy item, so a
line is a few gathers of whole items (word_matrix, items, item_table, assemble_items) rather than byte
columns; and write_ascii hands the bytes to the file without a round trip through str.
"""
from __future__ import annotations

import os
from typing import Any, Iterator, List, Optional, TextIO, Tuple

import numpy as np

# 4-digit groups as 4-byte words: zero-padded ('0042'), and left-trimmed with NUL padding ('\0\0\x0042');
# the trimmed table comes in two flavours for zero: blank (a leading group) or '0' (the last group).
_PADDED = np.frombuffer("".join(f"{i:04d}" for i in range(10000)).encode("ascii"), dtype=np.uint32)
_TRIMMED = np.frombuffer(b"".join(str(i).encode("ascii").rjust(4, b"\0") for i in range(10000)),
                         dtype=np.uint32).copy()
_LEAD = _TRIMMED.copy()
_LEAD[0] = 0
_TABLE_LAST = np.concatenate([_PADDED, _TRIMMED])   # index r + 10000 * (no digit printed yet)
_TABLE_LEAD = np.concatenate([_PADDED, _LEAD])
_MINUS = np.frombuffer(b"\0\0\0-", dtype=np.uint32)[0]

CHUNK = 1 << 16  # lines rendered per numpy pass: bounds memory on million-line files


def number_words(values: np.ndarray, signed: bool = False) -> np.ndarray:
    """Decimal text of integers as an (n, g) uint32 matrix of 4-byte words, right-aligned, NUL-padded."""
    x = np.asarray(values, dtype=np.int64).ravel()
    n = x.shape[0]
    neg = None
    if signed:
        neg = x < 0
        x = np.abs(x)
    elif n and int(x.min()) < 0:
        raise ValueError("negative number given to an unsigned field")
    top = int(x.max()) if n else 0
    if top < 10000 and not signed:
        # one 4-digit group (row and column numbers): a single table lookup
        return _TRIMMED[x].reshape(n, 1)
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
        table = _TABLE_LAST if i == groups - 1 else _TABLE_LEAD
        words[:, first + i] = table[r + 10000 * blank]
        blank &= r == 0
    if signed:
        words[:, 0] = np.where(neg, _MINUS, 0)
    return words


def ascii_numbers(values: np.ndarray, signed: bool = False) -> np.ndarray:
    """Decimal text of integers as a (n, width) uint8 matrix, right-aligned and padded with NUL bytes."""
    words = number_words(values, signed)
    return words.view(np.uint8).reshape(words.shape[0], 4 * words.shape[1])


def text_words(text: str, words: int = 0) -> np.ndarray:
    """Constant text as (w,) uint32 words, NUL-padded in front to whole words (to `words` words if more)."""
    raw = text.encode("ascii")
    size = max(words * 4, -(-len(raw) // 4) * 4)
    return np.frombuffer(raw.rjust(size, b"\0"), dtype=np.uint32)


def word_matrix(n: int, pieces: List[Any]) -> np.ndarray:
    """(n, w) uint32: each row the pieces side by side; a piece is text (the same in every row), or an
    (n,) / (n, g) uint32 word array (number_words), or an (n, g) array of rows to copy."""
    blocks = []
    for p in pieces:
        if isinstance(p, str):
            words = text_words(p)
            blocks.append(np.broadcast_to(words, (n, words.shape[0])))
        else:
            p = np.asarray(p, dtype=np.uint32)
            blocks.append(p[:, None] if p.ndim == 1 else p)
    return np.hstack(blocks) if blocks else np.zeros((n, 0), dtype=np.uint32)


def items(words: np.ndarray) -> np.ndarray:
    """The rows of a uint32 word matrix as one void item each (gathered whole, much faster than bytes)."""
    packed = np.ascontiguousarray(words, dtype=np.uint32)
    return packed.view(np.dtype((np.void, 4 * packed.shape[1]))).ravel()


def assemble_items(n: int, fields: List[Tuple[np.ndarray, Optional[np.ndarray]]]) -> bytes:
    """n lines, each the fields side by side: (item table, index per line), or (item table, None) for the
    table's first item in every line; NUL bytes are dropped. Fields are gathered whole (void items)."""
    if not n:
        return b""
    dtype = np.dtype([(f"f{i}", table.dtype) for i, (table, _) in enumerate(fields)])
    out = np.empty(n, dtype=dtype)
    for i, (table, index) in enumerate(fields):
        out[f"f{i}"] = table[0] if index is None else table.take(index)
    return out.tobytes().translate(None, b"\0")


def item_table(*blocks: np.ndarray) -> np.ndarray:
    """One item table of several (n_i, w_i) uint32 word matrices, one after another, each widened to the
    widest with NUL words in front."""
    width = max(b.shape[1] for b in blocks)
    rows = np.zeros((sum(b.shape[0] for b in blocks), width), dtype=np.uint32)
    at = 0
    for b in blocks:
        rows[at:at + b.shape[0], width - b.shape[1]:] = b
        at += b.shape[0]
    return items(rows)


def distinct(values: np.ndarray) -> Tuple[List[int], np.ndarray]:
    """The distinct integers (ascending) of a small-range array, and each value's index among them
    (bincount, not a sort of every value)."""
    v = np.asarray(values, dtype=np.int64)
    if not v.shape[0]:
        return [], np.zeros(0, dtype=np.int64)
    low = int(v.min())
    seen = np.bincount(v - low)
    lookup = np.cumsum(seen > 0) - 1
    return (np.flatnonzero(seen) + low).tolist(), lookup[v - low]


def write_ascii(out: TextIO, data: bytes) -> None:
    """Write ASCII bytes to a text stream: straight to its binary buffer when the stream would write the
    same bytes (UTF-8 or ASCII, no newline translation), which saves decoding and re-encoding them."""
    buffer = getattr(out, "buffer", None)
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    if buffer is not None and encoding in ("utf8", "ascii", "usascii") and os.linesep == "\n":
        out.flush()
        buffer.write(data)
    else:
        out.write(data.decode("ascii"))


class Lines:
    """Lines assembled column by column from constant text and numbers, rendered in one pass."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._blocks: List[np.ndarray] = []

    def text(self, piece: str, mask: Optional[np.ndarray] = None) -> "Lines":
        """Append constant text to every line (or only where mask is True)."""
        raw = np.frombuffer(piece.encode("ascii"), dtype=np.uint8)
        block = np.broadcast_to(raw, (self.n, raw.shape[0]))
        if mask is not None:
            block = block * np.asarray(mask, dtype=np.uint8)[:, None]
        self._blocks.append(block)
        return self

    def number(self, values: np.ndarray, mask: Optional[np.ndarray] = None, signed: bool = False) -> "Lines":
        """Append each line's integer in decimal (or nothing where mask is False)."""
        block = ascii_numbers(values, signed=signed)
        if mask is not None:
            block = block * np.asarray(mask, dtype=np.uint8)[:, None]
        self._blocks.append(block)
        return self

    def block(self, matrix: np.ndarray, mask: Optional[np.ndarray] = None) -> "Lines":
        """Append a ready (n, w) byte block (e.g. rows gathered from a name table)."""
        if mask is not None:
            matrix = matrix * np.asarray(mask, dtype=np.uint8)[:, None]
        self._blocks.append(matrix)
        return self

    def matrix(self) -> np.ndarray:
        """The lines as a (n, width) uint8 matrix, NUL-padded."""
        if not self._blocks:
            return np.zeros((self.n, 0), dtype=np.uint8)
        return np.hstack(self._blocks)

    def render(self) -> str:
        """All lines as one string (each line's pieces concatenated, NUL padding removed)."""
        if not self.n or not self._blocks:
            return ""
        return squeeze(self.matrix())


def squeeze(matrix: np.ndarray) -> str:
    """The bytes of a NUL-padded uint8 matrix, row after row, with every NUL removed, as text."""
    return np.ascontiguousarray(matrix).tobytes().translate(None, b"\0").decode("ascii")


def render_tokens(count: int, parts: List[Tuple[np.ndarray, np.ndarray]]) -> str:
    """Text made of `count` tokens, part by part: (positions, (n, w) uint8 matrix) puts row i at positions[i].

    Lets lines hold a varying number of items (the terms of a sum) without padding every line to the
    longest one: each item is one token, placed by its position in the output.
    """
    if not count:
        return ""
    width = max(block.shape[1] for _, block in parts)
    buf = np.zeros((count, width), dtype=np.uint8)
    for pos, block in parts:
        if block.shape[0]:
            buf[pos, :block.shape[1]] = block
    return squeeze(buf)


def chunks(n: int, size: int = CHUNK) -> Iterator[Tuple[int, int]]:
    """(start, stop) ranges covering 0..n in steps of size."""
    for start in range(0, n, size):
        yield start, min(n, start + size)


def add_rc(lines: Lines, prefix: str, rows: np.ndarray, cols: np.ndarray,
           mask: Optional[np.ndarray] = None) -> Lines:
    """Append a name '<prefix><row>_<col>' (naming.var_name / con_name) to each line, or nothing where masked."""
    return lines.text(prefix, mask).number(rows, mask).text("_", mask).number(cols, mask)


def fixed_field(block: np.ndarray, width: int, right: bool = False) -> np.ndarray:
    """A NUL-padded byte matrix as a space-padded field of exactly `width` bytes, left- or right-aligned.

    Raises ValueError when some row's text is longer than the field.
    """
    n = block.shape[0]
    if n > CHUNK:  # the index arithmetic below costs 8 bytes per text byte: bound it
        return np.vstack([fixed_field(block[a:b], width, right) for a, b in chunks(n)])
    count = np.count_nonzero(block, axis=1)
    if n and int(count.max()) > width:
        raise ValueError(f"text longer than a {width}-character field")
    # squeeze the text bytes out, then drop each row's run at its place in the space-filled field
    data = np.frombuffer(np.ascontiguousarray(block).tobytes().translate(None, b"\0"), dtype=np.uint8)
    base = np.arange(n, dtype=np.int64) * width - (np.cumsum(count) - count)
    if right:
        base += width - count
    out = np.full(n * width, 32, dtype=np.uint8)
    out[np.arange(data.shape[0], dtype=np.int64) + np.repeat(base, count)] = data
    return out.reshape(n, width)


class Table:
    """Rows of text (a NUL-padded byte matrix) to gather by index: names built once, used many times."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.width = matrix.shape[1]
        packed = np.ascontiguousarray(matrix)
        # a void view moves each row as one item, much faster than gathering byte columns
        self._rows = packed.view(np.dtype((np.void, self.width))).ravel() if self.width else None

    def take(self, index: np.ndarray) -> np.ndarray:
        """The (len(index), width) rows at these indices."""
        n = np.asarray(index).shape[0]
        if self._rows is None:
            return np.zeros((n, 0), dtype=np.uint8)
        return self._rows[index].view(np.uint8).reshape(n, self.width)
