"""Exact analysis of small game positions: mineconv.analyze against ms-toollib, side by side in one run.

    python benchmarks/bench_small.py                      # 15 positions each at 9x9/10, 16x16/40, 30x16/99
    python benchmarks/bench_small.py --positions 5 --calls 20
    python benchmarks/bench_small.py --before /path/to/other/venv/bin/python   # an older mineconv too

Issue 24, target 1: `mineconv.analyze(puzzle)` with the total mine count, probabilities included, must
take at most ms-toollib's `cal_probability_onboard` on the same boards, median per board size. A timed
mineconv call is `analyze(puzzle).probability_grid`: the analysis, then its probabilities as floats by row,
which is what the peer's call returns (`--analyze-only` times the analysis alone, whose exact counts the
probabilities are divided from). Positions come from playing a random game with a fixed seed: open a random safe cell, which
shows its count or, on a zero, flood-fills its zero region, until a random share (10-80%) of the safe
cells is open; what the player sees then is the board.

Each board's time is the best of --rounds rounds of --calls calls (the per-call mean of a round), in CPU
seconds of the process (--clock wall for wall-clock time): on a machine shared with other work, wall
time mostly measures the waiting, and the best round is the one disturbed least. The two sides' rounds
alternate, board by board (ms-toollib's round, mineconv's, ms-toollib's, ...): timed one side after the
other, the peer's best round of the same board moved by up to 1.7x from one run to the next as the load
changed, which no best-of-rounds removes (--batched times them that way still). The defaults are 15 rounds
of 20 calls: with 3 rounds of 10 the peer's own median moved by 1.9x between runs on this machine, whose speed
changes within seconds; with 15 of 20, three runs stayed within 15% (about a minute a run). Both sides are single
threaded (ms-toollib's CPU time stays below its wall time). mineconv runs in this
process; ms-toollib runs in a child process (it aborts the whole process on some inputs), which times its
calls the same way and prints them with its probabilities, one board per line. The probabilities of both
must agree to 1e-9 on every unknown cell, or the run fails. --before PYTHON times another installation's
mineconv in a child the same way (the "before" column), after ms-toollib and this one, per size.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

import harness

SIZES = ((9, 9, 10), (16, 16, 40), (16, 30, 99))   # rows, columns, mines: beginner, intermediate, expert

Board = Tuple[int, int, int, str]   # rows, columns, mines, the cells as mineconv's '?'/'0'-'8' string


def game_position(rows: int, cols: int, mines: int, seed: int) -> Board:
    """A board met mid-game: random safe cells opened (zeros flood-filled) until a random share is open."""
    rng = np.random.default_rng([seed, rows, cols, mines])
    mine = np.zeros(rows * cols, dtype=bool)
    mine[rng.choice(rows * cols, size=mines, replace=False)] = True
    mine = mine.reshape(rows, cols)
    pad = np.zeros((rows + 2, cols + 2), dtype=np.int8)
    pad[1:-1, 1:-1] = mine
    count = sum(pad[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    shown = np.zeros((rows, cols), dtype=bool)
    target = rng.uniform(0.1, 0.8) * (rows * cols - mines)
    while shown.sum() < target:
        stack = [divmod(int(rng.choice(np.flatnonzero(~shown & ~mine))), cols)]
        while stack:
            r, c = stack.pop()
            if shown[r, c]:
                continue
            shown[r, c] = True
            if count[r, c] == 0:
                stack.extend((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if 0 <= r + dr < rows and 0 <= c + dc < cols and not shown[r + dr, c + dc])
    cells = "".join(str(int(count[r, c])) if shown[r, c] else "?" for r in range(rows) for c in range(cols))
    return rows, cols, mines, cells


CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
clock = time.process_time
# what a timed mineconv call does: analyze and read the probabilities as floats by row (what ms-toollib's
# call returns), or analyze alone (--analyze-only, the measure of the tables dated before 2026-11-26)
READ_GRID = True


def best_time(call, calls: int, rounds: int) -> float:
    """Seconds per call: the best of `rounds` rounds of `calls` calls."""
    return harness.time_call(call, rounds, calls, "cpu" if clock is time.process_time else "wall").min


def time_mineconv(board: Board, calls: int, rounds: int, want: bool = True) -> Tuple[float, List[Optional[float]]]:
    """(seconds per call, the probability of each cell row-major, None off the unknown cells)."""
    from mineconv import Puzzle, analyze
    from mineconv.analysis import quick

    # the calls repeat one board, where a caller's boards are new: no call reuses the components the one
    # before counted (quick's cache of them is off; the peer keeps nothing between calls either)
    quick.COMPONENT_CACHE = 0
    rows, cols, mines, cells = board
    puzzle = Puzzle(rows, cols, cells, mines=mines)
    if READ_GRID:
        seconds = best_time(lambda: analyze(puzzle).probability_grid, calls, rounds)
    else:
        seconds = best_time(lambda: analyze(puzzle), calls, rounds)
    if not want:
        return seconds, []
    a = analyze(puzzle)
    probs: List[Optional[float]] = [None] * (rows * cols)
    for (r, c), p in zip(a.system.var_rc.tolist(), a.probabilities or ()):
        probs[r * cols + c] = float(p)
    return seconds, probs


def time_toollib(board: Board, calls: int, rounds: int, want: bool = True) -> Tuple[float, List[Optional[float]]]:
    """The same for ms-toollib (10 an unknown cell, 0-8 a count); its probabilities off the unknowns dropped."""
    import ms_toollib

    rows, cols, mines, cells = board
    grid = [[10 if ch == "?" else int(ch) for ch in cells[r * cols:(r + 1) * cols]] for r in range(rows)]
    seconds = best_time(lambda: ms_toollib.cal_probability_onboard(grid, mines), calls, rounds)
    if not want:
        return seconds, []
    table = ms_toollib.cal_probability_onboard(grid, mines)[0]
    return seconds, [float(table[i // cols][i % cols]) if ch == "?" else None for i, ch in enumerate(cells)]


def child(which: str, calls: int, rounds: int) -> int:
    """Child mode: boards as JSON lines on stdin, one JSON line per board on stdout (seconds, probabilities).
    With --interleave, a line is [board, calls, want probabilities] and the answer is one round's time."""
    timer = time_toollib if which == "toollib" else time_mineconv
    for line in sys.stdin:
        request = json.loads(line)
        if isinstance(request[-1], bool):   # one round, interleaved with the parent's
            board, n, want = request
            seconds, probs = timer(tuple(board), n, 1, want)   # type: ignore[arg-type]
        else:
            seconds, probs = timer(tuple(request), calls, rounds)   # type: ignore[arg-type]
        print(json.dumps([seconds, probs]), flush=True)
    return 0


