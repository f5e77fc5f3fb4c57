"""MiniZinc model writer (.mzn): one self-contained model, data included, for `minizinc --solver gecode`.

A `var 0..1: x<row>_<col>` per unknown cell, one `constraint sum([...]) = n;` per revealed cell with an
unknown neighbour (or whose count cannot be met), in row-major order, the total last when given, `solve
satisfy;`, and an output item that prints each row of the solved grid as `grid: <row>` ('*' mine, '.' safe,
counts as given). With `--output-mode json` MiniZinc prints the cell variables by name instead; both are read
back by the minizinc-answer reader. The mineconv header sits in a `/* ... */` block, one `* ` line each.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO

from ...core.naming import VAR_FORM
from ...core.puzzle import Puzzle
from ...core.system import build_system
from ...encode.linear import constraint_rows, rows_prose
from ..header import write_header
from ..registry import register_format

GRID_PREFIX = "grid: "
TITLE = "MiniZinc"
NAMES_PER_LINE = 10
BATCH = 10000
SYMBOL_FUNCTION = "mine_symbol"


def comment_safe(puzzle: Puzzle, closer: str, spaced: str) -> Puzzle:
    """The puzzle with `closer` in its name spelt `spaced`, so that the header's block comment stays closed."""
    if puzzle.name is None or closer not in puzzle.name:
        return puzzle
    name = puzzle.name
    while closer in name:
        name = name.replace(closer, spaced)
    return puzzle.replace(name=name)


def name_lines(names: List[str], per_line: int, indent: str) -> str:
    """`names` joined by ', ', `per_line` to a line, the lines after the first indented."""
    return (",\n" + indent).join(", ".join(names[i:i + per_line]) for i in range(0, len(names), per_line))


def write_mzn(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as a self-contained MiniZinc model."""
    system = build_system(puzzle, mines)
    k = system.num_vars
    names = system.var_name_list
    extra = [f"cell variables are var 0..1 {VAR_FORM}; " + rows_prose("constraint", named=False)]
    if system.total is not None:
        extra.append(f"last constraint: the {k} cell variables sum to {system.total} (mines left to place)")
    extra.append(f"output: each solved row as '{GRID_PREFIX}<row>' ('*' mine, '.' safe, counts as given); "
                 "--output-mode json prints the cell variables by name")
    extra.append("run: minizinc --solver gecode FILE.mzn")
    out.write("/*\n")
    write_header(out, comment_safe(puzzle, "*/", "* /"), system, "*", TITLE, extra)
    out.write("*/\n")
    out.write("".join(f"var 0..1: {n};\n" for n in names))
    lens = system.con_len.tolist()
    rhs = system.con_rhs.tolist()
    cons = system.con_vars
    lines = []
    for i in constraint_rows(system).tolist():
        ids = cons[i, :lens[i]].tolist()
        terms = "sum([" + ", ".join(names[v - 1] for v in ids) + "])" if ids else "0"
        lines.append(f"constraint {terms} = {rhs[i]};\n")
        if len(lines) == BATCH:   # written in batches: the whole text of a large board never sits in memory
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))
    if system.total is not None:
        terms = "sum([" + name_lines(names, NAMES_PER_LINE, "  ") + "])" if k else "0"
        out.write(f"constraint {terms} = {system.total};\n")
    out.write("solve satisfy;\n")
    out.write(f'function string: {SYMBOL_FUNCTION}(var 0..1: v) = if fix(v) = 1 then "*" else "." endif;\n')
    out.write("output [\n")
    grid = system.var_grid.tolist()
    for r, row in enumerate(puzzle.grid_lines):
        pieces: List[str] = []
        text = GRID_PREFIX
        for c, ch in enumerate(row):
            if ch == "?":
                pieces.append(f'"{text}"' if text else "")
                pieces.append(f"{SYMBOL_FUNCTION}({names[grid[r][c] - 1]})")
                text = ""
            else:
                text += ch
        pieces.append(f'"{text}\\n"')
        items = [p for p in pieces if p]
        # ten items to a line: a wide row stays readable and under 255 characters a line
        out.write("  " + name_lines(items, NAMES_PER_LINE, "    ") + ("\n" if r == puzzle.rows - 1 else ",\n"))
    out.write("];\n")


def _detect(text: str) -> bool:
    head = text[:1 << 16]
    return head.startswith("/*\n* mineconv ") and "solve satisfy;" in text


register_format("mzn", writer=write_mzn, detect=_detect,
                description="MiniZinc model with data (var 0..1 per unknown cell; minizinc --solver gecode)",
                write_options=("mines",))
