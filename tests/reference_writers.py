"""Reference solver-file writers: plain f-strings, one line at a time, obviously correct and slow.

They read the puzzle's grid directly (not the linear system, not the bulk text engine) and write what the
real writers in mineconv.formats.models must produce byte for byte, comment header included;
tests/formats/models/test_reference_writers.py compares the two on random boards. The prose lines of the headers are
copied here on purpose: a change to what a file says must show up as a test failure.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Dict, List, Optional, Tuple

from mineconv import __version__
from mineconv.core.puzzle import Puzzle

Cell = Tuple[int, int]

LINEAR_ROWS = ("one equality per revealed cell with an unknown neighbour (or whose count cannot be met), "
               "named c<row>_<col>: the sum of its unknown neighbours = its count minus its known-mine "
               "neighbours")


class Board:
    """What every reference writer needs, from the grid: variables, counts, the total still to place."""

    def __init__(self, puzzle: Puzzle, mines: Optional[int] = None) -> None:
        self.p = puzzle
        cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
        self.vars: List[Cell] = [rc for rc in cells if puzzle[rc] == "?"]
        self.id: Dict[Cell, int] = {rc: i for i, rc in enumerate(self.vars, 1)}
        self.k = len(self.vars)
        known = sum(puzzle[rc] == "*" for rc in cells)
        self.mines = puzzle.mines if mines is None else mines       # the board's total, as the header says
        self.total = None if self.mines is None else self.mines - known   # mines left for the unknown cells
        # every count: (cell, ids of its unknown neighbours ascending, count minus known-mine neighbours)
        self.counts: List[Tuple[Cell, List[int], int]] = []
        for r, c in cells:
            if puzzle[r, c] in "012345678":
                around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
                          and 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols]
                ids = [self.id[rc] for rc in around if rc in self.id]
                self.counts.append(((r, c), ids, int(puzzle[r, c]) - sum(puzzle[rc] == "*" for rc in around)))
        # a linear file states every count but the met ones with nothing unknown around them
        self.stated = [(rc, ids, rhs) for rc, ids, rhs in self.counts if ids or rhs != 0]

    def name(self, i: int) -> str:
        """x<row>_<col> of variable i."""
        r, c = self.vars[i - 1]
        return f"x{r}_{c}"

    def header(self, prefix: str, title: str, extra: List[str]) -> str:
        """The comment header every solver file starts with."""
        p = prefix + " "
        lines = [f"{p}mineconv {__version__} {title}"]
        if self.p.name is not None:
            lines.append(f"{p}name: {self.p.name}")
        if self.mines is not None:
            lines.append(f"{p}mines: {self.mines}")
        lines += [f"{p}grid {row}" for row in self.p.grid_lines]
        lines.append(f"{p}vars: {self.k} cell variables, ids 1..{self.k} in row-major order over the unknown "
                     "cells; name x<row>_<col>, 0-based")
        lines += [p + e for e in extra]
        lines += [f"{p}var {i} {r} {c} x{r}_{c}" for i, (r, c) in enumerate(self.vars, 1)]
        return "".join(line + "\n" for line in lines)


def cnf(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """DIMACS CNF: binomial clauses per count, then the total through pysat's kmtotalizer."""
    b = Board(puzzle, mines)
    clauses: List[List[int]] = []
    for _, ids, rhs in b.counts:
        if rhs < 0 or rhs > len(ids):
            clauses.append([])
            continue
        clauses += [[-v for v in s] for s in combinations(ids, rhs + 1)]
        clauses += [list(s) for s in combinations(ids, len(ids) - rhs + 1)]
    extra = ["clauses: per revealed cell with d unknown neighbours that must hold c mines, a clause of negated "
             "literals per (c+1)-subset and of positive literals per (d-c+1)-subset (binomial encoding, no "
             "auxiliary variables), cells in row-major order; a count that cannot be met is an empty clause"]
    nv, t = b.k, b.total
    if t is not None:
        if t < 0 or t > b.k:
            card = [[]]
        elif t in (0, b.k):
            card = [[v if t else -v] for v in range(1, b.k + 1)]
        else:
            from pysat.card import CardEnc, EncType

            enc = CardEnc.equals(lits=list(range(1, b.k + 1)), bound=t, top_id=b.k, encoding=EncType.kmtotalizer)
            card, nv = enc.clauses, max(b.k, enc.nv)
        if 0 < t < b.k:
            extra.append(f"total: exactly {t} of the {b.k} cell variables are true (pysat kmtotalizer encoding, "
                         f"auxiliary variables {b.k + 1}..{nv}), last {len(card)} clauses")
        else:
            extra.append(f"total: exactly {t} of the {b.k} cell variables are true, last {len(card)} clauses "
                         "(no auxiliary variables needed)")
        clauses += card
    body = "".join(" ".join(map(str, cl + [0])) + "\n" for cl in clauses)
    return b.header("c", "DIMACS CNF", extra) + f"p cnf {nv} {len(clauses)}\n" + body


