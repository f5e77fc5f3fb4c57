"""Win rates of players side by side, on the same games (paired), in issue 37's four configurations.

    python benchmarks/bench_play.py                                  # baseline: 2000 expert SNR, 1000 each other
    python benchmarks/bench_play.py --players baseline,engine --jobs 2
    python benchmarks/bench_play.py --configs expert-snr --games 10000 --others 0
    python benchmarks/bench_play.py --msp path/to/MineSweeperSolver --peer-games 5000
    python benchmarks/bench_play.py --peer 'dnh=java -cp CP Drive {rows} {cols} {mines} {rule} {row} {col} {games} {seed}'

mineconv's players (`mineconv.make.players`) play games dealt by `mineconv play`'s simulator from
(--seed, game index): every player meets the same layouts, so their difference is measured on pairs (the
games one won and the other lost), which needs far fewer games than two separate rates. Peers play their
own games under the same rules (their own generators: same rules, not the same layouts): `--msp` runs
MineSweeperProb's MineSweeperSolver binary with strategy FL-PSEQ and reads its JSON; `--peer NAME=COMMAND`
runs any command whose last line of output is {"games": N, "wins": W}, the template's {rows} {cols}
{mines} {rule} (snr/sfar) {row} {col} (the first click, 0-based) {games} {seed} filled in. A peer's CPU
seconds are its child processes' (getrusage), ours the game's process time (the player's and the
simulator's; with --jobs the workers').

Prints a dated table (win rate, its 95% Wilson interval, games per CPU-second) and records two figures per
row (win rate, games per CPU-second) through benchmarks/harness.py (default benchmarks/results/bench_play.jsonl).
"""
from __future__ import annotations

import argparse
import datetime
import json
import resource
import shlex
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

from mineconv.make.games import PlaySpec, play_games
from mineconv.make.play import Setup, make_setup, wilson
from mineconv.make.players import PLAYERS

import harness

CONFIGS: Dict[str, Tuple[str, str]] = {"expert-snr": ("expert", "snr"), "expert-sfar": ("expert", "sfar"),
                                       "intermediate-snr": ("intermediate", "snr"),
                                       "beginner-snr": ("beginner", "snr")}


