"""Reading input text and writing output files atomically."""
from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import sys
import threading
from pathlib import Path
from typing import Any, Iterator, Optional, Set, Tuple, Union

from .errors import InputNotFoundError, MineconvError, PuzzleSyntaxError

PathLike = Union[str, os.PathLike[str]]
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
            raise MineconvError("is also an input of this command: refusing to overwrite it "
                                "(choose another output name)", source=str(path))


def read_bytes(path: PathLike) -> Tuple[bytes, str]:
    """Return (bytes, source name) of a file, or of stdin for '-'."""
    src = source_name(path)
    if str(path) == STDIO:
        data = sys.stdin.buffer.read()
    else:
        protect(path)
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise InputNotFoundError("no such file", source=src) from None
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
    kwargs = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    try:
        fh = open(path, "wb" if binary else "w", **kwargs)
    except OSError as exc:
        raise MineconvError(_os_message(exc), source=path) from None
    try:
        with fh:
            yield fh
    except OSError as exc:
        raise MineconvError(_os_message(exc), source=path) from None


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
        except OSError as exc:  # e.g. `> /dev/full`
            raise MineconvError(_os_message(exc), source="<stdout>") from None
        return
    check_not_input(path)
    if _special(os.fspath(path)):
        with _direct_output(os.fspath(path), binary) as fh:
            yield fh
        return
    folder, name = os.path.split(os.fspath(path))
    if os.path.isdir(os.fspath(path)):
        raise MineconvError("is a folder, not a file", source=os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.getpid()}-{threading.get_ident() % 10**6}-{next(_serial)}.part")
    # The temp file is created inside the try and removed by name: a stop signal whose handler runs at
    # any point from here on (even one already pending before we started) leaves no stray temp file.
    try:
        try:
            # 0o666 minus the umask, like any output (mkstemp would make it 0600)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as exc:
            raise MineconvError(_os_message(exc), source=os.fspath(path)) from None
        kwargs = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        try:
            with open(fd, "wb" if binary else "w", closefd=True, **kwargs) as fh:
                yield fh
                fh.flush()
                if fsync:
                    os.fsync(fh.fileno())
        except OSError as exc:  # a full disk shows up at write, flush or close
            raise MineconvError(_os_message(exc), source=os.fspath(path)) from None
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
