"""Converting one batch item (runs in the workers): read, check losses, write every format atomically."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import io
import os
import signal
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..core.errors import LINE_EXCERPT, FileAccessError, InputError, LossyConversionError, MineconvError  # noqa: F401  (LINE_EXCERPT re-exported)
from ..core.fileio import atomic_output, decode_bytes, read_bytes, set_limits
from ..core.jsonout import json_text
from ..core.puzzle import Puzzle
from ..core.system import build_system
from ..formats.collection import Empty
from ..formats.reading import identify
from ..formats.registry import Format, get_format
from ..formats.writing import losses
from .inputs import CONVERTED, FAILED, SKIPPED, Item, Settings, inside, output_extension
from .units import Unit, collection_units, input_mtime, new_record, plan


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

    def write(self, s: str) -> int:
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


# The stop signals a batch winds up on (SIGHUP: the terminal went away); not every platform has them all.
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))

# While the main thread renames an input's outputs into place and journals them, a stop signal's handler
# (ours: runner._Stops, _exit_on_signal) only records itself here; release() runs it once the input is whole.
# This is a flag rather than pthread_sigmask because Python runs every handler in the main thread, whichever
# thread the kernel picked: blocking the signal in one thread does not keep its handler out of the commit.
class _Hold:
    """Whether the main thread is committing an input's outputs, and the stop (handler, signum) that waits."""

    def __init__(self) -> None:
        self.on = False
        self.pending: Optional[Tuple[Callable[[int, Any], None], int]] = None


_hold = _Hold()


def hold_stop(handler: Callable[[int, Any], None], signum: int) -> bool:
    """Called first by a stop handler: True when the main thread is committing and the stop must wait."""
    if _hold.on and threading.current_thread() is threading.main_thread():
        if _hold.pending is None:
            _hold.pending = (handler, signum)
        return True
    return False


class _Commit:
    """The stretch from an input's first rename to its journal line, which a stop signal does not cut."""

    def __init__(self) -> None:
        self.mine = False
        self.written: List[str] = []  # outputs renamed into place: removed again if the input fails after all

    def start(self) -> None:
        """From here on a stop signal waits for release()."""
        if threading.current_thread() is threading.main_thread() and not _hold.on:
            _hold.on = self.mine = True

    def release(self) -> None:
        """End the stretch; a stop that arrived during it acts now (its handler raises)."""
        if not self.mine:
            return
        self.mine = False
        _hold.on = False
        pending, _hold.pending = _hold.pending, None
        if pending is not None:
            handler, signum = pending
            handler(signum, None)


def append_journal(path: str, index: int, record: Dict[str, Any], part: Optional[int] = None) -> None:
    """Append one finished record to the run's journal: one write, so lines never interleave.

    `part` is the puzzle's number when the input is a file that holds several (one line per puzzle).
    """
    entry: Dict[str, Any] = {"index": index, "record": record}
    if part is not None:
        entry["part"] = part
    line = (json_text(entry, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0))
    try:
        while line:
            line = line[os.write(fd, line):]
    finally:
        os.close(fd)


