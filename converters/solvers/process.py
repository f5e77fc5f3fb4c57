"""Running a solver program: one clock for the whole run, output caps, and the process group killed at the end.

`Deadline` is the clock every stage shares. `run_process` runs a program to its end and keeps its output;
`StreamedProcess` hands a program's stdout over line by line while it runs (for enumeration). Both start
the program in a process group of its own, without a shell, with its temporary files in our folder, read
its pipes in threads that keep at most a cap of bytes, and kill the whole group however the run ends (the
program's exit, the clock, the cap, a signal), so that no solver or child of one outlives mineconv.
"""
from __future__ import annotations

import math
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Dict, Iterator, List, Optional

from ..core.errors import InputError, SolverError
from ..core.puzzle import Puzzle

if TYPE_CHECKING:
    import subprocess

OUTPUT_CAP = 64 * 2**20     # the least output (stdout, stderr, an answer file) kept: past it a solver is stopped
ANSWER_BYTES_PER_CELL = 256  # a correct answer takes under 60 bytes a cell in every format (lp_solve -S3, z3)
READ_AHEAD = 256   # chunks (or CP-SAT solutions) read ahead of the consumer: a fast solver then waits on its pipe


class Deadline:
    """The end of a whole run (reading, building the model, every solver call): one clock for all stages."""

    def __init__(self, seconds: Optional[float] = None) -> None:
        self.seconds = check_timeout(seconds)
        self.end = None if self.seconds is None else time.monotonic() + self.seconds

    def remaining(self) -> Optional[float]:
        """Seconds left (at least 0), None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        """True once the time is up."""
        return self.end is not None and time.monotonic() >= self.end

    def why(self, stage: str) -> str:
        """The unknown answer's reason: the limit and the stage it ran out in."""
        return f"the time limit of {self.seconds:g} s ran out {stage}"


def check_timeout(seconds: Optional[float]) -> Optional[float]:
    """A time limit as solve accepts it: None, or a finite number of seconds above 0 (else ValueError)."""
    if seconds is None:
        return None
    value = float(seconds)
    # nan made pulp-cbc call a solvable board infeasible, 0 meant "no limit" to some solvers
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"timeout must be a finite number of seconds above 0, not {seconds!r}")
    return value


def answer_cap(puzzle: Puzzle, model_bytes: int = 0) -> int:
    """Bytes of solver output (each stream, an answer file) kept for this board before the solver is stopped.

    A generous multiple of what a correct answer takes: at most about 50 bytes a cell (cbc's solution
    file, lp_solve -S3) plus a line per auxiliary variable, which the model file lists at least once;
    never below OUTPUT_CAP.
    """
    return max(OUTPUT_CAP, ANSWER_BYTES_PER_CELL * puzzle.rows * puzzle.cols + 2 * model_bytes)


def file_size(path: Path) -> int:
    """The size of a model file in bytes (0 when it cannot be read), for answer_cap."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def output_tail(text: str, lines: int = 6) -> str:
    """The last non-blank lines of a solver's output, indented for an error message."""
    body = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n    ".join(body[-lines:]) if body else "(no output)"


@dataclass
class RunResult:
    """A finished solver process: exit status and captured output (None when the time limit stopped it)."""

    returncode: int
    stdout: str
    stderr: str


def kill_group(pid: int) -> None:
    """Kill the process group led by pid (gone already: nothing to do)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def pump(stream: IO[bytes], chunks: List[bytes], over: threading.Event, cap: int) -> None:
    """Read a pipe to its end into chunks, keeping at most cap bytes; past the cap set `over` and drain."""
    size = 0
    while True:
        try:
            block = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
        except (ValueError, OSError):
            # a signal unwound the waiting thread, which killed the group and closed the pipe under us:
            # nothing more is wanted from it (and a thread's traceback would reach the user's stderr)
            return
        if not block:
            return
        if size + len(block) > cap:
            over.set()   # the waiting thread kills the group; keep draining so no writer blocks meanwhile
            continue
        size += len(block)
        chunks.append(block)


def solver_env(workdir: Path) -> Dict[str, str]:
    """The solver's environment: its own temporary files (MiniZinc's .fzn) go into our folder, which is
    removed, because a solver killed on a limit cannot remove them itself."""
    return dict(os.environ, TMPDIR=str(workdir), TMP=str(workdir), TEMP=str(workdir))


def _start(cmd: List[str], cwd: Path) -> "subprocess.Popen[bytes]":
    """The program started in a new process group, no stdin, both output streams piped."""
    import subprocess  # here: the embedded solver, which most runs use, starts no process (~3 ms of start-up)

    return subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, env=solver_env(cwd))


def _reap(proc: "subprocess.Popen[bytes]", threads: List[threading.Thread]) -> None:
    """Kill the group, wait for the leader, let the reader threads end and close the pipes."""
    kill_group(proc.pid)
    proc.wait()
    for t in threads:
        if t.ident is not None:
            t.join(5.0)   # a grandchild that left the group may still hold the pipes: do not wait on it
    for stream in (proc.stdout, proc.stderr):
        stream.close()  # type: ignore[union-attr]


def _exited(pid: int) -> bool:
    """True once the process ended; WNOWAIT leaves the exited leader a zombie, so its pid, the group id,
    cannot be reused before the group is killed."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def run_process(cmd: List[str], cwd: Path, limit: Optional[float], *, name: str = "",
                cap: Optional[int] = None) -> Optional[RunResult]:
    """Run cmd in its own process group without a shell; None when `limit` seconds passed.

    The whole group is killed when the program ends, when time is up, and when anything (a signal, Ctrl-C)
    interrupts the wait, so a wrapper script's children never outlive mineconv. stdout and stderr are kept
    up to `cap` bytes each; more is a SolverError.
    """
    cap = OUTPUT_CAP if cap is None else cap
    out: List[bytes] = []
    err: List[bytes] = []
    over = threading.Event()
    end = None if limit is None else time.monotonic() + limit
    timed_out = False
    pumps: List[threading.Thread] = []
    proc = _start(cmd, cwd)
    try:
        # everything after the start inside the try: a signal that lands while the threads are made and
        # started must still kill the group (under load the solver can be running well before they are)
        pumps += [threading.Thread(target=pump, args=(proc.stdout, out, over, cap), daemon=True),
                  threading.Thread(target=pump, args=(proc.stderr, err, over, cap), daemon=True)]
        for t in pumps:
            t.start()
        while not _exited(proc.pid):
            if over.is_set():
                break
            if end is not None and time.monotonic() >= end:
                timed_out = True
                break
            time.sleep(0.02)
    finally:
        _reap(proc, pumps)
    if over.is_set():
        raise SolverError(f"{name or cmd[0]} printed more than {cap // 2**20} MB; mineconv stopped it")
    if timed_out:
        return None
    return RunResult(proc.returncode, b"".join(out).decode("utf-8", "replace"),
                     b"".join(err).decode("utf-8", "replace"))


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r")


