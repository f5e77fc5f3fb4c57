"""The format registry: every reader and writer registers itself here (the meshio/tablib pattern)."""
from __future__ import annotations

import importlib
import io
import pkgutil
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..core.errors import (
    AmbiguousInputWarning,
    FormatError,
    LossyConversionError,
    LossyConversionWarning,
    MineconvError,
    PuzzleSyntaxError,
)
from ..core.fileio import STDIO, PathLike, atomic_output, decode_bytes, guard_reader, read_bytes, source_name
from ..core.puzzle import Puzzle
from ..core.wording import plural

KINDS = ("puzzle", "model", "solution")

Reader = Callable[..., Any]          # reader(text, source, **read_options) -> Puzzle (puzzle kind) or an answer
Writer = Callable[..., None]         # writer(puzzle, out: TextIO, **options) -> None
Detector = Callable[[Any], float]    # detect(text) -> confidence in [0, 1] that the content is this format
Losses = Callable[..., List[str]]    # losses(puzzle, **options) -> what the format cannot express

# Detection confidences (what detect() returns; True counts as LIKELY, False as NO). Content decides: the
# highest confidence wins and a matching extension only breaks ties.
CERTAIN = 1.0    # a signature no other notation has: a magic first line, a format tag, a binary layout
LIKELY = 0.75    # syntax particular to this notation ('param R', 'array2d(', 'number(', 'letting')
POSSIBLE = 0.5   # a generic shape that other notations share (a bare grid of symbols, a JSON matrix)
WEAK = 0.25      # could be this, but only if nothing else fits
NO = 0.0
# confidences at most this far below the best count as "similar": every such notation's reading is compared
_CLOSE = LIKELY - POSSIBLE


def confidence(level: float, detect: Callable[[Any], Any]) -> Detector:
    """A detector answering `level` where the yes/no detector `detect` says yes (NO otherwise)."""
    def scored(content: Any) -> float:
        return level if detect(content) else NO
    scored.__doc__ = detect.__doc__
    scored.__name__ = getattr(detect, "__name__", "detect")
    return scored


@dataclass(frozen=True)
class Format:
    """One registered file format."""

    name: str
    extensions: Tuple[str, ...]
    kind: str
    reader: Optional[Reader] = None
    writer: Optional[Writer] = None
    detect: Optional[Detector] = None
    losses: Optional[Losses] = None
    description: str = ""
    autodetect: bool = True
    aliases: Tuple[str, ...] = field(default=())
    binary: bool = False                                   # reader and detect take bytes, not text
    read_options: Tuple[str, ...] = field(default=())      # keyword options the reader accepts
    read_option_help: Tuple[Tuple[str, str], ...] = field(default=())  # (option, help) for the CLI flags
    write_options: Tuple[str, ...] = field(default=())     # keyword options the writer accepts
    keeps_start: bool = False                              # the writer keeps Puzzle.start (the first click)
    keeps_wires: bool = False                              # the writer keeps Puzzle.wires (reduce's variables)


_FORMATS: Dict[str, Format] = {}
_ALIASES: Dict[str, str] = {}
_loaded = False


