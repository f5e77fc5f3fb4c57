"""mineconv play: the simulator's rules, its players, determinism by seed and by process, replays, the CLI."""
from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import List, Set, Tuple

import numpy as np
import pytest

from helpers import require_module, run_cli
from mineconv.analysis.audit import audit
from mineconv.core.errors import InputError
from mineconv.core.puzzle import Puzzle, neighbour_count
from mineconv.formats.replays import read_replay
from mineconv.make.games import PlaySpec, play_chunk, play_games, replay_path
from mineconv.make.play import (
    Board,
    Setup,
    Tally,
    chunks_of,
    deal,
    default_first,
    make_setup,
    parse_board,
    play_game,
    wilson,
)
from mineconv.make import players as players_module
from mineconv.make.players import PLAYERS, Baseline, engine_factory, player_factory

Cell = Tuple[int, int]


def bfs_opened(layout: np.ndarray, start: Cell) -> Set[Cell]:
    """The cells one click opens, by a plain breadth-first search written from the rules alone."""
    rows, cols = layout.shape
    counts = neighbour_count(layout)
    if layout[start]:
        return set()
    seen, queue = {start}, deque([start])
    while queue:
        r, c = queue.popleft()
        if counts[r, c]:
            continue
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in seen:
                    seen.add((rr, cc))
                    queue.append((rr, cc))
    return seen


def open_cells(board: Board) -> Set[Cell]:
    return {divmod(i, board.cols) for i, ch in enumerate(board.cells) if ch != ord("?")}


# the rules -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("board,first", [("beginner", (2, 2)), ("intermediate", (2, 2)), ("expert", (3, 3))])
def test_snr_first_click_and_its_neighbours_are_mine_free_and_open_an_area(board: str, first: Cell) -> None:
    setup = make_setup(board, "snr")
    assert setup.first == first
    for i in range(200):
        layout = deal(setup, 5, i)
        assert int(layout.sum()) == setup.mines
        r, c = first
        assert not layout[r - 1:r + 2, c - 1:c + 2].any()
        b = Board(layout)
        assert b.open(*first) >= 9          # a zero: it opens at least its 3 x 3 block
        assert open_cells(b) >= {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}


def test_sfar_keeps_only_the_first_click_free_and_the_mines_are_uniform_elsewhere() -> None:
    setup = make_setup("beginner", "sfar")
    assert setup.first == (0, 0)
    hits = np.zeros((9, 9))
    games = 3000
    for i in range(games):
        layout = deal(setup, 1, i)
        assert not layout[0, 0] and int(layout.sum()) == 10
        hits += layout
    # each other cell holds a mine with chance 10/80: the neighbours of the click too (SFAR, not SNR)
    expected = games * 10 / 80
    others = np.delete(hits.ravel(), 0)
    assert abs(others - expected).max() < 5 * np.sqrt(expected)
    assert hits[0, 1] > 0 and hits[1, 1] > 0


def test_the_flood_fill_opens_what_a_plain_bfs_opens() -> None:
    rng = np.random.default_rng(3)
    for trial in range(300):
        rows, cols = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        layout = rng.random((rows, cols)) < rng.uniform(0.0, 0.35)
        start = (int(rng.integers(rows)), int(rng.integers(cols)))
        b = Board(layout)
        opened = b.open(*start)
        want = bfs_opened(layout, start)
        if layout[start]:
            assert opened == 0 and b.lost
        else:
            assert open_cells(b) == want and opened == len(want), trial
            counts = neighbour_count(layout)
            assert all(b.cells[r * cols + c] == ord("0") + counts[r, c] for r, c in want)


def test_win_and_loss_are_detected() -> None:
    layout = np.array([[False, True, False], [False, False, False]])
    b = Board(layout)
    b.open(0, 0)
    assert not b.over
    b.open(1, 0), b.open(1, 1), b.open(1, 2)
    assert not b.over
    b.open(0, 2)
    assert b.over and b.won and not b.lost
    b = Board(layout)
    b.open(0, 0)
    assert b.open(0, 1) == 0 and b.lost and b.over and not b.won
    b = Board(layout)
    b.open(0, 0)
    with pytest.raises(InputError, match="already open"):
        b.open(0, 0)
    with pytest.raises(InputError, match="outside"):
        b.open(2, 0)


