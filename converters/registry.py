"""The format registry: every reader and writer registers itself here (the meshio/tablib pattern)."""
from __future__ import annotations

import importlib
import io
import pkgutil
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from .errors import FormatError, LossyConversionError, LossyConversionWarning, MineconvError
from .fileio import PathLike, STDIO, atomic_output, decode_bytes, read_bytes, source_name

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


_FORMATS: Dict[str, Format] = {}
_ALIASES: Dict[str, str] = {}
_loaded = False


def register_format(name: str, extensions: Sequence[str], kind: str, *, reader: Optional[Reader] = None,
                    writer: Optional[Writer] = None, detect: Optional[Detector] = None,
                    losses: Optional[Losses] = None, description: str = "", autodetect: bool = True,
                    aliases: Sequence[str] = (), binary: bool = False,
                    read_options: Union[Sequence[str], Mapping[str, str]] = ()) -> Format:
    """Register a format by name and extensions (called at the bottom of each format module)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if reader is None and writer is None:
        raise ValueError(f"format {name!r} needs a reader or a writer")
    exts = tuple(e.lower() if e.startswith(".") else "." + e.lower() for e in extensions)
    helps = tuple(read_options.items()) if isinstance(read_options, Mapping) else tuple((o, "") for o in read_options)
    fmt = Format(name, exts, kind, reader, writer, detect, losses, description, autodetect, tuple(aliases),
                 binary, tuple(o for o, _ in helps), helps)
    _FORMATS[name] = fmt
    for alias in aliases:
        _ALIASES[alias] = name
    return fmt


def _load_all() -> None:
    # importing each module below mineconv.formats (notations/, models/, answers/) runs its register_format
    global _loaded
    if _loaded:
        return
    _loaded = True
    pkg = importlib.import_module(f"{__package__}.formats")
    names = sorted(m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}."))
    for name in names:
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
    """Pick a format by content (highest detect() confidence; a matching extension breaks ties), else by extension."""
    _load_all()
    cands = candidates_for_path(path, kind=kind, direction=direction) if str(path) != STDIO else []
    if text is not None or data is not None:
        ranked = rank_formats(text, data, kind=kind, direction=direction, prefer=cands)
        if ranked:
            return ranked[0][1]
    if len(cands) == 1 or (cands and direction == "write"):
        return cands[0]
    names = ", ".join(format_names(kind, direction))
    what = "output" if direction == "write" else "input"
    raise FormatError(f"cannot tell the {what} format from the name or content; name it with "
                      f"--{'to' if direction == 'write' else 'from'} (one of: {names})",
                      source=source_name(path))


def rank_formats(text: Optional[str], data: Optional[bytes] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", prefer: Sequence[Format] = ()) -> List[Tuple[float, Format]]:
    """Formats whose detect() fits the content, best first: (confidence, format); ties go to `prefer`."""
    pool = [f for f in formats(kind) if (f.autodetect or f in prefer) and _can(f, direction)]
    scored = []
    for f in pool:
        content = data if f.binary else text
        if content is None or f.detect is None:
            continue
        score = _safe_detect(f, content)
        if score > 0:
            scored.append((score, f in prefer, f))
    scored.sort(key=lambda s: (-s[0], not s[1]))
    return [(s, f) for s, _, f in scored]


def _safe_detect(fmt: Format, content: Any) -> float:
    try:
        score = fmt.detect(content)  # type: ignore[misc]
    except Exception:  # a detector is a cheap guess: a crash only means "not this format"
        return NO
    if score is True:
        return LIKELY
    return float(score or NO)


# puzzles ----------------------------------------------------------------------------------------
def read_option_names() -> Dict[str, List[Tuple[str, str]]]:
    """Every reader option of every puzzle notation: option -> [(notation, help)], for the CLI's flags."""
    found: Dict[str, List[Tuple[str, str]]] = {}
    for f in formats("puzzle"):
        for opt, text in f.read_option_help:
            found.setdefault(opt, []).append((f.name, text))
    return found


def _read_options(f: Format, options: Dict[str, Any]) -> Dict[str, Any]:
    given = {k: v for k, v in options.items() if v is not None}
    for key in given:
        if key not in f.read_options:
            warnings.warn(f"option {key!r} has no effect on the {f.name} notation", LossyConversionWarning,
                          stacklevel=4)
    return {k: v for k, v in given.items() if k in f.read_options}


def parse(text: str, fmt: Optional[str] = None, *, source: str = "<string>", **options: Any) -> Any:
    """Read a puzzle from text in the named (or detected) notation."""
    f = get_format(fmt, direction="read", kind="puzzle") if fmt else guess_format(source, text)
    try:
        content: Any = text.encode("latin-1") if f.binary else text
        return f.reader(content, source, **_read_options(f, options))  # type: ignore[misc]
    except MineconvError as exc:
        raise exc.located(source)


def read(path: PathLike, fmt: Optional[str] = None, **options: Any) -> Any:
    """Read a puzzle file ('-' for stdin); the notation comes from fmt, else the content, else the extension."""
    data, src = read_bytes(path)
    f = get_format(fmt, direction="read", kind="puzzle") if fmt else None
    text: Optional[str] = None
    if f is None or not f.binary:
        try:
            text = decode_bytes(data, src)
        except MineconvError:
            ranked = [] if f is not None else rank_formats(None, data)
            if not ranked:
                raise
            f = ranked[0][1]   # not text: only a binary notation can read it
    if f is None:
        f = guess_format(path, text, data=data)
    try:
        return f.reader(data if f.binary else text, src, **_read_options(f, options))  # type: ignore[misc]
    except MineconvError as exc:
        raise exc.located(src)


def losses(puzzle: Any, fmt: Format, **options: Any) -> List[str]:
    """What the format would drop from this puzzle."""
    return list(fmt.losses(puzzle, **options)) if fmt.losses else []


def _check_losses(puzzle: Any, fmt: Format, strict: bool, options: Dict[str, Any]) -> List[str]:
    lost = losses(puzzle, fmt, **options)
    for item in lost:
        msg = f"{fmt.name} cannot express {item}"
        if strict:
            raise LossyConversionError(msg + " (refused under --strict)")
        warnings.warn(msg, LossyConversionWarning, stacklevel=3)
    return lost


def dump(puzzle: Any, out: TextIO, fmt: str, *, strict: bool = False, **options: Any) -> List[str]:
    """Write a puzzle to an open text stream; return the warnings about what was lost."""
    f = get_format(fmt, direction="write")
    lost = _check_losses(puzzle, f, strict, options)
    f.writer(puzzle, out, **options)  # type: ignore[misc]
    return lost


def dumps(puzzle: Any, fmt: str, *, strict: bool = False, **options: Any) -> str:
    """The text of a puzzle in the named format."""
    buf = io.StringIO()
    dump(puzzle, buf, fmt, strict=strict, **options)
    return buf.getvalue()


def write(puzzle: Any, path: PathLike, fmt: Optional[str] = None, *, strict: bool = False,
          **options: Any) -> List[str]:
    """Write a puzzle (or a solver file made from it) atomically; the format comes from fmt or the extension."""
    f = get_format(fmt, direction="write") if fmt else guess_format(path, kind=None, direction="write")
    lost = _check_losses(puzzle, f, strict, options)
    with atomic_output(path) as out:
        f.writer(puzzle, out, **options)  # type: ignore[misc]
    return lost
