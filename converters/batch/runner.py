"""Running a batch: local processes or Dask, progress callbacks, interrupts, the result and the manifest."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..core.errors import FileAccessError, InputError, MineconvError, ResourceError, Terminated
from ..core.fileio import max_bytes, max_cells, write_text_atomic
from ..core.jsonout import json_text
from ..core.wording import plural
from ..encode.cardinality import check_card_encoding
from ..formats.collection import puzzle_index
from ..formats.registry import Format, get_format, read_option_names
from .convert_items import STOP_SIGNALS, chunked, convert_chunk, hold_stop, init_worker, pool_chunk
from .inputs import (
    CONVERTED,
    FAILED,
    SKIPPED,
    Item,
    Settings,
    collect_inputs,
    find_collisions,
    numbered_stems,
    resolve_formats,
)


@dataclass
class BatchResult:
    """Outcome of a batch run: one record per input in input order, one per puzzle of a file that holds several."""

    records: List[Dict[str, Any]]
    elapsed: float
    interrupted: bool = False
    signal: Optional[int] = None
    total: int = 0  # inputs found; more than len(records) when the run was interrupted

    def count(self, status: str) -> int:
        """How many records (inputs, and puzzles of collections) ended with this status."""
        return sum(1 for r in self.records if r["status"] == status)

    @property
    def files_written(self) -> int:
        """Output files written by this run (kept ones not counted)."""
        return sum(1 for r in self.records for o in r["outputs"] if not o.get("kept"))

    @property
    def inputs_done(self) -> int:
        """Inputs with a record (a file that holds several puzzles counted once)."""
        return len({r["input"] for r in self.records})

    def summary(self) -> str:
        """One line: converted / skipped / failed, files written, time (and puzzles, when a file held several)."""
        done = self.inputs_done
        head = f"interrupted after {done} of {plural(self.total, 'input')}: " if self.interrupted else ""
        held = ""
        if any("puzzle" in r for r in self.records):
            held = f" holding {plural(len(self.records), 'puzzle')}"
        return (f"{head}{self.count(CONVERTED)} converted, {self.count(SKIPPED)} skipped, "
                f"{self.count(FAILED)} failed ({plural(max(self.total, done), 'input')}{held}, "
                f"{plural(self.files_written, 'file')} written) in {self.elapsed:.2f} s")


# The most worker processes a run starts: each imports numpy and holds a puzzle (about 60 MB), so 64 of them
# use about 4 GB; `-j 1000000` would fork until the machine stops instead of failing at once.
MAX_JOBS = 64


def default_jobs() -> int:
    """Worker processes by default: every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _local_results(chunks: List[List[Item]], settings: Settings, jobs: int
                   ) -> Iterator[List[Tuple[int, List[Dict[str, Any]]]]]:
    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield convert_chunk(chunk, settings)
        return
    import multiprocessing as mp
    # fork starts workers with everything already imported; elsewhere spawn imports once per worker
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(method)
    pool = ctx.Pool(min(jobs, len(chunks)), initializer=init_worker, initargs=(settings,))
    try:
        for part in pool.imap_unordered(pool_chunk, chunks):
            yield part
        pool.close()
    except BaseException:
        pool.terminate()  # SIGTERM: each worker removes its temp file on the way out
        raise
    finally:
        pool.join()


