#!/usr/bin/env python3
"""Batch throughput: expert boards (30 x 16, 99 mines, game reveal) converted per second, at -j 1 and -j 2.

    python benchmarks/bench_batch.py                      # 2000 boards, cnf / lp / cnf+lp, -j 1 and 2
    python benchmarks/bench_batch.py --boards 5000 --out /dev/shm/bench   # outputs on tmpfs

Prints where the time of one board goes (parse, each writer) and then one row per batch run, with its wall
time and the CPU seconds of the parent and its workers (boards per CPU second is the figure that does not
depend on how busy the machine is; two idle cores give about twice that per wall second). Boards are
made without the total mine count (a CNF with it adds a cardinality encoding, ~100x the clauses of the
counts); `--total-boards` runs a smaller set of boards that state it, to show that cost separately.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mineconv.batch import run_batch  # noqa: E402
from mineconv.core.fileio import atomic_output  # noqa: E402
from mineconv.formats.notations.native import canonical_text  # noqa: E402
from mineconv.make.generate import random_puzzle  # noqa: E402
from mineconv.formats.writing import dumps  # noqa: E402
from mineconv.formats.registry import get_format  # noqa: E402
from mineconv.formats.reading import parse  # noqa: E402

import harness  # noqa: E402


def make_boards(folder: Path, n: int, with_total: bool, notation: str = "native") -> float:
    """Write n expert game boards (seeds 0..n-1) in a puzzle notation; returns the seconds it took."""
    folder.mkdir(parents=True, exist_ok=True)
    ext = get_format(notation).extensions[0]
    t0 = time.perf_counter()
    for i in range(n):
        p = random_puzzle(16, 30, mines=99, reveal="game", seed=i, with_total=with_total)
        with atomic_output(folder / f"e{i:05d}{ext}", fsync=False) as out:
            out.write(canonical_text(p) if notation == "native" else dumps(p, notation))
    return time.perf_counter() - t0


def stage_costs(folder: Path, formats: List[str], notation: str = "native", sample: int = 200) -> List[tuple]:
    """Microseconds per board for parsing the input notation and for each writer, in one process."""
    texts = [p.read_text() for p in sorted(folder.iterdir())[:sample]]
    rows = []
    t0 = time.perf_counter()
    puzzles = [parse(t, notation) for t in texts]
    rows.append((f"parse {notation}", (time.perf_counter() - t0) / len(texts) * 1e6))
    for name in formats:
        dumps(puzzles[0], name)  # first call builds caches
        t0 = time.perf_counter()
        for p in puzzles:
            dumps(p, name)
        rows.append((f"write {name}", (time.perf_counter() - t0) / len(puzzles) * 1e6))
    return rows


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallel_headroom() -> float:
    """How much faster two processes burn CPU than one, right now (2.0 on two idle cores)."""
    import multiprocessing as mp
    work = [1_500_000] * 4
    t0 = time.perf_counter()
    for n in work:
        _burn(n)
    one = time.perf_counter() - t0
    with mp.get_context("fork").Pool(2) as pool:
        pool.map(_burn, [10] * 2)
        t0 = time.perf_counter()
        pool.map(_burn, work, chunksize=1)
        two = time.perf_counter() - t0
    return one / two


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the pool's workers)."""
    import resource
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(folder: Path, out_root: Path, fmts: str, jobs: int, label: str) -> tuple:
    """One batch run into a fresh folder: (input, formats, jobs, boards, s, boards/s, files/s, CPU s, boards/CPU s)."""
    out = out_root / f"out-{label}-{fmts.replace(',', '+')}-j{jobs}"
    shutil.rmtree(out, ignore_errors=True)
    c0 = _cpu()
    t0 = time.perf_counter()
    result = run_batch([str(folder)], str(out), [fmts], jobs=jobs)
    dt = time.perf_counter() - t0
    cpu = _cpu() - c0
    n = len(result.records)
    if result.count("failed"):
        raise SystemExit(f"{result.count('failed')} boards failed: {result.records[0]['error']}")
    shutil.rmtree(out, ignore_errors=True)
    return label, fmts, jobs, n, dt, n / dt, result.files_written / dt, cpu, n / cpu


def main(argv=None) -> int:
    """Run the benchmark and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=2000, help="boards without the total (default 2000)")
    ap.add_argument("--total-boards", type=int, default=200,
                    help="boards that state the total mine count (default 200; 0 to skip)")
    ap.add_argument("--jobs", default="1,2", help="worker counts to try (default 1,2)")
    ap.add_argument("--formats", nargs="+", default=["native", "cnf", "lp", "cnf,lp"],
                    help="format lists to try (default: native cnf lp cnf,lp; native shows the batch overhead)")
    ap.add_argument("--inputs", default="native",
                    help="input notations to try, comma-separated (default native; e.g. native,json)")
    ap.add_argument("--out", help="folder for inputs and outputs (default: a temp folder, removed after)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_batch")
    jobs = [int(j) for j in args.jobs.split(",")]
    root = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="mineconv-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    single = sorted({f for spec in args.formats for f in spec.split(",") if f})
    for name in single:
        get_format(name, direction="write")
    try:
        print(f"# mineconv batch benchmark: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
              f"(other processes share the cores), outputs under {root}")
        print(f"# parallel headroom now: 2 processes run {parallel_headroom():.2f}x as fast as one\n")
        rows = []
        for notation in args.inputs.split(","):
            plain = root / f"in-{notation}"
            gen = make_boards(plain, args.boards, with_total=False, notation=notation)
            print(f"generated {args.boards} expert game boards ({notation}) in {gen:.2f} s")
            print("one board, one process (microseconds):")
            for what, us in stage_costs(plain, single, notation):
                print(f"  {what:<16} {us:>10.0f}")
            rows += [run(plain, root, fmts, j, f"{notation}") for fmts in args.formats for j in jobs]
        if args.total_boards:
            stated = root / "in-total"
            make_boards(stated, args.total_boards, with_total=True)
            print("one board that states the total (microseconds):")
            for what, us in stage_costs(stated, [f for f in single if f != "native"], sample=50):
                print(f"  {what:<16} {us:>10.0f}")
            rows += [run(stated, root, fmts, j, "native+total") for fmts in args.formats if fmts != "native"
                     for j in jobs]
        print()
        print(f"| {'input':<12} | {'formats':<12} | {'-j':>2} | {'count':>6} | {'seconds':>8} | {'boards/s':>9} "
              f"| {'files/s':>8} | {'CPU s':>7} | {'boards/CPU s':>12} |")
        print(f"|{'-' * 14}|{'-' * 14}|{'-' * 4}|{'-' * 8}|{'-' * 10}|{'-' * 11}|{'-' * 10}|{'-' * 9}|{'-' * 14}|")
        for label, fmts, j, n, dt, bps, fps, cpu, bpc in rows:
            print(f"| {label:<12} | {fmts:<12} | {j:>2} | {n:>6} | {dt:>8.2f} | {bps:>9.0f} | {fps:>8.0f} "
                  f"| {cpu:>7.2f} | {bpc:>12.0f} |")
            rec.record("boards per CPU second", bpc, "boards/s", case={"input": label, "formats": fmts, "jobs": j},
                       boards=n, seconds=dt, boards_per_second=bps, files_per_second=fps, cpu_seconds=cpu)
    finally:
        if not args.out:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
