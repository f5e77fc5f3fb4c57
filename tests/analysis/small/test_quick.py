"""The small-board path (analysis/quick.py, groups.py) holds the general path's answers, integer for integer.

quick_count is compared with count_solutions (the cell by cell counter) on a few hundred random boards,
with its enumeration of small components, its programme over groups and its pair rule each forced to do
all the work; the LinearSystem it builds with the build_system's; analyze's quick answer with the general
path's (a progress callback turns the quick path off) and with brute force.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from helpers import brute_force, placed_board, random_board
from mineconv import Puzzle, analyze
from mineconv.analysis import count_solutions, frontier, groups, quick
from mineconv.core.system import build_system


def boards(seed: int, n: int):
    """Random boards: tiny mixed ones (known mines, safe marks, wrong counts, wrong totals) and game-like
    placed ones up to 9 x 9, half of them with the total."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        if i % 2:
            yield random_board(rng, max_unknown=16)
        else:
            rows, cols = int(rng.integers(2, 10)), int(rng.integers(2, 10))
            p = placed_board(rng, rows, cols, density=float(rng.uniform(0.1, 0.3)), hide=float(rng.uniform(0.3, 0.8)),
                             marks=bool(rng.random() < 0.2))
            yield p.replace(mines=None) if rng.random() < 0.5 else p.replace(mines=p.unknown_count // 4
                                                                             + p.known_mine_count)


def general(p: Puzzle):
    """analyze() on the general path (the quick path takes no progress callback)."""
    return analyze(p, progress=lambda stage, done, total: None)


# every strategy of the quick counter does all the work once: enumeration and the programme (without the
# closed form of two groups), the pair rule, the answer cell by cell (_per_cell)
STRATEGIES = {"default": {}, "programme": {"ENUMERATE_GROUPS": 1, "CLOSED_FORM": False},
              "enumerate": {"ENUMERATE_GROUPS": 10 ** 6, "ENUMERATE_BOXES": 10 ** 9, "PAIR_RULE_GROUPS": 0,
                            "CLOSED_FORM": False},
              "pairs": {"PAIR_RULE_GROUPS": 0, "ENUMERATE_GROUPS": 1},
              "tried": {"ENUMERATE_GROUPS": 1, "TRY_ENUMERATE_GROUPS": 10 ** 6, "ENUMERATE_VISITS": 2},
              "cell by cell": {"MAX_CLASSES": 6},
              "bulk rounds": {"BULK_COUNTS": 0}, "count by count": {"BULK_COUNTS": 10 ** 9}}


def use(monkeypatch, strategy: str) -> None:
    """Set the module constants of a strategy (components counted by another strategy forgotten)."""
    quick.forget_components()
    for name, value in STRATEGIES[strategy].items():
        module = (groups if name.startswith(("ENUMERATE", "TRY_ENUMERATE")) or name == "CLOSED_FORM" else
                  frontier if name == "BULK_COUNTS" else quick)
        monkeypatch.setattr(module, name, value)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_quick_count_equals_the_counter(monkeypatch, strategy):
    use(monkeypatch, strategy)
    checked = 0
    for p in boards(24, 300):
        ref_system = build_system(p)
        if ref_system.impossible.any() or (ref_system.total is not None and not 0 <= ref_system.total <= ref_system.num_vars):
            continue
        counted = quick.quick_count(p, quick.quick_system(p, None))
        ref = count_solutions(ref_system)
        assert counted is not None
        mine, values, classes = counted
        assert mine.solutions == ref.solutions, p
        if ref.solutions:
            assert mine.mine_solutions == ref.mine_solutions, p
            assert values.tolist() == [0 if x == 0 else 1 if x == ref.solutions else -1 for x in ref.mine_solutions]
            if classes is not None:   # the answer per class: each unknown cell's class holds its number
                unknown = [i for i, ch in enumerate(p.cells) if ch == "?"]
                assert [i for i, c in enumerate(classes.codes) if c] == unknown, p
                assert [classes.mine_solutions[classes.codes[i]] for i in unknown] == list(ref.mine_solutions), p
        else:
            assert values is None
        checked += 1
    assert checked >= 250


def played_positions(rows: int, cols: int, mines: int, seed: int):
    """The positions of a game the baseline plays, and beside each, the positions a guess weigher imagines:
    an unknown cell next to a count given each number it could show (each shares most of its components
    with the position before it, the cache's case)."""
    from mineconv.make.play import Board, deal, make_setup
    from mineconv.make.players import Baseline

    setup = make_setup(f"{rows}x{cols}/{mines}")
    board = Board(deal(setup, seed, 0))
    board.open(*setup.first)
    player = Baseline()
    rng = np.random.default_rng(seed)
    while not board.over:
        p = board.position()
        yield p
        edge = [i for i, ch in enumerate(p.cells) if ch == "?" and any(
            p.cells[j] in "012345678" for j in board.near[i])]
        for i in rng.choice(edge, size=min(2, len(edge)), replace=False).tolist() if edge else ():
            for v in range(4):
                yield p.replace(cells=p.cells[:i] + str(v) + p.cells[i + 1:])
        board.open(*player(p))


