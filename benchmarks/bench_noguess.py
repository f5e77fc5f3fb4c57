"""No-guess expert boards: mineconv (repaired and --uniform) against ms-toollib's laymine_solvable, in one run.

    python benchmarks/bench_noguess.py                        # 16x30 with 99 and with 130 mines
    python benchmarks/bench_noguess.py --mines 99 --count 200 --max-times 100000

For each board size and generator the table gives boards per CPU second (CPU time of the process that
generated them, so other jobs on the machine weigh less than in wall time), the success rate (calls that
returned a board within their bound: mineconv's 1000 repaired layouts or 100,000 uniform ones, ms-toollib's
--max-times), and how many returned boards mineconv's replay (full reasoning with the total,
mineconv.make.noguess.replay) clears from the first click. ms-toollib runs in a child process, one per
board size, right after mineconv's rows, and reports its own CPU time; it is `pip install ms_toollib` (no
extra of pyproject installs it: without it its rows are left out). mineconv's rows also give the mean
fresh layouts per board (with --uniform: layouts drawn until one needed no guess).
"""
from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mineconv.core.errors import MineconvError  # noqa: E402
from mineconv.make.noguess import no_guess_layout, replay  # noqa: E402

import harness  # noqa: E402

PEER = """
import json, sys, time
import ms_toollib
rows, cols, mines, r0, c0, count, max_times = map(int, sys.argv[1:8])
boards = []
began = time.process_time()
for _ in range(count):
    board, ok = ms_toollib.laymine_solvable(rows, cols, mines, r0, c0, max_times)
    if ok:
        boards.append([[v == -1 for v in row] for row in board])
print(json.dumps({"cpu": time.process_time() - began, "boards": boards}))
"""


def run_mineconv(rows: int, cols: int, mines: int, count: int, seed: int, uniform: bool, timeout: Optional[float]
                 ) -> Dict[str, float]:
    """Generate `count` boards with mineconv in this process; CPU seconds and outcome counts."""
    start = (rows // 2, cols // 2)
    ok = layouts = 0
    boards: List[np.ndarray] = []
    began = time.process_time()
    for i in range(count):
        try:
            layout = no_guess_layout(rows, cols, mines, start, seed=seed + i, uniform=uniform, timeout=timeout,
                                     any_density=True)
        except MineconvError:
            continue
        ok += 1
        layouts += layout.layouts
        boards.append(layout.mines)
    cpu = time.process_time() - began
    cleared = sum(replay(b, start).cleared for b in boards)
    return {"cpu": cpu, "ok": ok, "cleared": cleared, "layouts": layouts / max(ok, 1)}


def run_mstoollib(rows: int, cols: int, mines: int, count: int, max_times: int) -> Dict[str, float]:
    """Generate `count` boards with ms_toollib.laymine_solvable in a child process; its CPU seconds and outcomes."""
    start = (rows // 2, cols // 2)
    out = subprocess.run([sys.executable, "-c", PEER, *map(str, (rows, cols, mines, *start, count, max_times))],
                         check=True, capture_output=True, text=True).stdout
    got = json.loads(out)
    boards = [np.array(b, dtype=bool) for b in got["boards"]]
    cleared = sum(replay(b, start).cleared for b in boards)
    return {"cpu": got["cpu"], "ok": len(boards), "cleared": cleared}


def table(rows: int, cols: int, mines: int, count: int, uniform_count: int, args: argparse.Namespace,
          version: Optional[str], rec: harness.Recorder) -> List[str]:
    """The markdown rows of one board size: mineconv repaired, mineconv --uniform, ms-toollib (each recorded)."""
    results: List[Tuple[str, Dict[str, float], int]] = [
        ("mineconv (repaired)", run_mineconv(rows, cols, mines, count, args.seed, False, args.timeout), count),
        ("mineconv --uniform", run_mineconv(rows, cols, mines, uniform_count, args.seed, True, args.timeout),
         uniform_count)]
    if version is not None:
        max_times = args.max_times if args.max_times else (100000 if mines < 120 else 20000)
        results.append((f"ms-toollib {version} laymine_solvable, max_times={max_times}",
                        run_mstoollib(rows, cols, mines, count, max_times), count))
    lines = []
    for name, r, calls in results:
        rate = r["ok"] / r["cpu"] if r["cpu"] else float("inf")
        layouts = f"{r['layouts']:.1f}" if "layouts" in r else "-"
        lines.append(f"| {rows}x{cols}/{mines} | {name} | {rate:.1f} | {100 * r['ok'] / calls:.0f}% of {calls} "
                     f"| {int(r['cleared'])}/{int(r['ok'])} | {layouts} | {r['cpu']:.2f} |")
        side = "ms-toollib" if name.startswith("ms-toollib") else name.replace(" (repaired)", "")
        rec.record("boards per CPU second", rate, "boards/s", side, {"board": f"{rows}x{cols}/{mines}"},
                   generator=name, tried=calls, made=r["ok"], cleared=r["cleared"], cpu_seconds=r["cpu"],
                   layouts_per_board=r.get("layouts"))
    return lines


def main(argv: Optional[List[str]] = None) -> int:
    """Run the three generators at each mine count and print one table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--cols", type=int, default=30)
    ap.add_argument("--mines", default="99,130", help="mine counts, comma-separated (default 99,130)")
    ap.add_argument("--count", default="60,20", help="boards per generator for each mine count (default 60,20)")
    ap.add_argument("--uniform-count", default="60,5",
                    help="boards of mineconv --uniform for each mine count (default 60,5: at 130 mines about 1 "
                         "uniform layout in 5000 needs no guess)")
    ap.add_argument("--seed", type=int, default=1000, help="mineconv's board i gets seed S+i (default 1000)")
    ap.add_argument("--timeout", type=float, default=None, help="mineconv's --timeout per board")
    ap.add_argument("--max-times", type=int, default=0,
                    help="ms-toollib's bound on raw layouts per call (default 100000 below 120 mines, else 20000)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    rec = harness.recorder(args, "bench_noguess", peers=["ms_toollib"])
    mines = [int(m) for m in args.mines.split(",")]
    counts = [int(c) for c in args.count.split(",")]
    counts += [counts[-1]] * (len(mines) - len(counts))
    uniform_counts = [int(c) for c in args.uniform_count.split(",")]
    uniform_counts += [uniform_counts[-1]] * (len(mines) - len(uniform_counts))
    try:
        from importlib.metadata import version as dist_version

        import ms_toollib  # noqa: F401
        version: Optional[str] = dist_version("ms_toollib")
    except ImportError:
        version = None
        print("ms_toollib is not installed (pip install ms_toollib): its rows are left out", file=sys.stderr)
    print(f"first click at the centre; Python {platform.python_version()}, {platform.machine()}")
    print()
    print("| board | generator | boards per CPU s | success | cleared by mineconv's replay | layouts/board | CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for m, count, uniform_count in zip(mines, counts, uniform_counts):
        for line in table(args.rows, args.cols, m, count, uniform_count, args, version, rec):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
