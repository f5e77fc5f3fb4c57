"""The CNF encoder: a Puzzle as clauses (binomial, no auxiliary variables).

This and encode/linear.py are the only places that know the formulations; the writers in formats/models/
know only their file syntax.

Variable i is unknown cell id i (build_system's row-major numbering). A revealed cell whose d unknown
neighbours must hold c mines (its count minus known-mine neighbours) gives, for every (c+1)-subset of the
neighbours, a clause of negated literals (at most c) and, for every (d-c+1)-subset, a clause of positive
literals (at least c). A count no assignment can meet (c < 0 or c > d) gives an empty clause. Clauses are
in constraint order (row-major), each constraint's at-most clauses first, subsets in lexicographic order.
The total mine count is a cardinality encoding (encode/cardinality.py) over all k cell variables, auxiliary
variables after k.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence, Tuple

from ..core.lazy import LazyModule
from ..core.puzzle import Puzzle
from ..core.system import LinearSystem, build_system
from .cardinality import check_card_encoding, check_card_work, exactly

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

if TYPE_CHECKING:   # pysat is imported when a CNF is made, not with mineconv
    from pysat.formula import CNF

@dataclass(frozen=True)
class ClauseArrays:
    """Clauses in bulk: clause i is lits[i, :lens[i]] (zero-padded); an empty clause has length 0."""

    lits: np.ndarray   # (n, w) int32
    lens: np.ndarray   # (n,) small ints

    @property
    def count(self) -> int:
        """Number of clauses."""
        return int(self.lens.shape[0])

    def as_lists(self) -> List[List[int]]:
        """The clauses as lists of ints (for pysat)."""
        return [row[:n] for row, n in zip(self.lits.tolist(), self.lens.tolist())]


@dataclass(frozen=True)
class CnfEncoding:
    """A puzzle's CNF: the count clauses (arrays) then the total-count clauses (lists), over nv variables."""

    system: LinearSystem
    cells: ClauseArrays          # one block per revealed cell, row-major
    card: ClauseArrays           # the total mine count (no clause without one)
    nv: int                      # highest variable: k cell variables, then the auxiliary ones
    card_encoding: Optional[str]  # the pysat encoding used for the total (None when not needed)

    @property
    def num_clauses(self) -> int:
        """Total number of clauses."""
        return self.cells.count + self.card.count

    def clause_lists(self) -> List[List[int]]:
        """Every clause as a list of ints, count clauses first."""
        return self.cells.as_lists() + self.card.as_lists()


@lru_cache(maxsize=None)
def _subsets(d: int, size: int) -> np.ndarray:
    """Every size-subset of range(d), lexicographic, as a (count, size) int array."""
    combos = list(combinations(range(d), size))
    return np.array(combos, dtype=np.intp).reshape(len(combos), size)


CONSTRAINT_STEP = 4096  # constraints encoded per numpy pass


def _block_pattern(d: int, c: int) -> Tuple[List[np.ndarray], np.ndarray, np.ndarray]:
    """For a constraint 'd variables sum to c': subset patterns, the sign of each, clause lengths."""
    neg = _subsets(d, c + 1)       # at most c: no c+1 of them are all mines
    pos = _subsets(d, d - c + 1)   # at least c: no d-c+1 of them are all safe
    lens = np.concatenate([np.full(len(neg), c + 1), np.full(len(pos), d - c + 1)]).astype(np.int8)
    signs = np.concatenate([np.full(len(neg), -1), np.full(len(pos), 1)]).astype(np.int32)
    return [neg, pos], signs, lens


