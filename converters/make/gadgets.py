"""The exact Minesweeper gadgets `mineconv reduce` builds boards from, each a small fragment with named cells.

A fragment is a block of cell symbols: '.' known safe, '*' known mine, a digit a revealed count, and a
letter an unknown cell with a name (terminals and the cells a truth table speaks of); '?' is an unnamed
unknown cell. A mine on a signal cell means true.

Why the gadgets are exact (parsimonious): every count sees only the unknown cells it is meant to see, and
its number leaves one completion per input. The building block is the wire step: a count '1' that sees
exactly two unknown cells makes the second the negation of the first, so a wire alternates x, not x, x...
The crossover needs no logic gate, because a count that sees two consecutive cells of a wire sees a sum
that is always 1: its other cells are constrained as if the wire were not there.

    ......N..      X = the '2' at the centre sees p (above), W-side a', E-side a and q: p + a' + a + q = 2
    .....1...      Y = the '2' below X sees a', a, q and q': a' + a + q + q' = 2
    .....?.1.      Z = the '1' right of q' sees q and q' only: q' = not q, so q + q' = 1,
    W1?1?2?.E      then Y gives a' + a = 1 (the horizontal wire passes),
    .....2?..      then X gives p + q = 1 (the vertical wire passes).
    .....?1..
    .....1...
    .....S...

The OR gate is a two-cell sorter: C1 sees a, b, not-o and not-t with '2', so a + b = o + t; C2 sees
not-t, o and a slack cell s with '2', so t <= o; then o = a or b and t = a and b, each unique.

Fragments that tile a board (TILES) keep their border free of counts and hold '.' there except at the four
terminals W, E (row TILE_WIRE_ROW) and N, S (column TILE_ACC_COL); neighbouring tiles share that border row
or column, so a count never sees a cell of another tile, and each tile can be proved on its own.
`tests/make/test_reduce.py` enumerates every completion of every fragment by brute force against its truth table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Mapping, Optional, Tuple

Values = Mapping[str, int]
Truth = Callable[[Values], Optional[Dict[str, int]]]


@dataclass(frozen=True)
class Gadget:
    """A board fragment: its rows of symbols, the names of its input cells and its truth table.

    `truth` maps the input values to the values of the named output cells, or to None when the inputs are
    inconsistent (the fragment then has no completion at all).
    """

    name: str
    summary: str
    rows: Tuple[str, ...]
    inputs: Tuple[str, ...]
    truth: Truth

    @property
    def height(self) -> int:
        """Rows of the fragment."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Columns of the fragment."""
        return len(self.rows[0])

    def cell(self, name: str) -> Tuple[int, int]:
        """(row, col) of the named cell in the fragment."""
        for r, row in enumerate(self.rows):
            c = row.find(name)
            if c >= 0:
                return r, c
        raise KeyError(f"gadget {self.name} has no cell {name!r}")

    def symbols(self) -> Tuple[str, ...]:
        """The rows with every named cell as '?', as they go onto a board."""
        return tuple("".join("?" if ch.isalpha() else ch for ch in row) for row in self.rows)


def _fragment(text: str) -> Tuple[str, ...]:
    rows = tuple(line.strip() for line in text.strip().splitlines())
    if len({len(r) for r in rows}) != 1:
        raise ValueError("a gadget fragment must be rectangular")
    return rows


def _gadget(name: str, summary: str, text: str, inputs: str, truth: Truth) -> Gadget:
    return Gadget(name, summary, _fragment(text), tuple(inputs), truth)


def _tap(negative: bool) -> Truth:
    def truth(v: Values) -> Dict[str, int]:
        literal = 1 - v["W"] if negative else v["W"]
        return {"E": v["W"], "S": v["N"] | literal}
    return truth


WIRE = _gadget("wire", "a wire segment: two steps, B = A", """
    .....
    A1?1B
    .....""", "A", lambda v: {"B": v["A"]})

NOT = _gadget("not", "one wire step: B = not A", """
    ...
    A1B
    ...""", "A", lambda v: {"B": 1 - v["A"]})

BEND = _gadget("bend", "a wire turning a corner: B = A", """
    ....
    A1?.
    ..1.
    ..B.""", "A", lambda v: {"B": v["A"]})

