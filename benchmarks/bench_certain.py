"""The certain cells of small game positions without the total: mineconv.analyze against ms-toollib's
`get_all_not_and_is_mine_on_board`, side by side in one run (issue 37's speed bullet).

    python benchmarks/bench_certain.py                      # 60 positions each at 9x9/10, 16x16/40, 30x16/99
    python benchmarks/bench_certain.py --positions 15 --rounds 5

A timed mineconv call is `analyze(puzzle)` on the position without its mine total, then its `safe_cells`
and `mine_cells` (the cells no solution mines, and those every one does); ms-toollib's is
`get_all_not_and_is_mine_on_board(grid)`, which returns the same two lists. The positions are
bench_small.py's (a random game with a fixed seed, played until a random share of the safe cells is open),
and so is the clock: per board the best of --rounds rounds of --calls calls, in CPU seconds, the two sides'
rounds alternating (ms-toollib in a child process, which some inputs abort). Where the two sides' cells
differ, ms-toollib's must be among mineconv's and mineconv's must be those of its general path (propagation
and the SAT backbone, no quick path), or the run fails (exit 1): on expert positions ms-toollib's call misses
some certain mines that the general path proves (the "more" column).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from typing import List, Optional, Set, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_small import SIZES, Board, best_time, game_position  # noqa: E402

import harness  # noqa: E402

Cells = Tuple[List[List[int]], List[List[int]]]   # safe, mines: [row, col] each, sorted


def mineconv_round(board: Board, calls: int) -> Tuple[float, Cells]:
    """One round of mineconv's calls: (seconds per call, its certain cells)."""
    from mineconv import Puzzle, analyze
    from mineconv.analysis import quick

    quick.COMPONENT_CACHE = 0   # as in bench_small: the calls repeat one board, none reuses the one before's
    rows, cols, _, cells = board
    puzzle = Puzzle(rows, cols, cells)

    def call():
        a = analyze(puzzle)
        return a.safe_cells, a.mine_cells
    seconds = best_time(call, calls, 1)
    safe, mines = call()
    return seconds, (sorted(map(list, safe)), sorted(map(list, mines)))


def toollib_round(board: Board, calls: int) -> Tuple[float, Cells]:
    """The same for ms-toollib (10 an unknown cell, 0-8 a count)."""
    import ms_toollib

    rows, cols, _, cells = board
    grid = [[10 if ch == "?" else int(ch) for ch in cells[r * cols:(r + 1) * cols]] for r in range(rows)]
    seconds = best_time(lambda: ms_toollib.get_all_not_and_is_mine_on_board(grid), calls, 1)
    _, safe, mines = ms_toollib.get_all_not_and_is_mine_on_board(grid)
    return seconds, (sorted(map(list, safe)), sorted(map(list, mines)))


def child() -> int:
    """Child mode: [board, calls] JSON lines on stdin, [seconds, cells] lines out (ms-toollib's round)."""
    for line in sys.stdin:
        board, calls = json.loads(line)
        print(json.dumps(toollib_round(tuple(board), calls)), flush=True)   # type: ignore[arg-type]
    return 0


class Peer:
    """ms-toollib in a child process, one round per request; restarted when a board kills it."""

    def __init__(self) -> None:
        self.child = harness.ChildPeer([sys.executable, os.path.abspath(__file__), "--child"])

    def round(self, board: Board, calls: int) -> Optional[Tuple[float, Cells]]:
        """(seconds per call, its certain cells); None when the board kills the child."""
        answer = self.child.ask([board, calls])
        if answer is None:
            return None
        seconds, cells = answer
        return seconds, (cells[0], cells[1])

    def close(self) -> None:
        """End the child."""
        self.child.close()


def as_set(cells: List[List[int]]) -> Set[Tuple[int, int]]:
    """[[row, col], ...] as a set of tuples."""
    return {(r, c) for r, c in cells}


def proven_more(board: Board, peer: Cells, ours: Cells) -> bool:
    """True when mineconv finds every cell ms-toollib does, and the general path (no quick path) finds
    mineconv's cells too."""
    from mineconv import Puzzle, analyze

    rows, cols, _, cells = board
    general = analyze(Puzzle(rows, cols, cells), progress=lambda *_: None)
    return (all(as_set(p) <= as_set(o) for p, o in zip(peer, ours))
            and (as_set(ours[0]), as_set(ours[1])) == (set(general.safe_cells), set(general.mine_cells)))


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark and print the table; exit 1 when the certain cells differ."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60, help="positions per board size (default 60)")
    ap.add_argument("--calls", type=int, default=20, help="calls per round (default 20)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds per board; the best counts (default 7)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    harness.add_options(ap)
    args = ap.parse_args(argv)
    if args.child:
        return child()
    rec = harness.recorder(args, "bench_certain", peers=["ms_toollib"])
    print(f"{'board':<10} {'positions':>9} {'ms-toollib ms':>13} {'mineconv ms':>11} {'ratio':>6}  certain cells")
    ok = True
    peer = Peer()
    try:
        for rows, cols, mines in SIZES:
            theirs: List[float] = []
            ours: List[float] = []
            same = more = compared = 0
            for i in range(args.positions):
                board = game_position(rows, cols, mines, args.seed + i)
                best_peer: Optional[float] = float("inf")
                best_ours = float("inf")
                peer_cells: Optional[Cells] = None
                our_cells: Optional[Cells] = None
                for _ in range(args.rounds):
                    got = peer.round(board, args.calls) if best_peer is not None else None
                    if got is None:
                        best_peer = None
                    else:
                        best_peer = min(best_peer, got[0])   # type: ignore[type-var]
                        peer_cells = got[1]
                    seconds, our_cells = mineconv_round(board, args.calls)
                    best_ours = min(best_ours, seconds)
                ours.append(best_ours)
                if best_peer is not None and peer_cells is not None and our_cells is not None:
                    theirs.append(best_peer)
                    compared += 1
                    if all(as_set(a) == as_set(b) for a, b in zip(peer_cells, our_cells)):
                        same += 1
                    elif proven_more(board, peer_cells, our_cells):
                        more += 1
            ok = ok and same + more == compared
            peer_ms, our_ms = statistics.median(theirs) * 1e3, statistics.median(ours) * 1e3
            print(f"{f'{cols}x{rows}/{mines}':<10} {args.positions:>9} {peer_ms:>13.3f} {our_ms:>11.3f} "
                  f"{our_ms / peer_ms:>6.2f}  {same}/{compared} the same"
                  + (f", {more} where mineconv proves more (its general path agrees)" if more else "")
                  + ("" if compared == args.positions else f" ({args.positions - compared} killed ms-toollib)"))
            sys.stdout.flush()
            case = {"board": f"{cols}x{rows}/{mines}", "positions": args.positions, "calls": args.calls,
                    "rounds": args.rounds, "seed": args.seed}
            rec.record("ms per call", our_ms, "ms", harness.US, case, harness.spread(t * 1e3 for t in ours),
                       same=same, more=more, compared=compared)
            rec.record("ms per call", peer_ms, "ms", "ms-toollib", case, harness.spread(t * 1e3 for t in theirs))
    finally:
        peer.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
