"""GLPK MathProg model writer (.mod): Chlond's minesweeper.mod generalised to m x n, data included.

The model mirrors M. J. Chlond's formulation (INFORMS Transactions on Education, 2011): a count matrix R
(-1 on unexposed cells), a known-mine matrix M, `var x binary` on every cell, the sum over each exposed
cell's neighbours equal to its count, `x = 0` on exposed cells and `x >= M`. mineconv's additions: rows m
may differ from columns n, R = -2 marks a known-safe cell without a count, an optional total `mines`, and
the solved grid printed after `solve;` as lines `grid: <row>`. The data section is the `.dat` notation's
(converters.formats.mathprog_dat), so `glpsol -m model.mod -d puzzle.dat` works with the model alone
(`with_data=False`).
"""
from __future__ import annotations

from typing import Any, TextIO

from ...core.puzzle import Puzzle
from ...core.system import build_system
from ..header import write_header
from ..notations.mathprog_dat import dat_section
from ..registry import register_format

GRID_PREFIX = "grid: "

MODEL = """\
param n, integer, > 0;                 # columns
param m, integer, > 0, default n;      # rows
param R{i in 1..m, j in 1..n}, integer, >= -2, <= 8;
                                       # -1 unexposed, 0..8 count, -2 known safe without a count
param M{i in 1..m, j in 1..n}, binary, default 0;
                                       # 1 = known mine
param mines, integer, >= -1, default -1;
                                       # total mines on the board (known ones included); -1 = not given

var x{i in 1..m, j in 1..n}, binary;   # 1 = mine

# mentions every cell in row-major order first, so that glpsol's columns are the m*n cells in that order
# (it numbers columns by first use and leaves out variables no row uses)
s.t. cells: sum{i in 1..m, j in 1..n} x[i,j] >= 0;

s.t. count{i in 1..m, j in 1..n: R[i,j] >= 0}:
    sum{a in max(1, i - 1)..min(m, i + 1), b in max(1, j - 1)..min(n, j + 1): a != i or b != j} x[a,b]
        = R[i,j];

s.t. exposed{i in 1..m, j in 1..n: R[i,j] != -1}: x[i,j] = 0;

s.t. known{i in 1..m, j in 1..n: M[i,j] = 1}: x[i,j] >= M[i,j];

s.t. total{t in 1..1: mines >= 0}: sum{i in 1..m, j in 1..n} x[i,j] = mines;

solve;

# the solved grid: '*' mine, '.' safe, counts as given (glpsol prints nothing here when infeasible)
for {i in 1..m} {
    printf "%s", "GRID_PREFIX";
    printf {j in 1..n} "%s",
        if R[i,j] >= 0 then substr("012345678", R[i,j] + 1, 1)
        else if R[i,j] = -2 then "."
        else if x[i,j] > 0.5 then "*" else ".";
    printf "\\n";
}
""".replace("GRID_PREFIX", GRID_PREFIX)


def model_text() -> str:
    """The model section alone (no data, no `end;`): use it with a `.dat` file via glpsol -d."""
    return MODEL


def write_mathprog_mod(puzzle: Puzzle, out: TextIO, *, mines: Any = None, with_data: bool = True,
                   **_: Any) -> None:
    """Write the MathProg model, then the puzzle's data section (or `end;` when with_data is False)."""
    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    system = build_system(puzzle)
    extra = ["GLPK MathProg model after Chlond's minesweeper.mod, generalised to m rows x n columns; "
             "x[i,j] over every cell, 1-based (i = row + 1, j = col + 1): glpsol's columns are the m*n "
             f"cells in row-major order; after solve it prints each solved row as '{GRID_PREFIX}<row>'",
             "run: glpsol -m FILE.mod (or glpsol -m model.mod -d puzzle.dat with the model alone)"]
    write_header(out, puzzle, system, "#", "GLPK MathProg", extra)
    out.write("\n")
    out.write(MODEL)
    out.write("\n")
    out.write(dat_section(puzzle) if with_data else "end;\n")


def _detect(text: str) -> bool:
    head = text[:16384]
    return "var x{i in 1..m, j in 1..n}, binary;" in head and "solve;" in head


register_format("mathprog", writer=write_mathprog_mod, detect=_detect,
                description="GLPK MathProg model with data, after Chlond's minesweeper.mod (glpsol -m)",
                write_options=("mines", "with_data"))