def _lp_sum(names: List[str], first: str, sep: str, per_line: int, indent: str) -> str:
    out = ""
    for i, name in enumerate(names):
        if i and i % per_line == 0:
            out += "\n" + indent
        out += (sep if i else "") + first + name
    return out


def lp(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """CPLEX LP: zero objective over every variable, one equality per stated count, the total, Binary."""
    b = Board(puzzle, mines)
    names = [b.name(i) for i in range(1, b.k + 1)]
    any_var = names[0] if names else "zero"
    extra = ["Minimize a zero objective over every variable in id order; " + LINEAR_ROWS]
    if b.total is not None:
        extra.append(f"row total: the {b.k} cell variables sum to {b.total} (mines left to place)")
    if not b.k:
        extra.append("no unknown cell: the column zero, fixed at 0, only keeps the file valid")
    if not b.stated and b.total is None:
        extra.append("no count to state: the row none (0 = 0) only keeps the file valid")
    out = b.header("\\", "CPLEX LP", extra) + "Minimize\n obj:"
    out += _lp_sum(names, " 0 ", " +", 8, " ") if b.k else " 0 zero"
    out += "\nSubject To\n"
    for (r, c), ids, rhs in b.stated:
        terms = " + ".join(b.name(i) for i in ids) if ids else f"0 {any_var}"
        out += f" c{r}_{c}: {terms} = {rhs}\n"
    if not b.stated and b.total is None:
        out += f" none: 0 {any_var} = 0\n"
    if b.total is not None:
        out += " total:" + (_lp_sum(names, " ", " +", 8, " ") if b.k else " 0 zero") + f" = {b.total}\n"
    if b.k:
        out += "Binary\n" + _lp_sum(names, " ", "", 10, "") + "\n"
    else:
        out += "Bounds\n zero = 0\nGenerals\n zero\n"
    return out + "End\n"


def _mps(puzzle: Puzzle, mines: Optional[int], fixed: bool) -> str:
    b = Board(puzzle, mines)

    def line(*fields: str) -> str:
        # fixed MPS: names in 8-character fields at columns 5, 15 and 40, values right-aligned in 12
        if not fixed:
            return " " + " ".join(fields) + "\n"
        text = "    " + fields[0].ljust(8) + "  "
        for i in range(1, len(fields), 2):
            text += ("   " if i > 1 else "") + fields[i].ljust(8) + "  " + fields[i + 1].rjust(12)
        return text.rstrip() + "\n"

    def pairs(head: str, entries: List[Tuple[str, str]]) -> str:
        return "".join(line(head, *entries[i], *(entries[i + 1] if i + 1 < len(entries) else ()))
                       for i in range(0, len(entries), 2))

    extra = ["minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count "
             "cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its "
             "known-mine neighbours; columns in id order, integer markers, BV bounds"]
    if b.total is not None:
        extra.append(f"row total: the {b.k} cell variables sum to {b.total}")
    if not b.k:
        extra.append("no unknown cell: the column zero, fixed at 0, only keeps the file valid")
    out = b.header("*", "fixed MPS" if fixed else "free MPS", extra)
    out += "NAME          MINES\n" if fixed else "NAME MINES FREE\n"
    gap = "  " if fixed else " "
    rows = [f"c{r}_{c}" for (r, c), _, _ in b.stated] + (["total"] if b.total is not None else [])
    out += f"ROWS\n N{gap}obj\n" + "".join(f" E{gap}{row}\n" for row in rows)
    marker = ("    MARKER    'MARKER'                 '{}'\n" if fixed else " MARKER 'MARKER' '{}'\n")
    out += "COLUMNS\n" + marker.format("INTORG")
    if not b.k:
        out += line("zero", "obj", "0")
    for i in range(1, b.k + 1):
        entries = [("obj", "0")] + [(f"c{r}_{c}", "1") for (r, c), ids, _ in b.stated if i in ids]
        entries += [("total", "1")] if b.total is not None else []
        out += pairs(b.name(i), entries)
    out += marker.format("INTEND") + "RHS\n"
    rhs = [(f"c{r}_{c}", str(v)) for (r, c), _, v in b.stated if v != 0]
    out += pairs("RHS", rhs + ([("total", str(b.total))] if b.total else []))
    out += "BOUNDS\n"
    if not b.k:
        out += f" FX {'BND':<8}  {'zero':<8}  {0:>12}\n" if fixed else " FX BND zero 0\n"
    for i in range(1, b.k + 1):
        out += f" BV BND       {b.name(i)}\n" if fixed else f" BV BND {b.name(i)}\n"
    return out + "ENDATA\n"


def mps(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """Free MPS."""
    return _mps(puzzle, mines, False)


def fixed_mps(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """Fixed MPS (names of at most 8 characters)."""
    return _mps(puzzle, mines, True)


def opb(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """OPB: one '=' constraint per stated count, then the total; x<id> as in DIMACS."""
    b = Board(puzzle, mines)
    lines = [("".join(f"+1 x{i} " for i in ids) or "+0 x1 ") + f"= {rhs} ;" for _, ids, rhs in b.stated]
    if b.total is not None and b.k:
        lines.append("".join(f"+1 x{i} " for i in range(1, b.k + 1)) + f"= {b.total} ;")
    elif b.total:
        lines.append(f"+0 x1 = {b.total} ;")
    # with no unknown cell, a constraint that must fail still names x1, so x1 is declared
    nvars = max(b.k, 1) if any("+0 x1" in ln for ln in lines) else b.k
    extra = ["one '=' constraint per revealed cell with an unknown neighbour (or whose count cannot be met), "
             "in row-major order: the sum of its unknown neighbours = its count minus its known-mine neighbours"]
    if b.total is not None:
        extra.append(f"last constraint: the {b.k} cell variables sum to {b.total} (mines left to place)")
    head = f"* #variable= {nvars} #constraint= {len(lines)}\n" + b.header("*", "OPB", extra)
    return head + "".join(ln + "\n" for ln in lines)


def smt2(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """SMT-LIB 2, QF_LIA: Int 0..1 variables, one assertion per stated count, then the total."""
    b = Board(puzzle, mines)
    names = [b.name(i) for i in range(1, b.k + 1)]

    def num(v: int) -> str:
        return str(v) if v >= 0 else f"(- {-v})"

    def sum_of(ids: List[int]) -> str:
        if len(ids) >= 2:
            return "(+ " + " ".join(b.name(i) for i in ids) + ")"
        return b.name(ids[0]) if ids else "0"

    extra = ["cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown "
             "neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours "
             "= its count minus its known-mine neighbours"]
    if b.total is not None:
        extra.append(f"last assertion: the {b.k} cell variables sum to {b.total} (mines left to place)")
    out = b.header(";", "SMT-LIB 2", extra) + "(set-logic QF_LIA)\n"
    out += "".join(f"(declare-fun {n} () Int)\n" for n in names)
    out += "".join(f"(assert (<= 0 {n} 1))\n" for n in names)
    out += "".join(f"(assert (= {sum_of(ids)} {num(rhs)}))\n" for _, ids, rhs in b.stated)
    if b.total is not None and b.k >= 2:
        # ten names to a line; the lines after the first start with two spaces
        out += "(assert (= (+" + "".join(("\n " if i and i % 10 == 0 else "") + " " + n for i, n in enumerate(names))
        out += f")\n {num(b.total)}))\n"
    elif b.total is not None:
        out += f"(assert (= {sum_of(list(range(1, b.k + 1)))} {num(b.total)}))\n"
    return out + "(check-sat)\n(get-model)\n(exit)\n"


def _dat_table(name: str, rows: List[List[str]], cols: int) -> str:
    w, cw = len(str(len(rows))), max(2, len(str(cols)))
    out = f"param {name} :\n" + " " * w + "".join(f" {j:>{cw}}" for j in range(1, cols + 1)) + " :=\n"
    for i, row in enumerate(rows, 1):
        out += f"{i:>{w}}" + "".join(f" {e:>{cw}}" for e in row) + "\n"
    return out + ";\n"


def mathprog(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """GLPK MathProg: the header, Chlond's model (the writer's constant text), the data section."""
    from mineconv.formats.models.mathprog_mod import MODEL

    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    b = Board(puzzle)
    extra = ["GLPK MathProg model after Chlond's minesweeper.mod, generalised to m rows x n columns; x[i,j] over "
             "every cell, 1-based (i = row + 1, j = col + 1): glpsol's columns are the m*n cells in row-major "
             "order; after solve it prints each solved row as 'grid: <row>'",
             "run: glpsol -m FILE.mod (or glpsol -m model.mod -d puzzle.dat with the model alone)"]
    data = [
        "data;",
        f"# mineconv {__version__}: a Minesweeper puzzle in the data layout of Chlond's minesweeper.mod",
        "# n = columns, m = rows (only when not square), mines = total mines on the board (known mines included)",
        "# R[i,j]: -1 = unexposed cell (unknown, or a known mine listed in M), 0..8 = the count shown,",
        "#         -2 = known safe cell without a count (mineconv's extension: not in Chlond's model)",
        "# M[i,j]: 1 = known mine, 0 otherwise (only when the puzzle has known mines)",
        f"param n := {puzzle.cols};"]
    if puzzle.rows != puzzle.cols:
        data.append(f"param m := {puzzle.rows};")
    if puzzle.mines is not None:
        data.append(f"param mines := {puzzle.mines};")
    grid = puzzle.grid_lines
    r_entry = {"?": "-1", "*": "-1", ".": "-2"}
    text = "\n".join(data) + "\n" + _dat_table("R", [[r_entry.get(s, s) for s in row] for row in grid], puzzle.cols)
    if "*" in puzzle.cells:
        text += _dat_table("M", [["1" if s == "*" else "0" for s in row] for row in grid], puzzle.cols)
    return b.header("#", "GLPK MathProg", extra) + "\n" + MODEL + "\n" + text + "end;\n"


def _named(puzzle: Puzzle, closer: str, spaced: str) -> Puzzle:
    """The name with the comment's closer spelt apart, as the CP writers put it in their header."""
    name = puzzle.name
    while name is not None and closer in name:
        name = name.replace(closer, spaced)
    return puzzle.replace(name=name)


def mzn(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """MiniZinc: the header in a /* */ block, var 0..1 per unknown cell, sum([...]) = n, output grid rows."""
    b = Board(puzzle, mines)
    extra = ["cell variables are var 0..1 x<row>_<col>; one constraint per revealed cell with an unknown neighbour "
             "(or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count "
             "minus its known-mine neighbours"]
    if b.total is not None:
        extra.append(f"last constraint: the {b.k} cell variables sum to {b.total} (mines left to place)")
    extra += ["output: each solved row as 'grid: <row>' ('*' mine, '.' safe, counts as given); --output-mode json "
              "prints the cell variables by name", "run: minizinc --solver gecode FILE.mzn"]
    head = Board(_named(puzzle, "*/", "* /"), mines).header("*", "MiniZinc", extra)
    out = "/*\n" + head + "*/\n" + "".join(f"var 0..1: {b.name(i)};\n" for i in range(1, b.k + 1))
    for _, ids, rhs in b.stated:
        out += "constraint " + ("sum([" + ", ".join(b.name(i) for i in ids) + "])" if ids else "0") + f" = {rhs};\n"
    if b.total is not None:
        names = [b.name(i) for i in range(1, b.k + 1)]
        lines = [", ".join(names[j:j + 10]) for j in range(0, len(names), 10)]
        out += "constraint " + ("sum([" + ",\n  ".join(lines) + "])" if names else "0") + f" = {b.total};\n"
    out += 'solve satisfy;\nfunction string: mine_symbol(var 0..1: v) = if fix(v) = 1 then "*" else "." endif;\n'
    rows = []
    for r, row in enumerate(puzzle.grid_lines):
        items = ['"grid: "']
        for c, ch in enumerate(row):
            if ch == "?":
                items.append(f"mine_symbol(x{r}_{c})")
            elif items[-1].startswith('"'):
                items[-1] = items[-1][:-1] + ch + '"'
            else:
                items.append(f'"{ch}"')
        if items[-1].startswith('"'):
            items[-1] = items[-1][:-1] + '\\n"'
        else:
            items.append('"\\n"')
        items = [i for i in items if i != '""']
        rows.append("  " + ",\n    ".join(", ".join(items[j:j + 10]) for j in range(0, len(items), 10)))
    return out + "output [\n" + ",\n".join(rows) + "\n];\n"


def asp(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """clingo: the header in a %* *% block, the asp-facts facts plus unknown/2, the encoding, #show mine/2."""
    b = Board(puzzle, mines)
    extra = ["facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) per "
             "known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable x<row>_<col> "
             "is the atom mine(row + 1, col + 1)",
             "encoding: a choice rule per unknown cell, a #count per revealed cell"
             + (", the total (mine_count, known mines included)" if b.mines is not None else "")
             + "; #show mine/2 prints every mine", "run: clingo FILE.asp (or gringo FILE.asp | clasp)"]
    out = "%*\n" + Board(_named(puzzle, "*%", "* %"), mines).header("*", "ASP (clingo)", extra) + "*%\n"
    out += f"#const r = {puzzle.rows}.\n#const c = {puzzle.cols}.\n"
    if b.mines is not None:
        out += f"#const mine_count = {b.mines}.\n"
    fact = {"*": "mine", ".": "excluded"}
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            ch = puzzle[r, c]
            if ch in "012345678":
                out += f"number({r + 1},{c + 1},{ch}).\n"
            elif ch in fact:
                out += f"{fact[ch]}({r + 1},{c + 1}).\n"
    out += "".join(f"unknown({r + 1},{c + 1}).\n" for r, c in b.vars)
    out += ("#defined number/3.\n#defined unknown/2.\n% every unknown cell may hold a mine\n"
            "{ mine(R,C) } :- unknown(R,C).\n"
            "% a revealed cell sees exactly its count of mines among its eight neighbours\n"
            ":- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.\n")
    if b.mines is not None:
        out += ("% the board holds mine_count mines in all, known mines included\n"
                ":- #count{ R,C : mine(R,C) } != mine_count.\n")
    return out + "#show mine/2.\n"


def xcsp(puzzle: Puzzle, mines: Optional[int] = None) -> str:
    """XCSP3: the header in an XML comment, a 0..1 var per unknown cell, a <sum> per stated count, the total."""
    b = Board(puzzle, mines)
    names = [b.name(i) for i in range(1, b.k + 1)]
    zero = not b.k or any(not ids for _, ids, _ in b.stated)
    extra = ["cell variables are x<row>_<col> with domain 0 1; one sum per revealed cell with an unknown neighbour "
             "(or whose count cannot be met), in row-major order: the sum of its unknown neighbours = its count "
             "minus its known-mine neighbours"]
    if b.total is not None:
        extra.append(f"last sum: the {b.k} cell variables sum to {b.total} (mines left to place)")
    if zero:
        extra.append("the variable zero (domain 0) carries a sum with no cell variable")
    extra.append("run: java -jar ACE.jar FILE.xml (ACE ships with the pycsp3 package), or any XCSP3 solver")

    def sum_of(terms: List[str], rhs: int) -> str:
        body = "\n        ".join(" ".join(terms[j:j + 10]) for j in range(0, len(terms), 10))
        return f"    <sum>\n      <list> {body} </list>\n      <condition> (eq,{rhs}) </condition>\n    </sum>\n"

    out = "<!--\n" + Board(_named(puzzle, "--", "- -"), mines).header("#", "XCSP3", extra) + "-->\n"
    out += '<instance format="XCSP3" type="CSP">\n  <variables>\n'
    out += "".join(f'    <var id="{n}"> 0 1 </var>\n' for n in names)
    out += '    <var id="zero"> 0 </var>\n' if zero else ""
    out += "  </variables>\n  <constraints>\n"
    out += "".join(sum_of([b.name(i) for i in ids] or ["zero"], rhs) for _, ids, rhs in b.stated)
    if b.total is not None:
        out += sum_of(names or ["zero"], b.total)
    return out + "  </constraints>\n</instance>\n"


REFERENCES: Dict[str, Callable[..., str]] = {
    "cnf": cnf, "lp": lp, "mps": mps, "fixed-mps": fixed_mps, "mathprog": mathprog, "opb": opb, "smt2": smt2,
    "mzn": mzn, "asp": asp, "xcsp": xcsp}
