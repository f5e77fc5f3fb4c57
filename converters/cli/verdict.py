"""mineconv verdict: "must I guess?" on a position, answered with a proof or a certificate."""
from __future__ import annotations

import argparse
import json
from typing import Any, List

from ..analysis import count_text
from ..analysis.verdicts.verdict import Verdict, check_certificate, verdict
from ..core.errors import PuzzleSyntaxError
from ..core.fileio import atomic_output, read_input
from ..core.jsonout import json_text
from . import COMMANDS, add_input_options, input_settings, load_puzzle
from .analyze import add_bound_options

EPILOG = """verdicts:
  no-guess  some unknown cell is decided in every solution: one is named (a safe one when the first
            deduction has one) with its proof, the step `explain` finds (counts used, level, words)
  guess     no unknown cell is decided: the certificate is a list of solutions (every mine cell, known
            mines included), each meeting every count and the total, that together put a mine and no mine
            on every unknown cell; --check re-verifies it with no solver
  solved    no unknown cell is left
The first two also give the best guess: the unknown cell most likely safe (a proven-safe cell first, and
then it is no guess: "certain": true; ties: the most unknown neighbours, then row-major) and the exact
solution count (shortened in the text as analyze shortens it; whole, as a string, in the JSON).

JSON: {"verdict": "no-guess"|"guess"|"solved", "cell": [r, c], "value": "safe"|"mine", "proof": {...},
       "solutions": [[[r, c], ...], ...], "certificate_size": n,
       "best_guess": {"cell": [r, c], "p_safe": p, "rule": "...", "certain": true|false}, "count": "N",
       "status": "complete"}
best_guess also holds "engine", the engine's move, up to 10,000 unknown cells (its exact count has no
deadline), and past them "engine_skipped", saying why. "status": "partial": the certificate's solutions
would pass --memory-budget (estimated before the solver is built, and again after each solution), so none
is listed; "timeout": the time ran out first (exit 1).

--check CERT.json checks every field: the evidence with no solver (each solution of a guess certificate
added up against every count; a no-guess proof by enumerating every way to meet the counts it names, with
the total when it says so), and every other field (verdict, cell, value, the proof's level, cells, counts
and words, best_guess, count, status) recomputed from the position and compared; a field the verdict does
not write is refused. It honours --timeout and --memory-budget (exit 1 when they stop it).

examples:
  mineconv verdict samples/seed-3x3.txt
  mineconv verdict position.txt --json -o cert.json && mineconv verdict position.txt --check cert.json

exit status: 0 a verdict (either) or a certificate that holds, 1 no solution or timed out, 2 bad input,
3 a certificate that does not hold (--check)
"""


def report_text(v: Verdict) -> str:
    """The text report."""
    lines: List[str] = []
    if v.verdict == "solved":
        lines.append("verdict: solved: no unknown cell is left")
    elif v.verdict == "no-guess" and v.cell is not None and v.proof is not None:
        lines.append(f"verdict: no guess needed: ({v.cell[0]}, {v.cell[1]}) is {'a mine' if v.value == 'mine' else 'safe'}")
        lines.append(f"proof ({v.proof.get('level')}): {v.proof.get('text')}")
    else:
        lines.append("verdict: a guess is forced: no unknown cell is decided")
        if v.solutions:
            lines.append(f"certificate: {len(v.solutions)} solutions that together put a mine and no mine on "
                         "every unknown cell (--json lists them)")
        else:
            lines.append("certificate: not built (the exact count shows no cell is decided; the list of solutions "
                         "passed the time limit or the memory budget)")
    lines.extend(best_guess_lines(v))
    lines.append(f"solutions: {count_text(v.count) if v.count is not None else 'not counted'}")
    if v.status != "complete":
        lines.append(f"status: {v.status}")
    return "\n".join(lines) + "\n"


def best_guess_lines(v: Verdict) -> List[str]:
    """The best guess in words: a proven-safe cell is said to be no guess."""
    if v.best_guess is None:
        return []
    r, c = v.best_guess["cell"]
    if v.best_guess.get("certain"):
        return [f"safe move: ({r}, {c}) is safe in every solution (proven: no guess needed)"]
    return [f"best guess: ({r}, {c}), safe with probability {v.best_guess['p_safe']:.6g}"]


def run(args: argparse.Namespace) -> int:
    """Give the verdict on one position, or check a certificate."""
    puzzle = load_puzzle(args.input, input_settings(args))
    if args.check:
        text, source = read_input(args.check)
        try:
            certificate: Any = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise PuzzleSyntaxError(f"the certificate is not JSON: {str(exc)[:200]}", source=source) from None
        if not isinstance(certificate, dict):
            raise PuzzleSyntaxError("the certificate is not a JSON object", source=source)
        held = check_certificate(puzzle, certificate, timeout=args.timeout, memory_budget=args.memory_budget)
        print(f"certificate holds: {held}")
        return 0
    v = verdict(puzzle, timeout=args.timeout, memory_budget=args.memory_budget)
    if v is None:
        text = (json_text({"verdict": None, "feasible": False}) + "\n" if args.json
                else "no solution: the counts contradict each other\n")
        with atomic_output(args.output) as out:
            out.write(text)
        return 1
    if args.json:
        text = json_text(v.to_json()) + "\n"
    else:
        text = report_text(v)
    with atomic_output(args.output) as out:
        out.write(text)
    return 0 if v.status != "timeout" else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("verdict", help=COMMANDS["verdict"],
                       description="Say whether a position has a safe move (or a certain mine) and prove it, "
                                   "or certify that every move is a guess; name the best guess.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="position file (any notation), or - for stdin")
    add_input_options(p, mines="total number of mines (overrides the position's)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the certificate)")
    p.add_argument("--check", metavar="CERT.json", help="re-verify a verdict's JSON on the position, no solver")
    p.add_argument("-o", "--output", default="-", help="write the verdict here (default: stdout)")
    add_bound_options(p)
    p.set_defaults(func=run)
