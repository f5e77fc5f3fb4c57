"""What a board implies, exactly: safe cells, certain mines, the solution count, mine probabilities.

`analyze` runs propagation (`propagation`), the SAT backbone (`backbone`) and the exact counter
(`counting`, with `marginals` on big boards) and returns one `Analysis`, which also renders itself as
the JSON of `mineconv analyze --json`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple, TypeVar

import numpy as np

from ..core.bounds import DEFAULT_MEMORY_BUDGET, AnalysisTimeout, Bounds, ProgressCallback
from ..core.deprecated_calls import callable_array, callable_list, callable_optional_list
from ..core.display import svg_picture
from ..core.errors import InputError
from ..core.jsonout import decimal_digits, decimal_text, json_text, unlimited_int_digits  # noqa: F401 (re-exported)
from ..core.puzzle import Puzzle
from ..core.system import LinearSystem, build_system, unknown_flat
from .cellstate import MINE, SAFE, UNDECIDED
from .counting.count import DEFAULT_MAX_STATES, CountingLimitError, count_solutions
from .counting.polynomials import big_number
from .levels.backbone import FALLBACK_CUT, full_backbone
from .levels.propagation import LEVELS as PROPAGATION_LEVELS
from .levels.propagation import propagate
from .small.groups import QUICK_MEMORY
from .small.quick import QUICK_MAX_CELLS, quick_count, quick_system

LEVELS = PROPAGATION_LEVELS + ("full",)



def count_text(n: int, max_digits: int = 30) -> str:
    """A solution count for people: exact when short, else mantissa, exponent and number of digits."""
    if n < 0 or decimal_digits(n) <= max_digits:
        with unlimited_int_digits():
            s = str(n)
        if len(s) <= max_digits:
            return s
        return f"{s[0]}.{s[1:4]}e{len(s) - 1} ({len(s)} digits)"
    digits = decimal_digits(n)
    # str() of a count with 200,000 digits takes seconds (quadratic before Python 3.12): only the first
    # four digits are shown, a four-digit quotient, linear in the size of n
    m = big_number(n)   # GMP: as ints, the quotient of a 16-million-bit count took 12 s
    head = str(m // type(m)(10) ** (digits - 4))
    return f"{head[0]}.{head[1:4]}e{digits - 1} ({digits} digits)"


def count_json(key: str, n: Optional[int]) -> Dict[str, object]:
    """{key: n, key_str: exact decimal, key_log10: log10 n}: jq and JavaScript misread integers past 2^53."""
    if n is None:
        return {key: None, key + "_str": None, key + "_log10": None}
    return {key: n, key + "_str": decimal_text(n), key + "_log10": math.log10(n) if n > 0 else None}


def report_json(data: Dict[str, object]) -> str:
    """The JSON text of a report, big counts written as core.jsonout's rule says (json_text)."""
    return json_text(data)


