"""Reading input text and writing output files atomically."""
from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import os
import re
import stat
import sys
import threading

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Dict, Iterator, List, Optional, Set, Tuple, Union

from .errors import (
    FileAccessError,
    InputError,
    InputNotFoundError,
    MineconvError,
    PuzzleError,
    PuzzleSyntaxError,
    SolutionSyntaxError,
)

if sys.version_info >= (3, 10):   # a union made without importing typing (`mineconv --version` does not)
    PathLike = str | os.PathLike[str]
else:  # pragma: no cover
    from typing import Union

    PathLike = Union[str, os.PathLike[str]]
STDIO = "-"

# The largest input read, in bytes. 256 MiB is 16 times the text of a 4000 x 4000 board (16 MB in the
# one-character-per-cell notations) and holds the largest board `generate` makes by default (2^24 cells)
# in every notation, while the bytes, their decoded text and the parse of a file that size still fit in
# about 1 GB; `/dev/zero` or `yes |` stop here instead of filling the memory. --max-bytes raises it.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
# The largest board a reader builds: the same 2^24 cells as `generate --max-cells`. A header's claim
# (pred-json's rows and cols, a .mine WxH) is checked against it before anything of that size is made.
DEFAULT_MAX_CELLS = 1 << 24
_limits = {"bytes": DEFAULT_MAX_BYTES, "cells": DEFAULT_MAX_CELLS}
_CHUNK = 1 << 20


def set_limits(max_bytes: Optional[int] = None, max_cells: Optional[int] = None) -> None:
    """Set the input size and board size limits of this process (None keeps a limit as it is)."""
    if max_bytes is not None:
        _limits["bytes"] = int(max_bytes)
    if max_cells is not None:
        _limits["cells"] = int(max_cells)


def max_bytes() -> int:
    """The largest input read, in bytes."""
    return _limits["bytes"]


def max_cells() -> int:
    """The largest board a reader builds, in cells."""
    return _limits["cells"]


def too_many_cells(rows: int, cols: int) -> Optional[str]:
    """Why a rows x cols board is refused (None when it is within --max-cells)."""
    limit = _limits["cells"]
    if rows * cols > limit:
        return (f"a {rows} x {cols} board has more than {limit} cells (the --max-cells limit; raise it if "
                "the machine has the memory)")
    return None


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


# (device, inode) of every file read while inputs are guarded (the CLI guards them): an output that is one
# of them would destroy the input it was made from, so atomic_output refuses it.
_guarded: Optional[Set[Tuple[int, int]]] = None


@contextlib.contextmanager
def guard_inputs() -> Iterator[None]:
    """While active, every file read is remembered and may not be written as an output."""
    global _guarded
    old, _guarded = _guarded, set()
    try:
        yield
    finally:
        _guarded = old


def protect(path: PathLike) -> None:
    """Remember path as an input that no output may overwrite (when inputs are guarded)."""
    if _guarded is not None and str(path) != STDIO:
        with contextlib.suppress(OSError):
            st = os.stat(path)
            if stat.S_ISREG(st.st_mode):
                _guarded.add((st.st_dev, st.st_ino))


def check_not_input(path: PathLike) -> None:
    """Refuse an output path that is (a link to) a file this run reads as input."""
    if _guarded and str(path) != STDIO:
        try:
            st = os.stat(path)
        except OSError:
            return
        if (st.st_dev, st.st_ino) in _guarded:
            raise InputError("is also an input of this command: refusing to overwrite it "
                             "(choose another output name)", source=str(path))


def read_limited(stream: BinaryIO, source: str) -> bytes:
    """All of a binary stream, read in chunks and never past the --max-bytes limit (beyond it: an error)."""
    limit = _limits["bytes"]
    chunks: List[bytes] = []
    total = lines = 0
    last_line_start = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        if total + len(chunk) > limit:
            cut = chunk[:limit - total]
            lines += cut.count(b"\n")
            nl = cut.rfind(b"\n")
            if nl >= 0:
                last_line_start = total + nl + 1
            raise PuzzleSyntaxError(f"the input goes on past {limit} bytes (the --max-bytes limit; raise it "
                                    "to read larger files)", source=source, line=lines + 1,
                                    column=limit - last_line_start + 1)
        lines += chunk.count(b"\n")
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            last_line_start = total + nl + 1
        total += len(chunk)
        chunks.append(chunk)