class _Worker:
    """Per-process state: the settings and which output folders are known to exist inside OUTDIR."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.limits is not None:
            # --max-bytes / --max-cells are globals of the process that parsed them: a spawned pool
            # worker or a Dask worker has the defaults until it is told
            set_limits(*settings.limits)
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

    def _stays_inside(self, out: str) -> bool:
        """True when out really lies inside OUTDIR: no symbolic link on the way (its folders, or out itself
        when it exists) leads out of it. Decided before any folder is made: os.makedirs through a link that
        leads out would create the folders out there."""
        folder = os.path.dirname(out) or "."
        ok = self.ready_dirs.get(folder)
        if ok is None:
            ok = self.ready_dirs[folder] = inside(os.path.realpath(folder), self.outdir_real)
        if ok and os.path.islink(out):
            ok = inside(os.path.realpath(out), self.outdir_real)
        return ok

    def convert(self, item: Item) -> List[Dict[str, Any]]:
        """Convert one input into every requested format; never raises for a bad input.

        The records: one for the input, or one per puzzle of a file that holds several (its outputs named
        NAME-3.cnf, ...). All of a record's outputs appear or none: each is written to a temp file, and only
        when every one is complete are they renamed into place, one after the other, with a stop signal held
        off until they are all in and the record is in the run's journal (so an interrupted run knows it).
        """
        units: List[Unit] = []
        warnings: List[str] = []

        def whole(commit: _Commit) -> Dict[str, Any]:
            todo, kept = plan(self.settings, self.exts, item.rel, input_mtime(item.path))
            if not todo:
                return new_record(item.path, SKIPPED, kept)
            found, notes = self._read_units(item)
            if len(found) == 1 and found[0].number is None:
                return self._convert_unit(item, found[0], notes, commit, (todo, kept))
            units.extend(found)
            warnings.extend(notes)
            return {}

        first = self._journaled(item, whole)
        if first:
            return [first]
        return [self._journaled(item, functools.partial(self._convert_unit, item, unit, warnings if n == 0 else [],
                                                        planned=None), unit)
                for n, unit in enumerate(units)]

    def _journaled(self, item: Item, make: Callable[["_Commit"], Dict[str, Any]],
                   unit: Optional[Unit] = None) -> Dict[str, Any]:
        """make()'s record, or the failure's; journaled with the stop held off (an empty record is not).

        `unit` is the puzzle of a collection the record is about: its failure says which, its journal line too.
        """
        commit = _Commit()
        try:
            record = self._attempt(item, make, commit)
            if unit is not None and record["status"] == FAILED:
                record.update(puzzle=unit.number, label=unit.label, puzzles=unit.count)
            if record and self.settings.journal:
                commit.start()
                with contextlib.suppress(OSError):  # the journal only serves the report of an interrupted run
                    append_journal(self.settings.journal, item.index, record, unit.number if unit else None)
        finally:
            commit.release()
        return record

    def _attempt(self, item: Item, make: Callable[["_Commit"], Dict[str, Any]], commit: "_Commit") -> Dict[str, Any]:
        try:
            return make(commit)
        except Exception as exc:  # one bad file never stops the run: everything becomes its report
            for out in commit.written:  # an input (a puzzle) either gets all its outputs from this run or none
                try:
                    os.unlink(out)
                except OSError:
                    pass
            commit.written.clear()
            if _caught_ctrl_c(exc):
                if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                    raise KeyboardInterrupt from None
                return self._attempt(item, make, commit)  # Ctrl-C is not ours here (a pool worker): again
            return new_record(item.path, FAILED, [], format_error(exc, item.path))

    def _convert_unit(self, item: Item, unit: Unit, warnings: List[str], commit: "_Commit",
                      planned: Optional[Tuple[List[Tuple[str, str]], List[Dict[str, Any]]]]) -> Dict[str, Any]:
        """The record of one puzzle (the input's only one, or one of a collection's): written or kept."""
        if isinstance(unit.puzzle, BaseException):
            raise unit.puzzle
        if isinstance(unit.puzzle, Empty):   # numbered in the file, but no board: nothing to write
            record = new_record(item.path, SKIPPED, [])
            record.update(puzzle=unit.number, label=unit.label, puzzles=unit.count, empty=unit.puzzle.why,
                          warnings=[f"puzzle {unit.number} ({unit.label!r}) is empty ({unit.puzzle.why}): "
                                    "it holds no board, nothing was written for it"])
            return record
        if unit.number is not None and unit.rel in self.settings.taken:
            raise InputError(f"puzzle {unit.number}'s outputs ({unit.rel}.*) are also another input's "
                             "(rename one of them)")
        todo, outputs = planned or plan(self.settings, self.exts, unit.rel, input_mtime(item.path))
        if unit.number is not None and any(os.path.realpath(out) == self.settings.manifest for _, out in todo):
            raise InputError(f"puzzle {unit.number}'s output would be the manifest (choose another name)")
        if todo:
            writers = self._writers(unit.puzzle, todo, item, warnings)
            self._write_outputs(unit.puzzle, writers, item, outputs, commit)
        record = new_record(item.path, CONVERTED if todo else SKIPPED, outputs)
        if unit.number is not None:
            record.update(puzzle=unit.number, label=unit.label, puzzles=unit.count)
        if warnings:
            record["warnings"] = warnings
        order = {name: i for i, name in enumerate(self.settings.formats)}
        outputs.sort(key=lambda o: order[o["format"]])
        return record

    def _read_units(self, item: Item) -> Tuple[List[Unit], List[str]]:
        """The puzzles to convert, and the warnings `mineconv convert` would give reading the input."""
        fmt, text, data, src, note = self._identify(item)
        read_options, ignored = self._read_options(fmt)
        # the same warnings registry.read gives when one file is converted (--puzzle only picks from a
        # collection: a file of one puzzle is converted as it is)
        warnings: List[str] = [note] if note else []
        warnings += [f"option {key!r} has no effect on the {fmt.name} notation" for key in ignored if key != "puzzle"]
        if fmt.collection is not None and not fmt.binary and text is not None:
            units = collection_units(fmt, text, src, item.rel, read_options)
            if units:
                return units, warnings
        try:
            puzzle = fmt.reader(data if fmt.binary else text, src, **read_options)  # type: ignore[misc]
        except MineconvError as exc:
            exc.located(src)
            raise
        return [Unit(item.rel, puzzle)], warnings

    def _identify(self, item: Item) -> Tuple[Format, Optional[str], bytes, str, Optional[str]]:
        """(notation, text or None for binary content, bytes, source name, the ambiguity warning)."""
        s = self.settings
        # bytes first, decoded only for a text notation, as registry.read does: a binary notation (.mbf) is
        # not UTF-8 text
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
        return fmt, text, data, src, note

    def _writers(self, puzzle: Puzzle, todo: List[Tuple[str, str]], item: Item,
                 warnings: List[str]) -> List[Tuple[Format, str]]:
        """(format, output path) to write; what a format cannot express is a warning, or refused (--strict)."""
        s = self.settings
        writers = []
        for name, out in todo:
            f = get_format(name)
            for lost in losses(puzzle, f, **s.options):
                msg = f"{f.name} cannot express {lost}"
                if s.strict:
                    raise LossyConversionError(msg + " (refused under --strict)", source=item.path)
                warnings.append(msg)
            writers.append((f, out))
        return writers

    def _write_outputs(self, puzzle: Puzzle, writers: List[Tuple[Format, str]], item: Item,
                       outputs: List[Dict[str, Any]], commit: _Commit) -> None:
        """Write every output to its temp file, then rename them all into place (`commit.written` learns which)."""
        s = self.settings
        shared: Dict[str, Any] = {}
        if sum(self.takes_system[f.name] for f, _ in writers) > 1:
            shared["system"] = build_system(puzzle, s.options.get("mines"))
        for _, out in writers:
            if not self._stays_inside(out):
                raise FileAccessError(f"refusing to write {out}: a symbolic link leads outside the "
                                      "output folder", source=item.path)
        for folder in dict.fromkeys(os.path.dirname(out) or "." for _, out in writers):
            os.makedirs(folder, exist_ok=True)
        with contextlib.ExitStack() as stack:
            for f, out in writers:
                # pushed before its atomic_output, so it runs after that one's exit: it learns whether the
                # rename into place happened
                stack.push(_note_renamed(out, commit.written))
                raw = stack.enter_context(atomic_output(out, binary=True, fsync=s.fsync))
                options = dict(s.options, **shared) if shared and self.takes_system[f.name] else s.options
                stream = _HashingWriter(raw, s.hash_outputs)
                f.writer(puzzle, stream, **options)  # type: ignore[misc]
                outputs.append({"format": f.name, "path": out, "size": stream.size,
                                "sha256": stream.hexdigest()})
            commit.start()  # every output is complete in its temp file: now they go in together


def _caught_ctrl_c(exc: BaseException) -> bool:
    """True for the error pysat's card encoder raises when its own SIGINT handler caught a Ctrl-C (in the
    main thread it swaps Python's handler out while it encodes): the stop, not a failure of the input."""
    return not isinstance(exc, MineconvError) and "caught keyboard interrupt" in str(exc).lower()


