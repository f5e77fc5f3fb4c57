"""Running a batch: local processes or Dask, progress callbacks, interrupts, the result and the manifest."""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import MineconvError
from ..encode.cnf import check_card_encoding
from ..fileio import write_text_atomic
from ..registry import get_format, read_option_names
from .inputs import CONVERTED, FAILED, SKIPPED, Item, Settings, collect_inputs, find_collisions, resolve_formats
from .worker import chunked, convert_chunk, init_worker, pool_chunk
from ..wording import plural

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
        head = f"interrupted after {len(self.records)} of {plural(self.total, 'input')}: " if self.interrupted else ""
        return (f"{head}{self.count(CONVERTED)} converted, {self.count(SKIPPED)} skipped, "
                f"{self.count(FAILED)} failed ({plural(max(self.total, len(self.records)), 'input')}, "
                f"{plural(self.files_written, 'file')} written) in {self.elapsed:.2f} s")


class _Interrupted(BaseException):
    """SIGTERM in the main process; a BaseException so no per-file handler swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


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
                   ) -> Iterator[List[Tuple[int, Dict[str, Any]]]]:
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


def _dask_client(scheduler: Optional[str], jobs: int) -> Any:
    """A Dask client: of the scheduler at this address, else of a local cluster of `jobs` processes."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise MineconvError("--executor dask needs Dask: pip install 'mineconv[dask]'") from None
    if not scheduler:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise MineconvError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def _dask_results(chunks: List[List[Item]], settings: Settings, client: Any,
                  own: bool) -> Iterator[List[Tuple[int, Dict[str, Any]]]]:
    from dask.distributed import as_completed
    futures = client.map(convert_chunk, chunks, settings=settings, pure=False)
    try:
        for fut in as_completed(futures):
            yield fut.result()
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if own:
            _close_client(client)


def _close_client(client: Any) -> None:
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
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise MineconvError(f"-j must be from 1 to {MAX_JOBS} worker processes, got {jobs}")
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
        raise MineconvError(f"no notation takes the reader option {unknown[0]!r}; valid: {valid}")
    if executor not in ("local", "dask"):
        raise MineconvError(f"unknown executor {executor!r}; valid: local, dask")
    folder = os.path.dirname(os.path.abspath(manifest)) if manifest is not None else None
    # OUTDIR is created below, so a manifest inside it (`-o out --manifest out/m.jsonl`) is fine
    if folder is not None and folder != os.path.abspath(outdir) and not os.path.isdir(folder):
        raise MineconvError("the manifest's folder does not exist", source=manifest)
    own_client = executor == "dask" and client is None
    if own_client:  # reach the scheduler before anything is written: an unreachable one leaves no folder
        client = _dask_client(scheduler, jobs or default_jobs())
    try:
        try:
            os.makedirs(outdir, exist_ok=True)
        except OSError as exc:
            raise MineconvError(f"cannot create the output folder: {exc.strerror or exc}", source=outdir) from None
        if folder is not None and not os.access(folder, os.W_OK):
            raise MineconvError("the manifest's folder is not writable", source=manifest)
    except BaseException:
        if own_client:
            _close_client(client)
        raise
    settings = Settings(outdir=outdir, formats=tuple(f.name for f in fmts), from_=from_, strict=strict,
                        skip_existing=skip_existing, fsync=fsync, hash_outputs=manifest is not None,
                        options=dict(options or {}), read_options=given)
    items, early = collect_inputs(inputs, outdir, from_=from_)
    items, clashes = find_collisions(items, settings)
    early += clashes
    if manifest is not None:
        _check_manifest_target(manifest, items, settings)
    jobs = jobs or default_jobs()
    if on_start:
        on_start(len(items) + len(early))
    for rec in early:
        if on_record:
            on_record(rec)
    results: Dict[int, Dict[str, Any]] = {}
    chunks = chunked(items, jobs)
    interrupted: Optional[int] = None
    stops = _Stops()
    try:
        stream = _dask_results(chunks, settings, client, own_client) if executor == "dask" \
            else _local_results(chunks, settings, jobs)
        for part in stream:
            for index, rec in part:
                results[index] = rec
                if on_record:
                    on_record(rec)
            stops.check()
    except KeyboardInterrupt:
        interrupted = signal.SIGINT
    except _Interrupted as exc:
        interrupted = exc.signum
    finally:
        stops.restore()
    records = early + [results[i] for i in sorted(results)]
    result = BatchResult(records, time.perf_counter() - t0, interrupted is not None, interrupted,
                         len(items) + len(early))
    if manifest is not None:
        write_manifest(manifest, records)
    return result


class _Stops:
    """SIGTERM (and Ctrl-C, unless ignored) in the main thread: raised at once, and remembered.

    Python drops an exception raised inside a finalizer (a handler that runs during some __del__), so a
    stop could be lost and the run go on to the end; check() raises it again after each chunk.
    """

    def __init__(self) -> None:
        self.signum: Optional[int] = None
        self.old: Dict[int, Any] = {}
        if threading.current_thread() is not threading.main_thread():
            return
        self.old[signal.SIGTERM] = signal.signal(signal.SIGTERM, self._handler)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.old[signal.SIGINT] = signal.signal(signal.SIGINT, self._handler)

    def _handler(self, signum: int, frame: Any) -> None:
        self.signum = signum
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise _Interrupted(signum)

    def check(self) -> None:
        """Raise the stop that arrived, if one did (whether or not its first exception got through)."""
        if self.signum is not None:
            raise _Interrupted(self.signum)

    def restore(self) -> None:
        """Put the previous handlers back."""
        for signum, old in self.old.items():
            signal.signal(signum, old)


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


def _check_manifest_target(manifest: str, items: Sequence[Item], settings: Settings) -> None:
    """Refuse a manifest path that is one of the inputs or one of the outputs (it would replace it)."""
    from .inputs import output_paths
    target = os.path.realpath(manifest)
    for item in items:
        if os.path.realpath(item.path) == target:
            raise MineconvError("the manifest would overwrite an input of this run (choose another name)",
                                source=manifest)
        if any(os.path.realpath(out) == target for _, out in output_paths(item, settings)):
            raise MineconvError(f"the manifest would overwrite an output of this run (from {item.path})",
                                source=manifest)
