"""mineconv play: play games the player does not see the layout of, and say how many it won."""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Dict, Iterator, List, Optional

from ..batch.runner import close_client, dask_client, default_jobs
from ..core.bounds import stderr_progress_wanted
from ..core.errors import FileAccessError, InputError
from ..core.jsonout import json_text
from ..make.games import DEFAULT_CHUNK, PlaySpec, play_chunk, play_games
from ..make.play import BOARDS, GameResult, Tally, chunks_of, make_setup, wilson
from ..make.players import DEFAULT_PLAYER, PLAYERS
from . import COMMANDS, timeout_seconds
from .batch import add_executor_options

EPILOG = """Rules (MineSweeperProb's): boards are rows x cols; under SNR the first click and its 8 neighbours are
mine-free, under SFAR only the first click; the mines lie uniformly over the other cells; a zero opens its
neighbours; a game is won when every safe cell is open. The first click is (2, 2), or (3, 3) on boards 30
wide (expert), under SNR and (0, 0) under SFAR, 0-based (row, col). Game i's layout depends only on
(--seed, i): any --jobs or executor plays the same games. The player sees only the opened counts and the
total, never the layout.

JSON: {"board": {"rows", "cols", "mines"}, "rule", "first": [row, col], "player", "budget", "seed",
       "games", "wins", "win_rate", "interval": [low, high] (Wilson, 95%), "cpu_seconds",
       "games_per_cpu_second", "wall_seconds", "outcomes": "WLW..." (one letter per game, in order)}

examples:
  mineconv play --board beginner --games 20
  mineconv play --board expert --rule sfar --games 1000 --jobs 2 --seed 7
  mineconv play --board 16x16/40 --first 2,2 --games 50 --json
  mineconv play --board expert --games 10 --record replays/     # then: mineconv audit replays/game-000000.rawvf
  mineconv play --games 1000000 --executor dask --scheduler tcp://head:8786

exit status: 0 played, 2 bad input
"""


def summary_json(spec: PlaySpec, tally: Tally, wall: float) -> Dict[str, Any]:
    """The JSON of `mineconv play --json`."""
    s = spec.setup
    low, high = wilson(tally.wins, tally.games)
    cpu = tally.cpu
    return {"board": {"rows": s.rows, "cols": s.cols, "mines": s.mines}, "rule": s.rule, "first": list(s.first),
            "player": spec.player, "budget": spec.budget, "seed": spec.seed, "games": tally.games,
            "wins": tally.wins, "win_rate": tally.wins / tally.games if tally.games else None,
            "interval": [low, high], "cpu_seconds": round(cpu, 6),
            "games_per_cpu_second": tally.games / cpu if cpu > 0 else None, "wall_seconds": round(wall, 6),
            "outcomes": tally.outcomes()}


def summary_text(spec: PlaySpec, tally: Tally, wall: float) -> str:
    """The text summary: the setup, wins / games, the win rate with its interval, the speed."""
    data = summary_json(spec, tally, wall)
    low, high = data["interval"]
    rate = data["win_rate"]
    speed = data["games_per_cpu_second"]
    return (f"{spec.setup.label()}, player {spec.player}, seed {spec.seed}\n"
            f"won {tally.wins} / {tally.games}"
            + ("" if rate is None else f" = {100 * rate:.2f}% (95% interval {100 * low:.2f}-{100 * high:.2f}%)")
            + "\n" + ("" if speed is None else f"{speed:.1f} games per CPU-second, ") + f"{wall:.1f} s wall\n")


def record_folder(path: str) -> str:
    """The --record folder, made if needed (refused when it is a file), before any game is played."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileAccessError("--record needs a folder, and this is an existing file", source=path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(f"cannot create the folder: {exc.strerror or exc}", source=path) from None
    return path


def dask_results(spec: PlaySpec, games: int, scheduler: Optional[str], jobs: int
                 ) -> Iterator[List[GameResult]]:
    """The chunks played on a Dask cluster (the scheduler's, or a local one of `jobs` processes)."""
    from dask.distributed import as_completed
    client = dask_client(scheduler, jobs)
    try:
        chunks = chunks_of(games, DEFAULT_CHUNK)
        futures = client.map(play_chunk, [spec] * len(chunks), chunks, pure=False)
        try:
            for fut in as_completed(futures):
                yield fut.result()
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        close_client(client)


def run(args: argparse.Namespace) -> int:
    """Play the games and print the tally."""
    setup = make_setup(args.board, args.rule, args.first)
    if args.games < 1:
        raise InputError(f"--games must be at least 1, got {args.games}")
    if args.seed < 0:
        raise InputError(f"--seed must be >= 0, got {args.seed}")
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if args.player not in PLAYERS:
        raise InputError(f"unknown player {args.player!r}; valid: {', '.join(PLAYERS)}")
    spec = PlaySpec(setup, args.seed, args.player, args.budget,
                    None if args.record is None else record_folder(args.record), clicks=False)
    bar = None
    if stderr_progress_wanted(args.quiet):
        from tqdm import tqdm
        bar = tqdm(total=args.games, desc="play", unit="game", file=sys.stderr, leave=False, dynamic_ncols=True,
                   mininterval=0.5)
    start = time.monotonic()

    def on_results(part: List[GameResult]) -> None:
        for r in part if args.verbose else ():
            line = (f"mineconv play: game {r.index}: {'won' if r.won else 'lost'} after "
                    f"{r.click_count} clicks, {r.cpu:.3f} CPU s")
            if bar is None:
                print(line, file=sys.stderr)
            else:
                bar.write(line, file=sys.stderr)
        if bar is not None:
            bar.update(len(part))
    try:
        results = dask_results(spec, args.games, args.scheduler, jobs) if args.executor == "dask" else None
        tally = play_games(spec, args.games, jobs=jobs, results=results, on_results=on_results)
    finally:
        if bar is not None:
            bar.close()
    wall = time.monotonic() - start
    sys.stdout.write(json_text(summary_json(spec, tally, wall)) + "\n" if args.json
                     else summary_text(spec, tally, wall))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("play", help=COMMANDS["play"],
                       description="Deal games by seed and let a player play them to the end, seeing only what "
                                   "a person would; print wins / games, the win rate with its 95% interval and "
                                   "games per CPU-second.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="expert", metavar="BOARD",
                   help=f"{', '.join(f'{k} ({r}x{c}/{m})' for k, (r, c, m) in BOARDS.items())} or "
                        "ROWSxCOLS/MINES (default expert)")
    p.add_argument("--rule", default="snr", choices=("snr", "sfar"),
                   help="snr: the first click opens an area (default); sfar: only the first click is safe")
    p.add_argument("--first", metavar="ROW,COL", help="the first click, 0-based (default: the rule's)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="game i is dealt from (S, i) (default 0)")
    p.add_argument("-j", "--jobs", type=int, metavar="K",
                   help=f"worker processes (default: all cores, here {default_jobs()}); same games for any K")
    p.add_argument("--player", default=DEFAULT_PLAYER, choices=sorted(PLAYERS),
                   help=f"who plays (default {DEFAULT_PLAYER})")
    p.add_argument("--budget", type=timeout_seconds, metavar="SECONDS",
                   help="seconds the player may think per move (its search's cap; default: the player's own)")
    p.add_argument("--record", metavar="DIR", help="save each game as DIR/game-NNNNNN.rawvf (mineconv audit reads it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also one line per game on stderr as it finishes: won or lost, clicks, CPU seconds")
    add_executor_options(p)
    p.set_defaults(func=run)
