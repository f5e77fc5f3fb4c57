"""Wording shared by every message: a count and its noun in the right number ("1 cell", "3 cells")."""
from __future__ import annotations

from typing import Optional


def plural(count: int, noun: str, many: Optional[str] = None) -> str:
    """'1 cell' / '3 cells': the count, then the noun, singular only for exactly one (many: irregular plural)."""
    return f"{count} {noun if count == 1 else (many if many is not None else noun + 's')}"