def register_format(name: str, extensions: Sequence[str], kind: str, *, reader: Optional[Reader] = None,
                    writer: Optional[Writer] = None, detect: Optional[Detector] = None,
                    losses: Optional[Losses] = None, description: str = "", autodetect: bool = True,
                    aliases: Sequence[str] = (), binary: bool = False,
                    read_options: Union[Sequence[str], Mapping[str, str]] = (),
                    write_options: Sequence[str] = (), detect_level: float = LIKELY,
                    keeps_start: bool = False, keeps_wires: bool = False) -> Format:
    """Register a format by name and extensions (called at the bottom of each format module).

    `detect_level` is the confidence a yes/no detector's True stands for (detectors that return a
    confidence themselves ignore it); `write_options` are the keyword options the writer accepts;
    `keeps_start` says the puzzle writer keeps a board's first click (any other reports it lost), `keeps_wires`
    the variable cells of a board made by `mineconv reduce`.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if reader is None and writer is None:
        raise ValueError(f"format {name!r} needs a reader or a writer")
    exts = tuple(e.lower() if e.startswith(".") else "." + e.lower() for e in extensions)
    if detect is not None and detect_level != LIKELY:
        detect = confidence(detect_level, detect)
    helps = tuple(read_options.items()) if isinstance(read_options, Mapping) else tuple((o, "") for o in read_options)
    if reader is not None:  # huge numbers, deep nesting and oversized boards become located errors
        reader = guard_reader(reader, ascii_digits=kind == "solution")
    fmt = Format(name, exts, kind, reader, writer, detect, losses, description, autodetect, tuple(aliases),
                 binary, tuple(o for o, _ in helps), helps, tuple(write_options), keeps_start, keeps_wires)
    _check_new_names(fmt)
    _FORMATS[name] = fmt
    for alias in aliases:
        _ALIASES[alias] = name
    return fmt


def _module_of(fmt: Format) -> Optional[str]:
    code = fmt.reader or fmt.writer
    return getattr(code, "__module__", None)


def _check_new_names(fmt: Format) -> None:
    """Refuse a name or alias that already means another format: the later one would win silently."""
    old = _FORMATS.get(fmt.name)
    if old is not None:
        if _module_of(old) != _module_of(fmt):
            raise ValueError(f"format name {fmt.name!r} is already registered (by {_module_of(old)})")
        unregister_format(fmt.name)  # the same module registering again (importlib.reload)
    words = [fmt.name, *fmt.aliases]
    twice = next((w for i, w in enumerate(words) if w in words[:i]), None)
    if twice is not None:
        raise ValueError(f"format {fmt.name!r} lists {twice!r} twice among its name and aliases")
    if fmt.name in _ALIASES:
        raise ValueError(f"format name {fmt.name!r} is already an alias of format {_ALIASES[fmt.name]!r}")
    for alias in fmt.aliases:
        if alias in _FORMATS:
            raise ValueError(f"format {fmt.name!r}: alias {alias!r} is already the name of a format")
        if alias in _ALIASES:
            raise ValueError(f"format {fmt.name!r}: alias {alias!r} is already an alias of format "
                             f"{_ALIASES[alias]!r}")


def unregister_format(name: str) -> None:
    """Remove a format and its aliases (for tests and plugins that register temporary formats)."""
    fmt = _FORMATS.pop(name, None)
    if fmt is not None:
        for alias in fmt.aliases:
            if _ALIASES.get(alias) == name:
                del _ALIASES[alias]


# the folders whose modules register formats: puzzle notations, solver-file writers, answer readers
_FAMILIES = ("notations", "models", "answers")


def _load_all() -> None:
    # importing each module below mineconv.formats (notations/, models/, answers/) runs its register_format
    global _loaded
    if _loaded:
        return
    _loaded = True
    names = []
    for family in _FAMILIES:
        pkg = importlib.import_module(f"{__package__}.{family}")
        names += [m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}.")]
    for name in sorted(names):
        importlib.import_module(name)


def formats(kind: Optional[str] = None) -> List[Format]:
    """Every registered format (of one kind), by name."""
    _load_all()
    return sorted((f for f in _FORMATS.values() if kind is None or f.kind == kind), key=lambda f: f.name)


def format_names(kind: Optional[str] = None, direction: Optional[str] = None) -> List[str]:
    """Names of formats that can read ('read') or write ('write')."""
    return [f.name for f in formats(kind) if _can(f, direction)]


def _can(fmt: Format, direction: Optional[str]) -> bool:
    return direction is None or (fmt.reader if direction == "read" else fmt.writer) is not None


def get_format(name: str, *, direction: Optional[str] = None, kind: Optional[str] = None) -> Format:
    """The format with this name (or alias); FormatError lists the valid names."""
    _load_all()
    fmt = _FORMATS.get(name) or _FORMATS.get(_ALIASES.get(name, ""))
    if fmt is None or (kind is not None and fmt.kind != kind) or not _can(fmt, direction):
        what = {"read": "readable ", "write": "writable "}.get(direction or "", "")
        valid = ", ".join(format_names(kind, direction))
        raise FormatError(f"unknown {what}format {name!r}; valid names: {valid}")
    return fmt


def _extension_of(path: str) -> List[str]:
    suffixes = [s.lower() for s in Path(path).suffixes]
    # longest compound suffix first, so '.cnf.gz' can win over '.gz'
    return ["".join(suffixes[i:]) for i in range(len(suffixes))]


def candidates_for_path(path: PathLike, *, kind: Optional[str] = None,
                        direction: Optional[str] = None) -> List[Format]:
    """Formats whose extensions match the path, in registration preference order."""
    _load_all()
    for ext in _extension_of(str(path)):
        found = [f for f in _FORMATS.values()
                 if ext in f.extensions and (kind is None or f.kind == kind) and _can(f, direction)]
        if found:
            return found
    return []


def guess_format(path: PathLike, text: Optional[str] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", data: Optional[bytes] = None) -> Format:
    """Pick a format by content (highest detect() confidence; a matching extension breaks ties), else by extension.

    Puzzle notations that fit about as well as the best and read the content as a different puzzle are
    weighed as read() weighs them (and warned about, AmbiguousInputWarning).
    """
    _load_all()
    cands = candidates_for_path(path, kind=kind, direction=direction) if str(path) != STDIO else []
    if text is not None or data is not None:
        ranked = rank_formats(text, data, kind=kind, direction=direction, prefer=cands)
        if ranked:
            if kind == "puzzle" and direction == "read" and len(_close(ranked)) > 1:
                return _detect_and_read(text, data, source_name(path), cands, {}, ranked).format
            return ranked[0][1]
    if len(cands) == 1 or (cands and direction == "write"):
        return cands[0]
    # '-' is stdout when it names an output
    name = "<stdout>" if direction == "write" and str(path) == STDIO else source_name(path)
    raise _cannot_tell(name, text, data, kind, direction)


def identify(path: PathLike, text: Optional[str] = None, data: Optional[bytes] = None
             ) -> Tuple[Format, Optional[str]]:
    """The puzzle notation of some content as read() picks it, and what read() would warn (None: nothing).

    For callers that collect warnings themselves (batch puts them in its manifest): nothing is warned.
    """
    _load_all()
    cands = candidates_for_path(path, kind="puzzle", direction="read") if str(path) != STDIO else []
    if text is not None or data is not None:
        ranked = rank_formats(text, data, prefer=cands)
        if ranked:
            if len(_close(ranked)) > 1:
                reading = _detect_and_read(text, data, source_name(path), cands, {}, ranked, warn=False)
                return reading.format, reading.note
            return ranked[0][1], None
    if len(cands) == 1:
        return cands[0], None
    raise _cannot_tell(source_name(path), text, data, "puzzle", "read")


def rank_formats(text: Optional[str], data: Optional[bytes] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", prefer: Sequence[Format] = ()) -> List[Tuple[float, Format]]:
    """Formats whose detect() fits the content, best first: (confidence, format); ties go to `prefer`."""
    pool = [f for f in formats(kind) if (f.autodetect or f in prefer) and _can(f, direction)]
    scored = []
    for f in pool:
        content = _content(f, text, data)
        if content is None or f.detect is None:
            continue
        score = _safe_detect(f, content)
        if score > 0:
            scored.append((score, f in prefer, f))
    scored.sort(key=lambda s: (-s[0], not s[1]))
    return [(s, f) for s, _, f in scored]


def _content(fmt: Format, text: Optional[str], data: Optional[bytes]) -> Any:
    """What fmt's reader and detector take: bytes for a binary notation, text otherwise (None: not available)."""
    if not fmt.binary:
        return text
    if data is None and text is not None:
        try:
            return text.encode("latin-1")  # parse() of a binary notation: one character per byte
        except UnicodeEncodeError:
            return None
    return data


