"""The read pipeline, one line down: bytes -> text -> ranked detection -> parse -> Puzzle (a Reading).

reading builds the input once, a Source (its bytes, text, name and the notations named: --from, or the file
name's extension), and hands it to detection, which ranks the notations, reads the input with the one that fits
(hints word the error when none does) and hands back one Reading. How to read is one immutable value,
ReadSettings, built once (by the command line, or from the keywords of read() and parse()) and passed down.
"""
from __future__ import annotations

import warnings
from typing import Any, Iterator, List, Optional, Tuple

from ..core.errors import MineconvError
from ..core.fileio import PathLike, decode_bytes, read_bytes, source_name
from ..core.puzzle import Puzzle
from .collection import CollectionWarning, Empty
from .detection import choose, close_to_best, rank, reader_options, unreadable, weigh
from .registry import Format, candidates_for_path, get_format, output_format
from .source import Reading as Reading
from .source import ReadSettings as ReadSettings
from .source import Source


def _source_of(path: PathLike, settings: ReadSettings) -> Source:
    """The file's Source: its bytes, read once, their text (unless --from names a binary notation: an undecodable
    file is an error only when it has to be text) and the notations its name names."""
    data, name = read_bytes(path)
    named = get_format(settings.notation, direction="read", kind="puzzle") if settings.notation else None
    text, undecodable = None, None
    if named is None or not named.binary:
        try:
            text = decode_bytes(data, name)
        except MineconvError as exc:
            if named is not None:
                raise
            undecodable = exc
    prefer = () if named else tuple(candidates_for_path(path, kind="puzzle", direction="read"))
    return Source(name, data, text, named, prefer, undecodable)


def read_with(path: PathLike, settings: ReadSettings) -> Reading:
    """Read a puzzle file ('-' for stdin) as the settings say, with the notation that read it and why."""
    src = _source_of(path, settings)
    return choose(src, settings)


def parse_with(text: str, settings: ReadSettings, source: str = "<string>") -> Reading:
    """Read a puzzle from text as the settings say, with the notation that read it and why."""
    if settings.notation:
        return choose(Source(source, None, text, get_format(settings.notation, direction="read", kind="puzzle")),
                      settings)
    return choose(Source(source, None, text, None, tuple(candidates_for_path(source, kind="puzzle",
                                                                             direction="read"))), settings)


def collection_with(path: PathLike, settings: ReadSettings) -> Tuple[Reading, List[Tuple[str, Any]]]:
    """The reading of a file, and every puzzle it holds as (label, puzzle): one for most notations, each
    field, case or level of a file that holds several (read once, so stdin works too)."""
    src = _source_of(path, settings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CollectionWarning)   # every puzzle is listed: nothing is left out
        reading = choose(src, settings)
    fmt = reading.format
    if fmt.collection is None or fmt.binary:
        return reading, [(reading.puzzle.name or src.name, reading.puzzle)]
    options = {k: v for k, v in reader_options(fmt, settings, warn=False).items() if k != "puzzle"}
    text = src.text if src.text is not None else decode_bytes(src.data or b"", src.name)
    found = fmt.collection(text, source=src.name, **options)
    if settings.mines is not None:
        found = [(label, puzzle if isinstance(puzzle, Empty) else puzzle.replace(mines=settings.mines))
                 for label, puzzle in found]
    return reading, found


def read_all(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Iterator[Puzzle]:
    """Every puzzle of a file in the file's order (one for most notations); each named by its label when the
    file gives it no name ('Field #2', an exercise's description). An entry without a board (an empty
    exercism case) is no puzzle and is passed over; `collection_with` keeps it in its place."""
    _, found = collection_with(path, ReadSettings.of(fmt, options))
    for label, puzzle in found:
        if not isinstance(puzzle, Empty):
            yield puzzle if puzzle.name else puzzle.replace(name=label)


def read_reading(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Reading:
    """Like read(), and also say which notation read the file and how it was chosen."""
    return read_with(path, ReadSettings.of(fmt, options))


def parse_reading(text: str, fmt: Optional[str] = None, *, source: str = "<string>", **options: Any) -> Reading:
    """Like parse(), and also say which notation read the text and how it was chosen."""
    return parse_with(text, ReadSettings.of(fmt, options), source)


def parse(text: str, fmt: Optional[str] = None, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a puzzle from text in the named (or detected) notation."""
    return parse_reading(text, fmt, source=source, **options).puzzle


def read(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Puzzle:
    """Read a puzzle file ('-' for stdin); the notation comes from fmt, else the content, else the extension."""
    return read_reading(path, fmt, **options).puzzle


def guess_format(path: PathLike, text: Optional[str] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", data: Optional[bytes] = None) -> Format:
    """Pick a format by content (highest detect() confidence; a matching extension breaks ties), else by extension.

    Puzzle notations that fit about as well as the best and read the content as a different puzzle are
    weighed as read() weighs them (and warned about, AmbiguousInputWarning).
    """
    cands = candidates_for_path(path, kind=kind, direction=direction)
    src = Source(source_name(path), data, text, None, tuple(cands))
    if text is not None or data is not None:
        ranked = rank(src, kind=kind, direction=direction)
        if ranked:
            if kind == "puzzle" and direction == "read" and len(close_to_best(ranked)) > 1:
                return weigh(src, ReadSettings(), ranked).format
            return ranked[0][1]
    if direction == "write":
        return output_format(path, kind=kind)
    if len(cands) == 1:
        return cands[0]
    raise unreadable(src, kind)


def identify(path: PathLike, text: Optional[str] = None, data: Optional[bytes] = None
             ) -> Tuple[Format, Optional[str]]:
    """The puzzle notation of some content as read() picks it, and what read() would warn (None: nothing).

    For callers that collect warnings themselves (batch puts them in its manifest): nothing is warned.
    """
    cands = candidates_for_path(path, kind="puzzle", direction="read")
    src = Source(source_name(path), data, text, None, tuple(cands))
    if text is not None or data is not None:
        ranked = rank(src)
        if ranked:
            if len(close_to_best(ranked)) > 1:
                reading = weigh(src, ReadSettings(), ranked, warn=False)
                return reading.format, reading.note
            return ranked[0][1], None
    if len(cands) == 1:
        return cands[0], None
    raise unreadable(src, "puzzle")
