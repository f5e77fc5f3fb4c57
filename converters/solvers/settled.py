"""pysat's calls off the main thread, each run whole: a stop signal waits for the call to end.

Two ways a Ctrl-C inside pysat killed mineconv with SIGSEGV instead of exit 130:
- called from the main thread, pysat's solve() (like its cardinality encoders, which
  encode/cardinality.off_main_thread moves for the same reason) installs a SIGINT handler of its own
  that longjmps out of the C++ solver, leaving the solver half-updated for the delete() that follows;
- a method made of two steps, `delete()` (free the C solver, then clear the pointer), stopped between
  them by a KeyboardInterrupt, is freed a second time by the object's `__del__`.

`settled(work)` runs work() in a helper thread while the main thread waits on a lock: pysat sees a
thread that is not the main one and leaves signals to Python, whose KeyboardInterrupt (or Terminated)
lands in the wait; the wait goes on until the call has ended, and the signal is raised then. Calls that
may run for long (a solve) are not for this: they need to be interrupted (EmbeddedSolver._solve). A
method that is one C call and installs no handler (add_clause, get_model, set_phases, interrupt) stays
on the main thread: a signal lands before it or after it, never inside.
"""
from __future__ import annotations

import _thread
import threading
import time
from typing import Any, Callable, Dict, List, Optional, TypeVar

T = TypeVar("T")
START_WAIT = 5.0   # seconds a helper thread may take to begin before it is taken as never started


def settled(work: Callable[[], T]) -> T:
    """work()'s result (or exception), computed in a helper thread; a stop signal is raised after it ends."""
    if threading.current_thread() is not threading.main_thread():
        return work()   # signals land only in the main thread: nothing can stop this call midway
    box: Dict[str, Any] = {}
    began: List[bool] = []
    ended: List[bool] = []   # the truth: a signal raised just after an acquire() leaves the lock taken
    done = _thread.allocate_lock()
    done.acquire()

    def run() -> None:
        began.append(True)
        try:
            box["value"] = work()
        except BaseException as exc:  # handed back to the caller, which raises it
            box["error"] = exc
        finally:
            ended.append(True)
            done.release()

    pending: Optional[BaseException] = None
    start = time.monotonic()
    try:
        # the low-level start: Thread.start() waits on an Event, where a Ctrl-C would leave work unseen
        _thread.start_new_thread(run, ())
    except KeyboardInterrupt as exc:   # raised after the thread began, or before it: the wait below tells
        pending = exc
    while not ended and (began or time.monotonic() - start < START_WAIT):
        try:
            done.acquire(timeout=0.05)
        except KeyboardInterrupt as exc:   # Ctrl-C, SIGTERM, SIGHUP: the call ends first, then it is raised
            pending = pending or exc
    if pending is not None:
        raise pending
    if "error" in box:
        raise box["error"]
    return box["value"]
