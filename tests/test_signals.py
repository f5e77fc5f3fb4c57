"""SIGTERM and SIGHUP stop every command the way Ctrl-C does (issue 13, "Processes and temp files").

Each case runs `mineconv` as a subprocess, waits until it is in the middle of its work (writing a hidden
`.part` file, counting, running a solver), sends the signal, and checks: exit status 128 + signum, the
one-line message, no traceback, nothing left in the output folder but the inputs, no `mineconv-*` temp
folder in TMPDIR, and no solver process left.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional, Set

import pytest

from helpers import require_tool
from mineconv.cli import main
from mineconv.core.errors import Terminated
from mineconv.make.generate import lattice_text

ROOT = Path(__file__).resolve().parent.parent
SIGNALS = [pytest.param(signal.SIGTERM, id="SIGTERM"), pytest.param(signal.SIGHUP, id="SIGHUP")]
WAIT = 60   # seconds for the command to reach the state the signal must interrupt


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """A 1500x1500 full-reveal board: converting or drawing it writes for long enough to be caught."""
    folder = tmp_path_factory.mktemp("board")
    path = folder / "big.txt"
    assert main(["generate", "--rows", "1500", "--cols", "1500", "--density", "0.15", "--seed", "5",
                 "-o", str(path), "-q"]) == 0
    return path


def _children(pid: int) -> List[int]:
    """Pids whose parent is pid (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Run:
    """One `mineconv ARGS` subprocess in `out`, with TMPDIR pointing at a folder of its own."""

    def __init__(self, args: List[str], out: Path) -> None:
        self.out = out
        self.tmpdir = out.parent / (out.name + "-tmp")
        self.tmpdir.mkdir()
        env = dict(os.environ, TMPDIR=str(self.tmpdir), PYTHONPATH=str(ROOT))
        env.pop("CI", None)   # nothing here depends on CI; keep the child's behaviour the same
        self.proc = subprocess.Popen([sys.executable, "-m", "mineconv", *args], cwd=out, env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.err: List[bytes] = []
        # stderr is drained as it comes, so that a chatty child never blocks and -v lines can be waited on
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):  # type: ignore[union-attr]
            self.err.append(line)

    def wait_for(self, ready: Callable[[], bool], what: str) -> None:
        """Poll until ready() holds; fail if the command ended (or took too long) first."""
        end = time.monotonic() + WAIT
        while not ready():
            if self.proc.poll() is not None:
                pytest.fail(f"the command ended ({self.proc.returncode}) before {what}: "
                            f"{b''.join(self.err).decode()[-2000:]}")
            if time.monotonic() > end:
                self.proc.kill()
                pytest.fail(f"no {what} within {WAIT} s")
            time.sleep(0.002)

    def stop(self, signum: int) -> str:
        """Send signum, wait for the end; stderr."""
        self.proc.send_signal(signum)
        try:
            self.proc.wait(WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(10)
        self.proc.stdout.close()  # type: ignore[union-attr]
        return b"".join(self.err).decode("utf-8", "replace")


def assert_stopped(run: Run, signum: int, err: str, inputs: Set[str]) -> None:
    """Exit 128 + signum, the message, no traceback, no file and no temp folder left."""
    name = signal.Signals(signum).name
    assert "Traceback" not in err, err[-3000:]
    assert run.proc.returncode == 128 + signum, (run.proc.returncode, err[-2000:])
    assert f"mineconv: terminated ({name})" in err or f"mineconv: {name}: stopped" in err, err[-2000:]
    left = {p.name for p in run.out.iterdir()} - inputs
    assert not left, f"left in the output folder: {sorted(left)}"
    assert not list(run.tmpdir.iterdir()), f"left in TMPDIR: {sorted(p.name for p in run.tmpdir.iterdir())}"


def _part_file(out: Path) -> Callable[[], bool]:
    return lambda: any(p.name.endswith(".part") for p in out.iterdir())


@pytest.mark.parametrize("signum", SIGNALS)
def test_convert_stopped_while_writing(tmp_path, big, signum):
    out = tmp_path / "out"
    out.mkdir()
    run = Run(["convert", str(big), "big.lp"], out)
    run.wait_for(_part_file(out), "hidden .part file")
    assert_stopped(run, signum, run.stop(signum), set())


@pytest.mark.parametrize("signum", SIGNALS)
def test_render_stopped_while_writing(tmp_path, big, signum):
    out = tmp_path / "out"
    out.mkdir()
    run = Run(["render", str(big), "-o", "big.svg", "--cell", "2"], out)
    run.wait_for(_part_file(out), "hidden .part file")
    assert_stopped(run, signum, run.stop(signum), set())


@pytest.mark.parametrize("signum", SIGNALS)
def test_analyze_stopped_while_counting(tmp_path, signum):
    out = tmp_path / "out"
    out.mkdir()
    (out / "lattice.txt").write_text(lattice_text(22, 80))
    run = Run(["analyze", "lattice.txt", "-v", "--json", "-o", "report.json"], out)
    # -v says which notation read the input: from then on the analysis is running
    run.wait_for(lambda: any(b" read lattice.txt as " in line for line in run.err), "analysis")
    time.sleep(0.3)
    assert_stopped(run, signum, run.stop(signum), {"lattice.txt"})


@pytest.mark.parametrize("signum", SIGNALS)
def test_solve_with_minisat_stopped_kills_the_solver(tmp_path, big, signum):
    require_tool("minisat")
    out = tmp_path / "out"
    out.mkdir()
    run = Run(["solve", str(big), "--solver", "minisat"], out)
    solver: List[int] = []

    def solver_running() -> bool:
        kids = [p for p in _children(run.proc.pid) if _comm(p) == "minisat"]
        solver[:] = kids
        return bool(kids)

    run.wait_for(solver_running, "minisat process")
    err = run.stop(signum)
    assert_stopped(run, signum, err, set())
    # the solver ran in a process group of its own (process.run_process): the whole group is gone
    deadline = time.monotonic() + 5
    while _group_alive(solver[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _group_alive(solver[0]), "the solver outlived mineconv"


def _comm(pid: int) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip()
    except OSError:
        return None


def test_main_restores_the_signal_handlers(tmp_path):
    """main is also called in-process: the handlers it installs are gone when it returns."""
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    (tmp_path / "p.txt").write_text("1?\n")
    assert main(["info", str(tmp_path / "p.txt")]) == 0
    assert {s: signal.getsignal(s) for s in before} == before


def test_a_signal_inside_main_unwinds_like_ctrl_c(tmp_path, capsys, monkeypatch):
    """In-process: the handler raises Terminated where the signal lands; main returns 143 with the message."""
    import mineconv.cli.info as info_cmd

    def signalled(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)   # the handler interrupts this at once
        raise AssertionError("the signal did not interrupt the command")

    monkeypatch.setattr(info_cmd, "run", signalled)
    (tmp_path / "p.txt").write_text("1?\n")
    before = signal.getsignal(signal.SIGTERM)
    started = time.monotonic()
    rc = main(["info", str(tmp_path / "p.txt")])
    err = capsys.readouterr().err
    assert rc == 143 and err.strip() == "mineconv: terminated (SIGTERM)", (rc, err)
    assert time.monotonic() - started < 4
    assert signal.getsignal(signal.SIGTERM) is before


def test_terminated_is_a_keyboard_interrupt():
    exc = Terminated(signal.SIGHUP)
    assert isinstance(exc, KeyboardInterrupt)
    assert exc.signum == signal.SIGHUP and exc.exit_status == 129 and exc.signal_name == "SIGHUP"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", [["info", "{sample}"], ["formats"], ["solve", "{sample}"],
                                  ["solve", "{sample}", "--json"]])
def test_printing_to_a_full_stdout_is_one_clean_error(argv):
    """main's other way out (issue 13, tracebacks): commands that print (not through atomic_output) to
    `> /dev/full` end with one line and exit 2, not a traceback nor 'Exception ignored' at exit."""
    sample = str(ROOT / "samples" / "dusautoy-6x6.txt")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "mineconv", *[a.format(sample=sample) for a in argv]],
                              stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.strip() == "mineconv: cannot write the output: no space left on the device"


def test_a_solver_pipe_closed_under_its_reader_ends_the_reader_quietly():
    # a signal unwinds the waiting thread, which kills the solver and closes its pipes while the reader
    # thread is still in read1: that must end the thread, not print its traceback on the user's stderr
    import threading
    from mineconv.solvers.process import pump
    r, w = os.pipe()
    stream = os.fdopen(r, "rb")
    stream.close()
    os.close(w)
    chunks: list = []
    pump(stream, chunks, threading.Event(), 1 << 20)
    assert chunks == []
