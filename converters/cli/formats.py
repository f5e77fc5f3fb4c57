"""mineconv formats: every registered reader and writer."""
from __future__ import annotations

import argparse
from typing import Any, Dict, List

from ..core.jsonout import json_text
from ..encode.cardinality import CARD_ENCODINGS, DEFAULT_CARD_ENCODING
from ..formats.registry import formats
from . import COMMANDS

EPILOG = f"""Each row: name, r (reads) / w (writes), extensions, what it is; aliases and writer options below it.
Inputs are recognised by their content (the extension breaks ties); outputs by extension; name either
with --from / --to. CNF cardinality encodings (convert/batch --card-encoding, default {DEFAULT_CARD_ENCODING}):
  {', '.join(CARD_ENCODINGS)}

examples:
  mineconv formats
  mineconv formats --json | python3 -m json.tool
  mineconv convert board.txt board.cnf --card-encoding seqcounter
"""


def run(args: argparse.Namespace) -> int:
    """Print the registry."""
    rows: List[Dict[str, Any]] = [
        {"name": f.name, "kind": f.kind, "read": f.reader is not None, "write": f.writer is not None,
         "extensions": list(f.extensions), "aliases": list(f.aliases), "description": f.description,
         "read_options": list(f.read_options), "write_options": list(f.write_options)}
        for f in formats()]
    for r in rows:
        if "card_encoding" in r["write_options"]:
            r["card_encodings"] = list(CARD_ENCODINGS)
            r["default_card_encoding"] = DEFAULT_CARD_ENCODING
    if args.json:
        print(json_text(rows))
        return 0
    for kind in ("puzzle", "model", "solution"):
        group = [r for r in rows if r["kind"] == kind]
        if not group:
            continue
        print({"puzzle": "Puzzle notations", "model": "Solver input files", "solution": "Solver answers"}[kind])
        for r in group:
            rw = ("r" if r["read"] else "-") + ("w" if r["write"] else "-")
            print(f"  {r['name']:<16} {rw}  {' '.join(r['extensions']):<18} {r['description']}")
            if r["aliases"]:
                print(f"  {'':<16}     {'':<18} also named: {', '.join(r['aliases'])}")
            if "card_encodings" in r:
                print(f"  {'':<16}     {'':<18} --card-encoding: {', '.join(r['card_encodings'])} "
                      f"(default {r['default_card_encoding']})")
        print()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("formats", help=COMMANDS["formats"],
                       description="List every registered format: puzzle notations (read and/or written), "
                                   "solver input files (written) and solver answers (read), with their "
                                   "extensions, aliases and the CNF cardinality encodings.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=run)