def _safe_detect(fmt: Format, content: Any) -> float:
    try:
        score = fmt.detect(content)  # type: ignore[misc]
    except Exception:  # a detector is a cheap guess: a crash only means "not this format"
        return NO
    if score is True:
        return LIKELY
    return float(score or NO)


def _close(ranked: Sequence[Tuple[float, Format]]) -> List[Format]:
    """The ranked formats whose confidence is similar to the best one's (the same level or the next)."""
    best = ranked[0][0]
    return [f for s, f in ranked if s >= best - _CLOSE - 1e-9]


# resemblance: what unreadable content looks most like ------------------------------------------------
_PREFIXES = (34, 21, 13, 8, 5, 3, 2, 1)   # line counts of the file starts tried, longest first
_SKIPS = (1, 2, 3)                       # leading lines dropped (a title line a notation does not allow)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]+")
_vocabularies: Dict[str, frozenset] = {}


def _vocabulary(fmt: Format) -> frozenset:
    """The words fmt's writer puts in a small puzzle's file (its keywords: `param`, `array2d`, `rows`...)."""
    if fmt.name not in _vocabularies:
        words: frozenset = frozenset()
        if fmt.writer is not None and fmt.kind == "puzzle" and not fmt.binary:
            from ..core.puzzle import Puzzle  # the model imports nothing from here; late to keep startup light
            buf = io.StringIO()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fmt.writer(Puzzle.from_rows(["1?*", "?2."], mines=2), buf)
                words = frozenset(w.lower() for w in _WORD.findall(buf.getvalue()))
            except Exception:  # a writer that cannot write the sample only has no keywords
                pass
        _vocabularies[fmt.name] = words
    return _vocabularies[fmt.name]