def read_bytes(path: PathLike) -> Tuple[bytes, str]:
    """Return (bytes, source name) of a file, or of stdin for '-' (at most --max-bytes of either)."""
    src = source_name(path)
    if str(path) == STDIO:
        try:
            data = read_limited(sys.stdin.buffer, src)
        except OSError as exc:
            raise FileAccessError(f"cannot read: {exc.strerror or exc}", source=src) from None
    else:
        protect(path)
        try:
            with open(path, "rb") as fh:
                data = read_limited(fh, src)
        except FileNotFoundError:
            raise InputNotFoundError("no such file", source=src) from None
        except IsADirectoryError:
            raise FileAccessError("is a folder, not a file", source=src) from None
        except PermissionError:
            raise FileAccessError("permission denied", source=src) from None
        except OSError as exc:
            raise FileAccessError(f"cannot read: {exc.strerror or exc}", source=src) from None
    return data, src


_LONG_NUMBER = {limit: (re.compile(r"[0-9]{%d,}" % limit), re.compile(rb"[0-9]{%d,}" % limit))
                for limit in (4301, 19)}
_EXPONENT = (re.compile(r"[0-9.]+[eE][+]?[0-9]{3,}"), re.compile(rb"[0-9.]+[eE][+]?[0-9]{3,}"))
_OPEN, _CLOSE = "([{", ")]}"
DEEPEST = 100  # the nesting depth reported when a reader's recursion ran out


def _position(content: Union[str, bytes], offset: int) -> Tuple[int, int, Optional[str]]:
    if isinstance(content, bytes):
        return content.count(b"\n", 0, offset) + 1, offset - (content.rfind(b"\n", 0, offset) + 1) + 1, None
    return locate(content, offset)


def _text(token: Union[str, bytes]) -> str:
    return token.decode("latin-1") if isinstance(token, bytes) else token


def _number_error(content: Union[str, bytes], source: str, digits: int) -> MineconvError:
    pattern = _LONG_NUMBER[digits][isinstance(content, bytes)]
    m = pattern.search(content)  # type: ignore[arg-type]
    if m is None:
        # no long run of digits: an exponent (1e400) overflowed a float conversion
        m = _EXPONENT[isinstance(content, bytes)].search(content)  # type: ignore[arg-type]
        if m is None:
            return PuzzleSyntaxError("a number in this input is too large", source=source)
        line, col, line_text = _position(content, m.start())
        return PuzzleSyntaxError(f"{_text(m.group())!r} is too large", source=source, line=line, column=col,
                                 line_text=line_text)
    line, col, line_text = _position(content, m.start())
    return PuzzleSyntaxError(f"a number of {m.end() - m.start()} digits is too large", source=source, line=line,
                             column=col, line_text=line_text)


def _nesting_error(content: Union[str, bytes], source: str) -> MineconvError:
    text = content.decode("latin-1") if isinstance(content, bytes) else content
    depth = 0
    for m in re.finditer(r"[\[\](){}]", text):
        depth += 1 if m.group() in _OPEN else -1
        if depth > DEEPEST:
            line, col, line_text = _position(content, m.start())
            return PuzzleSyntaxError(f"brackets nested more than {DEEPEST} deep", source=source, line=line,
                                     column=col, line_text=None if isinstance(content, bytes) else line_text)
    return PuzzleSyntaxError("nested too deeply", source=source)


def ascii_int(token: str) -> int:
    """int() of ASCII digits only: int() alone also reads '٣' and '１', which no grid cell accepts."""
    if not token.isascii():
        raise InputError(f"{token!r} is not written in ASCII digits")
    return int(token)


# a decimal digit other than 0-9 ('٣', fullwidth '１'): Python's int() and float() read it as a number
_UNICODE_DIGIT = re.compile(r"(?![0-9])\d")


