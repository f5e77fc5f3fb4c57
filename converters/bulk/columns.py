"""Lines as byte matrices filled column by column: few numpy calls per block, so small boards stay cheap.

Each piece of a line is constant bytes (the same in every line) or an (n, w) uint8 matrix of NUL-padded
text (ascii_numbers, a name matrix, a pick from a small table); NUL bytes are squeezed out at the end
(formats._text.squeeze). Compared with formats._text.Lines this allocates the matrix once and writes each
piece into its columns, instead of one broadcast block per piece joined by hstack.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence, Tuple, Union

import numpy as np

from .items import ascii_numbers

Piece = Union[bytes, np.ndarray]


def byte_rows(n: int, pieces: Sequence[Piece]) -> np.ndarray:
    """(n, width) uint8: every line the pieces side by side (constant bytes, or (n, w) uint8 matrices).

    (Gather table rows for the pieces with .take(index, axis=0): several times faster than table[index].)
    """
    width = sum(len(p) if isinstance(p, bytes) else p.shape[1] for p in pieces)
    buf = np.empty((n, width), dtype=np.uint8)
    at = 0
    for p in pieces:
        if isinstance(p, bytes):
            if p:
                buf[:, at:at + len(p)] = np.frombuffer(p, dtype=np.uint8)
            at += len(p)
        else:
            buf[:, at:at + p.shape[1]] = p
            at += p.shape[1]
    return buf


def pick(choices: Tuple[bytes, ...], which: np.ndarray) -> np.ndarray:
    """(n, w) uint8: line i is choices[which[i]], NUL-padded at the end to the longest choice."""
    return _choice_table(choices).take(which, axis=0)


@lru_cache(maxsize=64)
def _choice_table(choices: Tuple[bytes, ...]) -> np.ndarray:
    width = max(1, max(len(c) for c in choices))
    table = np.frombuffer(b"".join(c.ljust(width, b"\0") for c in choices), dtype=np.uint8)
    return table.reshape(len(choices), width)


def rc_names(prefix: bytes, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """(n, w) uint8 names '<prefix><row>_<col>' (naming.var_name / con_name)."""
    r = ascii_numbers(rows)
    return byte_rows(r.shape[0], [prefix, r, b"_", ascii_numbers(cols)])


# Small boards are written by the thousand in a batch, and mostly at the same few sizes: the texts of
# cells ('x3_7', ' c3_7:') and of small numbers are built once per process and then only gathered.
SMALL_CELLS = 1 << 14   # boards up to this many cells use a cached per-cell table (<= ~0.5 MB each)
SMALL_NUMBERS = 1 << 16  # numbers below this in magnitude use a cached table

CellPiece = Union[bytes, str]  # constant bytes, or "r" / "c" for the cell's row / column number


def _pieces_at(pieces: Sequence[CellPiece], r: np.ndarray, c: np.ndarray) -> np.ndarray:
    r_text = ascii_numbers(r) if "r" in pieces else None
    c_text = ascii_numbers(c) if "c" in pieces else None
    return byte_rows(r.shape[0], [r_text if p == "r" else c_text if p == "c" else p for p in pieces])


@lru_cache(maxsize=16)
def _cell_table(rows: int, cols: int, pieces: Tuple[CellPiece, ...]) -> np.ndarray:
    r, c = np.divmod(np.arange(rows * cols), cols)
    return _pieces_at(pieces, r, c)


def cell_text(shape: Tuple[int, int], pieces: Tuple[CellPiece, ...], r: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(n, w) uint8: the pieces for each cell (r[i], c[i]) of a board of this shape, e.g. (b"x", "r", b"_", "c")."""
    rows, cols = shape
    if rows * cols <= SMALL_CELLS:
        return _cell_table(rows, cols, pieces).take(r.astype(np.intp) * cols + c, axis=0)
    return _pieces_at(pieces, r, c)


@lru_cache(maxsize=16)
def _number_table(prefix: bytes, suffix: bytes, bound: int) -> np.ndarray:
    values = np.arange(-bound + 1, bound)
    return byte_rows(values.shape[0], [prefix, ascii_numbers(values, signed=True), suffix])


def number_text(values: np.ndarray, prefix: bytes = b"", suffix: bytes = b"") -> np.ndarray:
    """(n, w) uint8: prefix + decimal value (a '-' when negative) + suffix for each value."""
    v = np.asarray(values).ravel()
    if not v.size:
        return np.zeros((0, len(prefix) + len(suffix) + 1), dtype=np.uint8)
    bound = SMALL_NUMBERS
    if -bound < int(v.min()) and int(v.max()) < bound:
        return _number_table(prefix, suffix, bound).take(v.astype(np.intp) + (bound - 1), axis=0)
    return byte_rows(v.shape[0], [prefix, ascii_numbers(v, signed=True), suffix])