def child_cpu() -> float:
    """CPU seconds of every child process waited for so far."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def run_peer(name: str, argv: List[str], games: int) -> Optional[dict]:
    """Run a peer's command; its games, wins and CPU seconds, or None (said on stderr) when it failed."""
    before = child_cpu()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=6 * 3600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"bench_play: {name}: {exc}", file=sys.stderr)
        return None
    cpu = child_cpu() - before
    lines = [line for line in done.stdout.splitlines() if line.strip().startswith("{")]
    if done.returncode != 0 or not lines:
        print(f"bench_play: {name} exited {done.returncode}: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    data = json.loads(lines[-1])
    if "result" in data:   # MineSweeperProb's own JSON
        wins = int(data["result"]["pass"])
        played = wins + int(data["result"]["fail"])
    else:
        wins, played = int(data["wins"]), int(data["games"])
    return {"games": played, "wins": wins, "cpu": cpu}


def msp_argv(binary: str, setup: Setup, games: int) -> List[str]:
    """MineSweeperProb's command for a setup: FL@[row,col]-PSEQ-W-H-T<mines>-SNR|SFAR, 1-based, one process."""
    r, c = setup.first
    return [binary, f"FL@[{r + 1},{c + 1}]-PSEQ-{setup.cols}-{setup.rows}-T{setup.mines}-{setup.rule.upper()}",
            str(games), "1"]


def template_argv(template: str, setup: Setup, games: int, seed: int) -> List[str]:
    """A --peer template filled in for a setup."""
    r, c = setup.first
    return [part.format(rows=setup.rows, cols=setup.cols, mines=setup.mines, rule=setup.rule, row=r, col=c,
                        games=games, seed=seed) for part in shlex.split(template)]


def row(config: str, player: str, games: int, wins: int, cpu: float, paired: bool, **extra) -> dict:
    """One table row, as its JSON line."""
    low, high = wilson(wins, games)
    return {"date": datetime.date.today().isoformat(), "config": config, "player": player, "games": games,
            "wins": wins, "win_rate": wins / games if games else None, "interval": [low, high],
            "cpu_seconds": round(cpu, 3), "games_per_cpu_second": games / cpu if cpu > 0 else None,
            "paired": paired, **extra}


def paired_difference(a: str, b: str) -> Tuple[int, int, float, float]:
    """Games a won and b lost, the reverse, and the difference of the rates with its 95% half-width."""
    n10 = sum(x == "W" and y == "L" for x, y in zip(a, b))
    n01 = sum(x == "L" and y == "W" for x, y in zip(a, b))
    n = len(a)
    diff = (n10 - n01) / n
    half = 1.959963984540054 * max(n10 + n01 - n * diff * diff, 0.0) ** 0.5 / n
    return n10, n01, diff, half


def bench_config(config: str, games: int, args: argparse.Namespace, players: List[str]) -> List[dict]:
    """The rows of one configuration: each player on the same games, then the peers."""
    board, rule = CONFIGS[config]
    setup = make_setup(board, rule)
    rows, outcomes = [], {}
    for name in players:
        tally = play_games(PlaySpec(setup, args.seed, name, args.budget, clicks=False), games, jobs=args.jobs)
        outcomes[name] = tally.outcomes()
        rows.append(row(config, name, tally.games, tally.wins, tally.cpu, True, seed=args.seed))
    for other in players[1:]:
        n10, n01, diff, half = paired_difference(outcomes[other], outcomes[players[0]])
        print(f"  {config}: {other} - {players[0]} = {100 * diff:+.2f} +- {100 * half:.2f} points "
              f"({n10} games won only by {other}, {n01} only by {players[0]})")
    peer_games = args.peer_games or games
    peers = [("MineSweeperProb PSEQ", msp_argv(args.msp, setup, peer_games))] if args.msp else []
    for spec in args.peer:
        name, _, template = spec.partition("=")
        peers.append((name, template_argv(template, setup, peer_games, args.seed)))
    for name, argv in peers:
        got = run_peer(name, argv, peer_games)
        if got is not None:
            rows.append(row(config, name, got["games"], got["wins"], got["cpu"], False))
    return rows


def table(rows: List[dict]) -> str:
    """The dated Markdown table of the rows."""
    lines = [f"bench_play {datetime.date.today().isoformat()}", "",
             "| config | player | games | win rate | 95% interval | games per CPU-second |", "|---|---|---|---|---|---|"]
    for r in rows:
        low, high = r["interval"]
        speed = r["games_per_cpu_second"]
        lines.append(f"| {r['config']} | {r['player']}{'' if r['paired'] else ' (own games)'} | {r['games']} | "
                     f"{100 * r['win_rate']:.2f}% | {100 * low:.2f}-{100 * high:.2f}% | "
                     f"{'-' if speed is None else f'{speed:.1f}'} |")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="baseline", help=f"comma-separated, of: {', '.join(PLAYERS)}")
    ap.add_argument("--configs", default=",".join(CONFIGS), help=f"comma-separated, of: {', '.join(CONFIGS)}")
    ap.add_argument("--games", type=int, default=2000, help="expert SNR games (default 2000)")
    ap.add_argument("--others", type=int, default=1000, help="games of each other configuration (default 1000)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--budget", type=float, help="the players' --budget")
    ap.add_argument("--msp", metavar="BINARY", help="MineSweeperProb's MineSweeperSolver, run as a peer")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=COMMAND", help="another peer (see above)")
    ap.add_argument("--peer-games", type=int, help="games per peer and configuration (default: as ours)")
    harness.add_options(ap)
    args = ap.parse_args(argv)
    players = [p for p in args.players.split(",") if p]
    unknown = [p for p in players if p not in PLAYERS] + [c for c in args.configs.split(",") if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown: {', '.join(unknown)}")
    rows: List[dict] = []
    for config in args.configs.split(","):
        games = args.games if config == "expert-snr" else args.others
        if games > 0:
            rows += bench_config(config, games, args, players)
    print(table(rows))
    record(harness.recorder(args, "bench_play"), rows)
    return 0


def record(rec: harness.Recorder, rows: List[dict]) -> None:
    """Each row as two figures: the win rate and the games per CPU-second (ours 'mineconv PLAYER')."""
    for r in rows:
        side = f"mineconv {r['player']}" if r["paired"] else r["player"]
        case = {"config": r["config"]}
        kept = {k: r[k] for k in ("games", "wins", "interval", "cpu_seconds", "paired", "seed") if k in r}
        rec.record("win rate", r["win_rate"], "share", side, case, **kept)
        rec.record("games per CPU-second", r["games_per_cpu_second"], "games/s", side, case,
                   games=r["games"], cpu_seconds=r["cpu_seconds"])


if __name__ == "__main__":
    sys.exit(main())