@dataclass(frozen=True)
class Analysis:
    """The answer to `analyze`: decisions of one level, and the exact count and probabilities.

    `values[i]` is the decision for variable i + 1 (the unknown cells in row-major order): -1 open,
    0 safe, 1 mine. `mine_solutions[i]` is the number of solutions with a mine on variable i + 1 (None
    on big boards where only `approx_probabilities` were affordable). `solutions` is None only when
    the counter gave up (`count_error` says why).
    """

    puzzle: Puzzle
    system: LinearSystem
    level: str
    values: np.ndarray
    solutions: Optional[int]
    mine_solutions: Optional[Tuple[int, ...]]
    count_error: Optional[str] = None
    by_level: Dict[str, int] = field(default_factory=dict)
    approx_probabilities: Optional[Tuple[float, ...]] = None
    # "complete"; "partial" when the counter gave up (state cap or memory budget) but the level's decisions
    # are whole; "timeout" when time ran out: `values` then holds only the cells proven before it did.
    # (A "partial" board with a total and no deadline: backbone.FALLBACK_SECONDS may cut what the total
    # decides short of whole; count_error then says so.)
    status: str = "complete"

    @property
    def feasible(self) -> bool:
        """True when at least one solution exists (or, uncounted, when the level found no contradiction)."""
        return self.solutions != 0

    @property
    def unique(self) -> Optional[bool]:
        """True when the puzzle has exactly one solution; None when uncounted and the decisions cannot tell."""
        if self.solutions is not None:
            return self.solutions == 1
        if self.level != "full":
            return None  # a propagation level leaves cells open on unique boards too
        if bool((self.values != UNDECIDED).all()):
            return True
        if self.status == "timeout" or FALLBACK_CUT in (self.count_error or ""):
            return None  # the full level's decisions are incomplete
        return False  # the complete backbone leaves a cell open: a second solution exists

    @property
    def probabilities_exact(self) -> bool:
        """True when the probabilities are exact fractions (not double-precision approximations)."""
        return self.mine_solutions is not None

    @property
    def safe_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves safe, row-major."""
        classes = self.__dict__.get("_cell_classes")   # a quick answer's: one pass over its classes of cells
        if classes is not None and self.solutions:
            return callable_list(classes.certain(self.solutions, self.puzzle.cols, False), "Analysis.safe_cells")
        return callable_list(map(tuple, self.system.var_rc[self.values == SAFE].tolist()), "Analysis.safe_cells")

    @property
    def mine_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves to be mines, row-major."""
        classes = self.__dict__.get("_cell_classes")
        if classes is not None and self.solutions:
            return callable_list(classes.certain(self.solutions, self.puzzle.cols, True), "Analysis.mine_cells")
        return callable_list(map(tuple, self.system.var_rc[self.values == MINE].tolist()), "Analysis.mine_cells")

    @property
    def probabilities(self) -> Optional[list]:
        """Mine probability of each variable (id order): Fractions, or floats on big boards (see
        probabilities_exact); None without a count or a solution."""
        if not self.solutions:
            return None
        if self.mine_solutions is not None:
            # one gcd per distinct count (a million Fractions took minutes)
            solutions = self.solutions
            return callable_list(per_count(self.mine_solutions, lambda n: Fraction(n, solutions)),
                                 "Analysis.probabilities")
        return callable_optional_list(self.approx_probabilities, "Analysis.probabilities")

    @property
    def probability_array(self) -> np.ndarray:
        """The mine probabilities as a (rows, cols) float array, NaN on every cell that is not unknown."""
        grid = np.array([[np.nan if p is None else float(p) for p in row] for row in self.probability_grid],
                        dtype=float).reshape(self.puzzle.rows, self.puzzle.cols)
        return callable_array(grid, "Analysis.probability_array")

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows an analysis as the board's probability picture (None: no renderer, so text)."""
        return svg_picture(self.puzzle, self)

    @property
    def probability_grid(self) -> List[List[Optional[float]]]:
        """Rows of floats (mine probability of each unknown cell) with None on every other cell."""
        rows, cols = self.puzzle.rows, self.puzzle.cols
        # a quick answer's classes of cells (quick.CellClasses) give the grid in one lookup per cell
        classes = self.__dict__.get("_cell_classes")
        probs = None if classes is not None else chance_list(self)
        flat: List[Optional[float]]
        if classes is not None and self.solutions:
            flat = classes.chances(self.solutions)
        elif probs and rows * cols <= SMALL_ANSWER:
            # one pass over the cells string: variables are the unknown cells in row-major order
            following = iter(probs).__next__
            flat = [following() if symbol == "?" else None for symbol in self.puzzle.cells]
        else:
            # only ints and floats are made here, which the cyclic collector does not track
            flat = [None] * (rows * cols)
            for i, p in zip(unknown_flat(self.puzzle).tolist(), probs or ()):
                flat[i] = p
        return callable_list([flat[r * cols:(r + 1) * cols] for r in range(rows)], "Analysis.probability_grid")

    def marked_puzzle(self) -> Puzzle:
        """The puzzle with the decided cells filled in: '.' safe, '*' mine, '?' still open."""
        buf = np.frombuffer(self.puzzle.cells.encode("ascii"), dtype=np.uint8).copy()
        # in numpy: a loop over 16 million cells took 12 s of a 4000x4000 board's `--timeout 5`
        flat = self.system.var_rc[:, 0].astype(np.int64) * self.puzzle.cols + self.system.var_rc[:, 1]
        buf[flat[self.values == MINE]] = ord("*")
        buf[flat[self.values == SAFE]] = ord(".")
        return self.puzzle.replace(cells=buf.tobytes().decode("ascii"))

    def to_json(self) -> dict:
        """The JSON report of `mineconv analyze --json`."""
        ok = self.feasible
        data = {
            **count_json("solutions", self.solutions),
            "unique": self.unique,
            "safe": [list(rc) for rc in self.safe_cells] if ok else [],
            "mines": [list(rc) for rc in self.mine_cells] if ok else [],
            "probabilities": list(self.probability_grid),
            "level": self.level,
            "rows": self.puzzle.rows,
            "cols": self.puzzle.cols,
            "unknown": self.system.num_vars,
            "open": int((self.values == UNDECIDED).sum()) if ok else self.system.num_vars,
            "total_mines": None if self.system.total is None
            else self.system.total + self.puzzle.known_mine_count,
        }
        if self.solutions and not self.probabilities_exact:
            data["probabilities_exact"] = False
        if self.by_level:
            data["decided_by_level"] = dict(self.by_level)
        if self.count_error:
            data["count_error"] = self.count_error
        data["status"] = self.status
        return data


