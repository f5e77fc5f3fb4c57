"""Converting one batch item (runs in the workers): read, check losses, write every format atomically."""
from __future__ import annotations

import hashlib
import inspect
import io
import os
import signal
import stat
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import LINE_EXCERPT, LossyConversionError, MineconvError  # noqa: F401  (LINE_EXCERPT re-exported)
from ..fileio import atomic_output, decode_bytes, read_bytes
from ..model.system import build_system
from ..registry import Format, get_format, identify, losses
from .inputs import CONVERTED, FAILED, SKIPPED, Item, Settings, _inside, output_extension


def format_error(exc: BaseException, path: str) -> str:
    """A one-file report: FILE:LINE:COL: message, plus an excerpt of the offending line with a caret."""
    if isinstance(exc, OSError) and not isinstance(exc, MineconvError):
        target = exc.filename2 or exc.filename  # a failed rename names the temp file first, the output second
        where = f" {target}" if target else ""
        return f"{path}: cannot write the output{where}: {exc.strerror or exc}"
    if not isinstance(exc, MineconvError):
        return f"{path}: internal error while converting ({type(exc).__name__}: {exc})"
    if exc.source not in (None, path) and exc.line is None:
        # atomic_output's refusals name the output: the report still starts with the input it came from
        return f"{path}: cannot write the output {exc.source}: {exc.message}"
    if exc.source is None:
        exc.source = path
    return str(exc)  # MineconvError cuts a long offending line to LINE_EXCERPT around its column


class _HashingWriter(io.TextIOBase):
    """A text stream over a binary file that also hashes and counts what is written."""

    def __init__(self, raw: Any, hashing: bool) -> None:
        super().__init__()
        self._raw = raw
        self._hash = hashlib.sha256() if hashing else None
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:  # type: ignore[override]
        data = s.encode("utf-8")
        if self._hash is not None:
            self._hash.update(data)
        self.size += len(data)
        self._raw.write(data)
        return len(s)

    def write_bytes(self, data: bytes) -> None:
        """Bytes from the bulk text engine (engine.emit): hashed and written as they are, not decoded first."""
        if self._hash is not None:
            self._hash.update(data)
        self.size += len(data)
        self._raw.write(data)

    def flush(self) -> None:
        self._raw.flush()

    def hexdigest(self) -> Optional[str]:
        return self._hash.hexdigest() if self._hash is not None else None


