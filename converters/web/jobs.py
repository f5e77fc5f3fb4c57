"""Heavy work for the page, in worker processes under a time limit and a memory budget, cancellable.

Each worker is a long-lived child process (`python -m mineconv.web.worker_process`) that reads one JSON request a
line on stdin and answers one JSON line on stdout, so the imports are paid once per worker, not once per
click. The only way to stop work in progress is to end its process: a job past its time limit, or
cancelled from the page, kills its worker's process group and the next job starts a fresh one. The
worker's address space is capped (RLIMIT_AS), so a runaway analysis fails alone instead of taking the
machine down; the analysis's own `memory_budget` normally stops the counter well before that.

Jobs wait in two lanes, told apart before they queue by their board's size (`job_cells`): a small board's
job is light, anything else heavy. `max_workers` runners take jobs, light ones first; one runner (when
there are two or more) takes only light jobs, with a warm worker process of its own, so a small board is
answered while ten heavy ones queue (issue 41 measured 17 s behind ten heavy jobs). At most `max_queued` jobs wait (past that, `Busy`), and
a fixed set of runner threads serves them, never a thread per job.

Workers end with their server even while busy: each holds the read end of a pipe whose only write end
the server keeps; a thread in the worker waits on it, and when the server dies (even by SIGKILL) the
pipe closes and the worker ends its own process group.
"""
from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List, Optional

from ..core.errors import ResourceError
from ..core.fileio import max_bytes, max_cells
from ..core.jsonout import json_text

DEFAULT_TIMEOUT = 60.0            # seconds a job may run before its worker is ended
DEFAULT_WORKER_MEMORY = 4 << 30   # bytes of address space a worker may map
KEEP_FINISHED = 200               # finished jobs remembered for the page to collect
MAX_QUEUED = 64                   # jobs waiting for a worker, per server
LIGHT_CELLS = 1024                # a job on a board of at most this many cells is light (an expert board: 480)
PARENT_FD = "MINECONV_PARENT_FD"  # the environment variable naming the worker's end of the parent pipe
LIMITS = "MINECONV_LIMITS"        # ... and the server's --max-bytes,--max-cells, which the worker keeps too


class Busy(ResourceError):
    """Too many jobs are waiting already (the page is told to try again)."""


def _limit_memory(limit: int) -> None:
    # runs in the child between fork and exec: cap its address space
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class Worker:
    """One worker process and its pipes."""

    def __init__(self, memory: int, parent_fd: int) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", **{PARENT_FD: str(parent_fd),
                                                         LIMITS: f"{max_bytes()},{max_cells()}"})
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mineconv.web.worker_process"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=True, env=env, pass_fds=(parent_fd,),
            preexec_fn=(lambda: _limit_memory(memory)) if memory else None)

    def ask(self, request: Dict[str, Any]) -> Dict[str, Any]:
        """Send one request and wait for its answer (raises EOFError when the process died)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json_text(request) + "\n").encode("utf-8"))
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError("the worker process ended")
        answer: Dict[str, Any] = json.loads(line)
        return answer

    def kill(self) -> None:
        """End the worker and anything it started."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def job_cells(request: Dict[str, Any]) -> int:
    """A job's size guessed before it runs: its board's cells (rows x cols for a new game)."""
    board = request.get("board")
    if isinstance(board, str):
        return len(board) - board.count("\n")
    rows, cols = request.get("rows"), request.get("cols")
    if isinstance(rows, (int, float)) and isinstance(cols, (int, float)):
        return int(max(0, rows) * max(0, cols)) if rows < 1 << 31 and cols < 1 << 31 else 1 << 62
    return 0


@dataclass
class Job:
    """One piece of heavy work: its request, its state and, once finished, its answer or error."""

    id: str
    request: Dict[str, Any]
    state: str = "queued"          # queued, running, done, failed, timeout, cancelled
    answer: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    light: bool = False
    started: float = field(default_factory=time.monotonic)
    ended: Optional[float] = None
    finished: threading.Event = field(default_factory=threading.Event)
    worker: Optional[Worker] = None

    def end(self) -> None:
        """Mark the job finished: its clock stops."""
        if self.ended is None:
            self.ended = time.monotonic()
        self.finished.set()

    def to_json(self) -> Dict[str, Any]:
        """The job as the page polls it (`seconds` from submission to now, or to its end once finished)."""
        until = self.ended if self.ended is not None else time.monotonic()
        out: Dict[str, Any] = {"id": self.id, "state": self.state, "seconds": round(until - self.started, 3)}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.error is not None:
            out["error"] = self.error
        return out


