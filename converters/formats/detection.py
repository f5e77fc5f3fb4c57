"""Detection: which formats some content fits, as each format's detect() scores it, ranked best first."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from .registry import LIKELY, NO, POSSIBLE, Format, detectable
from .signatures import Signature

# confidences at most this far below the best count as "similar": every such notation's reading is compared
CLOSE = LIKELY - POSSIBLE


def content_for(fmt: Format, text: Optional[str], data: Optional[bytes]) -> Any:
    """What fmt's reader and detector take: bytes for a binary notation, text otherwise (None: not available)."""
    return _content(fmt.binary, text, data)


def _content(binary: bool, text: Optional[str], data: Optional[bytes]) -> Any:
    if not binary:
        return text
    if data is None and text is not None:
        try:
            return text.encode("latin-1")  # parse() of a binary notation: one character per byte
        except UnicodeEncodeError:
            return None
    return data


def detect_score(fmt: Format, content: Any) -> float:
    """fmt's confidence that the content is in its format (a detector that crashes says NO)."""
    if fmt.detect is None:
        return NO
    try:
        score: Any = fmt.detect(content)
    except Exception:  # a detector is a cheap guess: a crash only means "not this format"
        return NO
    if score is True:
        return LIKELY
    return float(score or NO)


def rank_formats(text: Optional[str], data: Optional[bytes] = None, *, kind: Optional[str] = "puzzle",
                 direction: str = "read", prefer: Sequence[Format] = ()) -> List[Tuple[float, Format]]:
    """Formats whose detect() fits the content, best first: (confidence, format); ties go to `prefer`."""
    def could(sig: Signature) -> bool:   # the light first pass: which notations need importing at all
        content = _content(sig.binary, text, data)
        try:
            return content is not None and sig.could is not None and bool(sig.could(content))
        except Exception:  # as detect_score: a crash only means "not this format"
            return False
    pool = [f for f in detectable(kind, could) if (f.autodetect or f in prefer) and f.can(direction)]
    scored = []
    for f in pool:
        content = content_for(f, text, data)
        if content is None or f.detect is None:
            continue
        score = detect_score(f, content)
        if score > 0:
            scored.append((score, f in prefer, f))
    scored.sort(key=lambda s: (-s[0], not s[1]))
    return [(s, f) for s, _, f in scored]


def close_to_best(ranked: Sequence[Tuple[float, Format]]) -> List[Format]:
    """The ranked formats whose confidence is similar to the best one's (the same level or the next)."""
    best = ranked[0][0]
    return [f for s, f in ranked if s >= best - CLOSE - 1e-9]
