"""Two installations of mineconv play the same games move for move: the check that a speed-up of the engine
changed no move, and a paired timing of the two (issue 37).

    python benchmarks/same_games.py --before ../old/bin/python --games 300            # expert SNR, seed 0
    python benchmarks/same_games.py --before ../old/bin/python --board 9x9/10 --games 300 --seed 3
    PYTHONPATH=../old python benchmarks/same_games.py --child 0,50   # one side alone: a JSON line per game

Each side plays in its own child process (this script run with --child by that side's interpreter and
environment: give --before-path to put a folder first on the older side's PYTHONPATH), game i dealt from
(--seed, i) by make/'s simulator with a fresh player (`--player`, default the engine at its default budget).
The games are played in chunks of --chunk, the two sides' chunks alternating (old, new, old, ...), so a
change of the machine's load hits both alike; each side's time is the CPU seconds its games took. Every
click of every game is compared; the run fails (exit 1) at the first game that differs, naming it.
--parts also prints, per side, the CPU milliseconds a game spends in the engine's three parts (the count of
each turn's position, the guess weigher's "what if" counts, the endgame search), timed around
analysis/advice/engine.py's count_cells, weigh and search in each child.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple


PARTS = ("count_cells", "weigh", "search")   # engine.py's names of the engine's three parts


def timed_parts() -> Dict[str, float]:
    """Wrap engine.py's count_cells, weigh and search so each adds its CPU seconds to the dict returned."""
    from mineconv.analysis.advice import engine

    spent = dict.fromkeys(PARTS, 0.0)

    def wrapped(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - t
        return timed
    for name in PARTS:
        setattr(engine, name, wrapped(name, getattr(engine, name)))
    return spent


def child(board: str, rule: str, player: str, seed: int, start: int, stop: int, parts: bool = False) -> int:
    """Play games start..stop-1 in this process; print one JSON line per game: [index, won, clicks, cpu]
    (with `parts`, a fifth item: the CPU seconds of each engine part, in PARTS' order)."""
    from mineconv.make.play import deal, make_setup, play_game
    from mineconv.make.players import player_factory

    setup = make_setup(board, rule)
    factory = player_factory(player)
    spent = timed_parts() if parts else {}
    for i in range(start, stop):
        before = [spent[name] for name in PARTS] if parts else []
        t = time.process_time()
        result = play_game(setup, deal(setup, seed, i), factory(None), i)
        cpu = time.process_time() - t
        line = [i, result.won, [list(c) for c in result.clicks], cpu]
        if parts:
            line.append([spent[name] - b for name, b in zip(PARTS, before)])
        print(json.dumps(line), flush=True)
    return 0


def side(python: str, path: Optional[str], args: argparse.Namespace, start: int, stop: int) -> List[list]:
    """One side's games start..stop-1, played by `python` in a child process."""
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = subprocess.run([python, os.path.abspath(__file__), "--child", f"{start},{stop}", "--board", args.board,
                          "--rule", args.rule, "--player", args.player, "--seed", str(args.seed)]
                         + (["--parts"] if args.parts else []),
                         env=env, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def main(argv: Optional[List[str]] = None) -> int:
    """Compare the two sides game for game; print the wins and the games per CPU-second of each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", metavar="PYTHON", default=sys.executable, help="the older side's interpreter")
    ap.add_argument("--before-path", metavar="DIR", help="a folder put first on the older side's PYTHONPATH")
    ap.add_argument("--board", default="expert")
    ap.add_argument("--rule", default="snr")
    ap.add_argument("--player", default="engine")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=25, help="games per child, the sides alternating (default 25)")
    ap.add_argument("--parts", action="store_true",
                    help="also time the engine's parts (turn counts, guess weighing, endgame search) per side")
    ap.add_argument("--child", metavar="START,STOP", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        start, stop = map(int, args.child.split(","))
        return child(args.board, args.rule, args.player, args.seed, start, stop, args.parts)
    cpu = {"before": 0.0, "after": 0.0}
    part_cpu = {"before": [0.0] * len(PARTS), "after": [0.0] * len(PARTS)}
    wins = {"before": 0, "after": 0}
    clicks = 0
    for start in range(0, args.games, args.chunk):
        stop = min(start + args.chunk, args.games)
        games: Tuple[List[list], List[list]] = (side(args.before, args.before_path, args, start, stop),
                                                side(sys.executable, None, args, start, stop))
        for (i, won_a, clicks_a, cpu_a, *parts_a), (j, won_b, clicks_b, cpu_b, *parts_b) in zip(*games):
            if (i, won_a, clicks_a) != (j, won_b, clicks_b):
                first = next((k for k, (a, b) in enumerate(zip(clicks_a, clicks_b)) if a != b),
                             min(len(clicks_a), len(clicks_b)))
                print(f"game {i} differs at click {first}: before {clicks_a[first:first + 1]}, "
                      f"after {clicks_b[first:first + 1]}")
                return 1
            cpu["before"] += cpu_a
            cpu["after"] += cpu_b
            for name, spent in (("before", parts_a), ("after", parts_b)):
                for k, x in enumerate(spent[0] if spent else ()):
                    part_cpu[name][k] += x
            wins["before"] += won_a
            wins["after"] += won_b
            clicks += len(clicks_a)
        if len(games[0]) != stop - start or len(games[1]) != stop - start:
            print(f"games {start}..{stop - 1}: a side played {len(games[0])} and the other {len(games[1])}")
            return 1
    n = args.games
    print(f"{args.board} {args.rule.upper()} seed {args.seed}: {n} games, {clicks} clicks, every one the same; "
          f"won {wins['after']} / {n}")
    for name in ("before", "after"):
        print(f"  {name:<6} {cpu[name]:8.2f} CPU s  {n / cpu[name]:7.1f} games per CPU-second")
    print(f"  speed-up {cpu['before'] / cpu['after']:.2f}x")
    if args.parts:
        print("  CPU ms a game: " + ", ".join(
            f"{part} {1000 * part_cpu['before'][k] / n:.2f} -> {1000 * part_cpu['after'][k] / n:.2f}"
            for k, part in enumerate(PARTS)) + f", the whole game {1000 * cpu['before'] / n:.2f} -> "
              f"{1000 * cpu['after'] / n:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
