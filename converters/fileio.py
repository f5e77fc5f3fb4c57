"""Reading input text and writing output files atomically."""
from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
from pathlib import Path
from typing import Any, Iterator, Tuple, Union

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
    data, src = read_bytes(path)
    return decode_bytes(data, src), src


def read_bytes(path: PathLike) -> Tuple[bytes, str]:
    """Return (bytes, source name) of a file, or of stdin for '-'."""
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
    return data, src


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


_serial = itertools.count()


@contextlib.contextmanager
def atomic_output(path: PathLike, *, binary: bool = False, fsync: bool = True) -> Iterator[Any]:
    """Open path for writing so that it appears complete or not at all ('-' is stdout).

    The data goes to a hidden temp file in the same folder, renamed over the target at the end, so an
    interrupted run (Ctrl-C, SIGTERM turned into an exception) leaves neither a truncated output nor a
    stray temp file; only SIGKILL can leave a hidden `.part` file, never a truncated output.
    fsync=False skips flushing to disk before the rename: a killed process still never leaves a truncated
    file; only a power loss can lose the newest files (batch runs write thousands of small files).
    """
    if str(path) == STDIO:
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    folder, name = os.path.split(os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{threading.get_ident() % 10**6}-{next(_serial)}.part")
    # The temp file is created inside the try and removed by name: a stop signal whose handler runs at
    # any point from here on (even one already pending before we started) leaves no stray temp file.
    try:
        # 0o666 minus the umask, like any output (mkstemp would make it 0600)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        kwargs = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        with open(fd, "wb" if binary else "w", closefd=True, **kwargs) as fh:
            yield fh
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
        if fsync:  # the rename itself is durable only once its folder is flushed
            dfd = os.open(folder or ".", os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomic(path: PathLike, text: str) -> None:
    """Write text to path atomically."""
    with atomic_output(path) as fh:
        fh.write(text)
