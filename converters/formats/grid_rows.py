"""Decoding grid rows of single-character cells in bulk, for the line-based puzzle notations."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..core.puzzle import Puzzle


def symbol_table(mapping: Dict[str, str]) -> bytes:
    """A 256-byte translation table: notation character -> mineconv cell symbol (0 for characters not allowed)."""
    table = bytearray(256)
    for src, dst in mapping.items():
        table[ord(src)] = ord(dst)
    return bytes(table)


def decode(row: str, table: bytes) -> Tuple[Optional[str], int]:
    """(mineconv cell symbols, -1) for a row, or (None, index of the first character not allowed)."""
    try:
        raw = row.encode("ascii")
    except UnicodeEncodeError:
        return None, next(i for i, ch in enumerate(row) if ord(ch) > 127)
    out = raw.translate(table)   # bytes.translate: C speed, and no numpy for a few rows
    bad = out.find(0)
    if bad >= 0:
        return None, bad
    return out.decode("ascii"), -1


def lost_parts(puzzle: Puzzle, *, mines_as: Optional[str], safe_as: Optional[str], total: bool = True
               ) -> List[str]:
    """What a notation without names and notes drops: known mines / known safe cells (written as
    `mines_as` / `safe_as`; None when the notation keeps them), the total count (when `total`), name, notes."""
    st = puzzle.stats
    lost = []
    if mines_as and st["known_mines"]:
        lost.append(f"{st['known_mines']} known mine(s) (written as {mines_as})")
    if safe_as and st["known_safe"]:
        lost.append(f"{st['known_safe']} known safe cell(s) (written as {safe_as})")
    if total and puzzle.mines is not None:
        lost.append(f"the total mine count ({puzzle.mines})")
    if puzzle.name is not None:
        lost.append("the puzzle name")
    if puzzle.notes:
        lost.append("the notes")
    return lost