def dask_client(scheduler: Optional[str], jobs: int) -> Any:
    """A Dask client: of the scheduler at this address, else of a local cluster of `jobs` processes."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ResourceError("--executor dask needs Dask: pip install 'mineconv[dask]'") from None
    if not scheduler:
        # the cluster's own log lines (a task cancelled by an interrupt, with its traceback) are not ours to
        # print: a failed input is reported as its record
        with _workers_ignore_stops():
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
        return Client(cluster)
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ResourceError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


# how long an interrupted Dask run waits for its workers to finish the input each is converting
DASK_STOP_WAIT = 60.0


@contextlib.contextmanager
def _workers_ignore_stops() -> Iterator[None]:
    """Processes started inside inherit Ctrl-C and SIGHUP ignored (Python keeps an inherited SIG_IGN).

    Ctrl-C and a hang-up reach every process of the job: a local Dask worker would die mid-rename with a
    traceback; ignoring them, it finishes its input and stops at the stop file when the run is wound up.
    """
    old = {}
    if threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            if signum != signal.SIGTERM:
                old[signum] = signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def _dask_results(chunks: List[List[Item]], settings: Settings, client: Any,
                  own: bool) -> Iterator[List[Tuple[int, List[Dict[str, Any]]]]]:
    from dask.distributed import as_completed, wait
    futures = client.map(convert_chunk, chunks, settings=settings, pure=False)
    try:
        for fut in as_completed(futures):
            yield fut.result()
    except BaseException:
        # Dask cannot stop a running task, and closing the cluster kills its worker mid-rename: the stop
        # file ends every chunk at its next input instead, and the run waits for that
        if settings.stop_file:
            with contextlib.suppress(OSError):
                open(settings.stop_file, "w").close()
            with contextlib.suppress(Exception):
                wait(futures, timeout=DASK_STOP_WAIT)
        client.cancel(futures)
        raise
    finally:
        if own:
            close_client(client)


def close_client(client: Any) -> None:
    """Close a Dask client, and the local cluster dask_client made for it."""
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def run_batch(inputs: Sequence[str], outdir: str, formats_: Sequence[str], *, jobs: Optional[int] = None,
              from_: Optional[str] = None, strict: bool = False, skip_existing: bool = False,
              manifest: Optional[str] = None, fsync: bool = False, options: Optional[Dict[str, Any]] = None,
              executor: str = "local", scheduler: Optional[str] = None, client: Any = None,
              on_record: Optional[Callable[[Dict[str, Any]], None]] = None,
              on_start: Optional[Callable[[int], None]] = None,
              read_options: Optional[Dict[str, Any]] = None) -> BatchResult:
    """Convert every input into every format under outdir; failures are records, not exceptions.

    `options` go to the writers, `read_options` (e.g. codes=...) to the readers, each notation taking the
    ones it declares (an input whose notation ignores one gets a warning, as with `mineconv convert`).
    Raises MineconvError only for a bad request (unknown format or reader option, unreachable scheduler).
    Ctrl-C or SIGTERM stop the run cleanly: the result is marked interrupted and holds what finished.
    """
    t0 = time.perf_counter()
    fmts, given = _checked_request(jobs, formats_, from_, options, read_options, executor)
    # the manifest's folder is created as OUTDIR is (below, once the scheduler is reached)
    folder = os.path.dirname(os.path.abspath(manifest)) if manifest is not None else None
    own_client = executor == "dask" and client is None
    if own_client:  # reach the scheduler before anything is written: an unreachable one leaves no folder
        client = dask_client(scheduler, jobs or default_jobs())
    try:
        _make_outdir(outdir, manifest, folder)
    except BaseException:
        if own_client:
            close_client(client)
        raise
    journal = _new_journal(outdir)
    settings = Settings(outdir=outdir, formats=tuple(f.name for f in fmts), from_=from_, strict=strict,
                        skip_existing=skip_existing, fsync=fsync, hash_outputs=manifest is not None,
                        options=dict(options or {}), read_options=given, limits=(max_bytes(), max_cells()),
                        journal=journal,
                        stop_file=journal[:-len(".journal")] + ".stop" if journal and executor == "dask" else None)
    items, early = collect_inputs(inputs, outdir, from_=from_)
    items, clashes = find_collisions(items, settings)
    early += clashes
    settings.taken = numbered_stems(items)
    settings.manifest = os.path.realpath(manifest) if manifest is not None else None
    if manifest is not None:
        _check_manifest_target(manifest, items, settings)
    jobs = jobs or default_jobs()
    if on_start:
        on_start(len(items) + len(early))
    for rec in early:
        if on_record:
            on_record(rec)
    chunks = chunked(items, jobs)
    stops = _Stops()
    results, interrupted = _gather(
        lambda: _dask_results(chunks, settings, client, own_client) if executor == "dask"
        else _local_results(chunks, settings, jobs), settings, stops, on_record)
    try:
        records = early + [rec for i in sorted(results) for rec in results[i]]
        result = BatchResult(records, time.perf_counter() - t0, interrupted is not None, interrupted,
                             len(items) + len(early))
        if manifest is not None:
            write_manifest(manifest, records)
    finally:
        stops.restore()
    return result


def _checked_request(jobs: Optional[int], formats_: Sequence[str], from_: Optional[str],
                     options: Optional[Dict[str, Any]], read_options: Optional[Dict[str, Any]],
                     executor: str) -> Tuple[List[Format], Dict[str, Any]]:
    """The output formats and the given reader options, once the request is known to be valid."""
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise InputError(f"-j must be from 1 to {MAX_JOBS} worker processes, got {jobs}")
    fmts = resolve_formats(formats_)
    if (options or {}).get("card_encoding") is not None:
        # a bad name fails once, here, rather than once per input in every worker
        check_card_encoding(options["card_encoding"])  # type: ignore[index]
    if from_:
        get_format(from_, direction="read", kind="puzzle")
    given = {k: v for k, v in (read_options or {}).items() if v is not None}
    known = read_option_names()
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        valid = ", ".join(sorted(known)) or "none"
        raise InputError(f"no notation takes the reader option {unknown[0]!r}; valid: {valid}")
    puzzle_index(given.get("puzzle"))  # a bad --puzzle fails once, not once per collection
    if executor not in ("local", "dask"):
        raise InputError(f"unknown executor {executor!r}; valid: local, dask")
    return fmts, given


def _make_outdir(outdir: str, manifest: Optional[str], folder: Optional[str]) -> None:
    """Create OUTDIR and the manifest's folder as needed, and make sure the latter takes a file.

    When the manifest's folder is unusable, an OUTDIR made here is removed again: a refused run leaves
    no trace.
    """
    made = not os.path.isdir(outdir)
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(f"cannot create the output folder: {exc.strerror or exc}", source=outdir) from None
    if folder is None:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise FileAccessError("the manifest's folder is not writable", source=manifest)
    except OSError as exc:
        if made:
            shutil.rmtree(outdir, ignore_errors=True)
        if isinstance(exc, FileAccessError):
            raise
        raise FileAccessError(f"cannot create the manifest's folder: {exc.strerror or exc}",
                              source=manifest) from None


def _gather(start: Callable[[], Iterator[List[Tuple[int, List[Dict[str, Any]]]]]], settings: Settings,
            stops: "_Stops", on_record: Optional[Callable[[Dict[str, Any]], None]]
            ) -> Tuple[Dict[int, List[Dict[str, Any]]], Optional[int]]:
    """Every input's records by index as the chunks come back, and the stop signal that ended the run early
    (None when it ran to the end). An interrupted run still collects what its journal holds."""
    results: Dict[int, List[Dict[str, Any]]] = {}
    interrupted: Optional[int] = None
    stream: Any = None
    try:
        stream = start()
        for part in stream:
            for index, recs in part:
                results[index] = recs
                for rec in recs:
                    if on_record:
                        on_record(rec)
            stops.check()
    except KeyboardInterrupt as exc:  # Ctrl-C, and Terminated (SIGTERM, SIGHUP) from us or from main
        interrupted = getattr(exc, "signum", signal.SIGINT)
    finally:
        stops.hush()  # a second signal must not cut short the report of what the first one left
        try:
            if stream is not None:
                stream.close()  # ends the pool (or the Dask tasks) before the journal is read
            # inputs finished in a worker whose chunk never came back (the run was stopped) are in the journal
            for index, recs in _read_journal(settings.journal).items():
                if index not in results:
                    results[index] = recs
                    for rec in recs:
                        if on_record:
                            on_record(rec)
        finally:
            for path in (settings.journal, settings.stop_file):
                if path:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
    if interrupted is None:
        interrupted = stops.signum
    return results, interrupted


def _new_journal(outdir: str) -> Optional[str]:
    """Create the run's journal in OUTDIR (hidden, so never an input); None when OUTDIR takes no file."""
    path = os.path.join(outdir, f".mineconv-batch-{os.getpid()}-{secrets.token_hex(4)}.journal")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError:
        return None  # every output will fail to be written too, each reported with its input
    return path


