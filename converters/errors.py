"""The toolkit's exceptions: one base class, subclasses that are also builtin exceptions."""
from __future__ import annotations

from typing import Optional


class MineconvError(Exception):
    """Base class of every error mineconv raises on purpose."""

    exit_status = 2

    def __init__(self, message: str, *, source: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, line_text: Optional[str] = None,
                 cell: Optional[tuple] = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.line_text = line_text
        self.cell = cell  # (row, col) on the grid, 0-based, when the error is about one cell

    def located(self, source: Optional[str] = None) -> "MineconvError":
        """Return self with the source file name filled in when it was unknown."""
        if self.source is None and source is not None:
            self.source = source
        return self

    def __str__(self) -> str:
        where = []
        if self.source is not None:
            where.append(str(self.source))
        if self.line is not None:
            where.append(str(self.line))
            if self.column is not None:
                where.append(str(self.column))
        head = ":".join(where)
        text = f"{head}: {self.message}" if head else self.message
        if self.line_text is not None:
            text += "\n    " + self.line_text.rstrip("\r\n")
            if self.column is not None:
                text += "\n    " + " " * (self.column - 1) + "^"
        return text


class InputNotFoundError(MineconvError, FileNotFoundError):
    """An input file that does not exist (catch it as FileNotFoundError too)."""

    def __init__(self, message: str, **where) -> None:
        MineconvError.__init__(self, message, **where)
        self.filename = where.get("source")


class PuzzleError(MineconvError, ValueError):
    """A puzzle that breaks the model's rules (shape, counts, neighbour limits)."""


class PuzzleSyntaxError(MineconvError, ValueError):
    """Input text that is not valid in its notation."""


class FormatError(MineconvError, ValueError):
    """An unknown or unusable format name, extension or direction."""


class LossyConversionError(MineconvError, ValueError):
    """The target notation cannot express part of the puzzle (raised under --strict)."""


class SolutionSyntaxError(MineconvError, ValueError):
    """A solver's answer that cannot be read: garbled, truncated, unknown names."""


class VerificationError(MineconvError, ValueError):
    """An answer that violates the puzzle."""

    exit_status = 3


class SolverError(MineconvError, RuntimeError):
    """An external solver that is missing, crashed, or answered nothing usable."""


class LossyConversionWarning(UserWarning):
    """The target notation drops part of the puzzle."""


class AmbiguousInputWarning(UserWarning):
    """The input fits two notations that read it as different puzzles; the likelier reading was taken."""
