"""Batch conversion: many puzzles into several formats, in parallel, resumable, with a manifest.

Durability: every output is written to a hidden temp file beside its target and renamed over it, so an
interrupted or killed run never leaves a truncated output (Ctrl-C and SIGTERM also remove the temp files;
only SIGKILL can leave a hidden `.NAME.*.part` temp behind, which a rerun ignores). Outputs are not fsynced
one by one unless asked (`fsync=True`, `--fsync`): thousands of fsyncs a second would cost more than the
conversion itself, and the rename is what "no truncated file" needs. What an fsync adds is power-loss
durability: without it the newest outputs of a run may be lost, or on some filesystems appear empty, after
the whole machine crashes; rerun such a batch without --skip-existing (or use --fsync from the start).
"""
from __future__ import annotations

import glob
import hashlib
import inspect
import io
import json
import os
import signal
import stat
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..errors import FormatError, LossyConversionError, MineconvError
from ..fileio import atomic_output, read_input, write_text_atomic
from ..registry import Format, candidates_for_path, formats, get_format, guess_format, losses
from ..model.system import build_system

#: status of one input in the results and the manifest
CONVERTED, SKIPPED, FAILED = "converted", "skipped", "failed"

#: longest piece of an offending line shown in a report (a huge one-line file must not flood the log)
LINE_EXCERPT = 120


# --- what to convert -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """One input file and where its outputs go: OUTDIR/<rel><format extension>."""

    index: int
    path: str
    rel: str          # relative output stem: no leading '/', no '..', the input's puzzle extension removed


@dataclass
class Settings:
    """Everything a worker needs to convert an item (sent once per process or per chunk)."""

    outdir: str
    formats: Tuple[str, ...]
    from_: Optional[str] = None
    strict: bool = False
    skip_existing: bool = False
    fsync: bool = False
    hash_outputs: bool = True
    options: Dict[str, Any] = field(default_factory=dict)


def resolve_formats(specs: Iterable[str]) -> List[Format]:
    """Output formats from names or extensions ('cnf', '.lp', 'cnf,lp'); FormatError on an unknown one."""
    out: List[Format] = []
    for spec in specs:
        for part in (p.strip() for p in spec.split(",")):
            if not part:
                continue
            if part.startswith("."):
                found = candidates_for_path("x" + part, direction="write")
                if not found:
                    valid = ", ".join(sorted({e for f in formats() if f.writer for e in f.extensions}))
                    raise FormatError(f"no writable format has the extension {part!r}; valid: {valid}")
                fmt = found[0]
            else:
                try:
                    fmt = get_format(part, direction="write")
                except FormatError:
                    found = candidates_for_path("x." + part.lower(), direction="write")
                    if not found:
                        raise
                    fmt = found[0]
            if fmt not in out:
                out.append(fmt)
    if not out:
        raise FormatError("name at least one output format with -t")
    seen: Dict[str, str] = {}
    for fmt in out:
        ext = output_extension(fmt)
        if ext in seen:
            raise FormatError(f"formats {seen[ext]!r} and {fmt.name!r} both write '{ext}' files; "
                              "convert them in separate runs (into different folders)")
        seen[ext] = fmt.name
    return out


def _puzzle_extensions() -> List[str]:
    exts = {e for f in formats("puzzle") if f.reader for e in f.extensions}
    return sorted(exts, key=len, reverse=True)  # compound ('.pred.json') before simple ('.json')


def _strip_extension(rel: str, exts: Sequence[str]) -> str:
    low = rel.lower()
    for ext in exts:
        if low.endswith(ext) and len(rel) > len(ext) and not rel[:-len(ext)].endswith("/"):
            return rel[:-len(ext)]
    return rel


def _safe_rel(rel: str) -> Optional[str]:
    """rel as a normalised relative path inside its base, or None when it is absolute or climbs out."""
    rel = rel.replace(os.sep, "/")
    if os.altsep:
        rel = rel.replace(os.altsep, "/")
    if rel.startswith("/") or os.path.isabs(rel):
        return None
    norm = os.path.normpath(rel).replace(os.sep, "/")
    if norm in (".", "") or norm == ".." or norm.startswith("../"):
        return None
    return norm


def _glob_base(pattern: str) -> str:
    """The leading part of a glob pattern that has no wildcard: matches are named relative to it."""
    parts = pattern.replace(os.sep, "/").split("/")
    fixed = []
    for part in parts[:-1]:
        if glob.has_magic(part):
            break
        fixed.append(part)
    base = "/".join(fixed)
    if pattern.startswith("/") and not base:
        base = "/"
    return base or "."