def resemblance(text: Optional[str], data: Optional[bytes] = None, *,
                kind: Optional[str] = "puzzle") -> List[Tuple[float, Format, str]]:
    """Readable formats the content resembles, best first: (score, format, clue said in messages).

    A cheap measure for content no detector fits as a whole: a detector that fits the whole content
    (its confidence), or the file's first lines, or the file after a title line or two (0.8 x its
    confidence), else keywords shared with what the format's writer writes (0.2 to 0.3).
    """
    best: Dict[str, Tuple[float, Format, str]] = {}

    def offer(score: float, fmt: Format, clue: str) -> None:
        if score > best.get(fmt.name, (0.0,))[0]:
            best[fmt.name] = (score, fmt, clue)

    lines = text.replace("\r\n", "\n").split("\n")[:400] if text else []
    words: Dict[str, str] = {}
    for w in _WORD.findall(text[:1 << 16] if text else ""):
        words.setdefault(w.lower(), w)
    for f in formats(kind):
        if f.reader is None:
            continue
        content = _content(f, text, data)
        if f.detect is not None and content is not None:
            score = _safe_detect(f, content)
            if score > 0:
                offer(score, f, "its detector fits the content")
                continue
            if not f.binary:
                for n in _PREFIXES:
                    score = _safe_detect(f, "\n".join(lines[:n]) + "\n") if n < len(lines) else NO
                    if score > 0:
                        offer(0.8 * score, f, "its first line" if n == 1 else f"its first {n} lines")
                        break
                for k in _SKIPS:
                    score = _safe_detect(f, "\n".join(lines[k:])) if k < len(lines) else NO
                    if score > 0:
                        offer(0.8 * score, f, "after its first line" if k == 1 else f"after its first {k} lines")
                        break
        shared = [words[w] for w in sorted(_vocabulary(f)) if w in words]
        if shared:
            offer(0.15 + 0.05 * min(len(shared), 3), f, ", ".join(f"`{w}`" for w in shared[:3]))
    order = {f.name: i for i, f in enumerate(formats(kind))}
    return sorted(best.values(), key=lambda t: (-t[0], order[t[1].name]))


def _resembles(text: Optional[str], data: Optional[bytes], kind: Optional[str],
               prefer: Sequence[Format] = ()) -> Optional[Tuple[float, Format, str]]:
    found = resemblance(text, data, kind=kind)
    if not found:
        return None
    top = [t for t in found if t[0] == found[0][0]]
    return next((t for t in top if t[1] in prefer), top[0])


def _cannot_tell(source: str, text: Optional[str], data: Optional[bytes], kind: Optional[str],
                 direction: str) -> FormatError:
    names = ", ".join(format_names(kind, direction))
    if direction == "write":
        return FormatError(f"cannot tell the output format from the name; name it with --to (one of: {names})",
                           source=source)
    what = "notation" if kind == "puzzle" else "format"
    if (text is not None and not text.strip()) or (text is None and data is not None and not data.strip()):
        thing = {"puzzle": "puzzle", "solution": "solver answer"}.get(kind or "", "content")
        return FormatError(f"the input is empty (or only blank lines): there is no {thing} to read", source=source)
    like = _resembles(text, data, kind) if text is not None or data is not None else None
    other = _other_kind(text, data) if kind == "puzzle" else ""
    if other:
        advice = other[2:]
    elif like is not None:
        advice = f"the content looks most like {like[1].name} ({like[2]}): try --from {like[1].name}"
    else:
        advice = "it looks like none of them: name it with --from"
    return FormatError(f"cannot tell the input {what} from the name or content; {advice} (one of: {names})",
                       source=source)


