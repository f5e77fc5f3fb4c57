"""The best-move engine (mineconv.advise) against brute force written plainly here: its proven cells, its
move's chance of a mine, and in endgames its chance to win, by an independent game tree over every layout."""
from __future__ import annotations

import itertools
import json
import time
from fractions import Fraction
from functools import lru_cache
from typing import Dict, FrozenSet, List, Tuple

import numpy as np
import pytest

from helpers import run_cli
from mineconv import Advice, Puzzle, PuzzleError, advise, analyze
from mineconv.analysis.verdict import verdict

Cell = Tuple[int, int]


def around(rows: int, cols: int, r: int, c: int) -> List[Cell]:
    """The neighbours of (r, c)."""
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def layouts(puzzle: Puzzle) -> List[FrozenSet[Cell]]:
    """Every set of mines on the unknown cells (flags count as unknown) that fits the numbers and the total."""
    R, C = puzzle.rows, puzzle.cols
    unknown = [(r, c) for r in range(R) for c in range(C) if puzzle[r, c] in "?*"]
    found = []
    for bits in itertools.product((0, 1), repeat=len(unknown)):
        mines = frozenset(cell for cell, b in zip(unknown, bits) if b)
        if puzzle.mines is not None and len(mines) != puzzle.mines:
            continue
        if all(int(puzzle[r, c]) == sum(n in mines for n in around(R, C, r, c))
               for r in range(R) for c in range(C) if puzzle[r, c].isdigit()):
            found.append(mines)
    return found


def reveal(rows: int, cols: int, mines: FrozenSet[Cell], cell: Cell, opened: Dict[Cell, int]) -> Dict[Cell, int]:
    """The cells a click on the empty `cell` opens (zeros open their neighbours), with their numbers."""
    shown = dict(opened)
    stack = [cell]
    while stack:
        r, c = stack.pop()
        if (r, c) in shown:
            continue
        shown[r, c] = sum(n in mines for n in around(rows, cols, r, c))
        if shown[r, c] == 0:
            stack.extend(around(rows, cols, r, c))
    return shown