def _real(path: str, folders: Dict[str, str]) -> str:
    """os.path.realpath(path), resolving each folder once: one lstat per file instead of one per component.

    A path whose last component is not a symbolic link resolves to its folder's real path plus its name.
    """
    head, tail = os.path.split(path)
    if tail in ("", ".", ".."):
        return os.path.realpath(path)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        link = False  # a missing file: realpath keeps the name as it is
    if link:
        return os.path.realpath(path)
    real = folders.get(head)
    if real is None:
        real = folders[head] = os.path.realpath(head or ".")
    return os.path.join(real, tail)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def collect_inputs(inputs: Sequence[str], outdir: str, *, from_: Optional[str] = None,
                   ) -> Tuple[List[Item], List[Dict[str, Any]]]:
    """Expand files, folders (recursed) and globs into items, and records for inputs that match nothing.

    Folders contribute files with a puzzle extension (every file when the notation is named with from_),
    hidden files and folders excluded, and nothing under OUTDIR. Files named or matched by a glob are
    always taken. Output names: a folder's files keep their path inside the folder, a glob's matches
    their path below the glob's fixed prefix, an explicit file its path as given; any name that would
    climb out of OUTDIR (absolute, or with '..') falls back to the bare file name.
    """
    exts = _puzzle_extensions()
    out_real = os.path.realpath(outdir)
    found: List[Tuple[str, str]] = []
    missing: List[Dict[str, Any]] = []
    seen_paths = set()
    folders: Dict[str, str] = {}

    def add(path: str, rel: str) -> None:
        key = _real(path, folders)
        if key in seen_paths:
            return
        seen_paths.add(key)
        safe = _safe_rel(rel)
        if safe is None:
            safe = _safe_rel(os.path.basename(path)) or "input"
        found.append((path, _strip_extension(safe, exts)))

    def wanted(name: str) -> bool:
        return not name.startswith(".") and (from_ is not None or any(name.lower().endswith(e) for e in exts))

    def walk(folder: str, base: str) -> None:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and not _inside(os.path.realpath(os.path.join(dirpath, d)), out_real))
            for name in sorted(filenames):
                if wanted(name):
                    full = os.path.join(dirpath, name)
                    add(full, os.path.relpath(full, base))

    for spec in inputs:
        if os.path.isdir(spec):
            if _inside(os.path.realpath(spec), out_real):
                missing.append(_failure(spec, f"{spec}: the input folder is the output folder or inside it "
                                              "(its outputs would become inputs)"))
                continue
            walk(spec, spec)
        elif os.path.lexists(spec):
            add(spec, spec)
        elif glob.has_magic(spec):
            base = _glob_base(spec)
            matches = sorted(glob.glob(spec, recursive=True))
            if not matches:
                missing.append(_failure(spec, f"{spec}: no file matches this pattern"))
            for m in matches:
                if os.path.isdir(m):
                    if not _inside(os.path.realpath(m), out_real):
                        walk(m, base)  # 'sets/*' keeps sets/a/x.txt and sets/b/x.txt apart
                elif not _inside(os.path.realpath(m), out_real):
                    add(m, os.path.relpath(m, base))
        else:
            missing.append(_failure(spec, f"{spec}: no such file or folder"))
    items = [Item(i, p, r) for i, (p, r) in enumerate(found)]
    return items, missing


def output_extension(fmt: Format) -> str:
    """The extension a format's outputs get: its first one, or '.<name>' for a format without any."""
    return fmt.extensions[0] if fmt.extensions else "." + fmt.name


def output_paths(item: Item, settings: Settings) -> List[Tuple[str, str]]:
    """(format name, output path) pairs of an item."""
    return [(name, os.path.join(settings.outdir, item.rel + output_extension(get_format(name))))
            for name in settings.formats]


def find_collisions(items: Sequence[Item], settings: Settings) -> Tuple[List[Item], List[Dict[str, Any]]]:
    """Drop items whose outputs another item already writes (or that would overwrite their own input)."""
    owner: Dict[str, str] = {}
    keep: List[Item] = []
    bad: List[Dict[str, Any]] = []
    folders: Dict[str, str] = {}
    for item in items:
        outs = [p for _, p in output_paths(item, settings)]
        clash = next((p for p in outs if p in owner), None)
        own = _real(item.path, folders)
        if clash is not None:
            bad.append(_failure(item.path, f"{item.path}: its output {clash} is already written from "
                                           f"{owner[clash]} (rename one of them)"))
        elif any(_real(p, folders) == own for p in outs):
            bad.append(_failure(item.path, f"{item.path}: the output would overwrite the input itself"))
        else:
            for p in outs:
                owner[p] = item.path
            keep.append(item)
    return keep, bad


def _failure(path: str, error: str) -> Dict[str, Any]:
    return {"input": path, "status": FAILED, "outputs": [], "error": error}


