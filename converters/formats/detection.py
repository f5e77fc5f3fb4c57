"""Detection: which notation reads an input, handed back as one Reading.

Each format's detect() scores the content; the notations whose confidence is close to the best read it, and the
reading a person meant wins (a puzzle with something to solve, then confidence, then the file's extension). When
none reads it, the error says what the content resembles (hints). The input comes as one Source, built once by
reading.py; detection enters each notation's reader and hands back the Reading, --mines applied.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..core.errors import AmbiguousInputWarning, FormatError, LossyConversionWarning, MineconvError, PuzzleSyntaxError
from ..core.wording import plural
from .hints import add_hint, cannot_tell
from .registry import LIKELY, NO, POSSIBLE, Format, detectable
from .signatures import Signature
from .source import Reading, ReadSettings, Source

# confidences at most this far below the best count as "similar": every such notation's reading is compared
CLOSE = LIKELY - POSSIBLE


def content_for(fmt: Format, text: Optional[str], data: Optional[bytes]) -> Any:
    """What fmt's reader and detector take: bytes for a binary notation, text otherwise (None: not available)."""
    return Source("<content>", data, text).content[fmt.binary]


def detect_score(fmt: Format, content: Any) -> float:
    """fmt's confidence that the content is in its format (NO without a detector; a registered detector never
    raises: registry.answering)."""
    return NO if fmt.detect is None else fmt.detect(content)


def rank(src: Source, *, kind: Optional[str] = "puzzle", direction: str = "read",
         prefer: Optional[Sequence[Format]] = None) -> List[Tuple[float, Format]]:
    """Formats whose detect() fits the input, best first: (confidence, format); ties go to `prefer` (the notations
    the input's extension names, unless given)."""
    liked = src.prefer if prefer is None else prefer

    def could(sig: Signature) -> bool:   # the light first pass: which notations need importing at all
        content = src.content[sig.binary]
        try:
            return content is not None and sig.could is not None and bool(sig.could(content))
        except Exception:  # as a detector's: a crash only means "not this format"
            return False
    pool = [f for f in detectable(kind, could) if (f.autodetect or f in liked) and f.can(direction)]
    scored = []
    for f in pool:
        content = src.content[f.binary]
        if content is None or f.detect is None:
            continue
        score = f.detect(content)
        if score > 0:
            scored.append((score, f in liked, f))
    scored.sort(key=lambda s: (-s[0], not s[1]))
    return [(s, f) for s, _, f in scored]


