#!/usr/bin/env python3
"""Memory and time at full size: every command's peak RSS and wall time against its --timeout (issue 41,
points 7-11; issue 40, point 4).

    python benchmarks/bench_memory.py                         # every case below
    python benchmarks/bench_memory.py --only analyze-q1000,audit-2000

Each case is a fresh `python -m mineconv ...` process, as a user runs it, under an address-space limit
(--mem-limit, default 4 GB: a run past it fails with MemoryError instead of taking the machine); its peak
RSS comes from wait4. A timed case passes when its wall time is within 10% + 1 s of its --timeout (the
interpreter's start is counted: it is part of what the user waits for). Boards are made in a temporary
folder: 'q' boards are all unknown cells, 'game' a 1000x1000 game reveal with the total at density 0.2.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import harness

Case = Tuple[str, Callable[[Path], List[str]], Optional[float]]


def unknown_board(folder: Path, n: int) -> Path:
    path = folder / f"q{n}.txt"
    if not path.exists():
        path.write_text("\n".join(["?" * n] * n) + "\n")
    return path


def game_board(folder: Path) -> Path:
    path = folder / "game1000.txt"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "mineconv", "generate", "--rows", "1000", "--cols", "1000",
                        "--density", "0.2", "--reveal", "game", "--seed", "1", "-o", str(path)], check=True)
    return path


def replay(folder: Path, n: int, density: float, clicks: List[Tuple[int, int]], name: str) -> Path:
    path = folder / name
    if path.exists():
        return path
    rng = np.random.default_rng(2)
    mines = np.zeros(n * n, dtype=bool)
    mines[rng.choice(n * n, int(n * n * density), replace=False)] = True
    grid = mines.reshape(n, n)
    grid[:3, :3] = False
    lines = ["RawVF_Version: Rev5", f"Width: {n}", f"Height: {n}", f"Mines: {int(grid.sum())}", "Board:"]
    lines += ["".join("*" if x else "0" for x in row) for row in grid.tolist()]
    lines.append("Events:")
    for k, (r, c) in enumerate(clicks):
        at = f"{c + 1} {r + 1} ({c * 16 + 8} {r * 16 + 8})"
        lines += [f"{k / 2:.2f} lc {at}", f"{k / 2 + 0.1:.2f} lr {at}"]
    path.write_text("\n".join(lines) + "\n")
    return path


def unit_clauses(folder: Path) -> Path:
    path = folder / "units.cnf"
    if not path.exists():
        path.write_text("p cnf 3 5000000\n" + "1 0\n" * 5_000_000)
    return path


CASES: List[Case] = []
for command in ("analyze", "verdict", "grade", "explain"):
    CASES.append((f"{command}-q300", lambda d, c=command: [c, str(unknown_board(d, 300))], None))
    CASES.append((f"{command}-q1000", lambda d, c=command: [c, str(unknown_board(d, 1000)), "--timeout", "30"], 30))
    CASES.append((f"{command}-q4000", lambda d, c=command: [c, str(unknown_board(d, 4000)), "--timeout", "5"], 5))
CASES += [
    ("analyze-game1000-t30", lambda d: ["analyze", str(game_board(d)), "--timeout", "30"], 30),
    ("audit-2000-one-click", lambda d: ["audit", str(replay(d, 2000, 0.001, [(1, 1)], "one.rawvf")),
                                        "--timeout", "1"], 1),
    ("audit-2000-four-clicks", lambda d: ["audit", str(replay(d, 2000, 0.1, [(1, 1), (1000, 1000), (500, 500),
                                                                              (1500, 20)], "four.rawvf")),
                                          "--timeout", "1"], 1),
    ("generate-noguess-1800", lambda d: ["generate", "--rows", "1800", "--cols", "1800", "--mines", "600000",
                                         "--reveal", "game", "--no-guess", "--timeout", "1",
                                         "-o", str(d / "ng.txt")], 1),
    ("generate-noguess-line", lambda d: ["generate", "--rows", "1", "--cols", "100000", "--mines", "5",
                                         "--reveal", "game", "--no-guess", "--seed", "1", "-o", str(d / "l.txt")],
     None),
    ("design-count-100000", lambda d: ["design", "--rows", "6", "--cols", "6", "--level", "gac", "--count",
                                       "100000", "--timeout", "3", "-o", str(d / "designs")], 3),
    ("reduce-5M-units", lambda d: ["reduce", str(unit_clauses(d)), "-o", str(d / "r.txt")], None),
]


def run(argv: List[str], limit: int, cap: float) -> Tuple[int, float, float, float, str]:
    """(status, wall s, cpu s, peak MB, last stderr line) of one command under `limit` bytes."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, preexec_fn=limited)
    try:
        _, err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)   # cumulative: the difference is this child's CPU
    lines = err.decode(errors="replace").strip().splitlines()
    return proc.returncode, wall, usage.ru_utime + usage.ru_stime, _peak(proc.pid), lines[-1] if lines else ""


_peaks: Dict[int, float] = {}


def _peak(pid: int) -> float:
    return _peaks.get(pid, float("nan"))


_wait = subprocess.Popen._try_wait  # type: ignore[attr-defined]


def _try_wait(self, flags):  # type: ignore[no-untyped-def]
    """Popen's wait through wait4, keeping this child's peak RSS (KB on Linux)."""
    try:
        pid, status, usage = os.wait4(self.pid, flags)
    except ChildProcessError:
        return self.pid, 0
    if pid:
        _peaks[pid] = usage.ru_maxrss / 1024
    return pid, status


subprocess.Popen._try_wait = _try_wait  # type: ignore[attr-defined]


def main() -> None:
    """Run the cases and print a table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--mem-limit", type=float, default=4.0, help="address-space limit per run, GB (default 4)")
    ap.add_argument("--cap", type=float, default=200, help="kill a run after this many seconds (default 200)")
    harness.add_options(ap)
    args = ap.parse_args()
    rec = harness.recorder(args, "bench_memory")
    only = set(args.only.split(",")) if args.only else None
    limit = int(args.mem_limit * 1e9)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}")
    print("| case | exit | wall s | cpu s | peak MB | within 10% + 1 s | last stderr line |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cpu_before = 0.0
        for name, make, timeout in CASES:
            if only is not None and name not in only:
                continue
            argv = make(folder)
            cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
            status, wall, cpu, peak, last = run(argv, limit, args.cap)
            cpu -= cpu_before.ru_utime + cpu_before.ru_stime
            held = "-" if timeout is None else ("yes" if wall <= timeout * 1.1 + 1 else "NO")
            print(f"| {name} | {status} | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {held} | {last[:90]} |", flush=True)
            rec.record("peak MB", peak, "MB", case={"case": name}, exit=status, wall=wall, cpu=cpu, timeout=timeout,
                       within_timeout=held, mem_limit_gb=args.mem_limit, last_stderr=last[:200])


if __name__ == "__main__":
    main()
