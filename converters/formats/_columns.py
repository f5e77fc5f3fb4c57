"""Lines as byte matrices filled column by column: few numpy calls per block, so small boards stay cheap.

Each piece of a line is constant bytes (the same in every line) or an (n, w) uint8 matrix of NUL-padded
text (ascii_numbers, a name matrix, a pick from a small table); NUL bytes are squeezed out at the end
(formats._text.squeeze). Compared with formats._text.Lines this allocates the matrix once and writes each
piece into its columns, instead of one broadcast block per piece joined by hstack.
"""
from __future__ import annotations

from typing import Sequence, Union

import numpy as np

from ._text import ascii_numbers

Piece = Union[bytes, np.ndarray]


def byte_rows(n: int, pieces: Sequence[Piece]) -> np.ndarray:
    """(n, width) uint8: every line the pieces side by side (constant bytes, or (n, w) uint8 matrices)."""
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


def pick(choices: Sequence[bytes], which: np.ndarray) -> np.ndarray:
    """(n, w) uint8: line i is choices[which[i]], NUL-padded at the end to the longest choice."""
    width = max(1, max(len(c) for c in choices))
    table = np.frombuffer(b"".join(c.ljust(width, b"\0") for c in choices), dtype=np.uint8)
    return table.reshape(len(choices), width)[which]


def rc_names(prefix: bytes, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """(n, w) uint8 names '<prefix><row>_<col>' (naming.var_name / con_name)."""
    r = ascii_numbers(rows)
    return byte_rows(r.shape[0], [prefix, r, b"_", ascii_numbers(cols)])
