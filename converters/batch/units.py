"""What one batch input gives: its puzzles (one, or each of a file that holds several) and their outputs.

A file that holds several puzzles (contest fields, exercise cases) gives one unit per puzzle, its outputs
named OUTDIR/<rel>-<n><extension> with n its 1-based place in the file (the numbering of `mineconv info`);
a file of one puzzle keeps OUTDIR/<rel><extension>. With the `puzzle` reader option (--puzzle N) a
collection gives only its puzzle N, under the same name as in a full run. An entry without a board (an
empty exercism case) keeps its number and gives a unit whose puzzle is Empty: nothing is written for it.
"""
from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..core.errors import FileAccessError, MineconvError
from ..formats.collection import Empty, failures_kept, puzzle_index
from ..formats.registry import Format
from .inputs import FAILED, Settings


@dataclass(frozen=True)
class Unit:
    """One puzzle to convert: the input's only one, or one of a file that holds several."""

    rel: str                     # output stem inside OUTDIR
    puzzle: Any                  # the Puzzle, or the MineconvError building it raised
    number: Optional[int] = None  # 1-based place in the file (None: a file of one puzzle)
    label: Optional[str] = None  # the puzzle's name or id in the file ('Field #2', a case's description)
    count: Optional[int] = None  # how many puzzles the file holds


def new_record(path: str, status: str, outputs: List[Dict[str, Any]], error: Optional[str] = None
               ) -> Dict[str, Any]:
    """A result record as the manifest lists it (input, status, outputs, error)."""
    return {"input": path, "status": status, "outputs": outputs, "error": error if status == FAILED else None}


def input_mtime(path: str) -> int:
    """The input's modification time in ns; FileAccessError when it is missing or not a regular file."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise FileAccessError(f"cannot read: {exc.strerror or exc}", source=path) from None
    if not stat.S_ISREG(st.st_mode):
        raise FileAccessError("not a regular file", source=path)
    return st.st_mtime_ns


def file_digest(path: str) -> str:
    """sha256 of a file's bytes, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def plan(settings: Settings, exts: Dict[str, str], rel: str, mtime: int
         ) -> Tuple[List[Tuple[str, str]], List[Dict[str, Any]]]:
    """(format, output path) of each output of stem `rel` to write, and the records of those kept
    (--skip-existing finds them no older than the input)."""
    todo = []
    kept = []
    for name in settings.formats:
        out = os.path.join(settings.outdir, rel + exts[name])
        if settings.skip_existing:
            try:
                ost = os.stat(out)
            except OSError:
                ost = None
            if ost is not None and stat.S_ISREG(ost.st_mode) and ost.st_mtime_ns >= mtime:
                kept.append({"format": name, "path": out, "size": ost.st_size,
                             "sha256": file_digest(out) if settings.hash_outputs else None, "kept": True})
                continue
        todo.append((name, out))
    return todo, kept


def collection_units(fmt: Format, text: str, source: str, rel: str, read_options: Dict[str, Any]) -> List[Unit]:
    """Every puzzle of a file that holds several (or the one --puzzle names) as a unit; [] when the file
    holds at most one, or fewer than --puzzle asks for: the notation's reader then reads it as before."""
    assert fmt.collection is not None
    options = dict(read_options)
    wanted = puzzle_index(options.pop("puzzle", None))
    try:
        with failures_kept():  # a bad puzzle is reported on its own: the others are still converted
            found = fmt.collection(text, source=source, **options)
    except MineconvError as exc:
        exc.located(source)
        raise
    if len(found) <= 1 or (wanted is not None and (wanted > len(found) or isinstance(found[wanted - 1][1], Empty))):
        return []   # the reader's own error says what is missing or empty, in the notation's words ('field 3')
    numbered = list(enumerate(found, 1))
    if wanted is not None:
        numbered = [numbered[wanted - 1]]
    return [Unit(f"{rel}-{n}", _named(puzzle, label), n, label, len(found)) for n, (label, puzzle) in numbered]


def _named(puzzle: Any, label: str) -> Any:
    """The puzzle named by its label when the file gives it no name, as mineconv.read_all yields it."""
    if isinstance(puzzle, (BaseException, Empty)) or puzzle.name:
        return puzzle
    return puzzle.replace(name=label)
