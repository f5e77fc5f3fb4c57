"""Random boards: mine placement, full and game reveals, the generate command."""
from __future__ import annotations

import numpy as np
import pytest

from mineconv.cli import main
from mineconv.core.errors import MineconvError
from mineconv.formats.notations.native import read_native
from mineconv.make.generate import game_reveal, place_mines, random_puzzle
from mineconv.core.layout import full_reveal, label_regions, mine_counts
from mineconv.core.system import check_assignment


def _mine_grid(puzzle_cells: str, rows: int, cols: int) -> np.ndarray:
    return np.frombuffer(puzzle_cells.encode(), dtype=np.uint8).reshape(rows, cols) == ord("*")


def _flood_reference(mines: np.ndarray, starts) -> np.ndarray:
    """Plain breadth-first flood fill, the game's rule, to check the vectorised one against."""
    R, C = mines.shape
    counts = mine_counts(mines)
    seen = np.zeros((R, C), dtype=bool)
    stack = [divmod(int(s), C) for s in starts]
    while stack:
        r, c = stack.pop()
        if seen[r, c]:
            continue
        seen[r, c] = True
        if counts[r, c] == 0:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < R and 0 <= cc < C and not seen[rr, cc]:
                        stack.append((rr, cc))
    return seen


def test_place_mines_is_exact_and_deterministic():
    a = place_mines(16, 30, mines=99, seed=5)
    assert a.shape == (16, 30) and a.sum() == 99
    assert np.array_equal(a, place_mines(16, 30, mines=99, seed=5))
    assert not np.array_equal(a, place_mines(16, 30, mines=99, seed=6))
    assert place_mines(10, 10, density=0.25, seed=1).sum() == 25


@pytest.mark.parametrize("kwargs", [dict(rows=0, cols=3, mines=1), dict(rows=3, cols=3, mines=10),
                                    dict(rows=3, cols=3, density=1.5), dict(rows=3, cols=3),
                                    dict(rows=3, cols=3, mines=1, density=0.1)])
def test_place_mines_rejects_bad_requests(kwargs):
    with pytest.raises(MineconvError):
        place_mines(**kwargs)


def test_full_reveal_is_consistent_with_its_mines():
    grid = place_mines(12, 17, density=0.2, seed=3)
    p = full_reveal(grid)
    assert p.mines == int(grid.sum())
    assert p.unknown_count == int(grid.sum())
    assert check_assignment(p, grid) is None


def test_label_regions_matches_a_flood_fill():
    rng = np.random.default_rng(0)
    for _ in range(30):
        mask = rng.random((rng.integers(1, 15), rng.integers(1, 15))) < 0.55
        labels = label_regions(mask)
        R, C = mask.shape
        for cell in np.flatnonzero(mask):
            region = np.zeros((R, C), dtype=bool)
            stack = [divmod(int(cell), C)]
            while stack:
                r, c = stack.pop()
                if not (0 <= r < R and 0 <= c < C) or region[r, c] or not mask[r, c]:
                    continue
                region[r, c] = True
                stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
            same = mask & (labels == labels.flat[cell])
            assert np.array_equal(same, region)
            assert labels.flat[cell] == np.flatnonzero(region)[0]


@pytest.mark.parametrize("seed", range(12))
def test_game_reveal_is_the_flood_fill_of_its_openings(seed):
    grid = place_mines(16, 30, mines=99, seed=seed)
    p = game_reveal(grid, seed=seed, openings=4)
    codes = p.codes
    revealed = codes >= 0
    counts = mine_counts(grid)
    # what is shown is the truth, and no mine is ever shown
    assert not (revealed & grid).any()
    assert np.array_equal(codes[revealed], counts[revealed])
    # flooding from the revealed zeros gives exactly what is shown: the fill went all the way ...
    zeros = np.flatnonzero(revealed & (counts == 0))
    assert np.array_equal(_flood_reference(grid, zeros), revealed)
    # ... and nothing else is shown; the true mines satisfy every count
    assert check_assignment(p, grid) is None
    assert p.mines == 99


def test_game_reveal_leaves_a_frontier_on_expert_boards():
    frontier = 0
    for seed in range(20):
        p = random_puzzle(16, 30, mines=99, reveal="game", seed=seed)
        codes = p.codes
        assert 0 < (codes >= 0).sum() < 480 - 99
        unknown = np.pad(codes == -1, 1)
        near_unknown = np.zeros_like(codes, dtype=bool)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                near_unknown |= unknown[1 + dr:17 + dr, 1 + dc:31 + dc]
        frontier += int(((codes > 0) & (codes <= 8) & near_unknown).sum())
    assert frontier > 20 * 5


