"""Reading input text and writing output files atomically."""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Iterator, TextIO, Tuple, Union

from .errors import MineconvError, PuzzleSyntaxError

PathLike = Union[str, "os.PathLike[str]"]
STDIO = "-"


def source_name(path: PathLike) -> str:
    """How a path is named in messages (stdin as '<stdin>')."""
    return "<stdin>" if str(path) == STDIO else str(path)


def decode_bytes(data: bytes, source: str) -> str:
    """Decode UTF-8 input (BOM allowed); a bad byte is a syntax error at its line and column."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PuzzleSyntaxError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", source=source,
                                line=line, column=col) from None
    if "\x00" in text:
        pos = text.index("\x00")
        line, col, _ = locate(text, pos)
        raise PuzzleSyntaxError("binary data (a NUL byte) in a text file", source=source, line=line,
                                column=col)
    return text


def read_input(path: PathLike) -> Tuple[str, str]:
    """Return (text, source name) of a file, or of stdin for '-'."""
    src = source_name(path)
    if str(path) == STDIO:
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise MineconvError("no such file", source=src) from None
        except IsADirectoryError:
            raise MineconvError("is a folder, not a file", source=src) from None
        except PermissionError:
            raise MineconvError("permission denied", source=src) from None
        except OSError as exc:
            raise MineconvError(f"cannot read: {exc.strerror or exc}", source=src) from None
    return decode_bytes(data, src), src


def locate(text: str, offset: int) -> Tuple[int, int, str]:
    """1-based (line, column) and the whole line of a character offset in text."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    if end < 0:
        end = len(text)
    return text.count("\n", 0, offset) + 1, offset - start + 1, text[start:end]


def line_of(text: str, line: int) -> str:
    """The 1-based line of text (empty past the end)."""
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


@contextlib.contextmanager
def atomic_output(path: PathLike, *, binary: bool = False, fsync: bool = True) -> Iterator[TextIO]:
    """Open path for writing so that it appears complete or not at all ('-' is stdout).

    fsync=False skips flushing the data to disk before the rename: a killed process still never leaves a
    truncated file, only a power loss can lose the newest files (batch runs write thousands of small files).
    """
    if str(path) == STDIO:
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream  # type: ignore[misc]
        stream.flush()
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        mode = "wb" if binary else "w"
        kwargs = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        # mkstemp makes 0600 files; outputs should get the usual permissions
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: PathLike, text: str) -> None:
    """Write text to path atomically."""
    with atomic_output(path) as fh:
        fh.write(text)
