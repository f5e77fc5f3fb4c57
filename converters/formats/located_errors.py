"""Helpers the puzzle-notation readers share: errors that point at an offset of the input text."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple, Type

from ..core.errors import MineconvError, PuzzleSyntaxError
from ..core.fileio import locate


def error_at(message: str, text: str, offset: int, source: Optional[str],
             cls: Type[MineconvError] = PuzzleSyntaxError) -> MineconvError:
    """An error located at a character offset of text (line, column and the offending line)."""
    offset = max(0, min(offset, len(text)))
    line, column, line_text = locate(text, offset)
    return cls(message, source=source, line=line, column=column, line_text=line_text)


def symbol_name(token: str) -> str:
    """A token as shown in a message: quoted, and cut short when long."""
    return repr(token if len(token) <= 20 else token[:17] + "...")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class DuplicateKey(ValueError):
    """Raised by unique_keys: JSON's own parser would keep the last value silently."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    def after(self, text: str) -> int:
        """Where to search for the second occurrence: just past the first one."""
        return json_key_offset(text, self.key) + 1


def unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    """object_pairs_hook for json.loads that refuses a key given twice in one object."""
    out: Dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def json_key_offset(text: str, key: str, start: int = 0) -> int:
    """Offset of the first '"key":' at or after start (0 when absent): where a JSON error about key points."""
    m = re.compile(r'"' + re.escape(key) + r'"\s*:').search(text, start)
    return m.start() if m else 0


def json_item_offset(text: str, key: str, index: int, start: int = 0) -> int:
    """Offset of item `index` of the array under key, when its items are strings or flat arrays."""
    k = json_key_offset(text, key, start)
    open_ = text.find("[", k)
    if open_ < 0:
        return k
    pos = open_ + 1
    count = -1
    while True:
        m = re.compile(r'[\[{"\d\-tfn]').search(text, pos)
        if m is None:
            return k
        count += 1
        if count == index:
            return m.start()
        ch = m.group()
        if ch == "[":
            end = text.find("]", m.end())
        elif ch == "{":
            end = text.find("}", m.end())
        elif ch == '"':
            s = _STRING.match(text, m.start())
            end = s.end() - 1 if s else m.end()
        else:
            s = re.compile(r"[^,\]\s]*").match(text, m.start())
            end = s.end() - 1 if s else m.end()
        if end < 0:
            return k
        pos = end + 1


def is_whole(value: Any) -> bool:
    """True for a JSON integer (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def load_json(text: str, source: Optional[str]) -> Any:
    """json.loads with located errors: bad JSON, a key given twice, nesting too deep."""
    import json  # here: every notation's reader imports this module, few read JSON (~2-6 ms at start-up)

    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKey as exc:
        raise error_at(f"the key {exc.key!r} is given twice", text, json_key_offset(text, exc.key, exc.after(text)),
                       source) from None
    except json.JSONDecodeError as exc:
        raise PuzzleSyntaxError(f"not valid JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno,
                                line_text=text.split("\n")[exc.lineno - 1]) from None
    except RecursionError:
        raise PuzzleSyntaxError("not valid JSON: nested too deeply", source=source, line=1, column=1) from None
