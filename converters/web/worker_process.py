"""A worker process of the assistant page: one JSON request a line on stdin, one JSON answer a line on stdout.

Started by `jobs.JobPool`; it runs the heavy actions of `actions.py` and never prints anything else on
stdout. Errors mineconv raises on purpose become `{"ok": false, "error": "..."}`, with the same text the
command line prints; anything else is reported the same way rather than ending the process.

It ends with its server even while busy: the server passes it the read end of a pipe (its number in
MINECONV_PARENT_FD) and keeps the only write end; a thread here waits on it, and when the server dies,
however it dies, the read sees the end of the pipe and the worker kills its own process group.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import warnings
from typing import Any, Dict

from ..core.errors import MineconvError
from ..core.fileio import set_limits
from ..core.jsonout import json_text
from .actions import WORKER_ACTIONS
from .jobs import LIMITS, PARENT_FD


def answer(request: Dict[str, Any]) -> Dict[str, Any]:
    """The reply to one request: {"ok": true, "answer": ...} or {"ok": false, "error": "..."}."""
    action = WORKER_ACTIONS.get(str(request.get("action")))
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


def watch_parent(fd: int) -> None:
    """End this process group when the pipe from the server closes (the server ended, even by SIGKILL)."""
    try:
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    os.killpg(os.getpgid(0), signal.SIGKILL)


def main() -> int:
    """Serve requests until stdin closes (or the server's pipe does)."""
    limits = os.environ.get(LIMITS, "").split(",")
    if len(limits) == 2 and all(part.isdigit() for part in limits):
        set_limits(int(limits[0]), int(limits[1]))
    fd = os.environ.get(PARENT_FD, "")
    if fd.isdigit():
        threading.Thread(target=watch_parent, args=(int(fd),), daemon=True, name="parent-watch").start()
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