def _other_kind(text: Optional[str], data: Optional[bytes]) -> str:
    """'; it is a minisat solver answer ...' when content given as a puzzle is a solver file or answer."""
    for kind, what in (("solution", "a solver answer ({}): `mineconv decode PUZZLE ANSWER` reads it"),
                       ("model", "a solver file ({}), not a puzzle notation")):
        ranked = rank_formats(text, data, kind=kind, direction="read" if kind == "solution" else "write")
        if ranked and ranked[0][0] >= LIKELY:
            return "; it is " + what.format(ranked[0][1].name)
    return ""


def _with_hint(exc: MineconvError, fmt: Format, how: str, text: Optional[str], data: Optional[bytes],
               prefer: Sequence[Format] = (), also: Sequence[Format] = ()) -> MineconvError:
    """The reader's error, told which notation read the content and, when another fits better, which."""
    hint = ""
    other = _other_kind(text, data) if how != "content" else ""
    if other:
        hint = other[2:]
    elif how == "content":
        works = next((g for g in also if _reads(g, text, data)), None)
        hint = f"read as {fmt.name}, the notation the content looks most like"
        hint += f"; it does read as {works.name}: try --from {works.name}" if works else "; --from names another"
    else:
        like = _resembles(text, data, "puzzle", prefer)
        if like is not None and like[1] is not fmt and (how == "extension" or like[0] >= POSSIBLE):
            hint = f"the content looks more like {like[1].name} ({like[2]}): try --from {like[1].name}"
        elif how == "extension":
            hint = f"read as {fmt.name} by the file name; --from names another notation"
    if hint:
        exc.message = f"{exc.message} [{hint}]"
        exc.args = (exc.message,)
    return exc


def _reads(fmt: Format, text: Optional[str], data: Optional[bytes]) -> bool:
    try:
        _read_one(fmt, text, data, "<hint>", {}, warn=False)
    except Exception:  # only asking whether it reads; the error the user sees is the first one
        return False
    return True


# puzzles ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """A puzzle read from a file or text, the notation that read it and how that notation was chosen."""

    puzzle: Any
    format: Format
    how: str                                   # 'named' (--from), 'content' (detected) or 'extension'
    others: Tuple[Tuple[Format, Any], ...] = ()  # notations that fit too and read a different puzzle
    note: Optional[str] = None                 # the AmbiguousInputWarning's text, when one is due


def read_option_names() -> Dict[str, List[Tuple[str, str]]]:
    """Every reader option of every puzzle notation: option -> [(notation, help)], for the CLI's flags."""
    found: Dict[str, List[Tuple[str, str]]] = {}
    for f in formats("puzzle"):
        for opt, text in f.read_option_help:
            found.setdefault(opt, []).append((f.name, text))
    return found


def _read_options(f: Format, options: Dict[str, Any], warn: bool = True) -> Dict[str, Any]:
    given = {k: v for k, v in options.items() if v is not None}
    for key in given:
        if warn and key not in f.read_options:
            warnings.warn(f"option {key!r} has no effect on the {f.name} notation", LossyConversionWarning,
                          stacklevel=4)
    return {k: v for k, v in given.items() if k in f.read_options}


def _read_one(f: Format, text: Optional[str], data: Optional[bytes], source: str, options: Dict[str, Any],
              warn: bool = True) -> Any:
    content = _content(f, text, data)
    if content is None:
        raise PuzzleSyntaxError(f"the {f.name} notation is binary; this input is not", source=source)
    kwargs = _read_options(f, options, warn)
    try:
        return f.reader(content, source, **kwargs)  # type: ignore[misc]
    except MineconvError as exc:
        raise exc.located(source)


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


