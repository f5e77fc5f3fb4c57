"""Regenerate the writers' golden files on purpose: python3 tests/regen_golden.py (then review git diff)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mineconv.formats import registry, writing # noqa: E402
from mineconv.core.puzzle import Puzzle  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"

# the solver-file formats with golden files, in the order of the issue
FORMATS = ["cnf", "lp", "mps", "fixed-mps", "mathprog", "opb", "smt2", "mzn", "asp", "xcsp"]

CASES: Dict[str, Puzzle] = {
    # the 3x3 example with two solutions (shared/puzzles/seed-3x3.txt)
    "seed-3x3": Puzzle.from_rows(["1??", "12?", "01?"], name="seed 3x3"),
    # du Sautoy's 6x6 (shared/puzzles/dusautoy-6x6.txt), with its total of 8 mines
    "dusautoy-6x6": Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"], mines=8),
    # known mines and known safe cells, a total, an unconstrained unknown cell
    "known-4x5": Puzzle.from_rows(["1*2??", "?2.?1", "?1?11", "???.?"], mines=5),
    # a count no assignment can meet (1 beside known-safe cells only)
    "impossible-2x3": Puzzle.from_rows(["1..", "..?"]),
    # no unknown cell at all, consistent
    "solved-2x2": Puzzle.from_rows(["1*", "11"], mines=1),
}


def golden_name(case: str, fmt: str) -> str:
    """File name of one golden file."""
    ext = registry.get_format(fmt).extensions[0]
    return f"{case}.{fmt}{ext}" if ext != f".{fmt}" else f"{case}{ext}"


def render(puzzle: Puzzle, fmt: str) -> str:
    """The text a writer produces for a golden case (default options)."""
    return writing.dumps(puzzle, fmt)


def main() -> int:
    """Write every golden file."""
    GOLDEN.mkdir(exist_ok=True)
    for case, puzzle in sorted(CASES.items()):
        for fmt in FORMATS:
            path = GOLDEN / golden_name(case, fmt)
            path.write_text(render(puzzle, fmt), encoding="utf-8", newline="\n")
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
