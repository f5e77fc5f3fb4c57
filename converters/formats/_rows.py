"""Decoding grid rows of single-character cells in bulk, for the line-based puzzle notations."""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np


def symbol_table(mapping: Dict[str, str]) -> np.ndarray:
    """A 256-entry byte table: notation character -> mineconv cell symbol (0 for characters not allowed)."""
    table = np.zeros(256, dtype=np.uint8)
    for src, dst in mapping.items():
        table[ord(src)] = ord(dst)
    return table


def decode(row: str, table: np.ndarray) -> Tuple[Optional[str], int]:
    """(mineconv cell symbols, -1) for a row, or (None, index of the first character not allowed)."""
    try:
        raw = np.frombuffer(row.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None, next(i for i, ch in enumerate(row) if ord(ch) > 127)
    out = table[raw]
    bad = np.flatnonzero(out == 0)
    if bad.size:
        return None, int(bad[0])
    return out.tobytes().decode("ascii"), -1
