"""No-guess expert boards: mineconv's generator against ms-toollib's laymine_solvable, side by side in one run.

    python benchmarks/bench_noguess.py                         # 100 expert boards (16x30, 99 mines) each
    python benchmarks/bench_noguess.py --count 300 --mines 120 --max-times 1000

For each generator the table gives boards per second (wall time over --count calls, first click at the
centre), the success rate (calls that returned a no-guess board within their bound: mineconv's 1000 fresh
layouts, ms-toollib's --max-times), and how many of the returned boards mineconv's own replay (full
reasoning with the total, mineconv.make.noguess.replay) clears from the first click. A third row runs
ms-toollib with max_times=1: the share of raw layouts its solver accepts, which is what its screening
method pays for. mineconv's rows also give the mean number of local repairs per board and the share of
boards whose first random layout needed none. ms-toollib is `pip install ms_toollib` (no extra
of pyproject installs it: without it its rows are left out).
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mineconv.core.errors import MineconvError  # noqa: E402
from mineconv.make.noguess import no_guess_layout, replay  # noqa: E402


def run_mineconv(args: argparse.Namespace, start: Tuple[int, int]) -> Dict[str, float]:
    """Generate --count boards with mineconv; timing and outcome counts."""
    ok = cleared = repairs = first_try = 0
    began = time.perf_counter()
    boards: List[np.ndarray] = []
    for i in range(args.count):
        try:
            layout = no_guess_layout(args.rows, args.cols, args.mines, start, seed=args.seed + i)
        except MineconvError:
            continue
        ok += 1
        repairs += layout.repairs
        first_try += layout.layouts == 1 and layout.repairs == 0
        boards.append(layout.mines)
    seconds = time.perf_counter() - began
    cleared = sum(replay(b, start).cleared for b in boards)
    return {"seconds": seconds, "ok": ok, "cleared": cleared, "repairs": repairs / max(ok, 1),
            "first_try": first_try / max(ok, 1)}


def run_mstoollib(args: argparse.Namespace, start: Tuple[int, int], max_times: int) -> Dict[str, float]:
    """Generate --count boards with ms_toollib.laymine_solvable; timing and outcome counts."""
    import ms_toollib

    ok = 0
    boards: List[np.ndarray] = []
    began = time.perf_counter()
    for _ in range(args.count):
        board, success = ms_toollib.laymine_solvable(args.rows, args.cols, args.mines, start[0], start[1],
                                                     max_times)
        if success:
            ok += 1
            boards.append(np.array(board) == -1)
    seconds = time.perf_counter() - began
    cleared = sum(replay(b, start).cleared for b in boards)
    return {"seconds": seconds, "ok": ok, "cleared": cleared}


def main(argv: Optional[List[str]] = None) -> int:
    """Run both generators and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--cols", type=int, default=30)
    ap.add_argument("--mines", type=int, default=99)
    ap.add_argument("--count", type=int, default=100, help="boards per generator (default 100)")
    ap.add_argument("--seed", type=int, default=1000, help="mineconv's board i gets seed S+i (default 1000)")
    ap.add_argument("--max-times", type=int, default=100000,
                    help="ms-toollib's bound on raw layouts per call (default 100000, its own example's)")
    args = ap.parse_args(argv)
    start = (args.rows // 2, args.cols // 2)
    rows: List[Tuple[str, Dict[str, float]]] = [("mineconv (gac + SAT backbone, Tatham-style repair)",
                                                 run_mineconv(args, start))]
    try:
        import ms_toollib  # noqa: F401
        from importlib.metadata import version as dist_version
        version = dist_version("ms_toollib")
        rows.append((f"ms-toollib {version} laymine_solvable, max_times={args.max_times}",
                     run_mstoollib(args, start, args.max_times)))
        rows.append((f"ms-toollib {version} laymine_solvable, max_times=1 (raw layouts accepted)",
                     run_mstoollib(args, start, 1)))
    except ImportError:
        print("ms_toollib is not installed (pip install ms_toollib): its rows are left out", file=sys.stderr)
    print(f"{args.rows}x{args.cols}, {args.mines} mines, first click {start[0]},{start[1]}, {args.count} calls "
          f"each; Python {platform.python_version()}, {platform.machine()}")
    print()
    print("| generator | boards/s | success | cleared by mineconv's replay | repairs/board | no repair |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, r in rows:
        rate = r["ok"] / r["seconds"] if r["seconds"] else float("inf")
        extra = (f"{r['repairs']:.1f} | {100 * r['first_try']:.0f}%" if "repairs" in r else "- | -")
        print(f"| {name} | {rate:.1f} | {100 * r['ok'] / args.count:.1f}% | "
              f"{int(r['cleared'])}/{int(r['ok'])} | {extra} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
