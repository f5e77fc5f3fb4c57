"""mineconv formats: every registered reader and writer."""
from __future__ import annotations

import argparse
import json

from ..registry import formats


def run(args: argparse.Namespace) -> int:
    """Print the registry."""
    rows = [{"name": f.name, "kind": f.kind, "read": f.reader is not None, "write": f.writer is not None,
             "extensions": list(f.extensions), "aliases": list(f.aliases), "description": f.description,
             "read_options": list(f.read_options), "write_options": list(f.write_options)}
            for f in formats()]
    if args.json:
        print(json.dumps(rows))
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
        print()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("formats", help="list every reader and writer with its extensions")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=run)
