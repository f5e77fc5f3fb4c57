"""Time `mineconv design`: puzzles per second at each level, and the grade distribution of minimal puzzles.

    python benchmarks/bench_design.py                  # 8x8, 10x10, 16x16; gac, 2rc, 3rc, full; ~3 minutes
    python benchmarks/bench_design.py --sizes 8x8 --puzzles 10 --density 0.3

For each size and level, design_puzzles makes --puzzles puzzles (seed 1, density 0.2, counts only) and the
line shows puzzles per second, layouts and hide passes tried, and the hit rate (puzzles kept per hide
pass). A level still short of --puzzles after --budget seconds is reported with what it made by then.
Then, per size, the grade distribution of minimal unique puzzles from plain hide passes (one random
order per layout, no steering), with and without the total mine count.
"""
from __future__ import annotations

import argparse
import time
from typing import Dict, List, Optional, Tuple

import numpy as np

from mineconv.make.design import (LEVELS, DesignStats, DesignTimeout, LayoutSolver, design_puzzles, exact_grade,
                             minimal_unique)
from mineconv.make.generate import place_mines

import harness


def run_level(rows: int, cols: int, level: str, puzzles: int, budget: float, density: float,
              total: bool = False) -> DesignStats:
    """Design up to `puzzles` puzzles within about `budget` seconds; the run's statistics."""
    stats = DesignStats()
    started = time.monotonic()
    try:
        for _ in design_puzzles(rows, cols, level, density=density, seed=1, count=puzzles, total=total,
                                timeout=budget, stats=stats):
            if time.monotonic() - started > budget:
                break
    except DesignTimeout:
        pass
    stats.seconds = time.monotonic() - started
    return stats


def distribution(rows: int, cols: int, passes: int, density: float, total: bool) -> Tuple[Dict[str, int], float]:
    """The grades of `passes` minimal unique puzzles from plain hide passes (one per layout); and the seconds."""
    grades: Dict[str, int] = {}
    started = time.monotonic()
    index = 0
    while sum(grades.values()) < passes:
        rng = np.random.default_rng([2, index])
        index += 1
        grid = place_mines(rows, cols, density=density, seed=int(rng.integers(2 ** 63)))
        with LayoutSolver(grid, total=total) as layout:
            if not layout.unique(layout.clues.tolist()):
                continue
            shown = minimal_unique(layout, rng.permutation(layout.clues).tolist())
            g = exact_grade(layout.puzzle(shown))
            grades[g] = grades.get(g, 0) + 1
    return grades, time.monotonic() - started


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark and print two tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8x8,10x10,16x16", help="board sizes (default 8x8,10x10,16x16)")
    ap.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels (default all)")
    ap.add_argument("--puzzles", type=int, default=10, help="puzzles per size and level (default 10)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds per size and level at most (default 20)")
    ap.add_argument("--density", type=float, default=0.2, help="mine density (default 0.2)")
    ap.add_argument("--passes", type=int, default=40, help="minimal puzzles per size for the distribution (default 40)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_design")
    sizes = [tuple(int(x) for x in s.lower().split("x")) for s in args.sizes.split(",")]
    levels = args.levels.split(",")
    print(f"{'size':<6} {'level':<5} {'made':>4} {'seconds':>8} {'puzzles/s':>9} {'layouts':>7} {'passes':>6} "
          f"{'hit rate':>8}")
    for rows, cols in sizes:
        for level in levels:
            st = run_level(rows, cols, level, args.puzzles, args.budget, args.density)
            rate = st.kept / st.seconds if st.seconds else 0.0
            hit = st.kept / st.passes if st.passes else 0.0
            print(f"{f'{rows}x{cols}':<6} {level:<5} {st.kept:>4} {st.seconds:>8.2f} {rate:>9.2f} {st.layouts:>7} "
                  f"{st.passes:>6} {hit:>8.1%}", flush=True)
            rec.record("puzzles per second", rate, "puzzles/s", case={"size": f"{rows}x{cols}", "level": level},
                       made=st.kept, seconds=st.seconds, layouts=st.layouts, passes=st.passes,
                       density=args.density, budget=args.budget)
    print()
    print(f"grade distribution of minimal unique puzzles (plain hide passes, density {args.density:g})")
    print(f"{'size':<6} {'total':<5} {'puzzles':>7} " + " ".join(f"{lv:>5}" for lv in LEVELS) + f" {'s/puzzle':>8}")
    for rows, cols in sizes:
        for total in (False, True):
            grades, seconds = distribution(rows, cols, args.passes, args.density, total)
            n = sum(grades.values())
            cells = " ".join(f"{grades.get(lv, 0) / n:>5.0%}" for lv in LEVELS)
            print(f"{f'{rows}x{cols}':<6} {'yes' if total else 'no':<5} {n:>7} {cells} {seconds / n:>8.3f}",
                  flush=True)
            rec.record("seconds per minimal puzzle", seconds / n, "s", case={"size": f"{rows}x{cols}", "total": total},
                       puzzles=n, grades={lv: grades.get(lv, 0) for lv in LEVELS}, density=args.density)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
