"""Bounds on an analysis: a memory budget for the exact counter, a deadline, and progress reports.

The counter keeps every layer of its dynamic programme for the backward pass; its memory grows with the
number of states times the size of their big-integer polynomials, not with the board. `Bounds` estimates
those bytes as the layers are built and stops the counter before the estimate passes the budget; the
deadline is checked between units of work (and interrupts a SAT call in progress). Progress goes to a
callback, so the library itself never prints.
"""
from __future__ import annotations

import collections.abc
import contextlib
import gc
import math
import re
import sys
import time

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:   # numpy for the annotations only: a convert imports gc_paused before any board needs numpy
    from typing import Iterable, Iterator, Optional, Set

    import numpy as np

from .errors import InputError, MineconvError

DEFAULT_MEMORY_BUDGET = 2 << 30  # 2 GiB: far below the 24 GiB machines the toolkit is run on, above any
                                 # board of the samples (expert boards count in a few MB)

if sys.version_info >= (3, 10):   # made without importing typing (`mineconv --version` does not)
    ProgressCallback = collections.abc.Callable[[str, int, int | None], None]
else:  # pragma: no cover
    from typing import Callable as _Callable
    from typing import Optional as _Optional

    ProgressCallback = _Callable[[str, int, _Optional[int]], None]

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


class AnalysisTimeout(MineconvError, RuntimeError):
    """The analysis ran out of time; `values` holds the cells proven so far (or None), by `level`."""

    exit_status = 1

    def __init__(self, message: str, values: Optional[np.ndarray] = None, level: Optional[str] = None) -> None:
        super().__init__(message)
        self.values = values
        self.level = level


class CountingLimitError(MineconvError, RuntimeError):
    """A component too entangled for the exact counter within its state budget."""


class CountingMemoryError(CountingLimitError, MemoryError):
    """The exact counter would need more memory than its budget (raised before it is allocated)."""


def parse_size(text: str) -> int:
    """Bytes from '2G', '512M', '1.5GiB', '300000000' (binary units; ValueError on anything else)."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text)
    if not m or not text.isascii():
        raise InputError(f"not a size: {text!r} (give bytes, or a number with K, M, G or T)")
    value = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not math.isfinite(value) or value < 1 or value > 1 << 50:
        raise InputError(f"a memory budget is between 1 byte and 1 PiB, got {text!r}")
    return int(value)


def size_text(n: float) -> str:
    """'1.9 GiB': a byte count for people."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{int(n)} B"


class Bounds:
    """What an analysis may spend: bytes of counting states, seconds of wall time; where progress goes."""

    def __init__(self, memory: Optional[int] = DEFAULT_MEMORY_BUDGET, timeout: Optional[float] = None,
                 progress: Optional[ProgressCallback] = None) -> None:
        self.memory = memory
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.progress = progress
        self.peak_estimate = 0  # the largest counting-state estimate seen, in bytes (for -v and benchmarks)

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def remaining(self) -> Optional[float]:
        """Seconds left before the deadline (None without one)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def check(self, values: Optional[np.ndarray] = None) -> None:
        """Raise AnalysisTimeout once the deadline has passed (`values`: the cells proven so far)."""
        if self.expired():
            raise AnalysisTimeout(f"the analysis did not finish within {self.timeout:g} s", values)

    def report(self, stage: str, done: int, total: Optional[int] = None) -> None:
        """Tell the progress callback how far a stage got (total None: not countable)."""
        if self.progress is not None:
            self.progress(stage, done, total)

    def check_memory(self, estimate: float, what: str) -> None:
        """Raise CountingMemoryError when an estimate of bytes about to be held passes the budget."""
        self.peak_estimate = max(self.peak_estimate, int(estimate))
        if self.memory is not None and estimate > self.memory:
            raise CountingMemoryError(
                f"{what} would need more than {size_text(self.memory)} of memory (estimated "
                f"{size_text(estimate)} so far; raise the budget with --memory-budget)")


UNBOUNDED = Bounds(memory=None)

# sizes of CPython objects (64-bit), for estimates that need not walk every object
_INT_BASE, _INT_DIGIT = 28, 4          # an int: 28 bytes up to 30 bits, 4 more per 30-bit digit
_LIST_BASE, _SLOT = 56, 8
_TUPLE_BASE = 40
_DICT_ENTRY = 100                      # a dict slot with its share of the hash table's spare room


def int_bytes(bits: int) -> int:
    """Bytes of a Python int of `bits` bits (0 up to 8 bits: CPython shares the small ones)."""
    if bits <= 8:
        return 0
    return _INT_BASE + _INT_DIGIT * ((bits - 1) // 30)


def layer_bytes(weights: Iterable[object], states: int, width: int, seen: Set[int]) -> int:
    """Estimated bytes that one new layer of the counter adds: its states, and the weights it made.

    A weight is a plain int or an (offset, coefficients) polynomial. Layers share coefficient lists
    (a weight carried over unchanged, or shifted by one mine, keeps its list), so a list is counted once,
    the first time it is seen (`seen` holds the ids of lists counted; none is freed while layers are kept).
    The coefficients of a count polynomial are largest in the middle, so the middle one stands for all of
    them: O(1) per weight, where walking every coefficient would cost as much as the counting itself.
    """
    total = states * state_bytes(width)
    for w in weights:
        if isinstance(w, int):
            total += int_bytes(w.bit_length())
            continue
        coeffs = w[1]  # type: ignore[index]
        total += _TUPLE_BASE + 16
        if id(coeffs) in seen:
            continue
        seen.add(id(coeffs))
        n = len(coeffs)
        total += _LIST_BASE + 16 + n * _SLOT  # 16: the id in `seen`, itself memory the count holds
        if n:
            total += n * int_bytes(coeffs[n // 2].bit_length())
    return total


def state_bytes(width: int) -> int:
    """Bytes of one state key (a tuple of `width` small ints) with its dict slot and its moves entry."""
    key = _TUPLE_BASE + _SLOT * width
    moves = _TUPLE_BASE + 2 * _SLOT + key  # (t0, t1): one successor is a new tuple, the other a layer key
    return key + 2 * _DICT_ENTRY + moves


def stderr_progress_wanted(quiet: bool) -> bool:
    """True when progress should be drawn: not quiet, and stderr is a terminal."""
    if quiet:
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def gc_paused(freeze: bool = False) -> Iterator[None]:
    """No cyclic garbage collection inside: building a million small lists or tuples (numpy's tolist(), a
    cell list) after a long analysis spent ten times its own time in the collector.

    With freeze, every object alive at the end is moved out of the collector's sight (gc.freeze) before it
    runs again: without, the first allocation after the pause collects everything made inside it at once.
    Meant for what lives as long as the process (the CLI's imports) or what it ends with (one conversion);
    a reference cycle made inside is then never collected.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()