@lru_cache(maxsize=None)
def _pattern_table() -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (d, c) clause pattern in one table, and where each constraint kind's patterns are.

    Returns (slots, lens, first, count, longest): slots[i, j] is where literal j of pattern row i comes from in a
    constraint's 18 signed slots (its 8 variables, a zero, their 8 negations, a zero; unused literals take
    the zero); lens[i] the clause length. A constraint of d variables whose count needs c mines has kind
    17 * d + c + 8 (c in -8..8 since counts and known mines are 0-8); its patterns are rows
    first[kind] .. first[kind] + count[kind] - 1. A count no assignment meets (c < 0 or c > d) has one
    pattern of length 0: the empty clause. longest[kind] is the longest clause of a kind.
    """
    slots: List[np.ndarray] = []
    lens: List[np.ndarray] = []
    first = np.zeros(9 * 17, dtype=np.int64)
    count = np.zeros(9 * 17, dtype=np.int64)
    longest = np.zeros(9 * 17, dtype=np.int64)
    at = 0
    for d in range(9):
        for c in range(d + 1):
            pats, sg, ln = _block_pattern(d, c)
            first[17 * d + c + 8], count[17 * d + c + 8] = at, ln.shape[0]
            longest[17 * d + c + 8] = int(ln.max()) if ln.size else 0
            row = 0
            for pat in pats:
                if pat.shape[0]:  # an empty subset list may be wider than 8 (9-subsets of 8)
                    block = np.full((pat.shape[0], 8), 8, dtype=np.intp)
                    block[:, :pat.shape[1]] = pat
                    block[:, :pat.shape[1]] += np.where(sg[row:row + pat.shape[0]] < 0, 9, 0)[:, None]
                    slots.append(block)
                    row += pat.shape[0]
            lens.append(ln.astype(np.int16))
            at += ln.shape[0]
    impossible = [17 * d + c + 8 for d in range(9) for c in range(-8, 9) if c < 0 or c > d]
    first[impossible], count[impossible] = at, 1
    slots.append(np.full((1, 8), 8, dtype=np.intp))
    lens.append(np.zeros(1, dtype=np.int16))
    return np.vstack(slots), np.concatenate(lens), first, count, longest


def cnf_clauses(system: LinearSystem) -> ClauseArrays:
    """The binomial clauses of every count constraint, gathered from one pattern table in bulk."""
    slots, pat_lens, first, count, longest = _pattern_table()
    kind = system.con_len.astype(np.intp) * 17 + system.con_rhs + 8
    per = count.take(kind)
    ends = np.cumsum(per)
    total = int(ends[-1]) if ends.size else 0
    if not total:
        return ClauseArrays(np.zeros((0, 1), dtype=np.int32), np.zeros(0, dtype=np.int16))
    width = max(1, int(longest.take(kind).max()))
    slots = slots[:, :width]
    # a slot as (which of the constraint's 8 variables, sign): literal = sign * con_vars[i, which], the zero
    # slots (8 and 17) sign 0; read straight from con_vars, not from a copy of it with its negations beside
    # (800,000 rows of 18 ints, zeroed and filled, cost more than the clauses of a full reveal)
    which = np.minimum(slots % 9, 7)
    sign = np.where(slots % 9 == 8, 0, np.where(slots >= 9, -1, 1)).astype(np.int32)
    ids = system.con_vars.ravel()
    lens = np.empty(total, dtype=np.int16)
    lits = np.empty((total, width), dtype=np.int32)
    # constraints in steps: the index matrices of a step stay small on big boards (one step on small ones)
    for a in range(0, kind.shape[0], CONSTRAINT_STEP):
        b = min(kind.shape[0], a + CONSTRAINT_STEP)
        p = per[a:b]
        c0, c1 = int(ends[a] - per[a]), int(ends[b - 1])
        # clause i of the step belongs to constraint con[i] (its row's start in con_vars) and is row pat[i] of
        # the table: constraints stay in row-major order and each one's patterns in table order, so no sort
        con = np.repeat(np.arange(8 * a, 8 * b, 8), p)
        pat = np.arange(c1 - c0) + np.repeat(first.take(kind[a:b]) - (np.cumsum(p) - p), p)
        lens[c0:c1] = pat_lens.take(pat)
        np.multiply(ids.take(con[:, None] + which.take(pat, axis=0)), sign.take(pat, axis=0), out=lits[c0:c1])
    return ClauseArrays(lits, lens)


def clause_arrays(clauses: Sequence[Sequence[int]]) -> ClauseArrays:
    """Clause lists (e.g. from pysat) as ClauseArrays, without a Python loop per literal."""
    n = len(clauses)
    lens = np.fromiter(map(len, clauses), dtype=np.int64, count=n)
    total = int(lens.sum())
    flat = np.fromiter(chain.from_iterable(clauses), dtype=np.int32, count=total)
    width = max(1, int(lens.max()) if n else 1)
    lits = np.zeros((n, width), dtype=np.int32)
    if total:
        starts = np.cumsum(lens) - lens
        row = np.repeat(np.arange(n), lens)
        lits[row, np.arange(total) - np.repeat(starts, lens)] = flat
    return ClauseArrays(lits, lens.astype(np.int16))


def card_clauses(system: LinearSystem, encoding: Optional[str] = None) -> Tuple[ClauseArrays, int, Optional[str]]:
    """Clauses saying exactly `system.total` cell variables are true: (clauses, highest variable, encoding).

    Bounds that need no counter (0, k, or out of range) become unit clauses or one empty clause.
    """
    name = check_card_encoding(encoding)
    k = system.num_vars
    t = system.total
    if t is None:
        return clause_arrays([]), k, None
    counter = 0 < t < k
    check_card_work(k, t)
    if not counter and 0 <= t <= k:
        # every cell a mine, or none: one unit clause per cell, built in bulk (on a 1000 x 1000 full reveal that
        # is 200,000 clauses, several times faster than as the primitive's lists; the same clauses as
        # exactly() gives, which tests/encode/test_cardinality.py holds)
        return _units(k, 1 if t == k else -1), k, None
    clauses, nv = exactly(range(1, k + 1), t, top=k, encoding=name)
    return clause_arrays(clauses), nv, name if counter else None


def _units(k: int, sign: int) -> ClauseArrays:
    """The unit clauses x_1, ..., x_k (sign 1) or -x_1, ..., -x_k (sign -1), as bulk arrays."""
    return ClauseArrays((sign * np.arange(1, k + 1, dtype=np.int32))[:, None], np.ones(k, dtype=np.int16))


def encode_cnf(puzzle: Puzzle, mines: Optional[int] = None, card_encoding: Optional[str] = None,
               system: Optional[LinearSystem] = None) -> CnfEncoding:
    """The puzzle's CNF encoding (count clauses in bulk arrays, total-count clauses as lists)."""
    name = check_card_encoding(card_encoding)
    if system is None:
        system = build_system(puzzle, mines)
    cells = cnf_clauses(system)
    card, nv, used = card_clauses(system, name)
    return CnfEncoding(system, cells, card, nv, used)


