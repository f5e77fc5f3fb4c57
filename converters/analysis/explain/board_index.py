"""The per-count and per-cell lookups of explain, each made on first use.

A 1000x1000 board has some 800,000 counts: making every count's cells, its neighbouring known mines
and every cell's counts up front took six seconds before the first step (issue 25). Made on first use,
the first steps come at once and the whole run still makes each item once.
"""
from __future__ import annotations

from typing import Callable, Iterator, List, Optional, Sequence, Tuple, TypeVar, overload

import numpy as np

from ...core.puzzle import CODE_MINE
from ...core.system import LinearSystem

T = TypeVar("T")
_AROUND = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]   # row-major


class Lazy(Sequence[T]):
    """A read-only sequence of n items, each made by make(i) on first use and kept."""

    def __init__(self, n: int, make: Callable[[int], T]) -> None:
        self._items: List[Optional[T]] = [None] * n
        self._make = make

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self._items)
        item = self._items[i]
        if item is None:
            item = self._items[i] = self._make(i)
        return item

    def __iter__(self) -> Iterator[T]:
        return (self[i] for i in range(len(self._items)))


class BoardIndex:
    """What explain looks up by count index (ci) or variable (x, 1-based; index 0 is padding)."""

    def __init__(self, system: LinearSystem) -> None:
        self.system = system
        codes = system.puzzle.codes
        self.rows, self.cols = codes.shape
        self.mine = codes == CODE_MINE
        self.codes = codes
        k, m = system.num_vars, system.num_constraints
        con_id = np.zeros(codes.shape, dtype=np.int32)   # 1 + the count index of each revealed cell
        if m:
            con_id[system.con_rc[:, 0], system.con_rc[:, 1]] = np.arange(1, m + 1, dtype=np.int32)
        self.con_id = con_id
        self.cvars: Sequence[Tuple[int, ...]] = Lazy(m, self._cvars)
        self.rc: Sequence[Tuple[int, int]] = Lazy(k + 1, self._rc)
        self.crc: Sequence[Tuple[int, int]] = Lazy(m, self._crc)
        self.shown: Sequence[int] = Lazy(m, lambda ci: int(codes[self.crc[ci]]))
        self.known_mines: Sequence[List[Tuple[int, int]]] = Lazy(m, self._known_mines)
        self.var_cons: Sequence[List[int]] = Lazy(k + 1, self._var_cons)

    def _cvars(self, ci: int) -> Tuple[int, ...]:
        return tuple(self.system.con_vars[ci, :self.system.con_len[ci]].tolist())

    def _rc(self, x: int) -> Tuple[int, int]:
        if x == 0:
            return (-1, -1)
        r, c = self.system.var_rc[x - 1].tolist()
        return (r, c)

    def _crc(self, ci: int) -> Tuple[int, int]:
        r, c = self.system.con_rc[ci].tolist()
        return (r, c)

    def around(self, r: int, c: int) -> Iterator[Tuple[int, int]]:
        """The cells next to (r, c) on the board, row-major."""
        for dr, dc in _AROUND:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                yield rr, cc

    def _known_mines(self, ci: int) -> List[Tuple[int, int]]:
        return [rc for rc in self.around(*self.crc[ci]) if self.mine[rc]]

    def _var_cons(self, x: int) -> List[int]:
        if x == 0:
            return []
        # neighbours in row-major order give the counts in ascending index order
        ids = [int(self.con_id[rc]) for rc in self.around(*self.rc[x])]
        return [i - 1 for i in ids if i]
