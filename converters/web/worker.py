"""A worker process of the assistant page: one JSON request a line on stdin, one JSON answer a line on stdout.

Started by `jobs.JobPool`; it runs the heavy actions of `actions.py` and never prints anything else on
stdout. Errors mineconv raises on purpose become `{"ok": false, "error": "..."}`, with the same text the
command line prints; anything else is reported the same way rather than ending the process.
"""
from __future__ import annotations

import json
import sys
import warnings
from typing import Any, Dict

from ..core.errors import MineconvError
from ..core.jsonout import json_text
from .actions import HEAVY


def answer(request: Dict[str, Any]) -> Dict[str, Any]:
    """The reply to one request: {"ok": true, "answer": ...} or {"ok": false, "error": "..."}."""
    action = HEAVY.get(str(request.get("action")))
    if action is None:
        return {"ok": False, "error": f"no action {request.get('action')!r}"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"ok": True, "answer": action(request)}
    except MineconvError as exc:
        return {"ok": False, "error": str(exc)}
    except MemoryError:
        return {"ok": False, "error": "the analysis ran out of memory; try a smaller board"}
    except Exception as exc:  # noqa: BLE001 - a worker reports every failure instead of dying
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            reply: Dict[str, Any] = {"ok": False, "error": "the request is not JSON"}
        else:
            reply = answer(request) if isinstance(request, dict) else {"ok": False, "error": "not a request"}
        sys.stdout.write(json_text(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
