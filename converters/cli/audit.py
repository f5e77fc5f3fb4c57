"""mineconv audit: replay a recorded game and rate every opening's risk (guesses, luck, 3BV, clicks)."""
from __future__ import annotations

import argparse
from typing import List

from ..analysis.verdicts.audit import Audit, audit
from ..core.fileio import atomic_output
from ..core.jsonout import json_text
from ..formats.replays import read_replay
from ..present.audit_pictures import write_guess_pictures
from . import COMMANDS
from .analyze import add_bound_options
from .explain import svg_folder

EPILOG = """For every opening that opened a new cell (a left click, or a chord on a count whose flagged
neighbours match it), the position the player saw just before it (opened counts and the total; flags are
not knowledge) is analysed exactly: P(mine) of the click (a chord: that any cell it opens is a mine), and
whether another cell was provably safe (a guess then was avoidable). Luck is -log10 of the chance that
every opening after the first was safe (ms-toollib's "pluck"); null with a reason when a mine was hit.

JSON: {"file", "rows", "cols", "mines", "clicks": [{"row", "col", "kind": "left"|"chord", "time",
       "p_mine", "safe_elsewhere", "engine"}], "luck", "forced_guesses", "avoidable_guesses", "bbbv",
       "clicks_total", "lost", "status"}
"engine" is the engine's move on a guess (cell, p_mine, why); null on a safe click, and on a position of
more than 10,000 unknown cells, where its exact count (which takes no deadline) is not made.
With --svg DIR, one picture per guess: the position the player saw (probabilities as a heat scale), the
cells the click risked outlined, its P(mine) and whether it was forced.

examples:
  mineconv audit game.avf
  mineconv audit game.rmv --json
  mineconv audit game.evf --svg guesses/

exit status: 0 audited, 1 an analysis timed out, 2 bad input
"""


def report_text(a: Audit) -> str:
    """The text report: one line per guess, then the summary."""
    lines: List[str] = [f"{a.source}: {a.rows} x {a.cols}, {a.mines} mines, {len(a.clicks)} openings"]
    for c in a.guesses:
        o = c.opening
        why = "avoidable: a safe cell existed" if c.safe_elsewhere else "forced: no safe cell"
        line = f"  {o.time:8.3f}s {o.kind:5} ({o.row}, {o.col})  P(mine) {float(c.p_mine or 0):.4f}  {why}"
        if c.engine is not None:
            line += f"; engine: ({c.engine['cell'][0]}, {c.engine['cell'][1]}) {c.engine['why']}"
        lines.append(line)
    luck = a.luck
    lines.append(f"guesses: {a.forced_guesses} forced, {a.avoidable_guesses} avoidable")
    lines.append("luck: " + (f"{luck:.6f}" if luck is not None else f"infinite ({a.luck_reason()})"))
    lines.append(f"3BV: {a.bbbv}, clicks: {a.clicks_total}")
    if a.status != "complete":
        lines.append(f"status: {a.status}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Audit one replay."""
    replay = read_replay(args.replay)
    if args.svg:
        svg_folder(args.svg)   # made (or refused: a file there, a parent missing) before any work
    result = audit(replay, timeout=args.timeout, memory_budget=args.memory_budget, source=args.replay)
    text = json_text(result.to_json()) + "\n" if args.json else report_text(result)
    with atomic_output(args.output) as out:
        out.write(text)
    if args.svg:
        write_guess_pictures(result, args.svg)
    return 0 if result.status == "complete" else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("audit", help=COMMANDS["audit"],
                       description="Replay a recorded game (.avf .rmv .mvf .evf .rawvf) and rate every opening: "
                                   "its exact P(mine), forced or avoidable guesses, the luck, 3BV and clicks.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("replay", help="replay file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-o", "--output", default="-", help="write the report here (default: stdout)")
    p.add_argument("--svg", metavar="DIR", help="also draw each guess (the board then, the click outlined, its "
                                                 "P(mine)) as DIR/guess-NNN-ROW-COL.svg")
    add_bound_options(p)
    p.set_defaults(func=run)
