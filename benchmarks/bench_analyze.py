"""Time `analyze` on random game-state boards (what a player sees mid-game) at every level.

    python benchmarks/bench_analyze.py                 # 100x100, 16% and 20% mines, 3 boards each
    python benchmarks/bench_analyze.py --size 200 --boards 2 --density 0.16
    python benchmarks/bench_analyze.py --lattice 22x80 --out board.txt   # write issue 13's board

Prints one line per board and level: unknown cells, cells decided, digits of the exact solution count,
seconds. Boards come from mineconv.make.generate.random_puzzle(reveal="game") with fixed seeds, so runs are
comparable across machines and versions.

--lattice RxC writes issue 13's board instead: counts on a lattice (odd row, odd column; 30% mines around
them, seed 1, with the total), every other cell unknown; measure it from the shell, where the kernel
reports the peak memory: /usr/bin/time -v mineconv analyze board.txt --timeout 120 (see README.md).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import List, Optional

from mineconv.analysis import LEVELS, analyze, unlimited_int_digits
from mineconv.make.generate import lattice_text, random_puzzle

import harness


def count_digits(n: int) -> int:
    """Decimal digits of a (possibly huge) solution count."""
    with unlimited_int_digits():
        return len(str(n))




def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=100, help="board side (default 100)")
    ap.add_argument("--density", type=float, action="append", help="mine density (repeatable; default 0.16 and 0.20)")
    ap.add_argument("--boards", type=int, default=3, help="boards per density (default 3)")
    ap.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels (default all)")
    ap.add_argument("--no-total", action="store_true", help="boards without the total mine count")
    ap.add_argument("--lattice", metavar="RxC", help="write issue 13's lattice board of R x C to --out and stop")
    ap.add_argument("--out", default="-", help="with --lattice: the file to write (default stdout)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    if args.lattice:
        rows, cols = (int(x) for x in args.lattice.lower().split("x"))
        text = lattice_text(rows, cols)
        if args.out == "-":
            sys.stdout.write(text)
        else:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        return 0
    rec = harness.recorder(args, "bench_analyze")
    densities = args.density or [0.16, 0.20]
    levels = args.levels.split(",")
    print(f"{'board':<28} {'level':<5} {'unknown':>7} {'decided':>7} {'digits':>6} {'seconds':>8}")
    times = {lv: [] for lv in levels}
    for density in densities:
        for seed in range(args.boards):
            p = random_puzzle(args.size, args.size, density=density, reveal="game", seed=seed,
                              with_total=not args.no_total)
            label = f"{args.size}x{args.size} d={density:g} seed={seed}"
            for lv in levels:
                t = time.perf_counter()
                a = analyze(p, level=lv)
                dt = time.perf_counter() - t
                times[lv].append(dt)
                digits = "-" if a.solutions is None else count_digits(a.solutions)
                decided = len(a.safe_cells) + len(a.mine_cells)
                print(f"{label:<28} {lv:<5} {a.system.num_vars:>7} {decided:>7} {digits:>6} {dt:>8.2f}")
                rec.record("seconds", dt, "s", case={"size": args.size, "density": density, "seed": seed,
                                                     "level": lv, "total": not args.no_total},
                           unknown=a.system.num_vars, decided=decided, digits=digits)
                sys.stdout.flush()
    print()
    for lv in levels:
        print(f"{lv:<5} mean {statistics.mean(times[lv]):.2f} s, max {max(times[lv]):.2f} s per board")
    return 0


if __name__ == "__main__":
    sys.exit(main())
