"""Many games at once: a run's settings, a chunk of games played in one process, local processes, replays.

A chunk is a range of game indices; each game is dealt from (seed, index) and gets a fresh player, so
the chunks can be played anywhere (this process, a pool of local processes, Dask workers) and in any order
with the same results, game for game. `record` writes each game as a RAWVF replay that `mineconv audit`
reads: the layout, then a left press and release on each clicked cell, one click per centisecond.
"""
from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence

import numpy as np

from ..core.about import version
from ..core.errors import FileAccessError
from ..core.fileio import atomic_output
from ..core.replay import LEFT_PRESS, LEFT_RELEASE, Replay, ReplayEvent
from ..formats.notations.rawvf_writer import rawvf_text
from .play import BOARDS, GameResult, Setup, Tally, chunks_of, deal, play_game
from .players import player_factory

SQUARE = 16                  # pixels per cell in a recorded replay, as the RAWVF converters write them
CLICK_SECONDS = 0.01         # a recorded replay's clock: one click per centisecond
DEFAULT_CHUNK = 25           # games a worker plays per task: enough to hide the task's cost, small for progress


@dataclass(frozen=True)
class PlaySpec:
    """What a run's games share: the setup, the seed, the player's name and budget, the replay folder."""

    setup: Setup
    seed: int = 0
    player: str = "baseline"
    budget: Optional[float] = None
    record: Optional[str] = None
    clicks: bool = True          # each result keeps its clicks (a million games' clicks are gigabytes)


def level_name(setup: Setup) -> str:
    """'beginner', 'intermediate', 'expert' for their boards, else 'custom'."""
    size = (setup.rows, setup.cols, setup.mines)
    return next((name for name, board in BOARDS.items() if board == size), "custom")


def game_replay(spec: PlaySpec, layout: np.ndarray, result: GameResult) -> Replay:
    """The game as a Replay: its layout, a left press and release on each click, and the run's settings."""
    events = []
    for k, (r, c) in enumerate(result.clicks):
        t = round(k * CLICK_SECONDS, 2)
        x, y = c * SQUARE + SQUARE // 2, r * SQUARE + SQUARE // 2
        events += [ReplayEvent(t, LEFT_PRESS, r, c, x, y), ReplayEvent(t, LEFT_RELEASE, r, c, x, y)]
    s = spec.setup
    details = (("Level", level_name(s)), ("Rule", s.rule.upper()), ("First", f"{s.first[0]},{s.first[1]}"),
               ("Seed", str(spec.seed)), ("Game", str(result.index)), ("Result", "won" if result.won else "lost"))
    return Replay(s.rows, s.cols, layout, int(layout.sum()), tuple(events), "rawvf", player=spec.player,
                  program="mineconv play", version=version(), square_size=SQUARE, details=details)


def replay_path(folder: str, index: int) -> str:
    """Where game `index`'s replay goes: FOLDER/game-NNNNNN.rawvf."""
    return os.path.join(folder, f"game-{index:06d}.rawvf")


def play_chunk(spec: PlaySpec, indices: Sequence[int]) -> List[GameResult]:
    """Play the games of these indices in this process (each with a fresh player), recording each when asked."""
    factory = player_factory(spec.player)
    results = []
    for i in indices:
        start = time.process_time()
        layout = deal(spec.setup, spec.seed, i)
        result = play_game(spec.setup, layout, factory(spec.budget), i)
        if spec.record is not None:
            try:
                with atomic_output(replay_path(spec.record, i), fsync=False) as out:
                    out.write(rawvf_text(game_replay(spec, layout, result)))
            except OSError as exc:
                raise FileAccessError(f"cannot write the replay: {exc.strerror or exc}",
                                      source=replay_path(spec.record, i)) from None
        result.cpu = time.process_time() - start   # the deal and the replay count as the game's
        if not spec.clicks:
            result.clicks = []
        results.append(result)
    return results


def _pool_chunk(args: tuple) -> List[GameResult]:
    return play_chunk(*args)


def init_worker() -> None:
    """Pool initializer: Ctrl-C and a hang-up are the parent's to handle (it ends the pool with SIGTERM), and
    SIGTERM ends a worker at once and quietly (a replay being written stays a hidden temp file: no
    game-N.rawvf is ever half written)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def play_local(spec: PlaySpec, games: int, jobs: int = 1, chunk: int = DEFAULT_CHUNK
               ) -> Iterator[List[GameResult]]:
    """The results chunk by chunk, as they finish, from this process (jobs 1) or a pool of `jobs` processes."""
    chunks = chunks_of(games, chunk)
    if jobs <= 1 or len(chunks) <= 1:
        for part in chunks:
            yield play_chunk(spec, part)
        return
    import multiprocessing as mp
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    pool = mp.get_context(method).Pool(min(jobs, len(chunks)), initializer=init_worker)
    try:
        yield from pool.imap_unordered(_pool_chunk, [(spec, part) for part in chunks])
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def play_games(spec: PlaySpec, games: int, *, jobs: int = 1, chunk: int = DEFAULT_CHUNK,
               on_results: Optional[Callable[[List[GameResult]], None]] = None,
               results: Optional[Iterator[List[GameResult]]] = None) -> Tally:
    """Play `games` games (local processes, or the chunks `results` gives from elsewhere) and tally them."""
    tally = Tally(keep=spec.clicks)
    for part in play_local(spec, games, jobs, chunk) if results is None else results:
        tally.add(part)
        if on_results is not None:
            on_results(part)
    tally.results.sort(key=lambda r: r.index)
    return tally