def _read_journal(path: Optional[str]) -> Dict[int, List[Dict[str, Any]]]:
    """The records of each input index from the whole lines of the journal (a process killed mid-line leaves
    a torn one), a collection's puzzles in the file's order."""
    found: Dict[int, List[Tuple[int, Dict[str, Any]]]] = {}
    if not path:
        return {}
    try:
        with open(path, "rb") as fh:
            lines = fh.read().split(b"\n")
    except OSError:
        return {}
    for line in lines:
        try:
            entry = json.loads(line)
            found.setdefault(int(entry["index"]), []).append((int(entry.get("part") or 0), entry["record"]))
        except (ValueError, KeyError, TypeError):
            continue
    return {index: [rec for _, rec in sorted(parts, key=lambda p: p[0])] for index, parts in found.items()}


class _Stops:
    """Ctrl-C, SIGTERM and SIGHUP in the main thread (those not ignored): raised at once, and remembered.

    Ctrl-C raises KeyboardInterrupt, SIGTERM and SIGHUP errors.Terminated (as the CLI's main does), and
    the run is wound up either way. Python drops an exception raised inside a finalizer (a handler that runs
    during some __del__), so a stop could be lost and the run go on to the end; check() raises it again after
    each chunk. While an input's outputs are being renamed into place, the handler waits (worker.hold_stop).
    """

    def __init__(self) -> None:
        self.signum: Optional[int] = None
        self.quiet = False
        self.old: Dict[int, Any] = {}
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is not signal.SIG_IGN:  # nohup, or a background job's Ctrl-C
                self.old[signum] = signal.signal(signum, self._handler)

    def _handler(self, signum: int, frame: Any) -> None:
        if self.signum is None:
            self.signum = signum
        if self.quiet or hold_stop(self._handler, signum):
            return
        # one exception per run: a second signal must not cut short the pool's shutdown the first one began
        self.quiet = True
        raise self._error(signum)

    @staticmethod
    def _error(signum: int) -> BaseException:
        return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)

    def check(self) -> None:
        """Raise the stop that arrived, if one did (whether or not its first exception got through)."""
        if self.signum is not None:
            raise self._error(self.signum)

    def hush(self) -> None:
        """From now on a stop signal is only remembered: the run is being wound up."""
        self.quiet = True

    def restore(self) -> None:
        """Put the previous handlers back."""
        for signum, old in self.old.items():
            signal.signal(signum, old if old is not None else signal.SIG_DFL)
        self.old.clear()