def test_game_reveal_is_deterministic_per_seed():
    a = random_puzzle(40, 40, density=0.15, reveal="game", seed=11)
    assert a == random_puzzle(40, 40, density=0.15, reveal="game", seed=11)
    assert a != random_puzzle(40, 40, density=0.15, reveal="game", seed=12)


def test_game_reveal_without_zero_cells_opens_safe_cells():
    grid = np.ones((3, 3), dtype=bool)
    grid[1, 1] = False
    p = game_reveal(grid, seed=1, openings=1)
    assert p.cells == "????8????"
    all_mines = game_reveal(np.ones((2, 2), dtype=bool), seed=1)
    assert all_mines.cells == "????"


def test_game_reveal_of_an_empty_board_shows_everything():
    p = game_reveal(np.zeros((5, 7), dtype=bool), seed=0, openings=1)
    assert p.cells == "0" * 35 and p.mines == 0


def test_random_puzzle_rejects_unknown_reveal():
    with pytest.raises(MineconvError):
        random_puzzle(3, 3, mines=1, reveal="half")


def test_large_game_reveal_is_fast_enough():
    p = random_puzzle(1000, 1000, density=0.15, reveal="game", seed=2)
    assert p.rows == 1000 and 0 < p.stats["revealed"] < 1_000_000


def test_generate_command_single_board(tmp_path, capsys):
    out = tmp_path / "b.txt"
    assert main(["generate", "--rows", "16", "--cols", "30", "--mines", "99", "--reveal", "game",
                 "--seed", "7", "-o", str(out)]) == 0
    p = read_native(out.read_text())
    assert p == random_puzzle(16, 30, mines=99, reveal="game", seed=7, name="random 16x30 game seed 7")
    assert main(["generate", "--rows", "16", "--cols", "30", "--mines", "99", "--reveal", "game",
                 "--seed", "7", "-o", "-"]) == 0
    assert capsys.readouterr().out == out.read_text()


def test_generate_without_seed_records_it_in_the_name(tmp_path):
    out = tmp_path / "b.txt"
    assert main(["generate", "--rows", "5", "--cols", "6", "--density", "0.2", "-o", str(out)]) == 0
    p = read_native(out.read_text())
    seed = int(p.name.rsplit(" ", 1)[1])
    assert p == random_puzzle(5, 6, density=0.2, seed=seed, name=p.name)


def test_generate_count_writes_a_folder_of_reproducible_boards(tmp_path):
    folder = tmp_path / "boards"
    assert main(["generate", "--rows", "8", "--cols", "9", "--mines", "10", "--reveal", "game",
                 "--seed", "100", "--count", "12", "-o", str(folder), "--no-total"]) == 0
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"board-{i:04d}.txt" for i in range(12)]
    for i, f in enumerate(files):
        p = read_native(f.read_text())
        assert p.mines is None
        assert p == random_puzzle(8, 9, mines=10, reveal="game", seed=100 + i, with_total=False,
                                  name=f"random 8x9 game seed {100 + i}")
    assert not [f for f in folder.iterdir() if f.name.startswith(".")]


def test_generate_count_in_another_format(tmp_path):
    from mineconv.formats.writing import dumps

    folder = tmp_path / "boards"
    assert main(["generate", "--rows", "5", "--cols", "5", "--mines", "4", "--seed", "3", "--count", "2",
                 "--to", "json", "--prefix", "j", "-o", str(folder)]) == 0
    assert sorted(f.name for f in folder.iterdir()) == ["j0000.json", "j0001.json"]
    expected = random_puzzle(5, 5, mines=4, seed=4, name="random 5x5 full seed 4")
    assert (folder / "j0001.json").read_text() == dumps(expected, "json")


@pytest.mark.parametrize("argv", [
    ["--rows", "3", "--cols", "3", "--mines", "20", "-o", "-"],
    ["--rows", "0", "--cols", "3", "--mines", "0", "-o", "-"],
    ["--rows", "3", "--cols", "3", "--mines", "1", "--count", "0", "-o", "x"],
    ["--rows", "3", "--cols", "3", "--mines", "1", "--count", "2", "-o", "-"],
    ["--rows", "3", "--cols", "3", "--mines", "1", "--count", "2", "--prefix", "../x", "-o", "d"],
    ["--rows", "3", "--cols", "3", "--mines", "1", "--to", "nonesuch", "-o", "-"],
])
def test_generate_bad_requests_exit_2(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["generate", *argv]) == 2
    assert capsys.readouterr().err.startswith("mineconv: ")
    assert not list(tmp_path.iterdir())