T = TypeVar("T")
# answers of at most this many unknown cells find their distinct counts by value (a set), bigger ones by
# object identity: on a 1000x1000 board the counts have 200,000 digits, each costly to hash, while cells
# of one kind (the free cells, above all) share one count object
SMALL_ANSWER = 4096


def per_count(counts: Sequence[int], f: Callable[[int], T]) -> Iterator[T]:
    """f(n) for each n of counts, in order, with f called once per distinct count."""
    if len(counts) <= SMALL_ANSWER:
        by_value = {n: f(n) for n in set(counts)}
        return map(by_value.__getitem__, counts)
    first = {id(n): n for n in counts}
    by_id = {key: f(n) for key, n in first.items()}
    return map(by_id.__getitem__, map(id, counts))


def chance_list(a: Analysis) -> Optional[List[float]]:
    """mine_chances as a list."""
    counts = a.mine_solutions
    if a.solutions and counts is not None and len(counts) <= SMALL_ANSWER:
        return _small_chances(counts, a.solutions)
    chances = mine_chances(a)
    return None if chances is None else chances.tolist()


def mine_chances(a: Analysis) -> Optional[np.ndarray]:
    """float(a.probabilities), without a Fraction per cell: each distinct count is divided once.

    On a 1000x1000 board the counts have 200,000 digits, and a million Fractions (a gcd each) took minutes;
    int / int is correctly rounded, so it gives the float of the Fraction.
    """
    if not a.solutions:
        return None
    counts = a.mine_solutions
    if counts is None:
        return None if a.approx_probabilities is None else np.asarray(a.approx_probabilities, dtype=float)
    if len(counts) <= SMALL_ANSWER:   # numpy's unique (_chances_by_identity) costs more than a set here
        return np.array(_small_chances(counts, a.solutions), dtype=float)
    return _chances_by_identity(counts, a.solutions)


def _small_chances(counts: Sequence[int], solutions: int) -> List[float]:
    return list(per_count(counts, lambda n: n / solutions))


def _chances_by_identity(counts: Sequence[int], solutions: int) -> np.ndarray:
    # cells of one kind share one count object (the free cells, above all): one division per object
    # by runs of one value, not numpy's unique of the ids: sorting 16 million ids took 2-3 s at 4000x4000,
    # where the free cells are one run (one division per distinct object still, through `done`). The
    # comparison of neighbours sees one object at once (Python's == checks identity first): 0.2 s there
    objects = np.empty(len(counts), dtype=object)
    objects[:] = counts
    starts = np.flatnonzero(np.concatenate(([True], objects[1:] != objects[:-1])))
    done: Dict[int, float] = {}
    run_chances = [done[i] if (i := id(counts[s])) in done else done.setdefault(i, counts[s] / solutions)
                   for s in starts.tolist()]
    return np.repeat(np.array(run_chances, dtype=float), np.diff(np.append(starts, len(counts))))