def in_child(python: str, which: str, boards: Sequence[Board], calls: int,
             rounds: int) -> List[Optional[Tuple[float, List[Optional[float]]]]]:
    """Run boards in child processes, one after the other; a board that kills its child gives None."""
    out: List[Optional[Tuple[float, List[Optional[float]]]]] = []
    while len(out) < len(boards):
        rest = boards[len(out):]
        proc = subprocess.run([python, __file__, "--child", which, "--calls", str(calls), "--rounds", str(rounds),
                               "--clock", "cpu" if clock is time.process_time else "wall"]
                              + ([] if READ_GRID else ["--analyze-only"]),
                              input="".join(json.dumps(b) + "\n" for b in rest), capture_output=True, text=True)
        done = [tuple(json.loads(line)) for line in proc.stdout.splitlines() if line.strip()]
        out.extend(done)   # type: ignore[arg-type]
        if len(done) < len(rest):
            out.append(None)   # the board the child died on
    return out


class Peer:
    """ms-toollib in a long-lived child process (harness.ChildPeer), asked for one round at a time."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.child = harness.ChildPeer([sys.executable, __file__, "--child", "toollib",
                                        "--clock", "cpu" if clock is time.process_time else "wall"])

    def round(self, board: Board, want: bool) -> Optional[Tuple[float, Optional[List[Optional[float]]]]]:
        """(seconds per call of one round, probabilities when wanted); None when the board kills the child."""
        answer = self.child.ask([board, self.calls, want])
        if answer is None:
            return None
        seconds, probs = answer
        return seconds, probs

    def close(self) -> None:
        """End the child."""
        self.child.close()


def interleaved(boards: Sequence[Board], calls: int, rounds: int) -> Tuple[
        List[Optional[Tuple[float, List[Optional[float]]]]], List[Tuple[float, List[Optional[float]]]]]:
    """Per board, ms-toollib's and mineconv's best round, their rounds taken in turn by harness.pair: peer,
    this, peer, ...; the probabilities are read in each side's first round."""
    peer = Peer(calls)
    probs: Dict[Tuple[str, int], List[Optional[float]]] = {}
    dead = set()   # the boards that killed ms-toollib: not asked again

    def peer_round(i: int) -> float:
        if i in dead:
            return float("inf")
        got = peer.round(boards[i], ("peer", i) not in probs)
        if got is None:
            dead.add(i)
            return float("inf")
        if got[1]:
            probs[("peer", i)] = got[1]
        return got[0]

    def our_round(i: int) -> float:
        seconds, got = time_mineconv(boards[i], calls, 1, ("ours", i) not in probs)
        if got:
            probs[("ours", i)] = got
        return seconds

    try:
        paired = harness.pair(range(len(boards)), {"ms-toollib": peer_round, "mineconv": our_round}, rounds)
    finally:
        peer.close()
    theirs = [None if p.case in dead else (p.sides["ms-toollib"].min, probs.get(("peer", p.case), []))
              for p in paired]
    return theirs, [(p.sides["mineconv"].min, probs[("ours", p.case)]) for p in paired]


