"""Helpers the puzzle-notation readers share: errors that point at an offset of the input text."""
from __future__ import annotations

from typing import Optional, Type

from ..errors import MineconvError, PuzzleSyntaxError
from ..fileio import locate


def error_at(message: str, text: str, offset: int, source: Optional[str],
             cls: Type[MineconvError] = PuzzleSyntaxError) -> MineconvError:
    """An error located at a character offset of text (line, column and the offending line)."""
    offset = max(0, min(offset, len(text)))
    line, column, line_text = locate(text, offset)
    return cls(message, source=source, line=line, column=column, line_text=line_text)


def symbol_name(token: str) -> str:
    """A token as shown in a message: quoted, and cut short when long."""
    return repr(token if len(token) <= 20 else token[:17] + "...")