def _detect_and_read(text: Optional[str], data: Optional[bytes], source: str, prefer: Sequence[Format],
                     options: Dict[str, Any], ranked: Optional[List[Tuple[float, Format]]] = None,
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
        if len(prefer) == 1:
            try:
                return Reading(_read_one(prefer[0], text, data, source, options), prefer[0], "extension")
            except MineconvError as exc:
                raise _with_hint(exc, prefer[0], "extension", text, data, prefer)
        raise _cannot_tell(source, text, data, "puzzle", "read")
    close = _close(ranked)
    read_ok: List[Tuple[Format, Any]] = []
    first_error: Optional[MineconvError] = None
    for f in close:
        try:
            read_ok.append((f, _read_one(f, text, data, source, options, warn=False)))
        except MineconvError as exc:
            first_error = first_error or exc
    if not read_ok:
        assert first_error is not None
        rest = [f for _, f in ranked if f not in close]
        raise _with_hint(first_error, close[0], "content", text, data, prefer, rest)
    order = {f.name: i for i, (_, f) in enumerate(ranked)}
    read_ok.sort(key=lambda fp: (_nothing_to_solve(fp[1]), order[fp[0].name]))
    fmt, puzzle = read_ok[0]
    _read_options(fmt, options)  # only to warn about options the chosen notation ignores
    others: List[Tuple[Format, Any]] = []
    for g, other in read_ok[1:]:
        if not _same_puzzle(other, puzzle) and not any(_same_puzzle(other, o) for _, o in others):
            others.append((g, other))
    note = None
    if others and not (fmt in prefer and all(_nothing_to_solve(q) for _, q in others)):
        # (no news when the file's extension names the notation chosen, .dots say, and every other reading
        # has nothing to solve; '.txt' alone is no proof of native text: hakank's dot files end in .txt)
        alts = "; ".join(f"{g.name} reads it as a different puzzle ({_gist(q)}): --from {g.name} selects that "
                         "reading" for g, q in others)
        note = f"read as {fmt.name} ({_gist(puzzle)}); the content fits other notations too: {alts}"
        if warn:
            warnings.warn(AmbiguousInputWarning(f"{source}: {note}"), stacklevel=3)
    return Reading(puzzle, fmt, "content", tuple(others), note)


def read_reading(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Reading:
    """Like read(), and also say which notation read the file and how it was chosen."""
    data, src = read_bytes(path)
    if fmt:
        f = get_format(fmt, direction="read", kind="puzzle")
        text = None if f.binary else decode_bytes(data, src)
        try:
            return Reading(_read_one(f, text, data, src, options), f, "named")
        except MineconvError as exc:
            raise _with_hint(exc, f, "named", text, data)
    ranked = None
    try:
        text: Optional[str] = decode_bytes(data, src)
    except MineconvError:
        ranked = rank_formats(None, data)
        if not ranked:
            # a damaged file of a binary notation (.mbf) gets that notation's error, not the text decoder's
            named = [c for c in candidates_for_path(path, kind="puzzle", direction="read")
                     if c.binary] if str(path) != STDIO else []
            if not named:
                raise
            return Reading(_read_one(named[0], None, data, src, options), named[0], "extension")
        text = None  # not text: only a binary notation can read it
    cands = candidates_for_path(path, kind="puzzle", direction="read") if str(path) != STDIO else []
    return _detect_and_read(text, data, src, cands, options, ranked)


def parse_reading(text: str, fmt: Optional[str] = None, *, source: str = "<string>", **options: Any) -> Reading:
    """Like parse(), and also say which notation read the text and how it was chosen."""
    if fmt:
        f = get_format(fmt, direction="read", kind="puzzle")
        try:
            return Reading(_read_one(f, text, None, source, options), f, "named")
        except MineconvError as exc:
            raise _with_hint(exc, f, "named", text, None)
    cands = candidates_for_path(source, kind="puzzle", direction="read") if source != STDIO else []
    return _detect_and_read(text, None, source, cands, options)


def parse(text: str, fmt: Optional[str] = None, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a puzzle from text in the named (or detected) notation."""
    return parse_reading(text, fmt, source=source, **options).puzzle


def read(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Puzzle:
    """Read a puzzle file ('-' for stdin); the notation comes from fmt, else the content, else the extension."""
    return read_reading(path, fmt, **options).puzzle


def losses(puzzle: Any, fmt: Format, **options: Any) -> List[str]:
    """What the format would drop from this puzzle."""
    lost = list(fmt.losses(puzzle, **options)) if fmt.losses else []
    start = getattr(puzzle, "start", None)
    # a solver file has no use for the first click; a puzzle notation that drops it loses the game's start
    if start is not None and fmt.kind == "puzzle" and not fmt.keeps_start:
        lost.append(f"the first click (start: {start[0]},{start[1]})")
    if getattr(puzzle, "wires", ()) and fmt.kind == "puzzle" and not fmt.keeps_wires:
        lost.append("the cells of the CNF variables (the 'wires' header of a board made by reduce)")
    return lost


def check_write_options(fmt: Format, options: Mapping[str, Any]) -> None:
    """Refuse a keyword option fmt's writer does not declare (a typo such as card_encodng= is no silent no-op)."""
    unknown = sorted(k for k in options if k not in fmt.write_options)
    if unknown:
        accepted = ", ".join(fmt.write_options) if fmt.write_options else "none"
        flags = ", ".join("--" + k.replace("_", "-") for k in unknown)
        raise FormatError(f"the {fmt.name} writer has no option {', '.join(map(repr, unknown))} ({flags} on the "
                          f"command line); its options: {accepted}")


def _check_losses(puzzle: Any, fmt: Format, strict: bool, options: Dict[str, Any]) -> List[str]:
    lost = losses(puzzle, fmt, **options)
    for item in lost:
        msg = f"{fmt.name} cannot express {item}"
        if strict:
            raise LossyConversionError(msg + " (refused under --strict)")
        warnings.warn(msg, LossyConversionWarning, stacklevel=3)
    return lost


class ByteOutput(io.TextIOBase):
    """What a text-format writer writes to when the registry owns a binary destination (a path, dumps):
    text is encoded as UTF-8 with its '\\n' line ends kept, and blocks of ASCII bytes from the bulk
    engine (engine.emit calls write_bytes) go straight through, so every line ends the same way."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self._raw = raw

    def writable(self) -> bool:
        """Always: this is an output."""
        return True

    def write(self, s: str) -> int:  # type: ignore[override]
        """Write text (UTF-8)."""
        self._raw.write(s.encode("utf-8"))
        return len(s)

    def write_bytes(self, data: bytes) -> None:
        """Write ASCII bytes as they are."""
        self._raw.write(data)


def _binary_stream(out: Any) -> bool:
    return isinstance(out, (io.RawIOBase, io.BufferedIOBase)) or "b" in str(getattr(out, "mode", ""))


def _write_to(f: Format, puzzle: Any, out: Any, options: Dict[str, Any]) -> None:
    """Run f's writer on an open stream. A text stream gets text through its own write() (its newline
    translation applies to every line); a binary stream gets UTF-8 bytes, line ends as written."""
    if f.binary and isinstance(out, io.TextIOBase):
        buf = io.BytesIO()
        f.writer(puzzle, buf, **options)  # type: ignore[misc]
        raw = getattr(out, "buffer", None)
        if raw is not None:
            out.flush()
            raw.write(buf.getvalue())
        else:  # a text-only stream (dumps) gets latin-1 text, which parse() turns back into the same bytes
            out.write(buf.getvalue().decode("latin-1"))
    elif not f.binary and _binary_stream(out):
        f.writer(puzzle, ByteOutput(out), **options)  # type: ignore[misc]
    else:
        f.writer(puzzle, out, **options)  # type: ignore[misc]


def dump(puzzle: Any, out: Any, fmt: str, *, strict: bool = False, **options: Any) -> List[str]:
    """Write a puzzle to an open stream (text, or binary for UTF-8 bytes); return the warnings about what
    was lost."""
    f = get_format(fmt, direction="write")
    check_write_options(f, options)
    lost = _check_losses(puzzle, f, strict, options)
    _write_to(f, puzzle, out, options)
    return lost


def dumps(puzzle: Any, fmt: str, *, strict: bool = False, **options: Any) -> str:
    """The text of a puzzle in the named format."""
    if get_format(fmt, direction="write").binary:
        text = io.StringIO()
        dump(puzzle, text, fmt, strict=strict, **options)
        return text.getvalue()
    buf = io.BytesIO()   # the bulk writers' bytes go in as they are, then one decode
    dump(puzzle, buf, fmt, strict=strict, **options)
    return buf.getvalue().decode("utf-8")


def write(puzzle: Any, path: PathLike, fmt: Optional[str] = None, *, strict: bool = False,
          **options: Any) -> List[str]:
    """Write a puzzle (or a solver file made from it) atomically; the format comes from fmt or the extension."""
    f = get_format(fmt, direction="write") if fmt else guess_format(path, kind=None, direction="write")
    check_write_options(f, options)
    lost = _check_losses(puzzle, f, strict, options)
    if str(path) == STDIO:
        with atomic_output(path) as out:   # stdout is a text stream like any other
            _write_to(f, puzzle, out, options)
        return lost
    # a path is the registry's own: bytes, one line-end convention ('\\n') for every line
    with atomic_output(path, binary=True) as raw:
        f.writer(puzzle, raw if f.binary else ByteOutput(raw), **options)  # type: ignore[misc]
    return lost