def agree(a: List[Optional[float]], b: List[Optional[float]]) -> bool:
    """True when two probability lists have the same unknown cells and differ by at most 1e-9 on each."""
    return all((x is None) == (y is None) and (x is None or abs(x - y) <= 1e-9) for x, y in zip(a, b))  # type: ignore[operator]


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark and print the table; exit 1 when the probabilities disagree."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=15, help="positions per board size (default 15)")
    ap.add_argument("--calls", type=int, default=20, help="calls per round (default 20)")
    ap.add_argument("--rounds", type=int, default=15, help="rounds per board; the best counts (default 15)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--before", metavar="PYTHON", help="also time the mineconv this interpreter imports")
    ap.add_argument("--clock", choices=tuple(CLOCK), default="cpu", help="what a call's time is (default cpu)")
    ap.add_argument("--batched", action="store_true",
                    help="time all of ms-toollib's rounds, then all of mineconv's (before 2026-11-25: the default)")
    ap.add_argument("--analyze-only", action="store_true",
                    help="time mineconv's analyze() alone, not reading its probabilities (before 2026-11-26: "
                         "the default)")
    ap.add_argument("--child", choices=("toollib", "mineconv"), help=argparse.SUPPRESS)
    harness.add_options(ap)
    args = ap.parse_args(argv)
    global clock, READ_GRID
    clock = CLOCK[args.clock]
    READ_GRID = not args.analyze_only
    if args.child:
        return child(args.child, args.calls, args.rounds)
    rec = harness.recorder(args, "bench_small", peers=["ms_toollib"])
    print(f"{'board':<10} {'positions':>9} {'ms-toollib ms':>13} {'mineconv ms':>11} {'ratio':>6}"
          + (f" {'before ms':>9}" if args.before else "") + "  probabilities")
    ok = True
    for rows, cols, mines in SIZES:
        boards = [game_position(rows, cols, mines, args.seed + i) for i in range(args.positions)]
        if args.batched:
            peer = in_child(sys.executable, "toollib", boards, args.calls, args.rounds)
            ours = [time_mineconv(b, args.calls, args.rounds) for b in boards]
        else:
            peer, ours = interleaved(boards, args.calls, args.rounds)
        before = in_child(args.before, "mineconv", boards, args.calls, args.rounds) if args.before else []
        same = sum(1 for p, o in zip(peer, ours) if p is not None and agree(p[1], o[1]))
        compared = sum(1 for p in peer if p is not None)
        ok = ok and same == compared
        med: Dict[str, float] = {
            "peer": statistics.median(p[0] for p in peer if p is not None) * 1e3,
            "ours": statistics.median(o[0] for o in ours) * 1e3}
        line = (f"{f'{cols}x{rows}/{mines}':<10} {len(boards):>9} {med['peer']:>13.3f} {med['ours']:>11.3f} "
                f"{med['ours'] / med['peer']:>6.2f}")
        if args.before:
            line += f" {statistics.median(b[0] for b in before if b is not None) * 1e3:>9.3f}"
        print(line + f"  {same}/{compared} agree" + ("" if compared == len(boards) else
                                                      f" ({len(boards) - compared} killed ms-toollib)"))
        case = {"board": f"{cols}x{rows}/{mines}"}
        sides = [("mineconv", ours), ("ms-toollib", peer)] + ([("mineconv before", before)] if args.before else [])
        for side, got in sides:
            times = harness.spread(g[0] * 1e3 for g in got if g is not None)
            rec.record("ms per call", times.median, "ms", side, case, times, positions=len(boards),
                       agree=f"{same}/{compared}", clock=args.clock, calls=args.calls, rounds=args.rounds,
                       read_grid=READ_GRID)
        sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