def analyze(puzzle: Puzzle, mines: Optional[int] = None, level: str = "full", *, count: bool = True,
            compare_levels: bool = False, max_states: int = DEFAULT_MAX_STATES,
            memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, timeout: Optional[float] = None,
            progress: Optional[ProgressCallback] = None) -> Analysis:
    """Decide cells at `level`, count the solutions exactly and compute each cell's mine probability.

    `count=False` skips the counting at the propagation levels (the full level always counts: the
    total mine count's share of the backbone comes from the counts). The counter stops before its
    estimated memory passes `memory_budget` bytes (None: no budget; the analysis is then "partial", the
    count missing); past `timeout` seconds the analysis stops with status "timeout" and the cells
    proven by then. `progress(stage, done, total)` hears how far each long stage got.

    On a board of at most 1024 cells, at the full level with the default `max_states` (or more), a memory
    budget of 64 MiB or more and no timeout or progress, the count is made over groups of cells
    (`quick`), with its own 16 MiB budget past which the general path takes over; it can finish a count
    the cell-by-cell counter's state cap would stop, so such a board is "complete" (the same decisions,
    plus the count) where the general path says "partial". A lowered `max_states` or budget keeps the
    general path and its answer as it is.
    """
    if level not in LEVELS:
        raise InputError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if (level == "full" and not compare_levels and timeout is None and progress is None
            and max_states >= DEFAULT_MAX_STATES and (memory_budget is None or memory_budget >= 4 * QUICK_MEMORY)
            and puzzle.rows * puzzle.cols <= QUICK_MAX_CELLS):
        quick = _quick_analysis(puzzle, mines)
        if quick is not None:
            return quick
    bounds = Bounds(memory_budget, timeout, progress)
    system = build_system(puzzle, mines)
    k = system.num_vars
    by_level: Dict[str, int] = {}
    infeasible = Analysis(puzzle, system, level, np.full(k, UNDECIDED, dtype=np.int8), 0, (0,) * k,
                          by_level=by_level)
    if system.impossible.any() or (system.total is not None and not 0 <= system.total <= k):
        return infeasible
    gac = propagate(puzzle, "gac", system=system)
    if not gac.consistent:
        return infeasible
    known = gac.values
    try:
        return _decide_and_count(puzzle, mines, level, count, compare_levels, max_states, bounds, system,
                                 gac, by_level, infeasible)
    except AnalysisTimeout as exc:
        # whatever is proven belongs to the full level; another level's would claim more than it decides
        mine = exc.level == level or level == "full"
        values = exc.values if mine and exc.values is not None else known
        return Analysis(puzzle, system, level, values, None, None, exc.message, by_level, status="timeout")


def _quick_analysis(puzzle: Puzzle, mines: Optional[int]) -> Optional[Analysis]:
    """The full level of a small board from its exact count alone (quick.py); None: take the general path."""
    system = quick_system(puzzle, mines)
    k = system.num_vars
    counted = quick_count(puzzle, system)
    if counted is None:
        return None
    count, values, classes = counted
    if values is None:
        return Analysis(puzzle, system, "full", np.full(k, UNDECIDED, dtype=np.int8), 0, (0,) * k)
    # Analysis(puzzle, system, "full", values, count.solutions, count.mine_solutions), made without the
    # frozen dataclass's __init__: it sets each of the ten fields through object.__setattr__, 3 us of a
    # 40 us analysis of a 9x9 position (issue 24, target 1)
    made = object.__new__(Analysis)
    made.__dict__.update(puzzle=puzzle, system=system, level="full", values=values, solutions=count.solutions,
                         mine_solutions=count.mine_solutions, count_error=None, by_level={},
                         approx_probabilities=None, status="complete", _cell_classes=classes)
    return made


def _decide_and_count(puzzle: Puzzle, mines: Optional[int], level: str, count: bool, compare_levels: bool,
                      max_states: int, bounds: Bounds, system: LinearSystem, gac, by_level: Dict[str, int],
                      infeasible: Analysis) -> Analysis:
    """The levels and the count of `analyze`, once the board is known to be consistent at gac."""
    counted = None
    error = None
    full_values = gac.values   # replaced by the backbone when the full level or the comparison needs it
    if level == "full" or compare_levels:
        backbone, counted, error = full_backbone(puzzle, mines, system, gac.values, max_states, bounds)
        if backbone is None:
            return infeasible
        full_values = backbone
    if compare_levels:
        by_level["gac"] = gac.decided
        for lv in ("2rc", "3rc"):
            by_level[lv] = propagate(puzzle, lv, system=system, fixed=gac.values, bounds=bounds).decided
        by_level["full"] = int((full_values != UNDECIDED).sum())
    if level == "full":
        values = full_values
    elif level == "gac":
        values = gac.values
    else:
        prop = propagate(puzzle, level, system=system, fixed=gac.values, bounds=bounds)
        if not prop.consistent:
            return infeasible
        values = prop.values
    if counted is None and error is None and count:
        try:
            counted = count_solutions(system, values, max_states, bounds=bounds)
        except AnalysisTimeout as exc:
            exc.values, exc.level = values, level
            raise
        except CountingLimitError as exc:
            error = exc.message
    if counted is None:
        return Analysis(puzzle, system, level, values, None, None, error, by_level,
                        status="partial" if error else "complete")
    if counted.solutions == 0:
        return infeasible
    return Analysis(puzzle, system, level, values, counted.solutions, counted.mine_solutions, error,
                    by_level, counted.approx)
