"""The read pipeline, one line down: bytes -> text -> ranked detection -> parse -> Puzzle (a Reading).

How to read is one immutable value, ReadSettings, built once (by the command line, or from the keywords of
read() and parse()) and passed down unchanged.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from ..core.errors import AmbiguousInputWarning, LossyConversionWarning, MineconvError, PuzzleSyntaxError
from ..core.fileio import PathLike, decode_bytes, read_bytes, source_name
from ..core.puzzle import Puzzle
from ..core.wording import plural
from .collection import CollectionWarning, Empty
from .detection import close_to_best, content_for, rank_formats
from .hints import add_hint, cannot_tell
from .registry import Format, candidates_for_path, get_format, output_format


@dataclass(frozen=True)
class ReadSettings:
    """How to read a puzzle: decided once (the command line's --from, notation options and --mines, or the
    keywords of read()) and passed down the pipeline as it is."""

    notation: Optional[str] = None               # --from: the notation's name; None: detect it
    options: Tuple[Tuple[str, Any], ...] = ()    # notation options given (--blank, --order, --codes, ...)
    mines: Optional[int] = None                  # --mines: replaces the total mine count read

    @classmethod
    def of(cls, notation: Optional[str] = None, options: Optional[Mapping[str, Any]] = None,
           mines: Optional[int] = None) -> ReadSettings:
        """The settings for a notation name, a mapping of notation options (None counts as not given), --mines."""
        given = tuple((k, v) for k, v in (options or {}).items() if v is not None)
        return cls(notation or None, given, mines)


@dataclass(frozen=True)
class Reading:
    """A puzzle read from a file or text, the notation that read it and how that notation was chosen."""

    puzzle: Any
    format: Format
    how: str                                   # 'named' (--from), 'content' (detected) or 'extension'
    others: Tuple[Tuple[Format, Any], ...] = ()  # notations that fit too and read a different puzzle
    note: Optional[str] = None                 # the AmbiguousInputWarning's text, when one is due


def _reader_options(fmt: Format, settings: ReadSettings, warn: bool = True) -> Dict[str, Any]:
    """The notation options fmt's reader takes; each other one given is warned about (unless warn=False)."""
    for key, _ in settings.options:
        if warn and key not in fmt.read_options:
            warnings.warn(f"option {key!r} has no effect on the {fmt.name} notation", LossyConversionWarning,
                          stacklevel=4)
    return {k: v for k, v in settings.options if k in fmt.read_options}


def _read_one(fmt: Format, text: Optional[str], data: Optional[bytes], source: str, settings: ReadSettings,
              warn: bool = True) -> Any:
    """Parse the content with fmt's reader; its errors are located at `source`."""
    content = content_for(fmt, text, data)
    if content is None:
        raise PuzzleSyntaxError(f"the {fmt.name} notation is binary; this input is not", source=source)
    kwargs = _reader_options(fmt, settings, warn)
    assert fmt.reader is not None  # the pool holds readable notations only
    try:
        return fmt.reader(content, source, **kwargs)
    except MineconvError as exc:
        exc.located(source)
        raise


def _reads(fmt: Format, text: Optional[str], data: Optional[bytes]) -> bool:
    try:
        _read_one(fmt, text, data, "<hint>", ReadSettings(), warn=False)
    except Exception:  # only asking whether it reads; the error the user sees is the first one
        return False
    return True


def _nothing_to_solve(puzzle: Any) -> bool:
    return getattr(puzzle, "unknown_count", 1) == 0


def _same_puzzle(a: Any, b: Any) -> bool:
    """The same board, count and cells (notes and names aside: notations differ in what comments they keep)."""
    key = ("rows", "cols", "cells", "mines")
    if all(hasattr(a, k) and hasattr(b, k) for k in key):
        return all(getattr(a, k) == getattr(b, k) for k in key)
    return bool(a == b)


