"""mineconv's own JSON notation (.json): everything a Puzzle holds, validated strictly.

Schema (version 1); keys in this order when written, any order when read::

    {
      "format": "mineconv-puzzle",        required, exactly this string
      "version": 1,                       required, 1
      "name": "du Sautoy 6x6",            optional, a one-line string or null
      "rows": 6, "cols": 6,               optional when read (checked against the grid), always written
      "mines": 8,                         optional, total mines on the board (known mines included) or null
      "notes": ["..."],                   optional, one-line strings
      "grid": ["??????", "?2222?", ...],  required, one string per row: ? unknown, 0-8 count,
                                          * known mine, . known safe
      "start": [3, 4]                     optional, a game's first click [row, col], 0-based;
    }                                     written only when the puzzle has one

Unknown keys are an error (a typo must not be ignored silently).
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional, TextIO

from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..located_errors import error_at, is_whole, json_item_offset, json_key_offset, load_json
from ..registry import register_format

FORMAT_TAG = "mineconv-puzzle"
VERSION = 1
_KEYS = ("format", "version", "name", "rows", "cols", "mines", "notes", "grid", "start")
_BAD_CELL = re.compile(r"[^?0-8*.]")


def read_mineconv_json(text: str, source: str = "<string>") -> Puzzle:
    """Parse mineconv's JSON puzzle notation."""
    text = normalise_newlines(text)
    doc = load_json(text, source)

    def fail(msg: str, key: Optional[str] = None, offset: Optional[int] = None) -> PuzzleSyntaxError:
        off = offset if offset is not None else (json_key_offset(text, key) if key else 0)
        return error_at(msg, text, off, source)  # type: ignore[return-value]

    if not isinstance(doc, dict):
        raise fail(f"a mineconv JSON puzzle is an object {{...}}, not {type(doc).__name__}",
                   offset=len(text) - len(text.lstrip()))
    extra = [k for k in doc if k not in _KEYS]
    if extra:
        raise fail(f"unknown key {extra[0]!r} (allowed: {', '.join(_KEYS)})", extra[0])
    for key in ("format", "version", "grid"):
        if key not in doc:
            raise fail(f"missing required key {key!r}")
    if doc["format"] != FORMAT_TAG:
        raise fail(f"\"format\" must be {FORMAT_TAG!r}, got {doc['format']!r}", "format")
    if doc["version"] != VERSION or not is_whole(doc["version"]):
        raise fail(f"unsupported version {doc['version']!r} (this mineconv reads version {VERSION})", "version")
    name = doc.get("name")
    if name is not None and (not isinstance(name, str) or "\n" in name or "\r" in name):
        raise fail("\"name\" must be a one-line string or null", "name")
    notes = doc.get("notes", [])
    if not isinstance(notes, list):
        raise fail("\"notes\" must be a list of one-line strings", "notes")
    for i, note in enumerate(notes):
        if not isinstance(note, str) or "\n" in note or "\r" in note:
            raise fail(f"note {i} must be a one-line string", offset=json_item_offset(text, "notes", i))
    mines = doc.get("mines")
    if mines is not None and (not is_whole(mines) or mines < 0):
        raise fail(f"\"mines\" must be a whole number >= 0 or null, got {json.dumps(mines)}", "mines")
    grid = doc["grid"]
    if not isinstance(grid, list) or not grid:
        raise fail("\"grid\" must be a non-empty list of row strings", "grid")
    width = None
    for i, row in enumerate(grid):
        if not isinstance(row, str):
            raise fail(f"grid row {i} must be a string of cell symbols, not {json.dumps(row)[:20]}",
                       offset=json_item_offset(text, "grid", i))
        bad = _BAD_CELL.search(row)
        if bad:
            raise fail(f"grid row {i}: {bad.group()!r} is not a cell symbol (expected ? 0-8 * .)",
                       offset=json_item_offset(text, "grid", i) + 1 + bad.start())
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise fail(f"grid row {i} has {plural(len(row), 'cell')}, row 0 has {width} (the grid must be rectangular)",
                       offset=json_item_offset(text, "grid", i))
    for key, actual in (("rows", len(grid)), ("cols", width)):
        if key in doc and (not is_whole(doc[key]) or doc[key] != actual):
            raise fail(f"\"{key}\" is {json.dumps(doc[key])} but the grid has {actual}", key)
    start = doc.get("start")
    if start is not None:
        if not (isinstance(start, list) and len(start) == 2 and all(is_whole(v) and v >= 0 for v in start)):
            raise fail(f"\"start\" must be [row, col] (two whole numbers >= 0, 0-based) or null, "
                       f"got {json.dumps(start)[:40]}", "start")
        start = (int(start[0]), int(start[1]))
    try:
        return Puzzle.from_rows(grid, mines=mines, name=name, notes=notes, start=start)
    except PuzzleError as exc:
        if "first click" in exc.message:
            raise fail(exc.message, "start") from None
        if exc.cell is not None:
            r, c = exc.cell
            raise fail(exc.message, offset=json_item_offset(text, "grid", r) + 1 + c) from None
        raise fail(exc.message, "mines" if "mines" in exc.message else "grid") from None


def write_mineconv_json(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the puzzle as mineconv JSON, one grid row per line."""
    head = [f'  "format": {json.dumps(FORMAT_TAG)}', f'  "version": {VERSION}',
            f'  "name": {json.dumps(puzzle.name)}', f'  "rows": {puzzle.rows}', f'  "cols": {puzzle.cols}',
            f'  "mines": {json.dumps(puzzle.mines)}', f'  "notes": {json.dumps(list(puzzle.notes))}']
    rows = ",\n".join(f'    "{row}"' for row in puzzle.grid_lines)
    # "start" only when there is one, so that every file written before it existed keeps its bytes
    tail = "" if puzzle.start is None else f',\n  "start": [{puzzle.start[0]}, {puzzle.start[1]}]'
    out.write("{\n" + ",\n".join(head) + ',\n  "grid": [\n' + rows + "\n  ]" + tail + "\n}\n")


def detect_mineconv_json(text: str) -> bool:
    """True for a JSON object that names the mineconv-puzzle format."""
    head = text[:4000].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and re.search(r'"format"\s*:\s*"' + FORMAT_TAG + '"', head) is not None


register_format("json", reader=read_mineconv_json, writer=write_mineconv_json, detect=detect_mineconv_json,
                keeps_start=True,
                description="mineconv JSON: format/version tag, grid as row strings, mines, name, notes")
