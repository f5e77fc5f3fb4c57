"""Time to solution through mineconv for SAT, ILP, CP and ASP solvers on a spread of boards.

    python benchmarks/bench_solvers.py                        # every board, every installed solver
    python benchmarks/bench_solvers.py --solvers pysat,gecode,cp-sat --timeout 30
    python benchmarks/bench_solvers.py --boards expert-1,kaye-splitter --repeat 3
    python benchmarks/bench_solvers.py --boards game-300x300,game-500x500 --solvers pysat --unique

Each cell of the table is the wall time of `mineconv.solve(puzzle, SOLVER)`: writing the model file, running
the solver (a program, or in-process for pysat, HiGHS and CP-SAT), reading its answer and checking it
against every count; the best of --repeat runs, after one untimed solve per solver that pays the imports. A run that hits the time limit is shown as `>T`; a missing
solver as `-`; a board the solver's format cannot state (a total too large for a CNF file) as `refused`, a solver that crashed as `failed`. Every solved answer is verified by mineconv, and every solver's verdict must agree with the
embedded pysat's (the script exits 1 otherwise). The boards: expert game states (16x30, 99 mines, the
opening a player sees) from fixed seeds, Kaye's gadgets from samples/, a 200x200 full reveal (Chlond's
layout: every safe cell shows its count, total given) and game states of 100x100, 300x300 and 500x500 (20%
mines, total given). With --unique each solve also checks the solution for uniqueness, as `mineconv solve`
does by default.
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mineconv import Puzzle, read, solve  # noqa: E402
from mineconv.core.errors import FormatError, MineconvError  # noqa: E402
from mineconv.make.generate import random_puzzle  # noqa: E402
from mineconv.solvers.table import available, get_solver  # noqa: E402

import harness  # noqa: E402

SOLVERS = ["pysat", "minisat", "glpsol", "cbc", "highs", "gecode", "cp-sat", "clingo"]


def boards() -> Dict[str, Puzzle]:
    """The benchmark boards by name."""
    out: Dict[str, Puzzle] = {}
    for seed in (1, 2, 3):
        out[f"expert-{seed}"] = random_puzzle(16, 30, mines=99, reveal="game", seed=seed)
    out["expert-sample"] = read(ROOT / "samples" / "expert-16x30.txt")
    for name in ("kaye-splitter.txt", "kaye-wire.dots", "kaye-config3.dots"):
        out[Path(name).stem] = read(ROOT / "samples" / name)
    out["full-200x200"] = random_puzzle(200, 200, density=0.2, reveal="full", seed=7)
    for side in (100, 300, 500):
        out[f"game-{side}x{side}"] = random_puzzle(side, side, density=0.2, reveal="game", seed=1)
    return out


def time_one(puzzle: Puzzle, solver: str, timeout: float, repeat: int,
             unique: bool = False) -> Tuple[Optional[float], str]:
    """(best wall seconds or None when stopped, status) of solving `puzzle` with `solver` (and checking the
    solution for uniqueness when `unique`)."""
    best: Optional[float] = None
    status = ""
    for _ in range(repeat):
        start = time.perf_counter()
        d = solve(puzzle, solver, timeout=timeout, check_unique=unique)
        took = time.perf_counter() - start
        status = d.status
        if status == "unknown":
            return None, status
        best = took if best is None else min(best, took)
    return best, status


def main(argv: Optional[List[str]] = None) -> int:
    """Run the comparison and print a markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solvers", default=",".join(SOLVERS), help="comma-separated solver names")
    ap.add_argument("--boards", default="", help="comma-separated board names (default all)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per solve (default 60)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per cell, the best is shown (default 1)")
    ap.add_argument("--unique", action="store_true", help="also check each solution for uniqueness")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_solvers", peers=["python-sat", "ortools", "highspy", "clingo"])
    all_boards = boards()
    names = [b for b in args.boards.split(",") if b] or list(all_boards)
    solvers = [s for s in args.solvers.split(",") if s]
    warm = Puzzle.from_rows(["1??", "12?", "01?"])
    for s in solvers:
        get_solver(s)   # an unknown name fails before any timing
        if available(s):
            solve(warm, s)   # imports (ortools, highspy, pysat) happen once per process, not in a timed run
    print(f"# bench_solvers {time.strftime('%Y-%m-%d %H:%M')} on {platform.node()} "
          f"(load average {' '.join(f'{x:.1f}' for x in __import__('os').getloadavg())})")
    print()
    head = "| board | unknown | " + " | ".join(solvers) + " |"
    print(head)
    print("|" + "---|" * (2 + len(solvers)))
    disagree = False
    for name in names:
        puzzle = all_boards[name]
        verdicts = {}
        cells = []
        for s in solvers:
            if not available(s):
                cells.append("-")
                continue
            try:
                seconds, status = time_one(puzzle, s, args.timeout, args.repeat, args.unique)
            except MineconvError as exc:   # a total too large for a CNF file (refused), a solver that crashed
                print(f"{name}, {s}: {exc}", file=sys.stderr)
                cells.append("refused" if isinstance(exc, FormatError) else "failed")
                continue
            verdicts[s] = status
            rec.record("seconds to solution", seconds, "s", f"{harness.US} via {s}",
                       {"board": name, "unknown": puzzle.unknown_count}, status=status, repeat=args.repeat,
                       timeout=args.timeout, unique=args.unique)
            mark = "" if status == "solved" else f" ({status})"
            cells.append(f">{args.timeout:g}" if seconds is None else f"{seconds:.2f}{mark}")
        known = {v for v in verdicts.values() if v != "unknown"}
        if len(known) > 1:
            disagree = True
            print(f"verdicts disagree on {name}: {verdicts}", file=sys.stderr)
        print(f"| {name} {puzzle.rows}x{puzzle.cols} | {puzzle.unknown_count} | " + " | ".join(cells) + " |",
              flush=True)
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