def _gist(puzzle: Any) -> str:
    st = puzzle.stats
    parts = [f"{st['unknown']} unknown cell{'s' if st['unknown'] != 1 else ''}" if st["unknown"]
             else "no unknown cell: nothing to solve"]
    if st["known_safe"]:
        parts.append(f"{st['known_safe']} known safe")
    if st["known_mines"]:
        parts.append(f"{st['known_mines']} known mine{'s' if st['known_mines'] != 1 else ''}")
    if puzzle.mines is not None:
        parts.append(f"{plural(puzzle.mines, 'mine')} in all")
    return f"{puzzle.rows}x{puzzle.cols}, " + ", ".join(parts)


def _ambiguity(fmt: Format, puzzle: Any, others: Sequence[Tuple[Format, Any]], prefer: Sequence[Format]
               ) -> Optional[str]:
    """What to warn when other notations read a different puzzle (None: nothing worth saying)."""
    # no news when the file's extension names the notation chosen, .dots say, and every other reading has
    # nothing to solve ('.txt' alone is no proof of native text: hakank's dot files end in .txt)
    if not others or (fmt in prefer and all(_nothing_to_solve(q) for _, q in others)):
        return None
    alts = "; ".join(f"{g.name} reads it as a different puzzle ({_gist(q)}): --from {g.name} selects that "
                     "reading" for g, q in others)
    return f"read as {fmt.name} ({_gist(puzzle)}); the content fits other notations too: {alts}"


def _weigh(text: Optional[str], data: Optional[bytes], source: str, prefer: Sequence[Format],
           settings: ReadSettings, ranked: Optional[List[Tuple[float, Format]]] = None,
           warn: bool = True) -> Reading:
    """Read content in the notation it fits best; when several fit about as well, weigh their readings.

    Every notation whose confidence is within one level of the best reads the content. A reading with no
    unknown cell (a puzzle with nothing to solve, or an infeasible one) loses to one with unknown cells;
    then confidence and the file extension decide. Readings that differ from the chosen one are named in an
    AmbiguousInputWarning with the --from that selects them (unless the file's extension names the notation
    chosen and the others have nothing to solve): the choice is never silent.
    """
    if ranked is None:
        ranked = rank_formats(text, data, prefer=prefer)
    if not ranked:
        if len(prefer) != 1:
            raise cannot_tell(source, text, data, "puzzle")
        try:
            return Reading(_read_one(prefer[0], text, data, source, settings), prefer[0], "extension")
        except MineconvError as exc:
            add_hint(exc, prefer[0], "extension", text, data, prefer)
            raise
    close = close_to_best(ranked)
    read_ok: List[Tuple[Format, Any]] = []
    first_error: Optional[MineconvError] = None
    for f in close:
        try:
            read_ok.append((f, _read_one(f, text, data, source, settings, warn=False)))
        except MineconvError as exc:
            first_error = first_error or exc
    if not read_ok:
        assert first_error is not None
        works = next((g for _, g in ranked if g not in close and _reads(g, text, data)), None)
        add_hint(first_error, close[0], "content", text, data, prefer, works)
        raise first_error
    order = {f.name: i for i, (_, f) in enumerate(ranked)}
    read_ok.sort(key=lambda fp: (_nothing_to_solve(fp[1]), order[fp[0].name]))
    fmt, puzzle = read_ok[0]
    _reader_options(fmt, settings)  # only to warn about options the chosen notation ignores
    others: List[Tuple[Format, Any]] = []
    for g, other in read_ok[1:]:
        if not _same_puzzle(other, puzzle) and not any(_same_puzzle(other, o) for _, o in others):
            others.append((g, other))
    note = _ambiguity(fmt, puzzle, others, prefer)
    if note is not None and warn:
        warnings.warn(AmbiguousInputWarning(f"{source}: {note}"), stacklevel=3)
    return Reading(puzzle, fmt, "content", tuple(others), note)


def _read_named(settings: ReadSettings, text: Optional[str], data: Optional[bytes], source: str) -> Reading:
    """Read content in the notation --from names."""
    assert settings.notation is not None
    fmt = get_format(settings.notation, direction="read", kind="puzzle")
    if text is None and data is not None and not fmt.binary:
        text = decode_bytes(data, source)
    try:
        return Reading(_read_one(fmt, text, data, source, settings), fmt, "named")
    except MineconvError as exc:
        add_hint(exc, fmt, "named", text, data)
        raise