def guard_reader(reader: Callable[..., Any], ascii_digits: bool = False) -> Callable[..., Any]:
    """A reader whose runaway cases become located errors: huge numbers, deep nesting, oversized boards.

    Python's int() refuses more than 4,300 digits (ValueError), numpy and float conversions overflow, and
    recursive parsers run out of stack on 100,000 nested brackets: whichever reader meets them, the user
    gets FILE:LINE:COL at the number or bracket, never a traceback. With ascii_digits (solver answers,
    which are numbers and ASCII names), a digit other than 0-9 anywhere is refused where it stands.
    """
    @functools.wraps(reader)
    def guarded(content: Any, source: str, **options: Any) -> Any:
        if ascii_digits and isinstance(content, str):
            m = _UNICODE_DIGIT.search(content)
            if m:
                line, col, line_text = locate(content, m.start())
                raise SolutionSyntaxError(f"{m.group()!r} is not an ASCII digit (numbers are written with 0-9)",
                                        source=source, line=line, column=col, line_text=line_text)
        try:
            result = reader(content, source, **options)
        except MineconvError:
            raise
        except RecursionError:
            raise _nesting_error(content, source) from None
        except OverflowError:
            raise _number_error(content, source, 19) from None
        except ValueError as exc:
            if "integer string conversion" not in str(exc):
                raise
            raise _number_error(content, source, 4301) from None
        rows, cols = getattr(result, "rows", 0), getattr(result, "cols", 0)
        if isinstance(rows, int) and isinstance(cols, int):
            why = too_many_cells(rows, cols)
            if why:
                raise PuzzleError(why, source=source)
        return result
    return guarded


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


def _os_message(exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(exc, FileNotFoundError):
        return "its folder does not exist"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    return f"cannot write: {exc.strerror or exc}"


def _special(path: str) -> bool:
    # an existing path that is not a regular file (a device such as /dev/null or /dev/full, a FIFO, a
    # terminal): renaming a temp file over it would replace the device node or starve the FIFO's reader
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def _direct_output(path: str, binary: bool) -> Iterator[Any]:
    kwargs: Dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    try:
        fh = open(path, "wb" if binary else "w", **kwargs)
    except OSError as exc:
        raise FileAccessError(_os_message(exc), source=path) from None
    try:
        with fh:
            yield fh
    except MineconvError:
        raise  # the caller's own error (a FileAccessError is an OSError too), not one of writing
    except OSError as exc:
        raise FileAccessError(_os_message(exc), source=path) from None


@contextlib.contextmanager
def atomic_output(path: PathLike, *, binary: bool = False, fsync: bool = True) -> Iterator[Any]:
    """Open path for writing so that it appears complete or not at all ('-' is stdout).

    The data goes to a hidden temp file in the same folder, renamed over the target at the end, so an
    interrupted run (Ctrl-C, SIGTERM turned into an exception) leaves neither a truncated output nor a
    stray temp file; only SIGKILL can leave a hidden `.part` file, never a truncated output.
    fsync=False skips flushing to disk before the rename: a killed process still never leaves a truncated
    file; only a power loss can lose the newest files (batch runs write thousands of small files).
    An existing path that is not a regular file (/dev/null, a FIFO, a terminal) is written directly.
    """
    if str(path) == STDIO:
        stream = sys.stdout.buffer if binary else sys.stdout
        try:
            yield stream
            stream.flush()
        except BrokenPipeError:
            raise  # the reader went away (`| head`): the CLI treats that as a normal end
        except MineconvError:
            raise  # the caller's own error (a FileAccessError is an OSError too), not one of writing
        except OSError as exc:  # e.g. `> /dev/full`
            raise FileAccessError(_os_message(exc), source="<stdout>") from None
        return
    check_not_input(path)
    if _special(os.fspath(path)):
        with _direct_output(os.fspath(path), binary) as fh:
            yield fh
        return
    folder, name = os.path.split(os.fspath(path))
    if os.path.isdir(os.fspath(path)):
        raise FileAccessError("is a folder, not a file", source=os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{threading.get_ident() % 10**6}-{next(_serial)}.part")
    # The temp file is created inside the try and removed by name: a stop signal whose handler runs at
    # any point from here on (even one already pending before we started) leaves no stray temp file.
    try:
        try:
            # 0o666 minus the umask, like any output (mkstemp would make it 0600)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as exc:
            raise FileAccessError(_os_message(exc), source=os.fspath(path)) from None
        kwargs: Dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        try:
            with open(fd, "wb" if binary else "w", closefd=True, **kwargs) as fh:
                yield fh
                fh.flush()
                if fsync:
                    os.fsync(fh.fileno())
        except MineconvError:
            raise  # the caller's own error (a FileAccessError is an OSError too), not one of writing
        except OSError as exc:  # a full disk shows up at write, flush or close
            raise FileAccessError(_os_message(exc), source=os.fspath(path)) from None
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
