"""The values the read pipeline hands down and back: the input as read once (Source), how to read it
(ReadSettings), and what came of it (Reading). reading.py builds the Source from a file or a text, and
detection.py hands back one Reading; nothing below them passes bytes, text and name about separately.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, Optional, Tuple

from ..core.errors import MineconvError
from .registry import Format


@dataclass(frozen=True)
class Source:
    """A puzzle input as read once: its name, bytes and text, and the notations its user named (by --from, or by
    the file name's extension), handed down the read as one value."""

    name: str                                    # where errors are located ('board.txt', '<stdin>', '<string>')
    data: Optional[bytes] = None                 # the bytes read (None: given as text, to parse())
    text: Optional[str] = None                   # the text (None: the bytes are not text, or not decoded)
    named: Optional[Format] = None               # the notation --from names (None: detect it)
    prefer: Tuple[Format, ...] = ()              # the notations the file name's extension names: ties go to them
    undecodable: Optional[MineconvError] = field(default=None, compare=False)   # why the bytes are not text

    @cached_property
    def content(self) -> Tuple[Optional[str], Optional[bytes]]:
        """What a reader or detector takes, by its binary-ness: content[fmt.binary] is the text for a text notation,
        the bytes for a binary one (the characters of a text given to parse(), as bytes; None when they are not)."""
        raw = self.data
        if raw is None and self.text is not None:
            try:
                raw = self.text.encode("latin-1")   # parse() of a binary notation: one character per byte
            except UnicodeEncodeError:
                pass
        return self.text, raw

    @property
    def empty(self) -> bool:
        """Whether the input is empty or only blank lines."""
        if self.text is not None:
            return not self.text.strip()
        return self.data is not None and not self.data.strip()


@dataclass(frozen=True)
class ReadSettings:
    """How to read a puzzle: decided once (the command line's --from, notation options and --mines, or the
    keywords of read()) and passed down the pipeline as it is."""

    notation: Optional[str] = None               # --from: the notation's name; None: detect it
    options: Tuple[Tuple[str, Any], ...] = ()    # notation options given (--blank, --order, --codes, ...)
    mines: Optional[int] = None                  # --mines: replaces the total mine count read

    @classmethod
    def of(cls, notation: Optional[str] = None, options: Optional[Mapping[str, Any]] = None,
           mines: Optional[int] = None) -> ReadSettings:
        """The settings for a notation name, a mapping of notation options (None counts as not given), --mines."""
        given = tuple((k, v) for k, v in (options or {}).items() if v is not None)
        return cls(notation or None, given, mines)


@dataclass(frozen=True)
class Reading:
    """A puzzle read from a file or text, the notation that read it and how that notation was chosen."""

    puzzle: Any
    format: Format
    how: str                                   # 'named' (--from), 'content' (detected) or 'extension'
    others: Tuple[Tuple[Format, Any], ...] = ()  # notations that fit too and read a different puzzle
    note: Optional[str] = None                 # the AmbiguousInputWarning's text, when one is due