def test_the_player_sees_only_opened_counts_and_the_total() -> None:
    setup = make_setup("intermediate")
    seen: List[Puzzle] = []
    for i in range(15):
        layout = deal(setup, 2, i)
        counts = neighbour_count(layout)
        base = Baseline()

        def player(p: Puzzle, base: Baseline = base) -> Cell:
            seen.append(p)
            return base(p)
        play_game(setup, layout, player, i)
        for p in seen:
            assert set(p.cells) <= set("?012345678") and p.mines == 40
            opened = [(i // 16, i % 16) for i, ch in enumerate(p.cells) if ch != "?"]
            assert all(not layout[rc] and p.cells[rc[0] * 16 + rc[1]] == str(counts[rc]) for rc in opened)
            # the unchecked position equals the checked one
            assert Puzzle(p.rows, p.cols, p.cells, mines=p.mines) == p
        seen.clear()


def test_a_bad_move_is_an_error_naming_the_game() -> None:
    setup = make_setup("beginner")
    with pytest.raises(InputError, match="game 4: the player's move"):
        play_game(setup, deal(setup, 0, 4), lambda p: setup.first, 4)
    with pytest.raises(InputError, match="outside"):
        play_game(setup, deal(setup, 0, 4), lambda p: (-1, 0), 4)


def test_baseline_opens_proven_safe_cells_first_then_the_lowest_chance() -> None:
    # counts 1 at (0,0): (0,1) and (1,1) and (1,0) hold one mine; the total leaves the far cells at the rest
    p = Puzzle.from_rows(["1??", "???", "???"], mines=1)
    assert Baseline()(p) in {(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert Baseline()(p) == (0, 2)                      # proven safe, first in row order
    p = Puzzle.from_rows(["1?", "??"], mines=1)           # every unknown cell at 1/3: the first in row order
    assert Baseline()(p) == (0, 1)
    p = Puzzle.from_rows(["1?", "??", "??"], mines=2)    # 1/3 next to the count, 1/2 on the bottom row
    assert Baseline()(p) == (0, 1)
    player = Baseline()
    p = Puzzle.from_rows(["1??", "???", "???"], mines=1)
    assert [player(p) for _ in range(5)] == [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)]   # one analysis, row order


def test_the_engine_player_plays_advises_move_when_the_module_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    class Advice:
        p_mine = 0.5   # a guess: the player asks again at the next move

        def __init__(self, puzzle: Puzzle, budget: object) -> None:
            self.move = puzzle.unknown_cells[-1]
            calls.append((budget, self.move))

    class Module:
        advise = staticmethod(lambda puzzle, *, budget=None: Advice(puzzle, budget))

    real = players_module.importlib.import_module

    def fake(name: str, package: object = None) -> object:
        if name == "..analysis.advice":
            return Module
        return real(name, package)  # type: ignore[arg-type]
    monkeypatch.setattr(players_module.importlib, "import_module", fake)
    factory = engine_factory()
    assert factory is not None
    setup = make_setup("beginner")
    result = play_game(setup, deal(setup, 0, 1), factory(0.25), 1)
    assert calls and {b for b, _ in calls} == {0.25} and result.clicks[1:] == [m for _, m in calls]

    def missing(name: str, package: object = None) -> object:
        raise ModuleNotFoundError("No module named 'mineconv.analysis.advice'", name="mineconv.analysis.advice")
    monkeypatch.setattr(players_module.importlib, "import_module", missing)
    assert engine_factory() is None

    def broken(name: str, package: object = None) -> object:
        raise ModuleNotFoundError("No module named 'scipy'", name="scipy")
    monkeypatch.setattr(players_module.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError):
        engine_factory()


def test_the_engine_player_queues_proven_safe_cells_and_guesses_as_asking_at_every_move() -> None:
    from mineconv.analysis.advice import advise
    from mineconv.make.players import Engine

    def guesses_of(player_of: object, setup: Setup, index: int) -> Tuple[bool, List[Tuple[str, Cell]], int]:
        seen: List[Tuple[str, Cell]] = []
        calls = [0]

        def asked(puzzle: Puzzle, *, budget: object = None) -> object:
            advice = advise(puzzle, budget=budget)
            calls[0] += 1
            if advice.p_mine > 0:
                seen.append((puzzle.cells, advice.move))
            return advice
        result = play_game(setup, deal(setup, 5, index), player_of(asked), index)  # type: ignore[operator]
        return result.won, seen, calls[0]

    def every_move(asked: object) -> object:
        return lambda puzzle: asked(puzzle).move  # type: ignore[operator]

    fewer = 0
    for board, games in (("beginner", 30), ("intermediate", 4)):
        setup = make_setup(board)
        for index in range(games):
            won, seen, calls = guesses_of(lambda asked: Engine(asked), setup, index)
            plain_won, plain_seen, plain_calls = guesses_of(every_move, setup, index)
            assert (won, seen) == (plain_won, plain_seen), (board, index)
            assert calls <= plain_calls
            fewer += calls < plain_calls
    assert fewer >= 20


# determinism -------------------------------------------------------------------------------------
def test_a_game_depends_only_on_seed_and_index() -> None:
    setup = make_setup("expert")
    assert (deal(setup, 9, 17) == deal(setup, 9, 17)).all()
    assert not (deal(setup, 9, 17) == deal(setup, 9, 18)).all()
    assert not (deal(setup, 9, 17) == deal(setup, 10, 17)).all()
    spec = PlaySpec(make_setup("beginner"), seed=4)
    once = [r.to_json() for r in play_chunk(spec, range(3, 9))]
    again = [r.to_json() for r in play_chunk(spec, [5, 3, 4, 8, 7, 6])]
    strip = [{k: v for k, v in r.items() if k != "cpu"} for r in once]
    assert strip == sorted(({k: v for k, v in r.items() if k != "cpu"} for r in again), key=lambda r: r["index"])


def test_two_processes_play_the_same_games_as_one() -> None:
    spec = PlaySpec(make_setup("beginner", "sfar"), seed=11)
    one = play_games(spec, 60, jobs=1, chunk=7)
    two = play_games(spec, 60, jobs=2, chunk=7)
    assert [(r.index, r.won, r.clicks) for r in one.results] == [(r.index, r.won, r.clicks) for r in two.results]
    assert one.outcomes() == two.outcomes() and 0 < one.wins < 60


def test_a_run_without_clicks_keeps_only_the_outcomes() -> None:
    spec = PlaySpec(make_setup("beginner"), seed=12)
    full = play_games(spec, 40, chunk=9)
    lean = play_games(PlaySpec(make_setup("beginner"), seed=12, clicks=False), 40, chunk=9)
    assert lean.results == [] and lean.outcomes() == full.outcomes() and lean.wins == full.wins == \
        full.outcomes().count("W") and lean.games == 40
    assert [r.click_count for r in full.results] == [len(r.clicks) for r in full.results]
    tally = Tally()
    tally.add(full.results[5:7][::-1])
    assert tally.outcomes() == "-----" + full.outcomes()[5:7] and tally.games == 2


def test_wilson_interval_and_chunks() -> None:
    low, high = wilson(513, 1000)
    assert low == pytest.approx(0.4820, abs=1e-4) and high == pytest.approx(0.5439, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(1, 1)[0] == pytest.approx(1 / (1 + 1.959963984540054 ** 2))
    assert [list(c) for c in chunks_of(7, 3)] == [[0, 1, 2], [3, 4, 5], [6]]


def test_setup_checks_and_defaults() -> None:
    assert parse_board("16x30/99") == (16, 30, 99) and parse_board("Expert") == (16, 30, 99)
    assert default_first(16, 30, "snr") == (3, 3) and default_first(9, 9, "sfar") == (0, 0)
    assert default_first(2, 2, "snr") == (1, 1)
    for bad in ("16x30", "0x5/1", "ax5/1", "9x9/-1"):
        with pytest.raises(InputError):
            parse_board(bad)
    with pytest.raises(InputError, match="do not fit"):
        Setup(3, 3, 1, "snr", (1, 1))
    assert Setup(3, 3, 8, "sfar", (1, 1)).protected() == [4]
    with pytest.raises(InputError, match="unknown player"):
        player_factory("nobody")
    assert "baseline" in PLAYERS


# replays -----------------------------------------------------------------------------------------
def test_recorded_games_read_back_and_audit(tmp_path: Path) -> None:
    spec = PlaySpec(make_setup("intermediate"), seed=3, record=str(tmp_path))
    results = play_chunk(spec, range(4))
    for r in results:
        replay = read_replay(replay_path(str(tmp_path), r.index))
        assert (replay.mines == deal(spec.setup, 3, r.index)).all() and replay.total == 40
        assert replay.program == "mineconv play" and replay.player == "baseline"
        assert dict(replay.details)["result"] == ("won" if r.won else "lost")
        a = audit(replay)
        assert [(c.opening.row, c.opening.col) for c in a.clicks] == r.clicks
        assert a.lost == (not r.won) and a.status == "complete"
        # the baseline guesses only when no safe cell is left
        assert a.avoidable_guesses == 0


# the command line --------------------------------------------------------------------------------
def test_cli_text_and_json(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    rc, out, err = run_cli(capsys, "play", "--board", "beginner", "--games", "30", "--seed", "2", "-j", "1")
    assert rc == 0 and err == ""
    assert out.startswith("9x9/10 SNR, first click (2, 2), player engine, seed 2\nwon ")
    assert "% (95% interval " in out and "games per CPU-second" in out
    rc, out, _ = run_cli(capsys, "play", "--board", "9x9/10", "--rule", "sfar", "--games", "30", "--seed", "2",
                         "--json", "-j", "2")
    data = json.loads(out)
    assert rc == 0 and set(data) == {"board", "rule", "first", "player", "budget", "seed", "games", "wins",
                                     "win_rate", "interval", "cpu_seconds", "games_per_cpu_second",
                                     "wall_seconds", "outcomes"}
    assert data["board"] == {"rows": 9, "cols": 9, "mines": 10} and data["first"] == [0, 0]
    assert data["games"] == 30 and data["wins"] == data["outcomes"].count("W") and len(data["outcomes"]) == 30
    low, high = data["interval"]
    assert low <= data["win_rate"] <= high
    tally = play_games(PlaySpec(make_setup("beginner", "sfar"), seed=2, player=data["player"]), 30)
    assert data["outcomes"] == tally.outcomes()


def test_cli_verbose_says_each_game(capsys: pytest.CaptureFixture) -> None:
    rc, out, err = run_cli(capsys, "play", "--board", "beginner", "--games", "4", "--seed", "3", "-v", "--json")
    lines = [line for line in err.splitlines() if line.startswith("mineconv play: game ")]
    outcomes = json.loads(out)["outcomes"]
    assert rc == 0 and [line.split(":")[1] for line in lines] == [f" game {i}" for i in range(4)]
    assert all((" won " in line) == (o == "W") for line, o in zip(lines, outcomes))


def test_cli_jobs_two_equals_jobs_one_game_for_game(capsys: pytest.CaptureFixture) -> None:
    runs = [json.loads(run_cli(capsys, "play", "--board", "beginner", "--games", "80", "--seed", "5", "--json",
                               "-j", j)[1]) for j in ("1", "2")]
    assert runs[0]["outcomes"] == runs[1]["outcomes"]


@pytest.mark.parametrize("rule", ["snr", "sfar"])
def test_cli_record_then_audit(capsys: pytest.CaptureFixture, tmp_path: Path, rule: str) -> None:
    folder = tmp_path / "games"
    rc, out, _ = run_cli(capsys, "play", "--board", "beginner", "--rule", rule, "--games", "3", "--record", folder,
                         "--json", "--seed", "1")
    assert rc == 0 and sorted(p.name for p in folder.iterdir()) == [f"game-00000{i}.rawvf" for i in range(3)]
    outcomes = json.loads(out)["outcomes"]
    for i in range(3):
        rc, out, _ = run_cli(capsys, "audit", folder / f"game-00000{i}.rawvf", "--json")
        assert rc == 0 and json.loads(out)["lost"] == (outcomes[i] == "L")


@pytest.mark.parametrize("args,message", [
    (["--board", "huge"], "--board 'huge': expected"),
    (["--board", "9x9/90"], "do not fit"),
    (["--first", "3"], "--first '3': expected ROW,COL"),
    (["--first", "16,0"], "outside the 16 x 30 board"),
    (["--games", "0"], "--games must be at least 1"),
    (["--seed", "-1"], "--seed must be >= 0"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_cli_errors_exit_2_cleanly(capsys: pytest.CaptureFixture, args: List[str], message: str) -> None:
    rc, out, err = run_cli(capsys, "play", *args)
    assert rc == 2 and out == "" and message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_cli_record_onto_a_file_is_refused(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    rc, out, err = run_cli(capsys, "play", "--games", "1", "--record", target)
    assert rc == 2 and out == "" and "--record needs a folder" in err


def test_cli_dask_executor_plays_the_same_games(capsys: pytest.CaptureFixture) -> None:
    require_module("distributed")
    rc, out, _ = run_cli(capsys, "play", "--board", "beginner", "--games", "30", "--seed", "8", "--json",
                         "--executor", "dask", "-j", "1")
    assert rc == 0
    assert json.loads(out)["outcomes"] == play_games(PlaySpec(make_setup("beginner"), seed=8), 30).outcomes()


def test_cli_dask_scheduler_address(capsys: pytest.CaptureFixture) -> None:
    distributed = require_module("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        rc, out, _ = run_cli(capsys, "play", "--board", "beginner", "--games", "30", "--seed", "9", "--json",
                             "--executor", "dask", "--scheduler", cluster.scheduler_address)
    finally:
        cluster.close()
    assert rc == 0
    assert json.loads(out)["outcomes"] == play_games(PlaySpec(make_setup("beginner"), seed=9), 30).outcomes()


def test_ctrl_c_stops_every_process_without_a_traceback(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "play", "--games", "100000", "-j", "2", "-q",
                             "--record", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while not any(tmp_path.glob("game-*.rawvf")) and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and out == "" and "Traceback" not in err and "interrupted" in err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)           # no worker is left behind