def _note_renamed(out: str, written: List[str]) -> Callable[..., bool]:
    def note(exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc_type is None:
            written.append(out)
        return False
    return note


def _takes_system(writer: Any) -> bool:
    """True when a writer declares a `system` parameter (a prebuilt build_system result)."""
    try:
        return writer is not None and "system" in inspect.signature(writer).parameters
    except (TypeError, ValueError):
        return False


_WORKER: Optional[_Worker] = None


def init_worker(settings: Settings) -> None:
    """Pool initializer: keep the settings, leave Ctrl-C and SIGHUP to the parent (which ends the pool with
    SIGTERM), turn SIGTERM into a clean exit."""
    global _WORKER
    _WORKER = _Worker(settings)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        # the terminal hanging up reaches the whole job: a worker killed by it mid-rename would leave an
        # input with some of its outputs
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)


#: the stop signal this pool worker received, once it has received one
_STOPPED_BY: Optional[int] = None


def _exit_on_signal(signum: int, frame: Any) -> None:
    global _STOPPED_BY
    _STOPPED_BY = signum
    if hold_stop(_exit_on_signal, signum):
        return  # outputs are being renamed into place: the exit comes once they all are
    # raising here unwinds atomic_output, which removes its temp file
    raise SystemExit(128 + signum)


def pool_chunk(chunk: List[Item]) -> List[Tuple[int, List[Dict[str, Any]]]]:
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


def convert_chunk(chunk: List[Item], settings: Settings) -> List[Tuple[int, List[Dict[str, Any]]]]:
    """Convert a list of items with the given settings (the unit of work sent to a Dask worker)."""
    global _WORKER
    if _WORKER is None or _WORKER.settings != settings:
        _WORKER = _Worker(settings)
    worker = _WORKER
    done = []
    for item in chunk:
        if settings.stop_file and os.path.exists(settings.stop_file):
            break  # the run was interrupted (a Dask worker gets no signal of it): the rest stays undone
        done.append((item.index, worker.convert(item)))
    return done


def chunked(items: Sequence[Item], jobs: int, *, largest: int = 256) -> List[List[Item]]:
    """Split items into chunks: big enough to amortise dispatch, small enough to balance the load."""
    if not items:
        return []
    size = max(1, min(largest, -(-len(items) // (jobs * 8))))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