def deal(rng: np.random.Generator, rows: int, cols: int, total: int, clicks: int) -> Tuple[Puzzle, FrozenSet[Cell]]:
    """A game position: a random layout, a first click that opens its neighbours, then some safe clicks."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    first = cells[int(rng.integers(len(cells)))]
    room = [x for x in cells if x != first and x not in around(rows, cols, *first)]
    picked = rng.choice(len(room), size=min(total, len(room)), replace=False)
    mines = frozenset(room[int(i)] for i in picked)
    shown = reveal(rows, cols, mines, first, {})
    for _ in range(clicks):
        closed = [x for x in cells if x not in shown and x not in mines]
        if closed:
            shown = reveal(rows, cols, mines, closed[int(rng.integers(len(closed)))], shown)
    text = "".join(str(shown[x]) if x in shown else "?" for x in cells)
    return Puzzle(rows, cols, text, mines=len(mines)), mines


def positions(seed: int, count: int, most_unknown: int = 14, density: int = 4):
    """Random small game positions, some without the total, with at most `most_unknown` unknown cells and
    at most one mine in `density` cells."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        rows, cols = int(rng.integers(3, 6)), int(rng.integers(3, 6))
        total = int(rng.integers(1, max(2, rows * cols // density)))
        puzzle, _ = deal(rng, rows, cols, total, int(rng.integers(0, 3)))
        if 0 < puzzle.cells.count("?") <= most_unknown:
            made += 1
            yield puzzle if rng.random() < 0.8 else puzzle.replace(mines=None)


@pytest.mark.parametrize("seed", range(4))
def test_advice_is_honest_against_brute_force(seed):
    for puzzle in positions(seed, 25):
        fits = layouts(puzzle)
        advice = advise(puzzle)
        unknown = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle[r, c] == "?"]
        safe = [x for x in unknown if not any(x in m for m in fits)]
        mines = [x for x in unknown if all(x in m for m in fits)]
        assert list(advice.safe) == safe, puzzle
        assert list(advice.mines) == mines, puzzle
        if len(mines) == len(unknown):   # every closed cell a mine: the game is won, nothing to open
            assert advice.move is None and advice.why == "nothing left to open"
            continue
        assert advice.move in unknown
        chance = Fraction(sum(advice.move in m for m in fits), len(fits))
        assert advice.p_mine == float(chance)
        if safe:
            assert advice.move in safe and advice.why.startswith("safe")
        else:
            # a guess is never a proven mine, and never much riskier than the safest cell
            assert advice.move not in mines
            least = min(Fraction(sum(x in m for m in fits), len(fits)) for x in unknown)
            assert chance <= least + Fraction(1, 20) + Fraction(1, 10**9)
        assert advise(puzzle) == advice   # the same position, the same advice


def best_play(rows: int, cols: int, fits: List[FrozenSet[Cell]], shown: Dict[Cell, int]) -> Dict[Cell, Fraction]:
    """Per closed cell, the chance to win when it is opened now and the play after is perfect."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]

    @lru_cache(maxsize=None)
    def win(group: FrozenSet[FrozenSet[Cell]], opened: FrozenSet[Tuple[Cell, int]]) -> Fraction:
        if len(group) == 1:
            return Fraction(1)
        return max(win_by(group, opened, x) for x in cells if x not in dict(opened)
                   and any(x not in m for m in group))

    def win_by(group: FrozenSet[FrozenSet[Cell]], opened: FrozenSet[Tuple[Cell, int]], x: Cell) -> Fraction:
        outcomes: Dict[FrozenSet[Tuple[Cell, int]], List[FrozenSet[Cell]]] = {}
        for m in group:
            if x not in m:
                after = frozenset(reveal(rows, cols, m, x, dict(opened)).items())
                outcomes.setdefault(after, []).append(m)
        return sum((Fraction(len(g), len(group)) * win(frozenset(g), after) for after, g in outcomes.items()),
                   Fraction(0))

    start = frozenset(shown.items())
    group = frozenset(fits)
    return {x: win_by(group, start, x) for x in cells if x not in shown and any(x not in m for m in group)}


def shown_of(puzzle: Puzzle) -> Dict[Cell, int]:
    """The opened cells of a position with their numbers."""
    return {(r, c): int(puzzle[r, c]) for r in range(puzzle.rows) for c in range(puzzle.cols)
            if puzzle[r, c].isdigit()}


# Positions where the lowest P(mine), first in row order, is not the best move: found by best_play among
# random game positions. In the first, (0, 4) and (2, 3) are both mines in 1 of 4 layouts, but opening
# (0, 4) wins 1 in 2 and (2, 3) 5 in 8; in the second (0, 1) wins 1 in 3 and (0, 2) 2 in 3.
BEATS_THE_SAFEST = [(["012??", "02???", "02???"], 4), (["1??", "???", "?31", "?20", "?10"], 4)]


@pytest.mark.parametrize("rows, mines", BEATS_THE_SAFEST)
def test_endgame_search_finds_a_better_move_than_the_safest(rows, mines):
    puzzle = Puzzle.from_rows(rows, mines=mines)
    fits = layouts(puzzle)
    chances = best_play(puzzle.rows, puzzle.cols, fits, shown_of(puzzle))
    risk = {x: Fraction(sum(x in m for m in fits), len(fits)) for x in chances}
    safest = min(chances, key=lambda x: (risk[x], x))
    best = max(chances.values())
    assert chances[safest] < best   # the position shows what it is for
    advice = advise(puzzle)
    assert chances[advice.move] == best
    assert advice.why.startswith("endgame searched")
    assert f"wins {best.numerator} in {best.denominator}" in advice.why


@pytest.mark.parametrize("seed", range(3))
def test_endgame_move_wins_as_often_as_perfect_play(seed):
    checked = 0
    for puzzle in positions(100 + seed, 1000, most_unknown=9, density=3):
        fits = layouts(puzzle)
        if len(fits) > 40 or any(all(x not in m for m in fits) for x in set(puzzle.unknown_cells)) or len(fits) < 2:
            continue   # a proven-safe cell, not a guess
        advice = advise(puzzle)
        assert advice.why.startswith("endgame")
        chances = best_play(puzzle.rows, puzzle.cols, fits, shown_of(puzzle))
        assert chances[advice.move] == max(chances.values()), puzzle
        won = [a.win for a in advice.alternatives if a.cell == advice.move]
        assert won == [float(chances[advice.move])]
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_budget_is_respected_on_a_large_position():
    # 40 x 40, two numbers: a guess among 1598 cells, each candidate's numbers a count of the whole board
    cells = ["?"] * 1600
    cells[20 * 40 + 20], cells[5 * 40 + 7] = "3", "1"
    puzzle = Puzzle(40, 40, "".join(cells), mines=300)
    analyze(puzzle)   # the first count of a big board imports the general path: not the search's time
    t = time.perf_counter()
    advice = advise(puzzle, budget=0.05)
    assert time.perf_counter() - t < 0.5
    assert advice.move is not None and puzzle[advice.move] == "?" and advice.why.startswith("safest cell")
    assert any(a.progress is None for a in advice.alternatives)   # the budget cut the search short
    assert advice.p_mine == min(a.p_mine for a in advice.alternatives)


def test_no_layout_fits_is_an_error_and_a_full_board_has_no_move():
    with pytest.raises(PuzzleError):
        advise(Puzzle.from_rows(["1?", "??"], mines=0))
    done = advise(Puzzle.from_rows(["1*", "11"], mines=1))
    assert done.move is None and done.mines == ((0, 1),)


def test_json_form():
    advice = advise(Puzzle.from_rows(["??1", "111", "000"], mines=1))
    data = advice.to_json()
    assert data["move"] == [0, 0] and data["p_mine"] == 0.0 and data["mines"] == [[0, 1]]
    assert "proven by the 1" in data["why"]
    assert isinstance(advice, Advice)


def test_cli_advise_text_and_json(tmp_path, capsys):
    board = tmp_path / "b.txt"
    rows, mines = BEATS_THE_SAFEST[0]
    board.write_text("\n".join(rows) + "\n")
    rc, out, err = run_cli(capsys, "advise", board, "--mines", mines, "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["move"] == list(advise(Puzzle.from_rows(rows, mines=mines)).move)
    assert data["why"].startswith("endgame searched")
    rc, out, err = run_cli(capsys, "advise", board, "--mines", mines)
    assert rc == 0 and out.startswith(f"open {tuple(data['move'])}: endgame searched")
    rc, out, err = run_cli(capsys, "advise", tmp_path / "missing.txt")
    assert rc == 2 and "missing.txt" in err


@pytest.mark.parametrize("seed", range(2))
def test_known_mines_are_mines_and_flags_are_not(seed):
    rng = np.random.default_rng(200 + seed)
    checked = 0
    for puzzle in positions(300 + seed, 60, most_unknown=12, density=3):
        fits = layouts(puzzle)
        sure = sorted(set.intersection(*map(set, fits))) if fits else []
        if not sure:
            continue
        r, c = sure[int(rng.integers(len(sure)))]
        i = r * puzzle.cols + c
        flagged = puzzle.replace(cells=puzzle.cells[:i] + "*" + puzzle.cells[i + 1:])
        # as a player's flag, '*' changes nothing; as a known mine, the position is the same too
        assert advise(flagged) == advise(puzzle)
        known = advise(flagged, known_mines=True)
        plain = advise(puzzle)
        assert known.move == plain.move and known.p_mine == plain.p_mine and known.why == plain.why
        assert set(known.mines) == set(plain.mines) - {(r, c)} and known.safe == plain.safe
        checked += 1
    assert checked >= 5


def test_verdict_names_the_engines_move_beside_the_safest_cell():
    for puzzle in positions(400, 20):
        best = verdict(puzzle).best_guess
        if best is None:
            continue
        assert best["engine"] == advise(puzzle, known_mines=True).move_json()
    rows, mines = BEATS_THE_SAFEST[0]
    best = verdict(Puzzle.from_rows(rows, mines=mines)).best_guess
    assert best["engine"]["cell"] == [2, 3] and best["engine"]["why"] == "endgame searched: wins 5 in 8"
    assert best["p_safe"] == 0.75 and best["cell"] != [2, 3]   # best_guess itself keeps its rule


def test_progress_is_the_chance_a_number_proves_another_cell_safe():
    from mineconv.analysis.advice.guess import SAFE_CAP, progress
    from mineconv.analysis.advice.position import count_cells, neighbour_table

    checked = 0
    for puzzle in positions(500, 60, most_unknown=11):
        fits = layouts(puzzle)
        counted = count_cells(puzzle.rows, puzzle.cols, puzzle.cells, puzzle.mines)
        R, C = puzzle.rows, puzzle.cols
        unknown = [(r, c) for r in range(R) for c in range(C) if puzzle[r, c] == "?"]
        for x in unknown:
            groups: Dict[int, List[FrozenSet[Cell]]] = {}
            for m in fits:
                if x not in m:
                    groups.setdefault(sum(n in m for n in around(R, C, *x)), []).append(m)
            if not groups:
                continue
            proven = {v: sum(all(y not in m for m in g) for y in unknown if y != x) for v, g in groups.items()}
            empty = sum(map(len, groups.values()))
            chance = Fraction(sum(len(g) for v, g in groups.items() if proven[v]), empty)
            expected = Fraction(sum(len(g) * min(proven[v], SAFE_CAP) for v, g in groups.items()), empty * SAFE_CAP)
            seen = progress(puzzle.cells, R, C, puzzle.mines, counted, x[0] * C + x[1], neighbour_table(R, C),
                            time.perf_counter() + 10)
            assert seen == pytest.approx((float(chance), float(expected)), abs=1e-12), (puzzle, x)
            checked += 1
    assert checked > 100


def test_pruned_weighing_gives_the_moves_of_weighing_every_candidate_in_full(monkeypatch):
    # the guesses of intermediate and expert games: the pruned weighing skips counts that cannot change the
    # move, so the move, its chance of a mine, the line why and the move's progress are those of the full one
    from mineconv.analysis.advice import guess
    from mineconv.make.play import deal as deal_game, make_setup, play_game
    from mineconv.make.players import Engine

    seen: List[Tuple[Puzzle, Advice]] = []

    def asked(puzzle: Puzzle, *, budget=None) -> Advice:
        advice = advise(puzzle, budget=10.0)
        if advice.p_mine > 0 and not advice.why.startswith("endgame"):
            seen.append((puzzle, advice))
        return advice
    for board, games in (("intermediate", 90), ("expert", 30)):
        setup = make_setup(board)
        for index in range(games):
            play_game(setup, deal_game(setup, 3, index), Engine(asked), index)
    monkeypatch.setattr(guess, "PRUNE", False)
    skipped = 0
    for puzzle, pruned in seen:
        full = advise(puzzle, budget=10.0)
        assert (pruned.move, pruned.p_mine, pruned.why) == (full.move, full.p_mine, full.why), puzzle
        # the move's progress, unless no other candidate could beat it and it was not weighed at all
        progress = {a.cell: a.progress for a in full.alternatives}
        assert all(a.progress in (None, progress[a.cell]) for a in pruned.alternatives if a.cell == pruned.move)
        skipped += sum(a.progress is None for a in pruned.alternatives) > \
            sum(a.progress is None for a in full.alternatives)
    assert len(seen) > 50 and skipped > 10


@pytest.mark.parametrize("shown", [1, 2, 3])
def test_endgame_search_of_the_best_few_names_the_full_searchs_best_few(shown):
    from mineconv.analysis.advice.endgame import search
    from mineconv.analysis.advice.position import count_puzzle, neighbour_table

    cut = 0
    for puzzle in positions(700 + shown, 150, most_unknown=10, density=3):
        counted = count_puzzle(puzzle)
        table = neighbour_table(puzzle.rows, puzzle.cols)
        every = search(puzzle.cells, counted, table, puzzle.mines, time.perf_counter() + 10)
        few = search(puzzle.cells, counted, table, puzzle.mines, time.perf_counter() + 10, shown)
        assert every is not None and few is not None
        assert few[:shown] == every[:shown], puzzle
        cut += len(few) < len(every)
    assert cut > 10


@pytest.mark.parametrize("seed", range(2))
def test_every_searched_move_wins_as_often_as_perfect_play_after_it(seed):
    # every move the endgame search lists, not only its best: the pruned moves inside the tree (a move
    # stopped once it cannot beat the best) and the cells that stand for their look-alikes must leave
    # each listed move's chance exact
    from mineconv.analysis.advice.endgame import search
    from mineconv.analysis.advice.position import count_puzzle, neighbour_table

    checked = 0
    for puzzle in positions(900 + seed, 400, most_unknown=10, density=3):
        fits = layouts(puzzle)
        if not 3 <= len(fits) <= 60 or puzzle.mines is None:
            continue
        counted = count_puzzle(puzzle)
        moves = search(puzzle.cells, counted, neighbour_table(puzzle.rows, puzzle.cols), puzzle.mines,
                       time.perf_counter() + 10)
        assert moves is not None
        chances = best_play(puzzle.rows, puzzle.cols, fits, shown_of(puzzle))
        assert {divmod(cell, puzzle.cols): Fraction(won, n) for cell, won, n in moves} == chances, puzzle
        checked += 1
        if checked == 12:
            break
    assert checked == 12


@pytest.mark.parametrize("seed", range(2))
def test_candidates_are_those_of_the_plain_rule(seed):
    # the plain rule, written out: near the lowest risk; beside a number by risk, the others by their
    # unknown neighbours (the fewest first); both row-major on ties. Boards of 6 x 8 with a click or two
    # open and the total, so many cells next to no number are near the lowest risk, and now and then
    # known-safe cells among them
    from mineconv.analysis.advice import guess
    from mineconv.analysis.advice.position import count_cells, neighbour_table

    rng = np.random.default_rng(seed)
    checked = 0
    while checked < 40:
        rows, cols = 6, 8
        puzzle, mines = deal(rng, rows, cols, int(rng.integers(4, 10)), int(rng.integers(0, 2)))
        cells = list(puzzle.cells)
        for _ in range(int(rng.integers(0, 4))):   # known-safe cells change an inner cell's unknown neighbours
            spots = [i for i, ch in enumerate(cells) if ch == "?" and divmod(i, cols) not in mines]
            if spots:
                cells[spots[int(rng.integers(len(spots)))]] = "."
        text = "".join(cells)
        counted = count_cells(rows, cols, text, puzzle.mines)
        if not counted.solutions:
            continue
        table = neighbour_table(rows, cols)
        live = [(i, p) for i, p in zip(counted.unknown, counted.chances) if p < 1.0]
        least = min((p for _, p in live), default=0.0)
        near = [(i, p) for i, p in live if p <= least + guess.MARGIN]
        beside = [any(text[j].isdigit() for j in table[i]) for i, _ in near]
        edge = sorted((ip for ip, b in zip(near, beside) if b), key=lambda ip: (ip[1], ip[0]))
        inner = sorted((ip for ip, b in zip(near, beside) if not b),
                       key=lambda ip: (sum(text[j] == "?" for j in table[ip[0]]), ip[0]))
        plain = sorted(edge[:guess.FRONTIER_CANDIDATES] + inner[:guess.INTERIOR_CANDIDATES],
                       key=lambda ip: (ip[1], ip[0]))
        assert guess.candidates(text, counted, table) == plain, text
        checked += 1
