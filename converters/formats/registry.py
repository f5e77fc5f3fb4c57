"""The format registry: which formats exist. Each format module registers itself here (the meshio/tablib
pattern) and is found by name, alias or file extension; the format modules are loaded lazily, on first look-up
(of their kind: `_FAMILIES`).

Format modules import `register_format`, `confidence` and the detection levels (`CERTAIN` ... `NO`) from here.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from ..core.errors import FormatError, InputError
from ..core.fileio import STDIO, PathLike, guard_reader, source_name
from .signatures import BUILTIN, MODEL_EXTENSIONS, MODEL_MODULES, SIGNATURES, Signature

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


def confidence(level: float, detect: Callable[[Any], Any]) -> Detector:
    """A detector answering `level` where the yes/no detector `detect` says yes (NO otherwise)."""
    def scored(content: Any) -> float:
        return level if detect(content) else NO
    scored.__doc__ = detect.__doc__
    scored.__name__ = getattr(detect, "__name__", "detect")
    return scored


def answering(detect: Callable[[Any], Any]) -> Detector:
    """The detector as the registry keeps it: it answers a confidence and never raises (True counts as LIKELY,
    False and None as NO; a detector is a cheap guess, so a crash only means "not this format")."""
    def scored(content: Any) -> float:
        try:
            score: Any = detect(content)
        except Exception:  # a detector is a cheap guess: a crash only means "not this format"
            return NO
        return LIKELY if score is True else float(score or NO)
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
    # a file of this notation may hold several puzzles: (text, source=, **options) -> [(label, Puzzle), ...]
    collection: Optional[Callable[..., List[Tuple[str, Any]]]] = None

    def can(self, direction: Optional[str]) -> bool:
        """Whether this format reads ('read'), writes ('write'), or either (None)."""
        return direction is None or (self.reader if direction == "read" else self.writer) is not None


_FORMATS: Dict[str, Format] = {}
_ALIASES: Dict[str, str] = {}


def register_format(name: str, extensions: Optional[Sequence[str]] = None, kind: Optional[str] = None, *,
                    reader: Optional[Reader] = None, writer: Optional[Writer] = None,
                    detect: Optional[Detector] = None, losses: Optional[Losses] = None, description: str = "",
                    autodetect: bool = True, aliases: Optional[Sequence[str]] = None, binary: Optional[bool] = None,
                    read_options: Union[Sequence[str], Mapping[str, str]] = (),
                    write_options: Sequence[str] = (), detect_level: float = LIKELY,
                    keeps_start: bool = False, keeps_wires: bool = False,
                    collection: Optional[Callable[..., List[Tuple[str, Any]]]] = None) -> Format:
    """Register a format by name and extensions (called at the bottom of each format module).

    `detect_level` is the confidence a yes/no detector's True stands for (detectors that return a
    confidence themselves ignore it); `write_options` are the keyword options the writer accepts;
    `keeps_start` says the puzzle writer keeps a board's first click (any other reports it lost), `keeps_wires`
    the variable cells of a board made by `mineconv reduce`; `collection` lists every puzzle of a file
    that holds several (`read_all`, `mineconv info`). A built-in format's kind, extensions, aliases and binary-ness
    come from its row in formats/signatures.py (their one home), and are refused here; any other format gives them.
    """
    if _its_own_module(name, reader or writer):
        kind, extensions, aliases, binary = _builtin_facts(name, (extensions, kind, aliases, binary), read_options)
    if kind not in KINDS:
        raise InputError(f"kind must be one of {KINDS}, not {kind!r}")
    if reader is None and writer is None:
        raise InputError(f"format {name!r} needs a reader or a writer")
    exts = tuple(e.lower() if e.startswith(".") else "." + e.lower() for e in extensions or ())
    if detect is not None and detect_level != LIKELY:
        detect = confidence(detect_level, detect)
    if detect is not None:
        detect = answering(detect)
    helps = tuple(read_options.items()) if isinstance(read_options, Mapping) else tuple((o, "") for o in read_options)
    if reader is not None:  # huge numbers, deep nesting and oversized boards become located errors
        reader = guard_reader(reader, ascii_digits=kind == "solution")
    fmt = Format(name, exts, kind, reader, writer, detect, losses, description, autodetect, tuple(aliases or ()),
                 bool(binary), tuple(o for o, _ in helps), helps, tuple(write_options), keeps_start, keeps_wires,
                 collection)
    _check_new_names(fmt)
    _FORMATS[name] = fmt
    for alias in fmt.aliases:
        _ALIASES[alias] = name
    return fmt


def _its_own_module(name: str, code: Any) -> bool:
    """Whether a built-in format is registered by its own module (another one registering the name is refused)."""
    if name not in BUILTIN:
        return False
    kind, row = BUILTIN[name]
    return getattr(code, "__module__", None) == f"{__package__}.{_FAMILIES[kind]}.{row.module}"


def _builtin_facts(name: str, given: Tuple[Any, ...], read_options: Union[Sequence[str], Mapping[str, str]]
                   ) -> Tuple[str, Tuple[str, ...], Tuple[str, ...], bool]:
    """A built-in format's kind, extensions, aliases and binary-ness, from its row in formats/signatures.py;
    InputError when its register_format call gives them again, or declares other reader options than the row."""
    kind, row = BUILTIN[name]
    if any(g is not None for g in given):
        raise InputError(f"format {name!r} is built in: its kind, extensions, aliases and binary-ness stand in "
                         "formats/signatures.py (their one home), not in its register_format call")
    if sorted(read_options) != sorted(row.read_options):
        raise InputError(f"format {name!r} declares the reader options {sorted(read_options)}, its row in "
                         f"formats/signatures.py {sorted(row.read_options)}")
    return kind, row.extensions, row.aliases, row.binary


def _module_of(fmt: Format) -> Optional[str]:
    code = fmt.reader or fmt.writer
    return getattr(code, "__module__", None)


def _check_new_names(fmt: Format) -> None:
    """Refuse a name or alias that already means another format: the later one would win silently."""
    old = _FORMATS.get(fmt.name)
    if old is not None:
        if _module_of(old) != _module_of(fmt):
            raise InputError(f"format name {fmt.name!r} is already registered (by {_module_of(old)})")
        unregister_format(fmt.name)  # the same module registering again (importlib.reload)
    words = [fmt.name, *fmt.aliases]
    twice = next((w for i, w in enumerate(words) if w in words[:i]), None)
    if twice is not None:
        raise InputError(f"format {fmt.name!r} lists {twice!r} twice among its name and aliases")
    if fmt.name in _ALIASES:
        raise InputError(f"format name {fmt.name!r} is already an alias of format {_ALIASES[fmt.name]!r}")
    for alias in fmt.aliases:
        if alias in _FORMATS:
            raise InputError(f"format {fmt.name!r}: alias {alias!r} is already the name of a format")
        if alias in _ALIASES:
            raise InputError(f"format {fmt.name!r}: alias {alias!r} is already an alias of format "
                             f"{_ALIASES[alias]!r}")


def unregister_format(name: str) -> None:
    """Remove a format and its aliases (for tests and plugins that register temporary formats)."""
    fmt = _FORMATS.pop(name, None)
    if fmt is not None:
        for alias in fmt.aliases:
            if _ALIASES.get(alias) == name:
                del _ALIASES[alias]


# the folders whose modules register formats, by the kind each registers (answers, models, notations: the
# order their modules were always imported in); a look-up of one kind imports only its folder, so reading a
# puzzle does not import every solver-file writer and answer reader
_FAMILIES = {"solution": "answers", "model": "models", "puzzle": "notations"}
_loaded: Set[str] = set()


def _load(kind: Optional[str] = None) -> None:
    """Import each format module of the kind's folder (every folder when None): each runs its register_format."""
    for family_kind, family in _FAMILIES.items():
        if family in _loaded or kind not in (None, family_kind):
            continue
        _loaded.add(family)
        import pkgutil  # here: a look-up by signature (formats/signatures.py) needs no folder walk

        pkg = importlib.import_module(f"{__package__}.{family}")
        for name in sorted(m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{pkg.__name__}.")):
            importlib.import_module(name)


def _load_notations(modules: Sequence[str]) -> None:
    """Import these notation modules (names in SIGNATURES), in that table's order, unless all are loaded."""
    if "notations" not in _loaded:
        for module in modules:
            importlib.import_module(f"{__package__}.notations.{module}")


def _load_models(exts: Sequence[str]) -> None:
    """Import the writer modules of these extensions (MODEL_EXTENSIONS), unless the folder is loaded."""
    if "models" not in _loaded:
        for module in dict.fromkeys(m for e in exts for m in MODEL_EXTENSIONS.get(e, ())):
            importlib.import_module(f"{__package__}.models.{module}")


def _light(kind: Optional[str]) -> bool:
    """Whether a puzzle look-up can go by SIGNATURES instead of importing every notation."""
    return kind == "puzzle" and "notations" not in _loaded


def detectable(kind: Optional[str], could: Callable[[Signature], bool]) -> List[Format]:
    """formats(kind), except that of the puzzle notations only those are imported (and listed, with any loaded
    before) whose signature has no `could` or for which could(signature) says the content may be theirs."""
    if not _light(kind):
        return formats(kind)
    _load_notations([m for m, sig in SIGNATURES.items() if sig.could is None or could(sig)])
    return sorted((f for f in _FORMATS.values() if f.kind == kind), key=lambda f: f.name)


def formats(kind: Optional[str] = None) -> List[Format]:
    """Every registered format (of one kind), by name."""
    _load(kind)
    return sorted((f for f in _FORMATS.values() if kind is None or f.kind == kind), key=lambda f: f.name)


def format_names(kind: Optional[str] = None, direction: Optional[str] = None) -> List[str]:
    """Names of formats that can read ('read') or write ('write')."""
    return [f.name for f in formats(kind) if f.can(direction)]


def get_format(name: str, *, direction: Optional[str] = None, kind: Optional[str] = None) -> Format:
    """The format with this name (or alias); FormatError lists the valid names."""
    if _light(kind):
        _load_notations([m for m, sig in SIGNATURES.items() if name in sig.names])
    elif kind in (None, "model") and name in MODEL_MODULES and "models" not in _loaded:
        importlib.import_module(f"{__package__}.models.{MODEL_MODULES[name]}")
    # folder by folder in _load's order, stopping at the one that has the name: writing an .lp by name
    # does not import every puzzle notation (names are unique across folders, so the answer is the same)
    for family_kind in _FAMILIES:
        if name in _FORMATS or name in _ALIASES:
            break
        if kind in (None, family_kind):
            _load(family_kind)
    fmt = _FORMATS.get(name) or _FORMATS.get(_ALIASES.get(name, ""))
    if fmt is None or (kind is not None and fmt.kind != kind) or not fmt.can(direction):
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
    exts = _extension_of(str(path))
    by_extension = [m for m, sig in SIGNATURES.items() if any(e in sig.extensions for e in exts)]
    if kind is None and _light("puzzle"):   # every kind: the other folders whole, in _load(None)'s order
        if direction == "write":
            _load_models(exts)
        else:
            for other in ("solution", "model"):
                _load(other)
        _load_notations(by_extension)
    elif _light(kind):
        _load_notations(by_extension)
    else:
        _load(kind)
    for ext in exts:
        found = [f for f in _FORMATS.values()
                 if ext in f.extensions and (kind is None or f.kind == kind) and f.can(direction)]
        if found:
            return found
    return []



def output_format(path: PathLike, *, kind: Optional[str] = None) -> Format:
    """The format a written file's extension names (the first registered); FormatError says to use --to."""
    found = candidates_for_path(path, kind=kind, direction="write")
    if found:
        return found[0]
    name = "<stdout>" if str(path) == STDIO else source_name(path)   # '-' is stdout when it names an output
    names = ", ".join(format_names(kind, "write"))
    raise FormatError(f"cannot tell the output format from the name; name it with --to (one of: {names})",
                      source=name)


def read_option_names() -> Dict[str, List[Tuple[str, str]]]:
    """Every reader option of every puzzle notation: option -> [(notation, help)], for the CLI's flags."""
    found: Dict[str, List[Tuple[str, str]]] = {}
    for f in formats("puzzle"):
        for opt, text in f.read_option_help:
            found.setdefault(opt, []).append((f.name, text))
    return found


def read_option_flags() -> List[str]:
    """The reader options of the puzzle notations (read_option_names' keys), without importing a notation."""
    return sorted({opt for sig in SIGNATURES.values() for opt in sig.read_options})