def test_the_component_cache_answers_as_counting_afresh(monkeypatch):
    # every component through the cache, its answers against counting each position afresh, on positions
    # that share components (a game's, and the imagined ones beside them)
    monkeypatch.setattr(quick, "CACHED_GROUPS", 1)
    quick.forget_components()
    counted = []
    real = quick.component_polynomials
    monkeypatch.setattr(quick, "component_polynomials", lambda *a: counted.append(1) or real(*a))
    calls = {"cached": 0, "fresh": 0}   # the components each way counted
    for rows, cols, mines, seed in ((9, 9, 10, 1), (16, 16, 40, 2), (16, 30, 99, 3), (16, 30, 99, 4)):
        for p in played_positions(rows, cols, mines, seed):
            system = quick.quick_system(p, None)
            answers = {}
            for way, size in (("cached", 512), ("fresh", 0)):
                monkeypatch.setattr(quick, "COMPONENT_CACHE", size)
                before = len(counted)
                answers[way] = quick.quick_count(p, system)
                calls[way] += len(counted) - before
            cached, fresh = answers["cached"], answers["fresh"]
            assert (cached is None) == (fresh is None), p
            if cached is not None:
                assert cached.exact == fresh.exact, p
                assert (cached.values is None) == (fresh.values is None), p
                assert cached.values is None or cached.values.tolist() == fresh.values.tolist(), p
    # the cache answered most components: fewer were counted through it than afresh
    assert calls["fresh"] > 500 and calls["cached"] < calls["fresh"] / 2, calls


@pytest.mark.parametrize("strategy", ["default", "pairs"])
def test_quick_outcome_is_analyzes_count_and_safe_cells(monkeypatch, strategy):
    # the guess weigher's count of an imagined position: the solutions and the unknown cells no solution
    # mines, as the general path's analysis has them, on random boards and on game positions beside the
    # imagined ones
    from mineconv.analysis.propagation import SAFE

    use(monkeypatch, strategy)
    positions = list(boards(31, 150)) + [p for rows, cols, mines, seed in ((9, 9, 10, 5), (16, 30, 99, 6))
                                         for p in played_positions(rows, cols, mines, seed)]
    safe_seen = 0
    for p in positions:
        mine = quick.quick_outcome(p)
        ref = general(p)
        assert mine is not None, p
        want = (ref.solutions, int((ref.values == SAFE).sum()) if ref.solutions else 0)
        assert mine == want, p
        safe_seen += bool(want[1])
    assert safe_seen > 50


def test_a_turns_count_per_class_is_analyzes(monkeypatch):
    # the engine's count of a turn (advice/position.count_cells) straight from the quick count's classes,
    # against the same through analyze's Analysis: every field equal, floats to the bit
    from mineconv.analysis.advice import position

    positions = [p for p in boards(41, 150) if "*" not in p.cells] + [
        p for rows, cols, mines, seed in ((9, 9, 10, 7), (16, 30, 99, 8)) for p in played_positions(rows, cols, mines, seed)]
    counted = 0
    for p in positions:
        mine = position.count_cells(p.rows, p.cols, p.cells, p.mines)
        monkeypatch.setattr(position, "QUICK_COUNT", False)
        want = position.count_cells(p.rows, p.cols, p.cells, p.mines)
        monkeypatch.setattr(position, "QUICK_COUNT", True)
        assert mine == want, p
        counted += bool(want.solutions)
    assert counted > 150


def test_a_turns_count_takes_an_imagined_position_once_and_answers_as_afresh(monkeypatch):
    # quick_outcome keeps the positions it counted; quick_classes of the very same position (cells and
    # total) takes it once instead of counting again, and answers as counting afresh; another total, or
    # a second call, is counted anew
    settled = []
    real = quick.settled_frontier
    monkeypatch.setattr(quick, "settled_frontier", lambda p: settled.append(1) or real(p))
    taken = 0
    for p in played_positions(16, 30, 99, 9):
        for q in (p, p.replace(mines=p.mines - 1)):
            quick.forget_components()
            fresh = quick.quick_classes(q)
            other = q.replace(mines=q.mines - 1)   # at most the unknown cells, as q
            other_fresh = quick.quick_classes(other)
            quick.forget_components()
            assert quick.quick_outcome(q) is not None
            before = len(settled)
            assert quick.quick_classes(other) == other_fresh and len(settled) == before + 1, q
            assert quick.quick_classes(q) == fresh and len(settled) == before + 1, q
            assert quick.quick_classes(q) == fresh and len(settled) == before + 2, q
            taken += 1
    assert taken > 100