def _read_data(data: bytes, source: str, prefer: Sequence[Format], settings: ReadSettings) -> Reading:
    """bytes -> text -> ranked detection -> parse; content that is not text goes to the binary notations."""
    if settings.notation:
        return _read_named(settings, None, data, source)
    try:
        text = decode_bytes(data, source)
    except MineconvError:
        ranked = rank_formats(None, data)
        if ranked:   # not text: only a binary notation can read it
            return _weigh(None, data, source, prefer, settings, ranked)
        # a damaged file of a binary notation (.mbf) gets that notation's error, not the text decoder's
        binary = [c for c in prefer if c.binary]
        if not binary:
            raise
        return Reading(_read_one(binary[0], None, data, source, settings), binary[0], "extension")
    return _weigh(text, data, source, prefer, settings)


def _settled(reading: Reading, settings: ReadSettings) -> Reading:
    """The reading with --mines applied."""
    if settings.mines is None:
        return reading
    return replace(reading, puzzle=reading.puzzle.replace(mines=settings.mines))


def read_with(path: PathLike, settings: ReadSettings) -> Reading:
    """Read a puzzle file ('-' for stdin) as the settings say, with the notation that read it and why."""
    data, source = read_bytes(path)
    prefer = candidates_for_path(path, kind="puzzle", direction="read")
    return _settled(_read_data(data, source, prefer, settings), settings)


def parse_with(text: str, settings: ReadSettings, source: str = "<string>") -> Reading:
    """Read a puzzle from text as the settings say, with the notation that read it and why."""
    if settings.notation:
        return _settled(_read_named(settings, text, None, source), settings)
    prefer = candidates_for_path(source, kind="puzzle", direction="read")
    return _settled(_weigh(text, None, source, prefer, settings), settings)


def collection_with(path: PathLike, settings: ReadSettings) -> Tuple[Reading, List[Tuple[str, Any]]]:
    """The reading of a file, and every puzzle it holds as (label, puzzle): one for most notations, each
    field, case or level of a file that holds several (read once, so stdin works too)."""
    data, source = read_bytes(path)
    prefer = candidates_for_path(path, kind="puzzle", direction="read")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CollectionWarning)   # every puzzle is listed: nothing is left out
        reading = _settled(_read_data(data, source, prefer, settings), settings)
    fmt = reading.format
    if fmt.collection is None or fmt.binary:
        return reading, [(reading.puzzle.name or source, reading.puzzle)]
    options = {k: v for k, v in _reader_options(fmt, settings, warn=False).items() if k != "puzzle"}
    found = fmt.collection(decode_bytes(data, source), source=source, **options)
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
    if text is not None or data is not None:
        ranked = rank_formats(text, data, kind=kind, direction=direction, prefer=cands)
        if ranked:
            if kind == "puzzle" and direction == "read" and len(close_to_best(ranked)) > 1:
                return _weigh(text, data, source_name(path), cands, ReadSettings(), ranked).format
            return ranked[0][1]
    if direction == "write":
        return output_format(path, kind=kind)
    if len(cands) == 1:
        return cands[0]
    raise cannot_tell(source_name(path), text, data, kind)


def identify(path: PathLike, text: Optional[str] = None, data: Optional[bytes] = None
             ) -> Tuple[Format, Optional[str]]:
    """The puzzle notation of some content as read() picks it, and what read() would warn (None: nothing).

    For callers that collect warnings themselves (batch puts them in its manifest): nothing is warned.
    """
    cands = candidates_for_path(path, kind="puzzle", direction="read")
    if text is not None or data is not None:
        ranked = rank_formats(text, data, prefer=cands)
        if ranked:
            if len(close_to_best(ranked)) > 1:
                reading = _weigh(text, data, source_name(path), cands, ReadSettings(), ranked, warn=False)
                return reading.format, reading.note
            return ranked[0][1], None
    if len(cands) == 1:
        return cands[0], None
    raise cannot_tell(source_name(path), text, data, "puzzle")
