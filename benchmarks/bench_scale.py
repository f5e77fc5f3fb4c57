#!/usr/bin/env python3
"""Scale: one big board converted to every writable format, with wall time and peak memory per conversion.

    python benchmarks/bench_scale.py                       # 1000x1000 and 4000x4000, every format
    python benchmarks/bench_scale.py --sizes 500,1000,2000 --formats cnf,lp

Each conversion is a fresh `python -m converters convert BOARD -o OUT --to FORMAT` process, exactly what a
user runs, so its time includes reading the board and its peak RSS is the whole process (measured by
wait4). CPU seconds (user + system) are shown beside wall seconds: on a machine shared with other work
they are the steadier figure. `info` is the baseline: starting Python, reading and validating the board.
The last columns divide the CPU time beyond that baseline (the encoding and writing) by the number of
cells: equal figures across sizes mean cost linear in cells.

Boards are game reveals at density 0.15 (about half the cells stay unknown) and state no total mine count:
a CNF with the total needs a cardinality encoding whose size grows with unknowns x mines, which on boards
this size does not fit in memory (use --total to measure it anyway, with --mem-limit as a guard).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mineconv.core.fileio import atomic_output  # noqa: E402
from mineconv.formats.notations.native import canonical_text  # noqa: E402
from mineconv.make.generate import random_puzzle  # noqa: E402
from mineconv.formats.registry import formats  # noqa: E402

import harness  # noqa: E402


def measure(argv: List[str], mem_limit: Optional[int], timeout: float) -> Tuple[float, float, float, int, str]:
    """Run a command; (wall seconds, CPU seconds, peak MiB, exit status, last stderr line)."""
    def limit() -> None:
        if mem_limit:
            resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            preexec_fn=limit)
    deadline = t0 + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    dt = time.perf_counter() - t0
    err = proc.stderr.read().decode("utf-8", "replace").strip().splitlines() if proc.stderr else []
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return dt, cpu, usage.ru_maxrss / 1024, proc.returncode, (err[-1] if err else "")


def main(argv=None) -> int:
    """Make the boards, convert each to every format, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,4000", help="board sides, comma-separated (default 1000,4000)")
    ap.add_argument("--formats", help="comma-separated formats (default: every writable one)")
    ap.add_argument("--density", type=float, default=0.15)
    ap.add_argument("--reveal", choices=("game", "full"), default="game")
    ap.add_argument("--total", action="store_true", help="state the total mine count on the boards")
    ap.add_argument("--mem-limit", type=float, default=8.0, help="GiB of address space per conversion (0: none)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per conversion")
    ap.add_argument("--out", help="working folder (default: a temp folder, removed after)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_scale")
    sizes = [int(s) for s in args.sizes.split(",")]
    names = args.formats.split(",") if args.formats else [f.name for f in formats() if f.writer]
    root = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="mineconv-scale-"))
    root.mkdir(parents=True, exist_ok=True)
    mem = int(args.mem_limit * 2 ** 30) if args.mem_limit else None
    results: Dict[Tuple[str, int], Tuple[float, float, float, int, str, int]] = {}
    print(f"# mineconv scale benchmark: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
          f"{args.reveal} reveal, density {args.density}, total {'stated' if args.total else 'not stated'}")
    try:
        for n in sizes:
            board = root / f"board-{n}.txt"
            t0 = time.perf_counter()
            p = random_puzzle(n, n, density=args.density, reveal=args.reveal, seed=n, with_total=args.total)
            t_gen = time.perf_counter() - t0
            with atomic_output(board, fsync=False) as out:
                out.write(canonical_text(p))
            print(f"{n}x{n}: generated in {t_gen:.1f} s, {p.unknown_count} unknown cells, "
                  f"{board.stat().st_size / 2 ** 20:.1f} MiB of text", flush=True)
            del p
            base = [sys.executable, "-m", "mineconv"]
            results[("(read only: info)", n)] = (*measure(base + ["info", str(board)], mem, args.timeout), 0)
            for name in names:
                target = root / f"out-{n}.{name}"
                dt, cpu, peak, code, err = measure(base + ["convert", str(board), "-o", str(target), "--to", name],
                                                   mem, args.timeout)
                size = target.stat().st_size if target.exists() else 0
                results[(name, n)] = (dt, cpu, peak, code, err, size)
                state = "" if code == 0 else f"  FAILED ({code}): {err[:100]}"
                print(f"  {name:<12} {dt:8.2f} s {cpu:8.2f} cpu s {peak:8.0f} MiB {size / 2 ** 20:9.1f} MiB out{state}",
                      flush=True)
                if target.exists():
                    target.unlink()
            board.unlink()
        print()
        head = "| format | " + " | ".join(f"{n}x{n} s | cpu s | peak MiB | out MiB" for n in sizes)
        head += " | " + " | ".join(f"write cpu ns/cell {n}" for n in sizes) + " |"
        print(head)
        print("|" + "---|" * (1 + 4 * len(sizes) + len(sizes)))
        for name in ["(read only: info)"] + names:
            cells = []
            per = []
            for n in sizes:
                dt, cpu, peak, code, err, size = results[(name, n)]
                if code != 0:
                    cells.append("failed | - | - | -")
                    per.append("-")
                else:
                    out_mib = f"{size / 2 ** 20:.0f}" if size else "-"
                    cells.append(f"{dt:.1f} | {cpu:.1f} | {peak:.0f} | {out_mib}")
                    base = results[("(read only: info)", n)][1] if name != "(read only: info)" else 0.0
                    per.append(f"{max(cpu - base, 0.0) / (n * n) * 1e9:.0f}")
            print(f"| {name} | " + " | ".join(cells) + " | " + " | ".join(per) + " |")
            for n in sizes:
                dt, cpu, peak, code, err, size = results[(name, n)]
                rec.record("CPU seconds", cpu if code == 0 else None, "s",
                           case={"format": name, "size": n, "reveal": args.reveal, "density": args.density,
                                 "total": args.total}, wall=dt, peak_mib=peak, exit=code, out_bytes=size)
        failed = [(k, v[4]) for k, v in results.items() if v[3] != 0]
        for (name, n), err in failed:
            print(f"note: {name} on {n}x{n} failed: {err}")
    finally:
        if not args.out:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