def rank_formats(text: Optional[str], data: Optional[bytes] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", prefer: Sequence[Format] = ()) -> List[Tuple[float, Format]]:
    """Formats whose detect() fits the content, best first: (confidence, format); ties go to `prefer`."""
    return rank(Source("<content>", data, text), kind=kind, direction=direction, prefer=prefer)


def close_to_best(ranked: Sequence[Tuple[float, Format]]) -> List[Format]:
    """The ranked formats whose confidence is similar to the best one's (the same level or the next)."""
    best = ranked[0][0]
    return [f for s, f in ranked if s >= best - CLOSE - 1e-9]


def _other_kind(src: Source) -> str:
    """'; it is a minisat solver answer ...' when content given as a puzzle is a solver file or answer ("" when not)."""
    for kind, what in (("solution", "a solver answer ({}): `mineconv decode PUZZLE ANSWER` reads it"),
                       ("model", "a solver file ({}), not a puzzle notation")):
        ranked = rank(src, kind=kind, direction="read" if kind == "solution" else "write", prefer=())
        if ranked and ranked[0][0] >= LIKELY:
            return "; it is " + what.format(ranked[0][1].name)
    return ""


def unreadable(src: Source, kind: Optional[str]) -> FormatError:
    """The error for input that no readable format fits by name or content, with what it looks like."""
    return cannot_tell(src, kind, _other_kind(src) if kind == "puzzle" and not src.empty else "")


def reader_options(fmt: Format, settings: ReadSettings, warn: bool = True) -> Dict[str, Any]:
    """The notation options fmt's reader takes; each other one given is warned about (unless warn=False)."""
    for key, _ in settings.options:
        if warn and key not in fmt.read_options:
            warnings.warn(f"option {key!r} has no effect on the {fmt.name} notation", LossyConversionWarning,
                          stacklevel=5)
    return {k: v for k, v in settings.options if k in fmt.read_options}


def _read_as(fmt: Format, src: Source, settings: ReadSettings, warn: bool = True) -> Any:
    """Parse the input with fmt's reader; its errors are located at the input's name."""
    content = src.content[fmt.binary]
    if content is None:
        raise PuzzleSyntaxError(f"the {fmt.name} notation is binary; this input is not", source=src.name)
    kwargs = reader_options(fmt, settings, warn)
    assert fmt.reader is not None  # the pool holds readable notations only
    try:
        return fmt.reader(content, src.name, **kwargs)
    except MineconvError as exc:
        exc.located(src.name)
        raise


def _reads(fmt: Format, src: Source) -> bool:
    try:
        _read_as(fmt, src, ReadSettings(), warn=False)
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


@dataclass(frozen=True)
class _Unread:
    """Why the input was not read: the reader's error (None: no notation fits it at all), the notation that tried,
    how it was chosen, and another that does read the content (`how` 'content' only)."""

    error: Optional[MineconvError]
    fmt: Optional[Format] = None
    how: str = ""                      # 'named', 'extension', 'content' ('': no notation fits)
    works: Optional[Format] = None


def _weighed(src: Source, settings: ReadSettings, ranked: Sequence[Tuple[float, Format]], warn: bool = True
             ) -> Any:
    """The Reading of the notation the input fits best, weighing those that fit about as well (or why none read it).

    Every notation whose confidence is within one level of the best reads the content. A reading with no
    unknown cell (a puzzle with nothing to solve, or an infeasible one) loses to one with unknown cells;
    then confidence and the file extension decide. Readings that differ from the chosen one are named in an
    AmbiguousInputWarning with the --from that selects them (unless the file's extension names the notation
    chosen and the others have nothing to solve): the choice is never silent.
    """
    close = close_to_best(ranked)
    read_ok: List[Tuple[Format, Any]] = []
    first_error: Optional[MineconvError] = None
    for f in close:
        try:
            read_ok.append((f, _read_as(f, src, settings, warn=False)))
        except MineconvError as exc:
            first_error = first_error or exc
    if not read_ok:
        works = next((g for _, g in ranked if g not in close and _reads(g, src)), None)
        return _Unread(first_error, close[0], "content", works)
    order = {f.name: i for i, (_, f) in enumerate(ranked)}
    read_ok.sort(key=lambda fp: (_nothing_to_solve(fp[1]), order[fp[0].name]))
    fmt, puzzle = read_ok[0]
    reader_options(fmt, settings)  # only to warn about options the chosen notation ignores
    others: List[Tuple[Format, Any]] = []
    for g, other in read_ok[1:]:
        if not _same_puzzle(other, puzzle) and not any(_same_puzzle(other, o) for _, o in others):
            others.append((g, other))
    note = _ambiguity(fmt, puzzle, others, src.prefer)
    if note is not None and warn:
        warnings.warn(AmbiguousInputWarning(f"{src.name}: {note}"), stacklevel=4)
    return Reading(puzzle, fmt, "content", tuple(others), note)


def _read_by(fmt: Format, how: str, src: Source, settings: ReadSettings) -> Any:
    """The Reading of the notation named (by --from, or by the extension), or why it did not read the input."""
    try:
        return Reading(_read_as(fmt, src, settings), fmt, how)
    except MineconvError as exc:
        return _Unread(exc, fmt, how)


def _detected(src: Source, settings: ReadSettings) -> Any:
    """The Reading of an input no notation was named for: by content, else by the extension's one notation (or
    why it was not read)."""
    # bytes that are not text are ranked for the binary notations alone, the extension breaking no tie
    ranked = rank(src, prefer=None if src.text is not None else ())
    if ranked:
        return _weighed(src, settings, ranked)
    if src.text is None:
        # a damaged file of a binary notation (.mbf) gets that notation's error, not the text decoder's
        binary = [c for c in src.prefer if c.binary]
        if not binary:
            assert src.undecodable is not None
            raise src.undecodable
        return Reading(_read_as(binary[0], src, settings), binary[0], "extension")
    if len(src.prefer) != 1:
        return _Unread(None)
    return _read_by(src.prefer[0], "extension", src, settings)


def _explained(why: _Unread, src: Source) -> MineconvError:
    """The error to raise for an input not read: the reader's, with a hint at what to try, or 'cannot tell'."""
    # what else the content is (a solver file or answer) is said unless the notation was chosen by content
    other = "" if why.how == "content" or src.empty else _other_kind(src)
    if why.error is None:
        return cannot_tell(src, "puzzle", other)
    assert why.fmt is not None
    add_hint(why.error, why.fmt, why.how, src, other, why.works)
    return why.error


def weigh(src: Source, settings: ReadSettings, ranked: Sequence[Tuple[float, Format]], warn: bool = True) -> Reading:
    """Read the input in the notation it fits best, weighing those that fit about as well (see _weighed); the
    error of the first that failed, with a hint, when none reads it."""
    found = _weighed(src, settings, ranked, warn)
    if isinstance(found, _Unread):
        raise _explained(found, src)
    return found


def choose(src: Source, settings: ReadSettings) -> Reading:
    """The puzzle in the input, read by the notation --from names or detected, with --mines applied: the
    input's one Reading, or the reader's error with a hint at what to try."""
    found = _detected(src, settings) if src.named is None else _read_by(src.named, "named", src, settings)
    if isinstance(found, _Unread):
        raise _explained(found, src)
    if settings.mines is None:
        return found
    return Reading(found.puzzle.replace(mines=settings.mines), found.format, found.how, found.others, found.note)