def test_a_tried_enumeration_gives_up_past_its_visits_and_the_programme_counts(monkeypatch):
    # components first tried solution by solution: within the visits allowed the enumeration answers,
    # past them it gives up (None) and the programme counts; both ways the answer is the programme's alone
    # (which test_quick_count_equals_the_counter holds against the general path)
    use(monkeypatch, "tried")
    tried = {"answered": 0, "gave up": 0}
    real = groups._enumerate

    def counted(sizes, cons_of, rem, visits=None):
        before = dict(rem)
        out = real(sizes, cons_of, rem, visits)
        assert rem == before   # the counts' needs are left as they were, given up or not
        if visits is not None:
            tried["answered" if out is not None else "gave up"] += 1
        return out
    monkeypatch.setattr(groups, "_enumerate", counted)
    for p in [p for rows, cols, mines, seed in ((16, 16, 40, 12), (16, 30, 99, 13))
              for p in played_positions(rows, cols, mines, seed)]:
        quick.forget_components()
        mine = quick.quick_count(p, quick.quick_system(p, None))
        quick.forget_components()
        monkeypatch.setattr(groups, "TRY_ENUMERATE_GROUPS", 0)
        ref = quick.quick_count(p, quick.quick_system(p, None))
        assert (mine.exact, mine.classes) == (ref.exact, ref.classes), p
        monkeypatch.setattr(groups, "TRY_ENUMERATE_GROUPS", 10 ** 6)
    assert tried["answered"] > 20 and tried["gave up"] > 20, tried


def test_quick_system_is_build_system():
    for p in boards(5, 150):
        mine = quick.quick_system(p, None)
        assert "_built" not in mine.__dict__    # the arrays wait until read
        ref = build_system(p)
        for name in ("var_grid", "var_rc", "con_rc", "con_len", "con_rhs"):
            a, b = getattr(mine, name), getattr(ref, name)
            assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all(), (name, p)
        assert mine.total == ref.total and mine.num_vars == ref.num_vars


def test_reading_an_answer_builds_no_system():
    # the cells, probabilities and JSON of a quick answer need the variables' cells alone: read off the
    # cells string, they are build_system's var_rc, and the rest of the system is never made
    read = 0
    for p in boards(6, 150):
        a = analyze(p)
        if "_built" in a.system.__dict__ or not isinstance(a.system, quick.QuickSystem):
            continue    # the general path's answer
        rc, ref = a.system.var_rc, build_system(p).var_rc
        assert rc.dtype == ref.dtype and rc.shape == ref.shape and (rc == ref).all(), p
        a.to_json(), a.safe_cells, a.mine_cells
        grid = a.probability_grid
        assert "_built" not in a.system.__dict__, p
        assert a.__dict__.get("_cell_classes") is not None or not a.solutions, p   # the grid came per class
        # the grid against a plain one: None off the unknown cells, each unknown cell's float Fraction
        want = [[None] * p.cols for _ in range(p.rows)]
        for (r, c), f in zip(ref.tolist(), a.probabilities or ()):
            want[r][c] = float(f)
        assert grid == want, p
        read += 1
    assert read >= 100


def test_small_answers_divide_as_the_big_ones(monkeypatch):
    # up to SMALL_ANSWER cells the distinct counts are found by value and divided in plain Python; beyond,
    # by object identity (Fractions) and numpy's unique (floats): the same answers, each float that of
    # its exact Fraction
    from mineconv.analysis import report
    checked = 0
    for p in boards(8, 150):
        a = analyze(p)
        if not a.solutions:
            continue
        small, exact, grid = report.mine_chances(a), list(a.probabilities), a.probability_grid
        monkeypatch.setattr(report, "SMALL_ANSWER", 0)
        big, big_exact, big_grid = report.mine_chances(a), list(a.probabilities), a.probability_grid
        monkeypatch.undo()
        assert small.dtype == big.dtype == np.float64 and small.tolist() == big.tolist(), p
        assert grid == big_grid and report.chance_list(a) == small.tolist(), p
        assert exact == big_exact == [Fraction(n, a.solutions) for n in a.mine_solutions], p
        assert small.tolist() == [float(f) for f in exact], p
        checked += 1
    assert checked >= 100


def test_quick_analysis_is_the_general_one():
    for p in boards(11, 250):
        a, b = analyze(p), general(p)
        assert a.to_json() == b.to_json(), p
        assert (a.values == b.values).all() and a.values.dtype == b.values.dtype
        assert (a.solutions, a.mine_solutions, a.status, a.count_error) == \
            (b.solutions, b.mine_solutions, b.status, b.count_error)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_quick_analysis_against_brute_force(monkeypatch, strategy):
    use(monkeypatch, strategy)
    for p in boards(3, 200):
        if p.unknown_count > 16:
            continue
        sols = brute_force(p)
        a = analyze(p)
        assert a.solutions == sols.shape[0], p
        if sols.shape[0]:
            assert list(a.mine_solutions) == sols.sum(axis=0).tolist(), p
            assert ((a.values == 0) == ~sols.any(axis=0)).all() and ((a.values == 1) == sols.all(axis=0)).all()


