"""The write pipeline, one line back: Puzzle -> loss check -> the format's encoding -> bytes -> atomic file.

How to write is one immutable value, WriteSettings (the format, --strict and the writer's options), built
once from the keywords of write(), dump() or dumps() and passed down unchanged.
"""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..core.errors import FormatError, LossyConversionError, LossyConversionWarning
from ..core.fileio import STDIO, PathLike, atomic_output
from .registry import Format, get_format, output_format


@dataclass(frozen=True)
class WriteSettings:
    """How to write: the format, whether a loss is refused (--strict), and the writer's keyword options."""

    format: Format
    strict: bool = False
    options: Tuple[Tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, fmt: Format, strict: bool = False, options: Optional[Mapping[str, Any]] = None) -> WriteSettings:
        """The settings for a format, --strict and the writer options; an option fmt does not declare is refused."""
        given = dict(options or {})
        check_write_options(fmt, given)
        return cls(fmt, strict, tuple(given.items()))

    @property
    def writer_options(self) -> Dict[str, Any]:
        """The writer's keyword arguments."""
        return dict(self.options)


def losses(puzzle: Any, fmt: Format, **options: Any) -> List[str]:
    """What the format would drop from this puzzle."""
    lost = list(fmt.losses(puzzle, **options)) if fmt.losses else []
    start = getattr(puzzle, "start", None)
    # a solver file has no use for the first click; a puzzle notation that drops it loses the game's start
    if start is not None and fmt.kind == "puzzle" and not fmt.keeps_start:
        lost.append(f"the first click (start: {start[0]},{start[1]})")
    if getattr(puzzle, "wires", ()) and fmt.kind == "puzzle" and not fmt.keeps_wires:
        lost.append("the cells of the CNF variables (the 'wires' header of a board made by reduce)")
    return lost


def check_write_options(fmt: Format, options: Mapping[str, Any]) -> None:
    """Refuse a keyword option fmt's writer does not declare (a typo such as card_encodng= is no silent no-op)."""
    unknown = sorted(k for k in options if k not in fmt.write_options)
    if unknown:
        accepted = ", ".join(fmt.write_options) if fmt.write_options else "none"
        flags = ", ".join("--" + k.replace("_", "-") for k in unknown)
        raise FormatError(f"the {fmt.name} writer has no option {', '.join(map(repr, unknown))} ({flags} on the "
                          f"command line); its options: {accepted}")


def _check_losses(puzzle: Any, settings: WriteSettings) -> List[str]:
    """Warn about each thing the format drops (refuse the first under --strict); return them."""
    fmt = settings.format
    lost = losses(puzzle, fmt, **settings.writer_options)
    for item in lost:
        msg = f"{fmt.name} cannot express {item}"
        if settings.strict:
            raise LossyConversionError(msg + " (refused under --strict)")
        warnings.warn(msg, LossyConversionWarning, stacklevel=4)
    return lost


class ByteOutput(io.TextIOBase):
    """What a text-format writer writes to when the registry owns a binary destination (a path, dumps):
    text is encoded as UTF-8 with its '\\n' line ends kept, and blocks of ASCII bytes from the bulk
    engine (engine.emit calls write_bytes) go straight through, so every line ends the same way."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self._raw = raw

    def writable(self) -> bool:
        """Always: this is an output."""
        return True

    def write(self, s: str) -> int:
        """Write text (UTF-8)."""
        self._raw.write(s.encode("utf-8"))
        return len(s)

    def write_bytes(self, data: bytes) -> None:
        """Write ASCII bytes as they are."""
        self._raw.write(data)


def _binary_stream(out: Any) -> bool:
    return isinstance(out, (io.RawIOBase, io.BufferedIOBase)) or "b" in str(getattr(out, "mode", ""))


def _encode(puzzle: Any, settings: WriteSettings, out: Any) -> None:
    """Run the format's writer on an open stream. A text stream gets text through its own write() (its newline
    translation applies to every line); a binary stream gets UTF-8 bytes, line ends as written."""
    fmt, options = settings.format, settings.writer_options
    assert fmt.writer is not None   # get_format(direction="write") found it
    if fmt.binary and isinstance(out, io.TextIOBase):
        buf = io.BytesIO()
        fmt.writer(puzzle, buf, **options)
        raw = getattr(out, "buffer", None)
        if raw is not None:
            out.flush()
            raw.write(buf.getvalue())
        else:  # a text-only stream (dumps) gets latin-1 text, which parse() turns back into the same bytes
            out.write(buf.getvalue().decode("latin-1"))
    elif not fmt.binary and _binary_stream(out):
        fmt.writer(puzzle, ByteOutput(out), **options)
    else:
        fmt.writer(puzzle, out, **options)


def dump_with(puzzle: Any, out: Any, settings: WriteSettings) -> List[str]:
    """Write a puzzle to an open stream as the settings say; return what was lost."""
    lost = _check_losses(puzzle, settings)
    _encode(puzzle, settings, out)
    return lost


def write_with(puzzle: Any, path: PathLike, settings: WriteSettings) -> List[str]:
    """Write a puzzle to a file ('-' for stdout) atomically as the settings say; return what was lost."""
    lost = _check_losses(puzzle, settings)
    # a path is the registry's own: bytes, one line-end convention ('\\n') for every line; stdout is a text
    # stream like any other
    with atomic_output(path, binary=str(path) != STDIO) as out:
        _encode(puzzle, settings, out)
    return lost


def dump(puzzle: Any, out: Any, fmt: str, *, strict: bool = False, **options: Any) -> List[str]:
    """Write a puzzle to an open stream (text, or binary for UTF-8 bytes); return the warnings about what
    was lost."""
    return dump_with(puzzle, out, WriteSettings.of(get_format(fmt, direction="write"), strict, options))


def dumps(puzzle: Any, fmt: str, *, strict: bool = False, **options: Any) -> str:
    """The text of a puzzle in the named format."""
    settings = WriteSettings.of(get_format(fmt, direction="write"), strict, options)
    if settings.format.binary:
        text = io.StringIO()
        dump_with(puzzle, text, settings)
        return text.getvalue()
    buf = io.BytesIO()   # the bulk writers' bytes go in as they are, then one decode
    dump_with(puzzle, buf, settings)
    return buf.getvalue().decode("utf-8")


def write(puzzle: Any, path: PathLike, fmt: Optional[str] = None, *, strict: bool = False,
          **options: Any) -> List[str]:
    """Write a puzzle (or a solver file made from it) atomically; the format comes from fmt or the extension."""
    found = get_format(fmt, direction="write") if fmt else output_format(path)
    return write_with(puzzle, path, WriteSettings.of(found, strict, options))
