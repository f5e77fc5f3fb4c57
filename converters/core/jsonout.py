"""JSON every reader loads whole: Python's json with its default limits, and JavaScript's JSON.parse.

One rule for every JSON document mineconv writes (each command's --json, the assistant page's server):

- a whole number below 2**53 in magnitude is a plain JSON number, exact in every reader;
- a bigger one under key K of an object also gets `K_str` beside it: its exact decimal digits, as a
  string (JavaScript reads a big JSON number rounded, or as Infinity past 1e308; `BigInt(d.K_str)` is
  exact). K itself stays the number while Python's json can read it back (at most 4300 digits, Python's
  default int-string limit) and past that holds the same decimal string (`int(d[K])` then needs
  `sys.set_int_max_str_digits(0)`, Python's own rule for long digit strings). Where K_str is already
  written (the solution counts), it is kept, not repeated;
- a big number in a list (there is no key to put a companion beside) is written as its decimal string;
- NaN and the infinities are refused (JSON has none; JSON.parse rejects Python's `NaN`).

Solution counts are the numbers that grow past 2**53: a 1000x1000 board's has 200,000 digits. Their
decimal form is made by decimal_text, close to linear time (str() is quadratic before Python 3.12).
"""
from __future__ import annotations

import contextlib
import itertools
import json
import math
import sys
from typing import TYPE_CHECKING, Any, Dict, Iterator

from .bignum import big_number

if TYPE_CHECKING:
    import decimal

SAFE_INTEGER = 2 ** 53          # JavaScript's Number.MAX_SAFE_INTEGER is 2**53 - 1
PYTHON_INT_DIGITS = 4300        # Python's default sys.get_int_max_str_digits(): json.loads refuses longer
COMPANION = "_str"


def json_text(value: Any, **options: Any) -> str:
    """json.dumps(value) under the rule above (`options` as json.dumps takes them)."""
    return json.dumps(json_ready(value), allow_nan=False, **options)


def json_ready(value: Any) -> Any:
    """`value` with its big whole numbers written as the rule says (containers copied where they change)."""
    if isinstance(value, dict):
        return _ready_dict(value)
    if isinstance(value, (list, tuple)):
        return _ready_list(value)
    if _big(value):
        return decimal_text(value)
    return value


def _big(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and not -SAFE_INTEGER < x < SAFE_INTEGER


def _ready_dict(value: Dict[Any, Any]) -> Dict[Any, Any]:
    out: Dict[Any, Any] = {}
    for key, item in value.items():
        if not _big(item):
            out[key] = json_ready(item)
            continue
        companion = f"{key}{COMPANION}"
        given = value.get(companion)
        text = given if isinstance(given, str) else decimal_text(item)
        out[key] = item if len(text.lstrip("-")) <= PYTHON_INT_DIGITS else text
        if companion not in value:
            out[companion] = text
    return out


# what a list of plain values holds: nothing in it changes (a probability grid's million floats, say)
_PLAIN = frozenset([float, str, bool, type(None)])


def _ready_list(items: Any) -> Any:
    kinds = set(map(type, items))
    if kinds <= _PLAIN or (kinds <= _PLAIN | {int} and not any(map(_big, items))):
        return items
    if kinds == {list} and _plain_lists(items):
        return items
    return [json_ready(item) for item in items]


def _plain_lists(items: Any) -> bool:
    """True when `items` are lists of plain values and small ints (a certificate's [row, col] cells): one
    pass at C speed, where walking a million such lists one by one took 1.5 s."""
    flat = list(itertools.chain.from_iterable(items))
    kinds = set(map(type, flat))
    if not kinds <= _PLAIN | {int}:
        return False
    ints = [x for x in flat if type(x) is int] if kinds - {int} else flat
    return not ints or (-SAFE_INTEGER < min(ints) and max(ints) < SAFE_INTEGER)


@contextlib.contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Let str()/json print integers of any length (solution counts of big boards pass Python's 4300)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # Python before 3.11 has no limit
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def decimal_digits(n: int) -> int:
    """len(str(abs(n))), without writing n out (powers of ten and comparisons only)."""
    n = big_number(abs(n))   # GMP's powers of ten: CPython's took 16 s for a 16-million-bit count
    if n < 10:
        return 1
    digits = int((n.bit_length() - 1) * math.log10(2)) + 1   # exact or one short (float rounding)
    power = type(n)(10) ** (digits - 1)
    while n < power:
        digits, power = digits - 1, power // 10
    while n >= power * 10:
        digits, power = digits + 1, power * 10
    return digits


def decimal_text(n: int) -> str:
    """str(n) of any length, in time close to linear (str() is quadratic before Python 3.12: 1 s for
    200,000 digits). The halves of n are turned into decimal.Decimal and joined by Decimal arithmetic
    (libmpdec multiplies big numbers fast), as CPython 3.12's _pylong.int_to_decimal_string does."""
    if n < 0:
        return "-" + decimal_text(-n)
    if n.bit_length() <= 40_000:
        with unlimited_int_digits():
            return str(n)
    # imported here: the commands that print small JSON start without it
    import decimal

    powers: Dict[int, decimal.Decimal] = {}

    def power(w: int) -> decimal.Decimal:   # 2 ** w as a Decimal, each one made once
        if w not in powers:
            powers[w] = decimal.Decimal(2) ** w if w <= 128 else power(w >> 1) * power(w - (w >> 1))
        return powers[w]

    def convert(m: int, w: int) -> decimal.Decimal:   # m < 2 ** w
        if w <= 4096:
            with unlimited_int_digits():
                return decimal.Decimal(m)
        half = w >> 1
        hi = m >> half
        return convert(m - (hi << half), half) + convert(hi, w - half) * power(half)

    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = decimal.MAX_PREC, decimal.MAX_EMAX, decimal.MIN_EMIN
        ctx.traps[decimal.Inexact] = True
        return str(convert(n, n.bit_length()))
