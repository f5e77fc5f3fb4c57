"""The engine's own small game loop, for measuring ideas while the engine grows (make/'s simulator and
bench_play.py are the real measure): deals layouts with numpy's seeded generator, plays `advise` and the
baseline (lowest P(mine), first in row order) on the same seeds, and prints the paired result.

    python benchmarks/engine_trials.py --board 16x30/99 --games 2000 --seed 1
    python benchmarks/engine_trials.py --board 9x9/10 --rule sfar --games 400 --only engine
    python benchmarks/engine_trials.py --only engine --set guess.MARGIN=0.03 --out idea.txt   # then, on the
    python benchmarks/engine_trials.py --compare idea.txt engine.txt   # same games: the paired difference

Rules as issue 37: SNR keeps the first click and its 8 neighbours mine-free (first click (3, 3) on 16x30,
(2, 2) otherwise), SFAR only the first click, at (0, 0); zero cells open their neighbours; a game is won
when every safe cell is open. Proven-safe cells are all opened at once (order cannot matter: they are safe).
"""
from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import mineconv
from mineconv.analysis.advice.position import count_puzzle, safe_and_mines
from mineconv.analysis.advice.guess import lowest_risk

import harness

Strategy = Callable[[mineconv.Puzzle], Tuple[List[int], Optional[int]]]


def deal(rows: int, cols: int, mines: int, first: Tuple[int, int], rule: str, seed: int, game: int) -> np.ndarray:
    """A mine layout (bool rows x cols) for one game, from (seed, game) alone."""
    rng = np.random.default_rng([seed, game])
    r0, c0 = first
    banned = np.zeros((rows, cols), dtype=bool)
    if rule == "snr":
        banned[max(r0 - 1, 0):r0 + 2, max(c0 - 1, 0):c0 + 2] = True
    else:
        banned[r0, c0] = True
    free = np.flatnonzero(~banned.ravel())
    layout = np.zeros(rows * cols, dtype=bool)
    layout[rng.choice(free, size=mines, replace=False)] = True
    return layout.reshape(rows, cols)


def play(layout: np.ndarray, first: Tuple[int, int], total: int, strategy: Strategy) -> bool:
    """One game: True when won."""
    rows, cols = layout.shape
    counts = mineconv.core.puzzle.neighbour_count(layout).ravel().tolist()
    mine = layout.ravel().tolist()
    view = bytearray(b"?" * (rows * cols))
    to_win = rows * cols - total

    def open_cell(i: int) -> int:
        stack, opened = [i], 0
        while stack:
            j = stack.pop()
            if view[j] != 63:   # '?'
                continue
            view[j] = 48 + counts[j]
            opened += 1
            if counts[j] == 0:
                r, c = divmod(j, cols)
                stack.extend(rr * cols + cc for rr in range(max(r - 1, 0), min(r + 2, rows))
                             for cc in range(max(c - 1, 0), min(c + 2, cols)))
        return opened

    opened = open_cell(first[0] * cols + first[1])
    while opened < to_win:
        safe, move = strategy(mineconv.Puzzle(rows, cols, view.decode(), mines=total))
        if safe:
            for i in safe:
                opened += open_cell(i)
            continue
        assert move is not None
        if mine[move]:
            return False
        opened += open_cell(move)
    return True


def baseline(puzzle: mineconv.Puzzle) -> Tuple[List[int], Optional[int]]:
    """Lowest P(mine), first in row order."""
    counted = count_puzzle(puzzle)
    safe, _ = safe_and_mines(counted)
    if safe:
        return safe, None
    best = lowest_risk(counted)
    return [], None if best is None else best[0]


def engine(puzzle: mineconv.Puzzle) -> Tuple[List[int], Optional[int]]:
    """mineconv.advise."""
    advice = mineconv.advise(puzzle)
    cols = puzzle.cols
    if advice.p_mine == 0.0 and advice.safe:
        return [r * cols + c for r, c in advice.safe], None
    assert advice.move is not None
    return [], advice.move[0] * cols + advice.move[1]


def interval(wins: int, games: int) -> str:
    """The win rate with its 95% (normal) interval."""
    p = wins / games
    return f"{100 * p:.2f}% +- {196 * math.sqrt(p * (1 - p) / games):.2f}% ({wins}/{games})"


def read_results(paths: List[str]) -> Tuple[Dict[int, str], float]:
    """The results of --out files written with --only, by game number ('1' won, '0' lost), and the games
    per CPU-second they took (nan when a file does not say; a file without its first game starts at 0)."""
    played: Dict[int, str] = {}
    seconds, counted = 0.0, 0
    for path in paths:
        with open(path) as f:
            words = f.read().split()
        if len(words) not in (2, 3, 4):
            raise SystemExit(f"{path}: expected one player's line (a run with --only)")
        start = int(words[3]) if len(words) == 4 else 0
        played.update((start + k, won) for k, won in enumerate(words[1]))
        if len(words) >= 3 and not math.isnan(float(words[2])):
            seconds, counted = seconds + float(words[2]), counted + len(words[1])
    return played, counted / seconds if seconds else float("nan")


