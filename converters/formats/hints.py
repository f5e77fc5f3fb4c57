"""Hints: what to tell a user whose input could not be read, namely what the content resembles, whether it is
a solver file or answer rather than a puzzle, and which --from to try."""
from __future__ import annotations

import io
import re
import warnings
from typing import Dict, List, Optional, Sequence, Tuple

from ..core.errors import FormatError, MineconvError
from ..core.puzzle import Puzzle
from .registry import NO, POSSIBLE, Format, format_names, formats
from .source import Source

_PREFIXES = (34, 21, 13, 8, 5, 3, 2, 1)   # line counts of the file starts tried, longest first
_SKIPS = (1, 2, 3)                       # leading lines dropped (a title line a notation does not allow)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]+")
_vocabularies: Dict[str, frozenset] = {}


def _vocabulary(fmt: Format) -> frozenset:
    """The words fmt's writer puts in a small puzzle's file (its keywords: `param`, `array2d`, `rows`...)."""
    if fmt.name not in _vocabularies:
        words: frozenset = frozenset()
        if fmt.writer is not None and fmt.kind == "puzzle" and not fmt.binary:
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


def _partial_fit(fmt: Format, lines: List[str]) -> Optional[Tuple[float, str]]:
    """fmt's detector on the file's first lines, or on the file after a title line or two (0.8 x its score)."""
    assert fmt.detect is not None   # asked only of formats with a detector
    found = None
    for n in _PREFIXES:
        score = fmt.detect("\n".join(lines[:n]) + "\n") if n < len(lines) else NO
        if score > 0:
            found = (0.8 * score, "its first line" if n == 1 else f"its first {n} lines")
            break
    for k in _SKIPS:
        score = fmt.detect("\n".join(lines[k:])) if k < len(lines) else NO
        if score > 0:
            if found is None or 0.8 * score > found[0]:
                found = (0.8 * score, "after its first line" if k == 1 else f"after its first {k} lines")
            break
    return found


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
    content = Source("<content>", data, text).content
    for f in formats(kind):
        if f.reader is None:
            continue
        if f.detect is not None and content[f.binary] is not None:
            score = f.detect(content[f.binary])
            if score > 0:
                offer(score, f, "its detector fits the content")
                continue
            partial = _partial_fit(f, lines) if not f.binary else None
            if partial is not None:
                offer(partial[0], f, partial[1])
        shared = [words[w] for w in sorted(_vocabulary(f)) if w in words]
        if shared:
            offer(0.15 + 0.05 * min(len(shared), 3), f, ", ".join(f"`{w}`" for w in shared[:3]))
    order = {f.name: i for i, f in enumerate(formats(kind))}
    return sorted(best.values(), key=lambda t: (-t[0], order[t[1].name]))


def most_like(src: Source, kind: Optional[str], prefer: Sequence[Format] = ()
              ) -> Optional[Tuple[float, Format, str]]:
    """The format the input resembles most (of equal scores, one in `prefer`); None: none at all."""
    found = resemblance(src.text, src.data, kind=kind)
    if not found:
        return None
    top = [t for t in found if t[0] == found[0][0]]
    return next((t for t in top if t[1] in prefer), top[0])


def cannot_tell(src: Source, kind: Optional[str], other: str) -> FormatError:
    """The error for input that no readable format fits by name or content, with what it looks like; `other`
    says ('; it is ...') when a puzzle's content is a solver file or answer instead ("" when not)."""
    names = ", ".join(format_names(kind, "read"))
    what = "notation" if kind == "puzzle" else "format"
    if src.empty:
        thing = {"puzzle": "puzzle", "solution": "solver answer"}.get(kind or "", "content")
        return FormatError(f"the input is empty (or only blank lines): there is no {thing} to read", source=src.name)
    like = most_like(src, kind) if src.text is not None or src.data is not None else None
    if other:
        advice = other[2:]
    elif like is not None:
        advice = f"the content looks most like {like[1].name} ({like[2]}): try --from {like[1].name}"
    else:
        advice = "it looks like none of them: name it with --from"
    return FormatError(f"cannot tell the input {what} from the name or content; {advice} (one of: {names})",
                       source=src.name)


def add_hint(exc: MineconvError, fmt: Format, how: str, src: Source, other: str = "",
             works: Optional[Format] = None) -> None:
    """Tell the reader's error (in place) which notation read the content and, when another fits better, which.

    `how` is how fmt was chosen ('named', 'extension' or 'content'); `other` says when the content is a solver
    file or answer instead (as for cannot_tell; not asked for 'content'); `works` is a notation, of those that
    fit the content about as well, that does read it (for 'content').
    """
    hint = ""
    if other:
        hint = other[2:]
    elif how == "content":
        hint = f"read as {fmt.name}, the notation the content looks most like"
        hint += f"; it does read as {works.name}: try --from {works.name}" if works else "; --from names another"
    else:
        like = most_like(src, "puzzle", src.prefer)
        if like is not None and like[1] is not fmt and (how == "extension" or like[0] >= POSSIBLE):
            hint = f"the content looks more like {like[1].name} ({like[2]}): try --from {like[1].name}"
        elif how == "extension":
            hint = f"read as {fmt.name} by the file name; --from names another notation"
    if hint:
        exc.message = f"{exc.message} [{hint}]"
        exc.args = (exc.message,)