def write_manifest(path: str, records: Sequence[Dict[str, Any]]) -> None:
    """JSON lines, one per input: input, status, outputs (format, path, size, sha256), error; one per puzzle
    of a file that holds several, which also says which: puzzle (1-based), label, puzzles (how many)."""
    lines = []
    for rec in records:
        row = {"input": rec["input"], "status": rec["status"],
               "outputs": [{k: o[k] for k in ("format", "path", "size", "sha256")} for o in rec["outputs"]],
               "error": rec["error"]}
        if "puzzle" in rec:
            row.update(puzzle=rec["puzzle"], label=rec["label"], puzzles=rec["puzzles"])
        if rec.get("empty"):   # an entry without a board (skipped): what it holds instead
            row["empty"] = rec["empty"]
        if rec.get("warnings"):
            row["warnings"] = rec["warnings"]
        lines.append(json_text(row, ensure_ascii=False, sort_keys=True))
    try:
        write_text_atomic(path, "".join(line + "\n" for line in lines))
    except MineconvError:
        raise  # atomic_output's own report (a FileAccessError is an OSError too)
    except OSError as exc:
        raise FileAccessError(f"cannot write the manifest: {exc.strerror or exc}", source=path) from None


def stderr_is_terminal() -> bool:
    """True when progress can be drawn as a bar."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _check_manifest_target(manifest: str, items: Sequence[Item], settings: Settings) -> None:
    """Refuse a manifest path that is one of the inputs or one of the outputs (it would replace it)."""
    from .inputs import output_paths
    target = os.path.realpath(manifest)
    for item in items:
        if os.path.realpath(item.path) == target:
            raise InputError("the manifest would overwrite an input of this run (choose another name)",
                             source=manifest)
        if any(os.path.realpath(out) == target for _, out in output_paths(item, settings)):
            raise InputError(f"the manifest would overwrite an output of this run (from {item.path})",
                             source=manifest)