class JobPool:
    """Worker processes shared by every page the server serves, and the lanes of jobs waiting for them."""

    def __init__(self, max_workers: int = 6, timeout: float = DEFAULT_TIMEOUT,
                 memory: int = DEFAULT_WORKER_MEMORY, warm: int = 1, max_queued: int = MAX_QUEUED) -> None:
        if max_workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.timeout = timeout
        self.memory = memory
        self.max_workers = max_workers
        self.max_queued = max_queued
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._lanes: Dict[bool, Deque[Job]] = {True: deque(), False: deque()}   # light?, in arrival order
        self._idle: List[Worker] = []
        self._reserved: List[Worker] = []      # the light runner's own warm worker (none with one runner)
        self._busy: List[Worker] = []
        self._jobs: Dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._closed = False
        # the workers' lifeline: they hold the read end; the write end lives (unwritten) as long as the pool
        self._lifeline, self._lifeline_write = os.pipe()
        for _ in range(min(warm, max_workers)):
            self._idle.append(self._new_worker())
        if max_workers > 1:
            self._reserved.append(self._new_worker())
        for number in range(max_workers):
            light_only = number == 0 and max_workers > 1
            threading.Thread(target=self._serve_lane, args=(light_only,), daemon=True,
                             name=f"jobs-{'light' if light_only else 'any'}-{number}").start()

    def submit(self, request: Dict[str, Any]) -> Job:
        """Queue a request in its lane; it runs as soon as a runner is free (Busy when too many wait)."""
        with self._lock:
            if self._closed:
                raise ResourceError("the server is shutting down")
            if sum(map(len, self._lanes.values())) >= self.max_queued:
                raise Busy(f"{self.max_queued} jobs are already waiting for this server; try again when one "
                           "finishes, or cancel one")
            job = Job(str(next(self._ids)), dict(request), light=job_cells(request) <= LIGHT_CELLS)
            self._jobs[job.id] = job
            self._forget_old()
            self._lanes[job.light].append(job)
            self._ready.notify_all()
        return job

    def get(self, job_id: str) -> Optional[Job]:
        """The job with this id, if it is still remembered."""
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Optional[Job]:
        """Stop a job: a queued one leaves its lane, a running one loses its worker process."""
        job = self.get(job_id)
        if job is None or job.finished.is_set():
            return job
        with self._lock:
            if job.state in ("queued", "running"):
                job.state = "cancelled"
                job.error = "cancelled"
            if job in self._lanes[job.light]:
                self._lanes[job.light].remove(job)
                job.end()
            worker = job.worker
        if worker is not None:
            worker.kill()
        return job

    def close(self) -> None:
        """End every worker (the server is stopping)."""
        with self._lock:
            self._closed = True
            workers = self._idle + self._reserved + self._busy
            self._idle, self._reserved, self._busy = [], [], []
            waiting = [job for lane in self._lanes.values() for job in lane]
            for lane in self._lanes.values():
                lane.clear()
            self._ready.notify_all()
        for job in waiting:
            job.state, job.error = "cancelled", "the server is shutting down"
            job.end()
        for worker in workers:
            worker.kill()
        for fd in (self._lifeline_write, self._lifeline):
            try:
                os.close(fd)
            except OSError:
                pass

    def worker_pids(self) -> List[int]:
        """The process ids of the live workers (tests check none is left behind)."""
        with self._lock:
            return [w.proc.pid for w in self._idle + self._reserved + self._busy]

    def _new_worker(self) -> Worker:
        return Worker(self.memory, self._lifeline)

    def _forget_old(self) -> None:
        done = [j for j in self._jobs.values() if j.finished.is_set()]
        for job in sorted(done, key=lambda j: j.started)[:max(0, len(done) - KEEP_FINISHED)]:
            del self._jobs[job.id]

    def _serve_lane(self, light_only: bool) -> None:
        while True:
            with self._ready:
                job = self._next(light_only)
                while job is None and not self._closed:
                    self._ready.wait()
                    job = self._next(light_only)
                if job is None:
                    return
            self._run(job, light_only)

    def _next(self, light_only: bool) -> Optional[Job]:
        # called under the lock: light jobs first (they are quick), heavy ones only on the shared runners
        if self._lanes[True]:
            return self._lanes[True].popleft()
        if not light_only and self._lanes[False]:
            return self._lanes[False].popleft()
        return None

    def _take_worker(self, light_only: bool) -> Worker:
        with self._lock:
            pools = (self._reserved, self._idle) if light_only else (self._idle,)
            worker = next((pool.pop() for pool in pools if pool), None)
        if worker is None or worker.proc.poll() is not None:
            worker = self._new_worker()
        with self._lock:
            self._busy.append(worker)
        return worker

    def _give_back(self, worker: Worker, healthy: bool, light_only: bool) -> None:
        with self._lock:
            if worker in self._busy:
                self._busy.remove(worker)
            if healthy and not self._closed and worker.proc.poll() is None:
                (self._reserved if light_only and not self._reserved else self._idle).append(worker)
                return
        worker.kill()

    def _run(self, job: Job, light_only: bool) -> None:
        if job.state == "cancelled" or self._closed:
            job.end()
            return
        try:
            worker = self._take_worker(light_only)
        except OSError as exc:    # no process could be started (the pool closed, or the machine is out of them)
            job.state, job.error = "failed", f"no worker process could be started: {exc.strerror or exc}"
            job.end()
            return
        with self._lock:
            cancelled = job.state != "queued"     # cancelled between leaving its lane and getting a worker
            if not cancelled:
                job.state, job.worker = "running", worker
        if cancelled:
            self._give_back(worker, True, light_only)
            job.end()
            return
        timer = threading.Timer(self.timeout, self._expire, args=(job,))
        timer.daemon = True
        timer.start()
        healthy = False
        try:
            # the analysis is told to stop a little before the worker is killed, so it can report what it proved
            reply = worker.ask(dict(job.request, timeout=max(1.0, self.timeout - 2.0)))
            healthy = True
            with self._lock:
                if job.state == "running":
                    if reply.get("ok"):
                        job.state, job.answer = "done", reply.get("answer")
                    else:
                        job.state, job.error = "failed", reply.get("error", "the analysis failed")
        except (EOFError, OSError, ValueError):
            with self._lock:
                if job.state == "running":
                    job.state = "failed"
                    job.error = ("the analysis ran out of memory or crashed (its worker process ended); "
                                 "try a smaller board")
        finally:
            timer.cancel()
            with self._lock:
                job.worker = None
            self._give_back(worker, healthy, light_only)
            job.end()

    def _expire(self, job: Job) -> None:
        with self._lock:
            if job.state != "running":
                return
            job.state = "timeout"
            job.error = f"stopped after {self.timeout:g} s (the server's --job-timeout)"
            worker = job.worker
        if worker is not None:
            worker.kill()
