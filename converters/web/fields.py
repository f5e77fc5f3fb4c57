"""The values a page's request may carry, checked before an action sees them, in the page's words.

The actions (`actions.py`) read their fields as the command line's options: a list where a format name
belongs ended in a TypeError, an upload named `..` was written into the temporary folder's parent, and
`"memory_budget": "abc"` reached the analysis (issue 41). Each field the page sends has one type here;
a wrong one is a 400 naming the field, and an upload's name keeps only a safe base name.
"""
from __future__ import annotations

import math
import re
from http import HTTPStatus
from typing import Any, Dict, List

from .guard import Refused

TEXT_FIELDS = ("board", "data", "format", "level", "name", "source", "text")   # "action": the server says "no action"
NAME_LENGTH = 120                     # characters of an upload's name kept (file systems allow 255 bytes)
_SEPARATORS = re.compile(r"[\\/]")


def check_fields(body: Dict[str, Any]) -> Dict[str, Any]:
    """The request with its fields' types checked and its upload name made safe (400 on a wrong type)."""
    for key in TEXT_FIELDS:
        value = body.get(key)
        if value is not None and not isinstance(value, str):
            raise Refused(f"{key} must be text, not {shown(value)}", HTTPStatus.BAD_REQUEST)
    budget = body.get("memory_budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
        raise Refused(f"memory_budget must be a whole number of bytes (at least 1), not {shown(budget)}",
                      HTTPStatus.BAD_REQUEST)
    if body.get("source") is not None:
        return dict(body, source=safe_name(body["source"]))
    return body


def safe_name(name: str) -> str:
    """A file name from a request as a plain base name: no folder, no `.` or `..`, no control characters.

    The name is written inside a folder the server made (an opened file's bytes are read from there), so
    it must never name a path outside it; what is left when nothing usable remains is `upload`.
    """
    base = _SEPARATORS.split(name)[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()[:NAME_LENGTH]
    return base if base.strip(".") else "upload"


def wait_seconds(query: Dict[str, List[str]], longest: float) -> float:
    """The `?wait=S` of a job poll, between 0 and `longest` seconds (400 when it is not a number)."""
    text = (query.get("wait") or ["0"])[0] or "0"
    try:
        wait = float(text)
    except ValueError:
        wait = math.nan
    if not math.isfinite(wait):
        raise Refused(f"wait must be a number of seconds, not {text[:40]!r}", HTTPStatus.BAD_REQUEST)
    return min(longest, max(0.0, wait))


def shown(value: Any) -> str:
    """A value as a message shows it, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
