"""The toolkit's exceptions: one base class, subclasses that are also builtin exceptions."""
from __future__ import annotations

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, Optional

# an offending line is echoed at most this wide, cut around its column: a 50 MB line of garbage must not
# come back as a 50 MB message (batch reports used the same width before this was shared)
LINE_EXCERPT = 120


def excerpt(line_text: str, column: Optional[int] = None,
            width: int = LINE_EXCERPT) -> "tuple[str, Optional[int]]":
    """A long line cut to about width characters around column, and the column's place in the cut."""
    if len(line_text) <= width:
        return line_text, column
    col = column if column is not None and column >= 1 else 1
    start = max(0, min(col - 1 - width // 2, len(line_text) - width))
    cut = line_text[start:start + width]
    head = "..." if start > 0 else ""
    tail = "..." if start + width < len(line_text) else ""
    return head + cut + tail, (col - start + len(head) if column is not None else None)


class MineconvError(Exception):
    """Base class of every error mineconv raises; never raised itself.

    Each error is also a builtin that says what went wrong: a ValueError (bad input), a RuntimeError (a
    solver or the machine failed) or an OSError (a file could not be opened, or is a folder), so a caller
    can catch either family. Raise the subclass that says which.
    """

    exit_status = 2

    def __new__(cls, *args: Any, **where: Any) -> "MineconvError":
        if cls is MineconvError:
            raise TypeError("MineconvError is only a base class: raise InputError, ResourceError, "
                            "FileAccessError or another of its subclasses")
        # only the message goes on: OSError.__new__ refuses keyword arguments
        return super().__new__(cls, *args)

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
            shown, col = excerpt(self.line_text.rstrip("\r\n"), self.column)
            text += "\n    " + shown
            if col is not None:
                text += "\n    " + " " * (col - 1) + "^"
        return text


class InputError(MineconvError, ValueError):
    """Bad input: an argument, option or request that cannot be carried out as given."""


class ResourceError(MineconvError, RuntimeError):
    """Something missing from or failing on this machine: an optional package, a service, a search's run."""


class FileAccessError(MineconvError, OSError):
    """A file or folder that could not be opened, read or written, or a folder where a file belongs."""


class InputNotFoundError(FileAccessError, FileNotFoundError):
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


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP raised where Ctrl-C would be, so every `except KeyboardInterrupt` cleanup runs.

    The command line exits with 128 + signum (143 for SIGTERM, 129 for SIGHUP).
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = int(signum)

    @property
    def exit_status(self) -> int:
        """The shell's status of a process ended by this signal: 128 + signum."""
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        """'SIGTERM', 'SIGHUP': the signal's name, or its number when the platform has no name for it."""
        import signal
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


def wrapped_stop(exc: BaseException) -> Optional[KeyboardInterrupt]:
    """The Ctrl-C (or Terminated) that exc was raised from, if any (None: exc is an error of its own).

    A stop landing while a module imported during a run builds a dataclass reaches the caller as a
    RuntimeError ("Error calling __set_name__ ...", Python 3.11) whose cause is the KeyboardInterrupt: the
    CLI printed a traceback and exited 1 for 1 of 40 Ctrl-Cs sent into `solve --all`.
    """
    cause = exc.__cause__
    while cause is not None:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        cause = cause.__cause__
    return None
