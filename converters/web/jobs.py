"""Heavy work for the page, in worker processes under a time limit and a memory budget, cancellable.

Each worker is a long-lived child process (`python -m mineconv.web.worker`) that reads one JSON request a
line on stdin and answers one JSON line on stdout, so the imports are paid once per worker, not once per
click. A job takes an idle worker (or starts one, up to `max_workers`; past that it waits its turn). The
only way to stop work in progress is to end its process: a job past its time limit, or cancelled from the
page, kills its worker's process group and the next job starts a fresh one. The worker's address space is
capped (RLIMIT_AS), so a runaway analysis fails alone instead of taking the machine down; the analysis's
own `memory_budget` normally stops the counter well before that.
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
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..core.errors import ResourceError
from ..core.jsonout import json_text

DEFAULT_TIMEOUT = 60.0            # seconds a job may run before its worker is ended
DEFAULT_WORKER_MEMORY = 4 << 30   # bytes of address space a worker may map
KEEP_FINISHED = 200               # finished jobs remembered for the page to collect


def _limit_memory(limit: int) -> None:
    # runs in the child between fork and exec: cap its address space, and give it its own process group
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class Worker:
    """One worker process and its pipes."""

    def __init__(self, memory: int) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mineconv.web.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=True, env=env,
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


@dataclass
class Job:
    """One piece of heavy work: its request, its state and, once finished, its answer or error."""

    id: str
    request: Dict[str, Any]
    state: str = "queued"          # queued, running, done, failed, timeout, cancelled
    answer: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    started: float = field(default_factory=time.monotonic)
    finished: threading.Event = field(default_factory=threading.Event)
    worker: Optional[Worker] = None

    def to_json(self) -> Dict[str, Any]:
        """The job as the page polls it."""
        out: Dict[str, Any] = {"id": self.id, "state": self.state, "seconds": round(time.monotonic() - self.started, 3)}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.error is not None:
            out["error"] = self.error
        return out


class JobPool:
    """Worker processes shared by every page the server serves."""

    def __init__(self, max_workers: int = 6, timeout: float = DEFAULT_TIMEOUT,
                 memory: int = DEFAULT_WORKER_MEMORY, warm: int = 1) -> None:
        self.timeout = timeout
        self.memory = memory
        self.max_workers = max_workers
        self._slots = threading.BoundedSemaphore(max_workers)
        self._lock = threading.Lock()
        self._idle: List[Worker] = []
        self._busy: List[Worker] = []
        self._jobs: Dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._closed = False
        for _ in range(min(warm, max_workers)):
            self._idle.append(Worker(memory))

    def submit(self, request: Dict[str, Any]) -> Job:
        """Queue a request; it runs as soon as a worker is free."""
        with self._lock:
            if self._closed:
                raise ResourceError("the server is shutting down")
            job = Job(str(next(self._ids)), dict(request))
            self._jobs[job.id] = job
            self._forget_old()
        threading.Thread(target=self._run, args=(job,), daemon=True, name=f"job-{job.id}").start()
        return job

    def get(self, job_id: str) -> Optional[Job]:
        """The job with this id, if it is still remembered."""
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Optional[Job]:
        """Stop a job: a queued one never starts, a running one loses its worker process."""
        job = self.get(job_id)
        if job is None or job.finished.is_set():
            return job
        with self._lock:
            if job.state in ("queued", "running"):
                job.state = "cancelled"
                job.error = "cancelled"
            worker = job.worker
        if worker is not None:
            worker.kill()
        return job

    def close(self) -> None:
        """End every worker (the server is stopping)."""
        with self._lock:
            self._closed = True
            workers = self._idle + self._busy
            self._idle, self._busy = [], []
        for worker in workers:
            worker.kill()

    def worker_pids(self) -> List[int]:
        """The process ids of the live workers (tests check none is left behind)."""
        with self._lock:
            return [w.proc.pid for w in self._idle + self._busy]

    def _forget_old(self) -> None:
        done = [j for j in self._jobs.values() if j.finished.is_set()]
        for job in sorted(done, key=lambda j: j.started)[:max(0, len(done) - KEEP_FINISHED)]:
            del self._jobs[job.id]

    def _take_worker(self) -> Worker:
        with self._lock:
            worker = self._idle.pop() if self._idle else None
        if worker is None or worker.proc.poll() is not None:
            worker = Worker(self.memory)
        with self._lock:
            self._busy.append(worker)
        return worker

    def _give_back(self, worker: Worker, healthy: bool) -> None:
        with self._lock:
            if worker in self._busy:
                self._busy.remove(worker)
            if healthy and not self._closed and worker.proc.poll() is None:
                self._idle.append(worker)
                return
        worker.kill()

    def _run(self, job: Job) -> None:
        with self._slots:
            if job.state == "cancelled" or self._closed:
                job.finished.set()
                return
            worker = self._take_worker()
            with self._lock:
                job.state, job.worker = "running", worker
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
                self._give_back(worker, healthy)
                job.finished.set()

    def _expire(self, job: Job) -> None:
        with self._lock:
            if job.state != "running":
                return
            job.state = "timeout"
            job.error = f"stopped after {self.timeout:g} s (the server's --job-timeout)"
            worker = job.worker
        if worker is not None:
            worker.kill()