def compare(first: List[str], second: List[str]) -> str:
    """The paired difference of two players on the games both played (by game number): each side's --out
    files of --only runs; each one's wins, the games won by one alone, and the difference with its 95%
    (normal) interval, then each side's games per CPU-second."""
    (a, speed_a), (b, speed_b) = read_results(first), read_results(second)
    games = sorted(a.keys() & b.keys())
    if not games:
        raise SystemExit("the two sides played no game in common")
    n = len(games)
    only_a = sum(a[g] == "1" and b[g] == "0" for g in games)
    only_b = sum(a[g] == "0" and b[g] == "1" for g in games)
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) / n
    won_a, won_b = sum(a[g] == "1" for g in games), sum(b[g] == "1" for g in games)
    return (f"{n} games: first {interval(won_a, n)}; second {interval(won_b, n)}; first - second: "
            f"{100 * d:+.2f}% +- {196 * math.sqrt(var):.2f}% (won alone: {only_a} / {only_b}); games per CPU-second "
            f"{speed_a:.1f} / {speed_b:.1f}")


def main(argv: Optional[List[str]] = None) -> None:
    """Play the games and print the paired result."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="16x30/99")
    ap.add_argument("--rule", choices=("snr", "sfar"), default="snr")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first game number (to split a run in parts)")
    ap.add_argument("--only", choices=("engine", "baseline", "both"), default="both")
    ap.add_argument("--out", help="write each game's result (1 won, 0 lost) per player, one line each")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="try a value of one of the engine's constants (guess.MARGIN=0.03)")
    harness.add_options(ap)
    ap.add_argument("--compare", nargs=2, metavar="FILES",
                    help="print the paired difference of two sides' --out files (comma-separated lists), game by game, "
                         "and stop")
    args = ap.parse_args(argv)
    if args.compare:
        print(compare(args.compare[0].split(","), args.compare[1].split(",")))
        return
    for item in args.set:
        name, value = item.split("=")
        module, attr = name.rsplit(".", 1)
        number = int(value) if value.lstrip("-").isdigit() else float(value)   # a count stays an int
        setattr(importlib.import_module(f"mineconv.analysis.advice.{module}"), attr, number)
    size, mines = args.board.split("/")
    rows, cols = map(int, size.split("x"))
    total = int(mines)
    first = (0, 0) if args.rule == "sfar" else (3, 3) if (rows, cols) == (16, 30) else (2, 2)
    players = {"engine": engine, "baseline": baseline}
    names = list(players) if args.only == "both" else [args.only]
    wins = {name: 0 for name in names}
    clock = {name: 0.0 for name in names}
    only_one = {name: 0 for name in names}   # games this player won and the other lost
    results: dict = {name: [] for name in names}
    for g in range(args.start, args.start + args.games):
        layout = deal(rows, cols, total, first, args.rule, args.seed, g)
        won = {}
        for name in names:
            t = time.process_time()
            won[name] = play(layout, first, total, players[name])
            clock[name] += time.process_time() - t
            wins[name] += won[name]
            results[name].append("1" if won[name] else "0")
        if args.out:   # game by game, so a run cut short keeps what it played
            with open(args.out, "w") as out:
                out.writelines(f"{name} {''.join(results[name])} {clock[name]:.3f} {args.start}\n" for name in names)
        for name in names:
            only_one[name] += won[name] and not all(won.values())
        if (g + 1) % 200 == 0:
            print(g + 1, {n: wins[n] for n in names}, file=sys.stderr, flush=True)
    for name in names:
        print(f"{name}: {interval(wins[name], args.games)}, {args.games / clock[name]:.0f} games per CPU-second"
              + (f", won alone {only_one[name]}" if len(names) > 1 else ""))
    record(harness.recorder(args, "engine_trials"), args, names, wins, clock, only_one)


def record(rec: harness.Recorder, args: argparse.Namespace, names: List[str], wins: dict, clock: dict,
           only_one: dict) -> None:
    """Each player's win rate and games per CPU-second (the stamp is taken when the games are over)."""
    case = {"board": args.board, "rule": args.rule, "seed": args.seed, "start": args.start, "set": args.set}
    for name in names:
        side = f"{harness.US} {name}"
        rec.record("win rate", wins[name] / args.games, "share", side, case, games=args.games, wins=wins[name],
                   won_alone=only_one[name] if len(names) > 1 else None)
        rec.record("games per CPU-second", args.games / clock[name], "games/s", side, case, cpu_seconds=clock[name])


if __name__ == "__main__":
    main()
