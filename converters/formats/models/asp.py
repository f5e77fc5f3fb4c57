"""Answer set program writer (.asp): facts plus the encoding, for clingo (or gringo | clasp).

The facts are those of the asp-facts notation (1-based, row first): `#const r` and `#const c`, `number(R,C,N)`
per revealed cell, `mine(R,C)` per known mine, `excluded(R,C)` per known-safe cell, plus `unknown(R,C)` per
unknown cell and `#const mine_count` when the total is given. The encoding: a choice rule `{ mine(R,C) } :-
unknown(R,C).`, an integrity constraint per revealed cell that `#count`s the mines around it, the total, and
`#show mine/2.` (every mine, known ones included). The mineconv header sits in a `%* ... *%` block.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO

from ...core.puzzle import CODE_MINE, CODE_SAFE, Puzzle
from ...core.system import build_system
from ..header import write_header
from ..registry import register_format
from .mzn import comment_safe

TITLE = "ASP (clingo)"

ENCODING = """\
#defined number/3.
#defined unknown/2.
% every unknown cell may hold a mine
{ mine(R,C) } :- unknown(R,C).
% a revealed cell sees exactly its count of mines among its eight neighbours
:- number(R,C,N), #count{ DR,DC : mine(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0) } != N.
"""
TOTAL_RULE = "% the board holds mine_count mines in all, known mines included\n" \
             ":- #count{ R,C : mine(R,C) } != mine_count.\n"
SHOW = "#show mine/2.\n"


def write_asp(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as a clingo program: facts, the encoding, #show mine/2."""
    system = build_system(puzzle, mines)
    total = None if system.total is None else system.total + puzzle.known_mine_count
    extra = ["facts 1-based, row first (as the asp-facts notation): number(R,C,N) per revealed cell, mine(R,C) "
             "per known mine, excluded(R,C) per known-safe cell, unknown(R,C) per unknown cell; variable "
             "x<row>_<col> is the atom mine(row + 1, col + 1)",
             "encoding: a choice rule per unknown cell, a #count per revealed cell"
             + (", the total (mine_count, known mines included)" if total is not None else "")
             + "; #show mine/2 prints every mine",
             "run: clingo FILE.asp (or gringo FILE.asp | clasp)"]
    out.write("%*\n")
    write_header(out, comment_safe(puzzle, "*%", "* %"), system, "*", TITLE, extra)
    out.write("*%\n")
    lines: List[str] = [f"#const r = {puzzle.rows}.", f"#const c = {puzzle.cols}."]
    if total is not None:
        lines.append(f"#const mine_count = {total}.")
    unknown: List[str] = []
    for r, row in enumerate(puzzle.codes.tolist(), 1):
        for c, v in enumerate(row, 1):
            if 0 <= v <= 8:
                lines.append(f"number({r},{c},{v}).")
            elif v == CODE_MINE:
                lines.append(f"mine({r},{c}).")
            elif v == CODE_SAFE:
                lines.append(f"excluded({r},{c}).")
            else:
                unknown.append(f"unknown({r},{c}).")
    out.write("".join(line + "\n" for line in lines + unknown))
    out.write(ENCODING)
    if total is not None:
        out.write(TOTAL_RULE)
    out.write(SHOW)


def _detect(text: str) -> bool:
    return text.startswith("%*\n* mineconv ") and "{ mine(R,C) } :- unknown(R,C)." in text


register_format("asp", writer=write_asp, detect=_detect,
                description="answer set program for clingo: asp-facts facts, a choice rule per unknown cell, "
                            "a #count per revealed cell, #show mine/2",
                write_options=("mines",))