def to_cnf(puzzle: Puzzle, mines: Optional[int] = None, card_encoding: Optional[str] = None) -> "CNF":
    """The puzzle as a pysat CNF that knows its grid: variable i = unknown cell id i, auxiliaries after k.

    The CNF is a PuzzleCNF (a pysat CNF subclass) with `puzzle`, `k`, `cells`, `mines_of(model)`,
    `decode(model)` and `solutions(solver, limit)`.
    """
    enc = encode_cnf(puzzle, mines, card_encoding)
    cnf = _puzzle_cnf_class()(from_clauses=enc.clause_lists())
    cnf.nv = enc.nv  # keep unused cell variables declared, as the DIMACS header does
    cnf.puzzle = puzzle
    cnf.k = enc.system.num_vars
    cnf.cells = [tuple(rc) for rc in enc.system.var_rc.tolist()]
    return cnf


@lru_cache(maxsize=None)
def _puzzle_cnf_class() -> type:
    # built on first use: pysat is imported only by the code paths that need it
    from pysat.formula import CNF
    from pysat.solvers import Solver

    class PuzzleCNF(CNF):
        """A pysat CNF of a puzzle: `cells[i - 1]` is the (row, col) of variable i (1..k); variables above k
        are auxiliary (the total mine count's cardinality encoding), so models are told apart by the cells."""

        puzzle: Puzzle
        k: int
        cells: List[Tuple[int, int]]

        def mines_of(self, model: Sequence[int]) -> List[Tuple[int, int]]:
            """The unknown cells a model (pysat literals) puts mines on, row-major."""
            return [self.cells[lit - 1] for lit in model if 0 < lit <= self.k]

        def decode(self, model: Sequence[int]) -> Puzzle:
            """The solved grid of a model: every unknown cell turned into '*' (mine) or '.' (safe)."""
            return self.puzzle.with_mines_at(self.mines_of(model))

        def solutions(self, solver: str = "glucose4", limit: Optional[int] = None) -> Iterator[Puzzle]:
            """Each distinct solution once, lazily (blocking clauses over the cell variables only, so the
            auxiliary variables of a cardinality encoding never repeat a solution)."""
            with Solver(name=solver, bootstrap_with=self.clauses) as s:
                found = 0
                while (limit is None or found < limit) and s.solve():
                    # a cell no clause mentions is missing from the model: it is free, taken as safe here
                    # and blocked as such, so its other value comes as a solution of its own
                    mine = set(lit for lit in s.get_model() if 0 < lit <= self.k)
                    cells = [v if v in mine else -v for v in range(1, self.k + 1)]
                    yield self.decode(cells)
                    found += 1
                    if not cells:
                        return  # no unknown cell: the one solution there is
                    s.add_clause([-lit for lit in cells])

    return PuzzleCNF
