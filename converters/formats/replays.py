"""Whole replays: which replay notation some bytes are, and the Replay (layout, events, metadata) they hold.

The puzzle notations avf, rmv, mvf, evf and rawvf read a replay as its mine layout; `read_replay` keeps
everything the file records, for tools that replay the game from its events.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional, Tuple, Union

from ..core.errors import FormatError, MineconvError
from ..core.fileio import read_bytes
from ..core.replay import Replay
from .notations.avf import detect_avf, parse_avf
from .notations.evf import detect_evf, parse_evf
from .notations.mvf import detect_mvf, parse_mvf
from .notations.rawvf import detect_rawvf, parse_rawvf
from .notations.rmv import detect_rmv, parse_rmv
from .signatures import BUILTIN

# (name, extension, detect, parse): the extension, and whether the notation reads text, come from its row in the
# catalogue (formats/signatures.py); the text notation gets decoded text
REPLAY_NOTATIONS: Tuple[Tuple[str, str, Callable, Callable], ...] = tuple(
    (name, BUILTIN[name][1].extensions[0], detect, parse) for name, detect, parse in (
        ("avf", detect_avf, parse_avf), ("rmv", detect_rmv, parse_rmv), ("mvf", detect_mvf, parse_mvf),
        ("evf", detect_evf, parse_evf), ("rawvf", detect_rawvf, parse_rawvf)))
TEXT_NOTATIONS = frozenset(name for name, *_ in REPLAY_NOTATIONS if not BUILTIN[name][1].binary)
REPLAY_EXTENSIONS = tuple(extension for _, extension, _, _ in REPLAY_NOTATIONS)


def _content(name: str, data: bytes) -> Union[bytes, str]:
    return data.decode("utf-8", errors="replace") if name in TEXT_NOTATIONS else data


def replay_format(data: bytes, source: str = "<bytes>") -> str:
    """The replay notation of the bytes: the best detector's, a matching extension breaking ties."""
    ext = Path(source).suffix.lower()
    scored: List[Tuple[float, bool, str]] = []
    for name, extension, detect, _ in REPLAY_NOTATIONS:
        try:
            score = float(detect(_content(name, data)))
        except (ValueError, IndexError):
            score = 0.0
        if score > 0:
            scored.append((score, extension == ext, name))
    if scored:
        return max(scored)[2]
    named = [name for name, extension, _, _ in REPLAY_NOTATIONS if extension == ext]
    if named:
        return named[0]
    names = ", ".join(name for name, *_ in REPLAY_NOTATIONS)
    raise FormatError(f"not a replay this toolkit reads (one of: {names})", source=source)


def read_replay(path_or_bytes: Union[str, Path, bytes, bytearray], fmt: Optional[str] = None) -> Replay:
    """The whole replay in a file (or bytes): mine layout, events and metadata; fmt names the notation."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        data, source = bytes(path_or_bytes), "<bytes>"
    else:
        data, source = read_bytes(path_or_bytes)
    name = fmt or replay_format(data, source)
    parsers = {n: parse for n, _, _, parse in REPLAY_NOTATIONS}
    if name not in parsers:
        raise FormatError(f"unknown replay notation {name!r}; valid names: {', '.join(parsers)}", source=source)
    try:
        return parsers[name](_content(name, data), source)
    except MineconvError as exc:
        exc.located(source)
        raise