DIAGONAL = _gadget("diagonal", "a diagonal wire: one step on each count, B = A", """
    A....
    .1...
    ..?..
    ...1.
    ....B""", "A", lambda v: {"B": v["A"]})

SPLITTER = _gadget("splitter", "a wire splitting in two: B = C = A", """
    .....
    A1?1B
    ..1..
    ..C..""", "A", lambda v: {"B": v["A"], "C": v["A"]})

CROSSOVER = _gadget("crossover", "two wires crossing: E = W, S = N", """
    ......N..
    .....1...
    .....?.1.
    W1?1?2?.E
    .....2?..
    .....?1..
    .....1...
    .....S...""", "WN", lambda v: {"E": v["W"], "S": v["N"]})

OR = _gadget("or", "OR and AND of A and B: o = A or B, O = not o, T = not (A and B)", """
    .B..s.
    A2T2..
    .O.o..
    ..1...
    ......""", "AB", lambda v: {"o": v["A"] | v["B"], "O": 1 - (v["A"] | v["B"]),
                                "T": 1 - (v["A"] & v["B"]), "s": 1 - (v["A"] ^ v["B"])})

TERMINATOR = _gadget("terminator", "the end of a wire: its last cell is decided, nothing follows", """
    .....
    A1?..
    .....""", "A", lambda v: {})

SOURCE = _gadget("variable", "a variable's wire: X is the variable's cell (a mine = true), E = X", """
    .....
    X1?1E
    .....""", "X", lambda v: {"E": v["X"]})

FALSE_SOURCE = _gadget("false source", "a clause's accumulator starts false: N = 0", """
    ...
    .0.
    .N.""", "", lambda v: {"N": 0})

TRUE_SINK = _gadget("forced true", "a clause's accumulator must end true: S = 1", """
    .S.
    .1.
    ...""", "S", lambda v: {} if v["S"] else None)

# the tiles: variable i's wire runs W -> E along row TILE_WIRE_ROW, clause j's accumulator N -> S down
# column TILE_ACC_COL; a tile is TILE_HEIGHT x TILE_WIDTH cells plus the border row and column it shares
CROSSING = _gadget("crossing", "the variable is not in the clause: E = W, S = N", """
    ......N......
    .....1.......
    .....?.1.....
    W1?1?2?.?1?1E
    .....2?......
    .....?1......
    .....1.......
    .....?.......
    .....1.......
    .....?.......
    .....1.......
    .....?1......
    ......?1.....
    ......S......""", "WN", lambda v: {"E": v["W"], "S": v["N"]})

TAP_POSITIVE = _gadget("tap x", "the literal x is in the clause: E = W, S = N or W", """
    ......N......
    .....1.......
    .....?.1.....
    W1?1?2?.?1?1E
    ..1..2?......
    ..?..?1......
    ..1..1.......
    ..?..?..?....
    ...1.2?2.....
    ....??.?.....
    ......11.....
    ........?....
    .......1.....
    ......S......""", "WN", _tap(False))

TAP_NEGATIVE = _gadget("tap not-x", "the literal not x is in the clause: E = W, S = N or not W", """
    ......N......
    .....1.......
    .....?.1.....
    W1?1?2?.?1?1E
    ..1..2?......
    ..?..?1......
    ..1..1.......
    ..?..?..?....
    ..1..2?2.....
    ..?1??.?.....
    ......11.....
    ........?....
    .......1.....
    ......S......""", "WN", _tap(True))

GADGETS: Tuple[Gadget, ...] = (WIRE, NOT, BEND, DIAGONAL, SPLITTER, CROSSOVER, OR, TERMINATOR, SOURCE,
                               FALSE_SOURCE, TRUE_SINK, CROSSING, TAP_POSITIVE, TAP_NEGATIVE)
TILES: Tuple[Gadget, ...] = (CROSSING, TAP_POSITIVE, TAP_NEGATIVE)
TILE_HEIGHT = CROSSING.height - 1
TILE_WIDTH = CROSSING.width - 1
TILE_WIRE_ROW = CROSSING.cell("W")[0]
TILE_ACC_COL = CROSSING.cell("N")[1]
