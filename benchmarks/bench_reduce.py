"""Boards reduced from random 3-SAT formulas (clause ratio 4.26, the hard region) as a family for the counter.

    python benchmarks/bench_reduce.py                      # n = 8, 12, 16, 20, 24, 28; 60 s per board
    python benchmarks/bench_reduce.py --sizes 10,20 --timeout 30

For each n: a random 3-SAT formula (fixed seed), its board (`mineconv.make.reduce.reduce`), then
mineconv's exact count (`mineconv.analyze`) in a child process killed at --timeout, checked against the
formula's model count from pysat (blocking clauses). ms-toollib is not run: its boards have no known-safe
cell without a number, and a reduced board is mostly such cells (see benchmarks/README.md).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

import harness

CHILD = """
import json, sys, time
import mineconv as mc
from mineconv.formats.dimacs_formula import Formula
from mineconv.make.reduce import reduce
n, clauses = json.loads(sys.stdin.read())
board = reduce(Formula(n, tuple(map(tuple, clauses))))
t = time.perf_counter()
a = mc.analyze(board)
print(json.dumps({"cells": board.rows * board.cols, "unknown": board.unknown_count,
                  "solutions": a.solutions, "seconds": time.perf_counter() - t}))
"""


def models(n: int, clauses: list) -> int:
    """The formula's model count by pysat with blocking clauses."""
    from pysat.solvers import Minisat22
    with Minisat22(bootstrap_with=clauses + [[v, -v] for v in range(1, n + 1)]) as s:
        count = 0
        while s.solve():
            count += 1
            s.add_clause([-lit for lit in s.get_model() if abs(lit) <= n])
        return count


def main() -> int:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="8,12,16,20,24,28")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=7)
    harness.add_options(ap)
    args = ap.parse_args()
    rec = harness.recorder(args, "bench_reduce", peers=["python-sat"])
    print("| n | m | cells | unknown | models (pysat) | mineconv count | analyze s |")
    print("|--:|--:|------:|--------:|------:|------:|------:|")
    for n in map(int, args.sizes.split(",")):
        rng = random.Random(args.seed * 1000 + n)
        m = round(4.26 * n)
        clauses = [[rng.choice((1, -1)) * v for v in rng.sample(range(1, n + 1), 3)] for _ in range(m)]
        want = models(n, clauses)
        t = time.perf_counter()
        try:
            run = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps([n, clauses]), text=True,
                                 capture_output=True, timeout=args.timeout)
            got = json.loads(run.stdout)
            ok = "" if got["solutions"] == want else " MISMATCH"
            print(f"| {n} | {m} | {got['cells']} | {got['unknown']} | {want} | {got['solutions']}{ok} | "
                  f"{got['seconds']:.2f} |")
            rec.record("analyze seconds", got["seconds"], "s", case={"n": n, "m": m, "seed": args.seed},
                       cells=got["cells"], unknown=got["unknown"], models=want, count=got["solutions"],
                       same=not ok)
        except subprocess.TimeoutExpired:
            print(f"| {n} | {m} | | | {want} | timed out | > {args.timeout:.0f} (whole child {time.perf_counter() - t:.0f}) |")
            rec.record("analyze seconds", None, "s", case={"n": n, "m": m, "seed": args.seed}, models=want,
                       timed_out=args.timeout)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