# --- converting one item (runs in the workers) ---------------------------------------------------------
def format_error(exc: BaseException, path: str) -> str:
    """A one-file report: FILE:LINE:COL: message, plus an excerpt of the offending line with a caret."""
    if isinstance(exc, OSError) and not isinstance(exc, MineconvError):
        target = exc.filename2 or exc.filename  # a failed rename names the temp file first, the output second
        where = f" {target}" if target else ""
        return f"{path}: cannot write the output{where}: {exc.strerror or exc}"
    if not isinstance(exc, MineconvError):
        return f"{path}: internal error while converting ({type(exc).__name__}: {exc})"
    if exc.source is None:
        exc.source = path
    text = exc.line_text
    if text is None or len(text) <= LINE_EXCERPT:
        return str(exc)
    col = exc.column or 1
    start = max(0, min(col - 1 - LINE_EXCERPT // 2, len(text) - LINE_EXCERPT))
    excerpt = text[start:start + LINE_EXCERPT]
    prefix = "..." if start else ""
    suffix = "..." if start + LINE_EXCERPT < len(text) else ""
    head = str(MineconvError(exc.message, source=exc.source, line=exc.line, column=exc.column))
    caret = " " * (len(prefix) + col - 1 - start) + "^"
    return f"{head}\n    {prefix}{excerpt}{suffix}\n    {caret}"


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
        self.by_extension: Dict[Tuple[bool, str], List[Format]] = {}

    def _guess(self, path: str, text: str) -> Format:
        """guess_format(path, text), with the formats an extension names looked up once per extension."""
        name = os.path.basename(path)
        # the key determines pathlib's suffixes, which is all guess_format reads from the name
        key = (name.endswith("."), name.lstrip(".").partition(".")[2].lower())
        cands = self.by_extension.get(key)
        if cands is None:
            cands = self.by_extension[key] = candidates_for_path(path, kind="puzzle", direction="read")
        return cands[0] if len(cands) == 1 else guess_format(path, text)

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
                text, src = read_input(item.path)
                fmt = get_format(s.from_, direction="read", kind="puzzle") if s.from_ \
                    else self._guess(item.path, text)
                try:
                    puzzle = fmt.reader(text, src)  # type: ignore[misc]
                except MineconvError as exc:
                    raise exc.located(src)
                warnings: List[str] = []
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


def _init_worker(settings: Settings) -> None:
    """Pool initializer: keep the settings, leave Ctrl-C to the parent, turn SIGTERM into a clean exit."""
    global _WORKER
    _WORKER = _Worker(settings)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_signal)


def _exit_on_signal(signum: int, frame: Any) -> None:
    # raising here unwinds atomic_output, which removes its temp file
    raise SystemExit(128 + signum)


def _pool_chunk(chunk: List[Item]) -> List[Tuple[int, Dict[str, Any]]]:
    assert _WORKER is not None
    return [(item.index, _WORKER.convert(item)) for item in chunk]


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


# --- running -------------------------------------------------------------------------------------------
@dataclass
class BatchResult:
    """Outcome of a batch run: one record per input, in input order."""

    records: List[Dict[str, Any]]
    elapsed: float
    interrupted: bool = False
    signal: Optional[int] = None
    total: int = 0  # inputs found; more than len(records) when the run was interrupted

    def count(self, status: str) -> int:
        """How many inputs ended with this status."""
        return sum(1 for r in self.records if r["status"] == status)

    @property
    def files_written(self) -> int:
        """Output files written by this run (kept ones not counted)."""
        return sum(1 for r in self.records for o in r["outputs"] if not o.get("kept"))

    def summary(self) -> str:
        """One line: converted / skipped / failed, files written, time."""
        head = f"interrupted after {len(self.records)} of {self.total} inputs: " if self.interrupted else ""
        return (f"{head}{self.count(CONVERTED)} converted, {self.count(SKIPPED)} skipped, "
                f"{self.count(FAILED)} failed ({max(self.total, len(self.records))} inputs, "
                f"{self.files_written} files written) in {self.elapsed:.2f} s")


class _Interrupted(BaseException):
    """SIGTERM in the main process; a BaseException so no per-file handler swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def default_jobs() -> int:
    """Worker processes by default: every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _local_results(chunks: List[List[Item]], settings: Settings, jobs: int
                   ) -> Iterator[List[Tuple[int, Dict[str, Any]]]]:
    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield convert_chunk(chunk, settings)
        return
    import multiprocessing as mp
    # fork starts workers with everything already imported; elsewhere spawn imports once per worker
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(method)
    pool = ctx.Pool(min(jobs, len(chunks)), initializer=_init_worker, initargs=(settings,))
    try:
        for part in pool.imap_unordered(_pool_chunk, chunks):
            yield part
        pool.close()
    except BaseException:
        pool.terminate()  # SIGTERM: each worker removes its temp file on the way out
        raise
    finally:
        pool.join()


def _dask_results(chunks: List[List[Item]], settings: Settings, scheduler: Optional[str],
                  client: Any = None) -> Iterator[List[Tuple[int, Dict[str, Any]]]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise MineconvError("--executor dask needs Dask: pip install 'mineconv[dask]'") from None
    own = client is None
    if own:
        if not scheduler:
            raise MineconvError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
        try:
            client = Client(scheduler, timeout="30s")
        except (OSError, TimeoutError) as exc:
            raise MineconvError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    futures = client.map(convert_chunk, chunks, settings=settings, pure=False)
    try:
        for fut in as_completed(futures):
            yield fut.result()
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if own:
            client.close()


def run_batch(inputs: Sequence[str], outdir: str, formats_: Sequence[str], *, jobs: Optional[int] = None,
              from_: Optional[str] = None, strict: bool = False, skip_existing: bool = False,
              manifest: Optional[str] = None, fsync: bool = False, options: Optional[Dict[str, Any]] = None,
              executor: str = "local", scheduler: Optional[str] = None, client: Any = None,
              on_record: Optional[Callable[[Dict[str, Any]], None]] = None,
              on_start: Optional[Callable[[int], None]] = None) -> BatchResult:
    """Convert every input into every format under outdir; failures are records, not exceptions.

    Raises MineconvError only for a bad request (unknown format, unreachable scheduler). Ctrl-C or SIGTERM
    stop the run cleanly: the result is marked interrupted and holds what finished.
    """
    t0 = time.perf_counter()
    fmts = resolve_formats(formats_)
    if from_:
        get_format(from_, direction="read", kind="puzzle")
    if executor not in ("local", "dask"):
        raise MineconvError(f"unknown executor {executor!r}; valid: local, dask")
    if manifest is not None and not os.path.isdir(os.path.dirname(os.path.abspath(manifest))):
        raise MineconvError("the manifest's folder does not exist", source=manifest)
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        raise MineconvError(f"cannot create the output folder: {exc.strerror or exc}", source=outdir) from None
    settings = Settings(outdir=outdir, formats=tuple(f.name for f in fmts), from_=from_, strict=strict,
                        skip_existing=skip_existing, fsync=fsync, hash_outputs=manifest is not None,
                        options=dict(options or {}))
    items, early = collect_inputs(inputs, outdir, from_=from_)
    items, clashes = find_collisions(items, settings)
    early += clashes
    jobs = jobs or default_jobs()
    if on_start:
        on_start(len(items) + len(early))
    for rec in early:
        if on_record:
            on_record(rec)
    results: Dict[int, Dict[str, Any]] = {}
    chunks = chunked(items, jobs)
    interrupted: Optional[int] = None
    restore = _catch_sigterm()
    try:
        stream = _dask_results(chunks, settings, scheduler, client) if executor == "dask" \
            else _local_results(chunks, settings, jobs)
        for part in stream:
            for index, rec in part:
                results[index] = rec
                if on_record:
                    on_record(rec)
    except KeyboardInterrupt:
        interrupted = signal.SIGINT
    except _Interrupted as exc:
        interrupted = exc.signum
    finally:
        restore()
    records = early + [results[i] for i in sorted(results)]
    result = BatchResult(records, time.perf_counter() - t0, interrupted is not None, interrupted,
                         len(items) + len(early))
    if manifest is not None:
        write_manifest(manifest, records)
    return result


def _catch_sigterm() -> Callable[[], None]:
    """Turn SIGTERM into an exception in the main thread (so a kill stops the run cleanly)."""
    import threading
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum: int, frame: Any) -> None:
        raise _Interrupted(signum)

    old = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, old)


def write_manifest(path: str, records: Sequence[Dict[str, Any]]) -> None:
    """JSON lines, one per input: input, status, outputs (format, path, size, sha256), error."""
    lines = []
    for rec in records:
        row = {"input": rec["input"], "status": rec["status"],
               "outputs": [{k: o[k] for k in ("format", "path", "size", "sha256")} for o in rec["outputs"]],
               "error": rec["error"]}
        if rec.get("warnings"):
            row["warnings"] = rec["warnings"]
        lines.append(json.dumps(row, ensure_ascii=False, sort_keys=True))
    try:
        write_text_atomic(path, "".join(line + "\n" for line in lines))
    except OSError as exc:
        raise MineconvError(f"cannot write the manifest: {exc.strerror or exc}", source=path) from None


def stderr_is_terminal() -> bool:
    """True when progress can be drawn as a bar."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
