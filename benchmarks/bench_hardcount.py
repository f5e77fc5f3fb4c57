"""Exact counts of hard structured boards (issue 24, target 3): `mineconv analyze --json` beside d4.

    python benchmarks/bench_hardcount.py                 # every board below
    python benchmarks/bench_hardcount.py --only checker-30x30-0.4 --timeout 60

Boards (mines placed by make.generate.place_mines at the density, seed 1):
  checker:  every safe cell with (row + col) even opened (revealed with its count), the rest unknown;
  lattice:  every safe cell on an odd row or an odd column opened;
  wire:     every fourth row opened, joined at alternate ends by one opened column: a snake.
Each board is analysed twice by `mineconv analyze --json --timeout T` in a child process: with its total
mine count, and without (the count d4 is given). d4 (PyPI d4solver, module py_d4) counts the board's CNF
without a total (mineconv's cnf_clauses: no auxiliary variable, so models = solutions) in a child process
killed after --d4-timeout seconds. Peak memory is the child's maximum resident set (os.wait4).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import List, Optional, Sequence, Tuple

import numpy as np

from mineconv.core.system import build_system
from mineconv.encode.cnf import cnf_clauses
from mineconv.formats.reading import parse
from mineconv.make.generate import place_mines

import harness

BOARDS = ([f"checker-{n}x{n}-{d}" for n in (30, 40, 50, 60, 80, 100) for d in (0.3, 0.4)]
          + ["lattice-60x60-0.3", "lattice-60x60-0.4", "wire-100x100-0.3", "wire-100x100-0.4"])

D4_CHILD = "import sys, py_d4\nr = py_d4.Solver(sys.argv[1]).count()\nprint('COUNT', r.getResult())\n"


def opened_cells(pattern: str, rows: int, cols: int) -> np.ndarray:
    """Bool (rows, cols): the cells the pattern opens (where they are safe)."""
    r, c = np.indices((rows, cols))
    if pattern == "checker":
        return (r + c) % 2 == 0
    if pattern == "lattice":
        return (r % 2 == 1) | (c % 2 == 1)
    if pattern == "wire":
        band = r // 4
        return (r % 4 == 0) | ((band % 2 == 0) & (c == cols - 1)) | ((band % 2 == 1) & (c == 0))
    raise ValueError(f"unknown pattern {pattern!r}")


def board_text(name: str, total: bool, seed: int = 1) -> str:
    """The native text of a board named pattern-RxC-density."""
    pattern, size, density = name.split("-")
    rows, cols = (int(x) for x in size.split("x"))
    mine = place_mines(rows, cols, density=float(density), seed=seed)
    opened = opened_cells(pattern, rows, cols) & ~mine
    padded = np.pad(mine, 1).astype(int)
    near = sum(padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    lines = ["".join(str(near[i, j]) if opened[i, j] else "?" for j in range(cols)) for i in range(rows)]
    head = f"mines: {int(mine.sum())}\n" if total else ""
    return head + "\n".join(lines) + "\n"


def run_child(argv: Sequence[str], timeout: float) -> Tuple[Optional[str], float, float]:
    """(stdout or None on timeout/crash, wall seconds, peak RSS in MB) of a child process."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(list(argv), stdout=out, stderr=subprocess.DEVNULL)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                return None, time.monotonic() - start, usage.ru_maxrss / 1024
            time.sleep(0.02)
        seconds = time.monotonic() - start
        out.seek(0)
        text = out.read().decode()
    code = os.waitstatus_to_exitcode(status)
    return (text if code in (0, 1) else None), seconds, usage.ru_maxrss / 1024


def mineconv_row(path: str, timeout: float) -> Tuple[str, str, float, float]:
    """(status, count, seconds, peak MB) of `mineconv analyze --json` on a board file."""
    text, seconds, mb = run_child([sys.executable, "-m", "mineconv", "analyze", path, "--json", "-q",
                                   "--timeout", str(timeout)], timeout + 30)
    if text is None:
        return "killed", "-", seconds, mb
    report = json.loads(text)
    return report["status"], report.get("solutions_str") or "-", seconds, mb


def d4_row(cnf: str, timeout: float) -> Tuple[str, str, float, float]:
    """(outcome, count, seconds, peak MB) of d4 on a CNF file."""
    text, seconds, mb = run_child([sys.executable, "-c", D4_CHILD, cnf], timeout)
    lines = [line for line in (text or "").splitlines() if line.startswith("COUNT ")]
    if not lines:
        return ("timeout" if seconds >= timeout else "crashed"), "-", seconds, mb
    return "counted", lines[-1].split()[1], seconds, mb


def write_cnf(text: str, path: str) -> None:
    """The board's count clauses in DIMACS (no total: no auxiliary variable)."""
    system = build_system(parse(text, "native"))
    clauses = cnf_clauses(system).as_lists()
    with open(path, "w") as f:
        f.write(f"p cnf {system.num_vars} {len(clauses)}\n")
        f.writelines(" ".join(map(str, c)) + " 0\n" for c in clauses)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="board names (default: all)")
    ap.add_argument("--timeout", type=float, default=60.0, help="mineconv analyze --timeout (s)")
    ap.add_argument("--d4-timeout", type=float, default=120.0, help="seconds before d4 is killed")
    ap.add_argument("--no-d4", action="store_true", help="skip d4")
    ap.add_argument("--total-only", action="store_true",
                    help="analyse only with the total (the no-total cell says skipped); implies --no-d4")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_hardcount", peers=["d4solver"])
    print("| board | unknown | with total: status, digits, s, MB | no total: status, digits, s, MB "
          "| d4 (no total): outcome, s, MB | same count |")
    print("|---|---:|---|---|---|:---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or BOARDS:
            cells = []
            for total in (True, False):
                path = os.path.join(tmp, f"{name}-{total}.txt")
                with open(path, "w") as f:
                    f.write(board_text(name, total))
                skip = args.total_only and not total
                cells.append(("skipped", "-", 0.0, 0.0) if skip else mineconv_row(path, args.timeout))
            notot = os.path.join(tmp, f"{name}-False.txt")
            with open(notot) as f:
                text = f.read()
            unknown = text.count("?")
            d4 = ("skipped", "-", 0.0, 0.0)
            same = "-"
            if not (args.no_d4 or args.total_only):
                cnf = os.path.join(tmp, f"{name}.cnf")
                write_cnf(text, cnf)
                d4 = d4_row(cnf, args.d4_timeout)
                if d4[0] == "counted" and cells[1][0] == "complete":
                    same = "yes" if cells[1][1] == d4[1] else "NO"
            row = [name, str(unknown)] + [f"{s}, {_digits(c)}, {t:.1f}, {m:.0f}" for s, c, t, m in cells]
            row.append(f"{d4[0]}, {d4[2]:.1f}, {d4[3]:.0f}")
            row.append(same)
            print("| " + " | ".join(row) + " |", flush=True)
            sides = [(harness.US, True, cells[0]), (harness.US, False, cells[1]), ("d4", False, d4)]
            for side, total, (status, count, seconds, mb) in sides:
                if status != "skipped":
                    rec.record("seconds", seconds, "s", side, {"board": name, "total": total}, status=status,
                               digits=len(count) if count.isdigit() else None, peak_mb=mb, unknown=unknown,
                               same_count=same)
    return 0


def _digits(count: str) -> str:
    return f"{len(count)} digits" if count.isdigit() else "-"


if __name__ == "__main__":
    sys.exit(main())