def _file_digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class _Worker:
    """Per-process state: the settings and which output folders are known to exist inside OUTDIR."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.outdir_real = os.path.realpath(settings.outdir)
        self.ready_dirs: Dict[str, bool] = {}
        self.exts = {name: output_extension(get_format(name)) for name in settings.formats}
        # writers that take a prebuilt linear system (system=): one build_system per input serves them all
        self.takes_system = {name: _takes_system(get_format(name).writer) for name in settings.formats}
        self.read_options: Dict[str, Tuple[Dict[str, Any], Tuple[str, ...]]] = {}

    def _guess(self, path: str, text: Optional[str], data: Optional[bytes] = None
               ) -> Tuple[Format, Optional[str]]:
        """The input's notation as read() picks it (by content, an extension only breaking ties), and the
        warning read() would give when another notation reads the content as a different puzzle.

        (Taking the extension's only notation unseen read hakank's minesweeper_*.txt files as native text,
        and a bare grid of '.' and digits as a board of known safe cells, without a word.)
        """
        return identify(path, text, data)

    def _read_options(self, fmt: Format) -> Tuple[Dict[str, Any], Tuple[str, ...]]:
        """(the reader options this notation takes, the names of the given ones it does not take)."""
        split = self.read_options.get(fmt.name)
        if split is None:
            given = self.settings.read_options
            split = self.read_options[fmt.name] = (
                {k: v for k, v in given.items() if k in fmt.read_options},
                tuple(k for k in given if k not in fmt.read_options))
        return split

    def _ensure_dir(self, folder: str) -> bool:
        ok = self.ready_dirs.get(folder)
        if ok is None:
            os.makedirs(folder, exist_ok=True)
            # a symbolic link inside OUTDIR must not carry an output outside it
            ok = _inside(os.path.realpath(folder), self.outdir_real)
            self.ready_dirs[folder] = ok
        return ok

    def convert(self, item: Item) -> Dict[str, Any]:
        """Convert one input into every requested format; never raises for a bad input."""
        s = self.settings
        record: Dict[str, Any] = {"input": item.path, "status": FAILED, "outputs": [], "error": None}
        written: List[str] = []
        try:
            try:
                st = os.stat(item.path)
            except OSError as exc:
                raise MineconvError(f"cannot read: {exc.strerror or exc}", source=item.path) from None
            if not stat.S_ISREG(st.st_mode):
                raise MineconvError("not a regular file", source=item.path)
            targets = [(name, os.path.join(s.outdir, item.rel + self.exts[name])) for name in s.formats]
            todo = []
            kept = []
            for name, out in targets:
                if s.skip_existing:
                    try:
                        ost = os.stat(out)
                    except OSError:
                        ost = None
                    if ost is not None and stat.S_ISREG(ost.st_mode) and ost.st_mtime_ns >= st.st_mtime_ns:
                        kept.append((name, out, ost.st_size))
                        continue
                todo.append((name, out))
            outputs: List[Dict[str, Any]] = []
            for name, out, size in kept:
                outputs.append({"format": name, "path": out, "size": size,
                                "sha256": _file_digest(out) if s.hash_outputs else None, "kept": True})
            if todo:
                # bytes first, decoded only for a text notation, as registry.read does: a binary notation
                # (.mbf) is not UTF-8 text
                data, src = read_bytes(item.path)
                text: Optional[str] = None
                not_text: Optional[MineconvError] = None
                try:
                    text = decode_bytes(data, src)
                except MineconvError as exc:
                    not_text = exc
                try:
                    fmt, note = (get_format(s.from_, direction="read", kind="puzzle"), None) if s.from_ \
                        else self._guess(item.path, text, data)
                except MineconvError:
                    if not_text is not None:
                        raise not_text from None  # undecodable text: the decoder's located error says why
                    raise
                if not fmt.binary and text is None:
                    raise not_text  # type: ignore[misc]
                read_options, ignored = self._read_options(fmt)
                try:
                    puzzle = fmt.reader(data if fmt.binary else text, src, **read_options)  # type: ignore[misc]
                except MineconvError as exc:
                    raise exc.located(src)
                # the same warning registry.read gives when one file is converted
                warnings: List[str] = [note] if note else []
                warnings += [f"option {key!r} has no effect on the {fmt.name} notation" for key in ignored]
                writers = []
                for name, out in todo:
                    f = get_format(name)
                    for lost in losses(puzzle, f, **s.options):
                        msg = f"{f.name} cannot express {lost}"
                        if s.strict:
                            raise LossyConversionError(msg + " (refused under --strict)", source=item.path)
                        warnings.append(msg)
                    writers.append((f, out))
                shared: Dict[str, Any] = {}
                if sum(self.takes_system[f.name] for f, _ in writers) > 1:
                    shared["system"] = build_system(puzzle, s.options.get("mines"))
                for f, out in writers:
                    if not self._ensure_dir(os.path.dirname(out) or "."):
                        raise MineconvError(f"refusing to write {out}: a symbolic link leads outside the "
                                            "output folder", source=item.path)
                    options = dict(s.options, **shared) if shared and self.takes_system[f.name] else s.options
                    with atomic_output(out, binary=True, fsync=s.fsync) as raw:
                        stream = _HashingWriter(raw, s.hash_outputs)
                        f.writer(puzzle, stream, **options)  # type: ignore[misc]
                    written.append(out)
                    outputs.append({"format": f.name, "path": out, "size": stream.size,
                                    "sha256": stream.hexdigest()})
                if warnings:
                    record["warnings"] = warnings
            order = {name: i for i, name in enumerate(s.formats)}
            outputs.sort(key=lambda o: order[o["format"]])
            record["outputs"] = outputs
            record["status"] = CONVERTED if todo else SKIPPED
        except Exception as exc:  # one bad file never stops the run: everything becomes its report
            for out in written:  # an input either gets all its outputs from this run or none
                try:
                    os.unlink(out)
                except OSError:
                    pass
            record["outputs"] = []
            record["error"] = format_error(exc, item.path)
        return record


def _takes_system(writer: Any) -> bool:
    """True when a writer declares a `system` parameter (a prebuilt build_system result)."""
    try:
        return writer is not None and "system" in inspect.signature(writer).parameters
    except (TypeError, ValueError):
        return False


_WORKER: Optional[_Worker] = None


def init_worker(settings: Settings) -> None:
    """Pool initializer: keep the settings, leave Ctrl-C to the parent, turn SIGTERM into a clean exit."""
    global _WORKER
    _WORKER = _Worker(settings)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)


#: the stop signal this pool worker received, once it has received one
_STOPPED_BY: Optional[int] = None


def _exit_on_signal(signum: int, frame: Any) -> None:
    global _STOPPED_BY
    _STOPPED_BY = signum
    # raising here unwinds atomic_output, which removes its temp file
    raise SystemExit(128 + signum)


def pool_chunk(chunk: List[Item]) -> List[Tuple[int, Dict[str, Any]]]:
    """Convert a chunk in a pool worker set up by init_worker."""
    assert _WORKER is not None
    done = []
    for item in chunk:
        done.append((item.index, _WORKER.convert(item)))
        # A handler that runs inside a finalizer (IOBase.__del__ flushing a dropped stream) has its SystemExit
        # discarded silently: such a worker used to live on and wait for work forever, and with it the
        # parent's Pool.terminate(). The stop is remembered, so the worker ends here instead.
        if _STOPPED_BY is not None:
            raise SystemExit(128 + _STOPPED_BY)
    return done


def convert_chunk(chunk: List[Item], settings: Settings) -> List[Tuple[int, Dict[str, Any]]]:
    """Convert a list of items with the given settings (the unit of work sent to a Dask worker)."""
    global _WORKER
    if _WORKER is None or _WORKER.settings != settings:
        _WORKER = _Worker(settings)
    worker = _WORKER
    return [(item.index, worker.convert(item)) for item in chunk]


def chunked(items: Sequence[Item], jobs: int, *, largest: int = 256) -> List[List[Item]]:
    """Split items into chunks: big enough to amortise dispatch, small enough to balance the load."""
    if not items:
        return []
    size = max(1, min(largest, -(-len(items) // (jobs * 8))))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
