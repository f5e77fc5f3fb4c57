"""mineconv info: what a puzzle holds."""
from __future__ import annotations

import argparse
import warnings
from typing import Any, Dict, List

from ..core.jsonout import json_text
from ..core.wording import plural
from ..formats.collection import CollectionWarning, Empty, puzzle_index
from ..formats.reading import collection_with
from . import COMMANDS, add_input_options, describe_reading, input_settings, load_reading


def reading_index(args: argparse.Namespace, held: List[Dict[str, Any]]) -> int:
    """The 0-based index of the puzzle a collection's reading took (--puzzle N, else the first with a board)."""
    number = puzzle_index(getattr(args, "read_puzzle", None))
    if number is not None:
        return number - 1
    return next((i for i, item in enumerate(held) if "empty" not in item), 0)


def _listed(index: int, label: str, puzzle: Any) -> Dict[str, Any]:
    """One entry of the listing: its number, label and size ("empty": why, for an entry without a board)."""
    if isinstance(puzzle, Empty):
        return {"index": index, "label": label, "rows": 0, "cols": 0, "empty": puzzle.why}
    return {"index": index, "label": label, "rows": puzzle.rows, "cols": puzzle.cols}


def run(args: argparse.Namespace) -> int:
    """Print size, cell counts and the notation that read the puzzle (and list a collection's puzzles)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CollectionWarning)   # the listing below names every puzzle
        reading = load_reading(args.input, input_settings(args))
    p = reading.puzzle
    data: Dict[str, Any] = {"rows": p.rows, "cols": p.cols, **p.stats, "mines": p.mines, "name": p.name,
                            "notation": reading.format.name}
    held = []
    if reading.format.collection is not None:
        _, found = collection_with(args.input, input_settings(args))
        held = [_listed(i, label, q) for i, (label, q) in enumerate(found, 1)]
        data["puzzles"] = held
    if args.json:
        print(json_text(data))
        return 0
    if held:
        print(f"puzzles:     {len(held)} in the file; shown below: {held[reading_index(args, held)]['index']} "
              "(--puzzle N shows another)")
        for item in held:
            size = f"empty ({item['empty']})" if "empty" in item else f"{item['rows']} x {item['cols']}"
            print(f"  {item['index']:>3}  {size}  {item['label']}")
    print(f"notation:    {describe_reading(reading)}")
    if p.name:
        print(f"name:        {p.name}")
    print(f"size:        {p.rows} x {p.cols} ({plural(p.rows * p.cols, 'cell')})")
    print(f"unknown:     {data['unknown']}")
    print(f"revealed:    {data['revealed']}")
    print(f"known mines: {data['known_mines']}")
    if data["known_safe"]:
        print(f"known safe:  {data['known_safe']}")
    print(f"total mines: {p.mines if p.mines is not None else 'not given'}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("info", help=COMMANDS["info"],
                       description="Say what a puzzle holds: the notation that read it (and whether it was "
                                   "named, detected from the content or chosen by the file name), its size, "
                                   "how many cells are unknown, revealed, known mines or known safe, and "
                                   "the total mine count.",
                       epilog="examples:\n  mineconv info samples/dusautoy-6x6.txt\n"
                              "  mineconv info samples/kaye-config3.dots --json\n"
                              "  mineconv info - -f json < samples/seed-3x3.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    add_input_options(p, short=True, mines=None)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