class StreamedProcess:
    """A solver process whose stdout is read line by line while it runs, in its own process group.

    Iterating gives the lines as the solver prints them (without the line end) until it exits or the
    clock runs out (then `timed_out`). No stretch of output between two `solution_read()` calls (so no
    line either) may pass `cap` bytes: the solver is stopped and a SolverError says so. close() kills
    the group and returns the exit status. Starting the program raises OSError as subprocess does.
    """

    def __init__(self, name: str, cmd: List[str], cwd: Path, deadline: Deadline, cap: int) -> None:
        self.name = name
        self.deadline = deadline
        self.cap = cap
        self.pending = 0
        self.timed_out = False
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue(maxsize=READ_AHEAD)
        self.stop = threading.Event()
        self.over = threading.Event()
        self.err: List[bytes] = []
        self.threads: List[threading.Thread] = []
        self.proc = _start(cmd, cwd)
        try:
            self.threads += [threading.Thread(target=self._read_chunks, daemon=True),
                             threading.Thread(target=pump, args=(self.proc.stderr, self.err, self.over, cap),
                                              daemon=True)]
            for t in self.threads:
                t.start()
        except BaseException:
            self.close()
            raise

    def _put(self, item: Optional[bytes]) -> None:
        while not self.stop.is_set():
            try:
                self.lines.put(item, timeout=0.05)
                return
            except queue.Full:
                continue

    def _read_chunks(self) -> None:
        stream = self.proc.stdout
        while not self.stop.is_set():
            # chunks, not lines: a queue hand-over per line made 64 MB of short lines take 30 s
            try:
                block = stream.read1(1 << 16)  # type: ignore[union-attr]
            except (ValueError, OSError):
                break   # closed under us by close() after a signal or a limit: as pump
            if not block:
                break
            self._put(block)
        self._put(None)

    def __iter__(self) -> Iterator[str]:
        partial: List[bytes] = []   # the line being read, in pieces; bounded by the cap on pending bytes
        while True:
            if self.over.is_set():
                raise self._too_much()
            if self.deadline.expired():
                self.timed_out = True
                return
            try:
                item = self.lines.get(timeout=0.05)
            except queue.Empty:
                continue
            if item is None:
                break
            self.pending += len(item)
            if self.pending > self.cap:
                raise self._too_much()
            pieces = item.split(b"\n")
            if len(pieces) == 1:
                partial.append(item)
                continue
            partial.append(pieces[0])
            yield _text(b"".join(partial))
            for piece in pieces[1:-1]:
                yield _text(piece)
            partial = [pieces[-1]] if pieces[-1] else []
        if partial:
            yield _text(b"".join(partial))
        if self.over.is_set():
            raise self._too_much()
        # stdout closed: wait for the exit itself (the leader kept a zombie until close)
        while not _exited(self.proc.pid):
            if self.deadline.expired():
                self.timed_out = True
                return
            time.sleep(0.02)

    def solution_read(self) -> None:
        """A whole solution was read: the output cap counts afresh from here."""
        self.pending = 0

    def _too_much(self) -> SolverError:
        return SolverError(f"{self.name} printed more than {self.cap // 2**20} MB without a whole solution; "
                           "mineconv stopped it")

    def stderr(self) -> str:
        """What the solver printed on stderr (up to the cap)."""
        return b"".join(self.err).decode("utf-8", "replace")

    def close(self) -> int:
        """Kill the process group, wait for the solver; its exit status."""
        self.stop.set()
        _reap(self.proc, self.threads)
        return self.proc.returncode
