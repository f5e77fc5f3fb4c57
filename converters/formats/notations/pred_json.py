"""The problem-reductions Minesweeper JSON shape (.json), plain or wrapped, reader and writer.

Plain:   {"rows": R, "cols": C, "revealed": [[r, c, count], ...], "unrevealed": [[r, c], ...]}
Wrapped: {"type": "Minesweeper", "variant": {}, "data": <plain>}   (what the writer produces)

Coordinates are 0-based. Every cell must be listed exactly once, in one of the two lists: a cell in
neither is an error, not a guess (problem-reductions' own model would treat it as a mine-free cell
without a count, and a silent reading either way could change the puzzle). Counts are 0-8. The shape
has no way to say "known mine", "known safe", the total mine count, a name or notes; the writer lists
known mines and known safe cells as unrevealed and warns (refuses under --strict).
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Any, List, Optional, TextIO

import numpy as np

from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.fileio import too_many_cells
from ...core.puzzle import CODE_MINE, CODE_SAFE, CODE_UNKNOWN, Puzzle
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..located_errors import error_at, is_whole, json_item_offset, json_key_offset, load_json
from ..registry import register_format

_DATA_KEYS = ("rows", "cols", "revealed", "unrevealed")


def read_pred_json(text: str, source: str = "<string>") -> Puzzle:
    """Parse the problem-reductions Minesweeper shape, plain or wrapped in {"type": "Minesweeper", ...}."""
    text = normalise_newlines(text)
    doc = load_json(text, source)
    base = 0  # where the data object starts, so key lookups find the inner keys

    def fail(msg: str, key: Optional[str] = None, offset: Optional[int] = None) -> PuzzleSyntaxError:
        off = offset if offset is not None else (json_key_offset(text, key, base) if key else base)
        return error_at(msg, text, off, source)  # type: ignore[return-value]

    if not isinstance(doc, dict):
        raise fail(f"expected a JSON object {{...}}, not {type(doc).__name__}")
    if "type" in doc or "data" in doc:
        if doc.get("type") != "Minesweeper":
            raise fail(f"\"type\" must be \"Minesweeper\", got {json.dumps(doc.get('type'))}", "type")
        if not isinstance(doc.get("data"), dict):
            raise fail("the wrapped shape needs \"data\": {rows, cols, revealed, unrevealed}", "data"
                       if "data" in doc else None)
        base = json_key_offset(text, "data")
        doc = doc["data"]
    extra = [k for k in doc if k not in _DATA_KEYS]
    if extra:
        raise fail(f"unknown key {extra[0]!r} (allowed: {', '.join(_DATA_KEYS)})", extra[0])
    for key in _DATA_KEYS:
        if key not in doc:
            raise fail(f"missing required key {key!r}")
    rows, cols = doc["rows"], doc["cols"]
    for key, v in (("rows", rows), ("cols", cols)):
        if not is_whole(v) or v < 1:
            raise fail(f"\"{key}\" must be a whole number >= 1, got {json.dumps(v)}", key)
    # a 64-byte file claiming 50000 x 50000 is refused here, before anything of that size is allocated;
    # within the limit the board's arrays are small, and the lists are checked against it cell by cell
    too_big = too_many_cells(rows, cols)
    if too_big:
        raise fail(too_big, "rows")
    rev = _cells(doc["revealed"], 3, "revealed", text, base, fail)
    unr = _cells(doc["unrevealed"], 2, "unrevealed", text, base, fail)
    for name, arr in (("revealed", rev), ("unrevealed", unr)):
        out = (arr[:, 0] < 0) | (arr[:, 0] >= rows) | (arr[:, 1] < 0) | (arr[:, 1] >= cols)
        if out.any():
            i = int(np.flatnonzero(out)[0])
            raise fail(f"{name} item {i}: cell ({arr[i, 0]}, {arr[i, 1]}) is outside the {rows} x {cols} grid",
                       offset=json_item_offset(text, name, i, base))
    bad = (rev[:, 2] < 0) | (rev[:, 2] > 8)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise fail(f"revealed item {i}: count {rev[i, 2]} is not 0-8", offset=json_item_offset(text, "revealed", i, base))
    grid = np.full(rows * cols, CODE_SAFE, dtype=np.int16)  # CODE_SAFE here means "not listed yet"
    seen = np.zeros(rows * cols, dtype=np.int32)
    flat_r = rev[:, 0] * cols + rev[:, 1]
    flat_u = unr[:, 0] * cols + unr[:, 1]
    np.add.at(seen, flat_r, 1)
    np.add.at(seen, flat_u, 1)
    if (seen > 1).any():
        cell = int(np.flatnonzero(seen > 1)[0])
        r, c = divmod(cell, cols)
        where = [("revealed", int(i)) for i in np.flatnonzero(flat_r == cell)] + \
                [("unrevealed", int(i)) for i in np.flatnonzero(flat_u == cell)]
        lists = " and ".join(f"{n} item {i}" for n, i in where[:2])
        raise fail(f"cell ({r}, {c}) is listed twice ({lists})",
                   offset=json_item_offset(text, where[1][0], where[1][1], base))
    if (seen == 0).any():
        cell = int(np.flatnonzero(seen == 0)[0])
        r, c = divmod(cell, cols)
        missing = int((seen == 0).sum())
        raise fail(f"cell ({r}, {c}) is neither revealed nor unrevealed ({missing} cell"
                   f"{'s' if missing > 1 else ''} missing): list every cell once", "unrevealed")
    grid[flat_r] = rev[:, 2]
    grid[flat_u] = CODE_UNKNOWN
    symbols = np.frombuffer(b"?012345678", dtype=np.uint8)[(grid + 1).astype(np.intp)]
    try:
        return Puzzle(rows, cols, symbols.tobytes().decode("ascii"))
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            i = int(np.flatnonzero(flat_r == r * cols + c)[0])
            raise fail(exc.message, offset=json_item_offset(text, "revealed", i, base)) from None
        raise fail(exc.message) from None


def _cells(items: Any, width: int, name: str, text: str, base: int, fail: Any) -> np.ndarray:
    """A list of [r, c] or [r, c, count] items as an (n, width) int64 array, each item checked."""
    if not isinstance(items, list):
        raise fail(f"\"{name}\" must be a list of [{'row, col, count' if width == 3 else 'row, col'}] items", name)
    if not items:
        return np.zeros((0, width), dtype=np.int64)
    # map() with builtins keeps the common, valid case at C speed on a million items
    if set(map(type, items)) == {list} and set(map(len, items)) == {width}:
        flat = list(itertools.chain.from_iterable(items))
        # exact types: bool is a subclass of int, and true/false must not pass as 1/0
        if set(map(type, flat)) == {int}:
            return np.array(flat, dtype=np.int64).reshape(len(items), width)
    for i, item in enumerate(items):
        if not isinstance(item, list) or len(item) != width or not all(is_whole(v) for v in item):
            what = "[row, col, count]" if width == 3 else "[row, col]"
            raise fail(f"{name} item {i} must be {what} with whole numbers, got {json.dumps(item)[:40]}",
                       offset=json_item_offset(text, name, i, base))
    return np.array(items, dtype=np.int64).reshape(len(items), width)


def write_pred_json(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the wrapped shape, revealed and unrevealed cells in row-major order."""
    codes = puzzle.codes
    rev_rc = np.argwhere((codes >= 0) & (codes <= 8))
    unr_rc = np.argwhere((codes == CODE_UNKNOWN) | (codes == CODE_MINE) | (codes == CODE_SAFE))
    counts = codes[rev_rc[:, 0], rev_rc[:, 1]] if len(rev_rc) else np.zeros(0, dtype=np.int8)
    flat_rev = np.column_stack([rev_rc, counts]).ravel().tolist() if len(rev_rc) else []
    rev = ("[%d, %d, %d], " * len(rev_rc) % tuple(flat_rev))[:-2]
    unr = ("[%d, %d], " * len(unr_rc) % tuple(unr_rc.ravel().tolist()))[:-2]
    out.write('{"type": "Minesweeper", "variant": {}, "data": {"rows": %d, "cols": %d, "revealed": [%s], '
              '"unrevealed": [%s]}}\n' % (puzzle.rows, puzzle.cols, rev, unr))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    return lost_parts(puzzle, mines_as="unrevealed cells", safe_as="unrevealed cells")


def detect_pred_json(text: str) -> bool:
    """True for a JSON object in the problem-reductions Minesweeper shape."""
    head = text[:4000].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and (re.search(r'"type"\s*:\s*"Minesweeper"', head) is not None
                                     or re.search(r'"(revealed|unrevealed)"\s*:', head) is not None)


register_format("pred-json", reader=read_pred_json, writer=write_pred_json,
                detect=detect_pred_json, losses=_losses,
                description="problem-reductions JSON: revealed [r, c, count] and unrevealed [r, c] lists, 0-based")