@pytest.mark.parametrize("strategy", ["default", "bulk rounds", "count by count"])
def test_game_positions_of_every_size_agree_with_the_general_path(monkeypatch, strategy):
    from mineconv.make.generate import random_puzzle

    use(monkeypatch, strategy)
    for rows, cols, mines in ((9, 9, 10), (16, 16, 40), (16, 30, 99)):
        for seed in range(3):
            p = random_puzzle(rows, cols, mines=mines, reveal="game", seed=seed, openings=1 + seed)
            a, b = analyze(p), general(p)
            assert a.to_json() == b.to_json() and a.mine_solutions == b.mine_solutions


def test_big_components_hand_over_to_the_general_path(monkeypatch):
    monkeypatch.setattr(groups, "QUICK_MEMORY", 0)
    monkeypatch.setattr(groups, "ENUMERATE_GROUPS", 1)
    monkeypatch.setattr(groups, "TRY_ENUMERATE_GROUPS", 0)   # nor tried solution by solution
    p = Puzzle.from_rows(["?????", "?1?2?", "?????", "?2?1?", "?????"], mines=5)
    assert quick.quick_count(p, quick.quick_system(p, None)) is None
    assert analyze(p).to_json() == general(p).to_json()


def test_the_callers_state_cap_and_memory_budget_keep_the_general_path(monkeypatch):
    """A lowered max_states or a small memory budget is the caller's: the quick path (which has neither)
    stays out of the way, so such a call answers exactly as the general path does, "partial" included."""
    from mineconv.analysis import report
    from mineconv.analysis.counting import DEFAULT_MAX_STATES
    from mineconv.make.generate import random_puzzle

    boards = [random_puzzle(20, 20, mines=60, reveal="game", seed=seed, openings=1) for seed in range(4)]
    quick_taken = []
    real = report.quick_system
    monkeypatch.setattr(report, "quick_system", lambda *a: quick_taken.append(1) or real(*a))
    partial = 0
    for p in boards:
        for kwargs in ({"max_states": 1}, {"max_states": DEFAULT_MAX_STATES - 1}, {"memory_budget": groups.QUICK_MEMORY}):
            a = analyze(p, **kwargs)
            assert not quick_taken, kwargs
            assert a.to_json() == analyze(p, progress=lambda *_: None, **kwargs).to_json()
        capped = analyze(p, max_states=1)
        if capped.status == "partial":
            partial += 1
            # where the default call takes the quick path, it is never worse in kind: the same decisions,
            # and a count the capped general path did not reach ("complete" where that one is "partial")
            full = analyze(p)
            assert quick_taken and full.status == "complete" and full.solutions
            assert (full.values == capped.values).all()
            assert full.to_json() == general(p).to_json()
            quick_taken.clear()
    assert partial >= 2


def test_the_quick_analysis_has_every_field_the_constructor_sets():
    """The quick path makes its Analysis without the dataclass's __init__: the same fields, the same values
    and defaults as Analysis(...) gives, and still frozen (a field added to Analysis must be added there)."""
    import dataclasses

    from mineconv.analysis.report import Analysis

    p = Puzzle(3, 3, "1?1?????1", mines=2)
    quick_made = analyze(p)
    by_init = Analysis(quick_made.puzzle, quick_made.system, "full", quick_made.values, quick_made.solutions,
                       quick_made.mine_solutions)
    names = [f.name for f in dataclasses.fields(Analysis)]
    # besides the fields, the quick answer keeps its classes of cells (quick.CellClasses) for the grid
    assert quick_made.__dict__["_cell_classes"] is not None
    assert sorted(set(vars(quick_made)) - {"_cell_classes"}) == sorted(vars(by_init)) == sorted(names)
    for name in names:
        assert np.array_equal(getattr(quick_made, name), getattr(by_init, name)), name
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick_made.level = "gac"   # type: ignore[misc]


def test_the_quick_path_leaves_no_reference_cycles():
    # garbage in cycles waits for the collector, whose passes a player's assistant or a replay audit,
    # analysing thousands of positions, would pay for (the enumeration's recursive closure left ~25
    # objects per 9x9 position, its solutions among them)
    import gc

    positions = list(boards(11, 60))
    for p in positions:
        analyze(p).probability_grid
    gc.collect()
    gc.disable()
    try:
        for p in positions:
            analyze(p).probability_grid
        assert gc.collect() == 0
    finally:
        gc.enable()
