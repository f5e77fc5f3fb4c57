"""Polynomials with non-negative integer coefficients, as the exact counter uses them.

Coefficient j of a count polynomial is the number of solutions that place j mines. The dynamic programme
also keeps them as (offset, coefficients) pairs, so multiplying by x (one more mine) is free and a sum only
touches the occupied span.
"""
from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

import numpy as np

from ...core.bignum import GMP_BITS, big_number  # noqa: F401 (GMP_BITS re-exported)

Poly = List[int]  # coefficient j = number of solutions placing j mines


def pmul(a: Poly, b: Poly) -> Poly:
    """Product of two polynomials with non-negative integer coefficients.

    Long ones go through one big-integer product (Kronecker substitution: coefficients packed into
    byte slots wide enough that no slot of the product overflows), which runs in C.
    """
    if len(a) * len(b) <= 64:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    bits = (max(x.bit_length() for x in a) + max(y.bit_length() for y in b)
            + min(len(a), len(b)).bit_length() + 1)
    width = (bits + 7) // 8
    pa = int.from_bytes(b"".join(x.to_bytes(width, "little") for x in a), "little")
    pb = int.from_bytes(b"".join(y.to_bytes(width, "little") for y in b), "little")
    n = len(a) + len(b) - 1
    raw = int(_big_product(pa, pb)).to_bytes(width * n, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * n, width)]




def _big_product(pa: int, pb: int) -> Any:
    """pa * pb, through GMP when both are long."""
    if min(pa.bit_length(), pb.bit_length()) < GMP_BITS:
        return pa * pb
    return big_number(pa) * big_number(pb)


def pdiv_exact(a: Poly, b: Poly) -> Poly:
    """The polynomial q with q * b == a (integer coefficients, known to exist)."""
    s = next(i for i, x in enumerate(b) if x)
    b = b[s:]
    a = a[s:]
    n = len(a) - len(b) + 1
    q = [0] * max(n, 0)
    b0 = b[0]
    for i in range(n):
        acc = a[i]
        for j in range(1, min(i, len(b) - 1) + 1):
            acc -= b[j] * q[i - j]
        q[i] = acc // b0
    return q


def oadd(a, b):
    """Sum of two (offset, coefficients) polynomials."""
    (oa, ca), (ob, cb) = a, b
    if not ca:
        return b
    if not cb:
        return a
    lo = min(oa, ob)
    out = [0] * (max(oa + len(ca), ob + len(cb)) - lo)
    for i, x in enumerate(ca, oa - lo):
        out[i] = x
    for i, x in enumerate(cb, ob - lo):
        out[i] += x
    return (lo, out)


def oplain(a) -> Poly:
    """An (offset, coefficients) polynomial as a plain coefficient list."""
    off, coeffs = a
    return [0] * off + list(coeffs) if coeffs else [0]


def binomial_window(n: int, lo: int, hi: int, check: Optional[Callable[[], None]] = None) -> List[int]:
    """[C(n, lo), ..., C(n, hi)] for 0 <= lo <= hi <= n: binomial() for the first, then one step each.

    Only the part of Pascal's row a count needs: binomial_window(5, 2, 4) == [10, 10, 5]. `check` is
    called every 256 steps (a deadline: each step is linear in a number of up to a million bits).
    """
    row = [binomial(n, lo)]
    for j in range(lo, hi):
        row.append(row[-1] * (n - j) // (j + 1))
        if check is not None and j & 255 == 255:
            check()
    return row


def binomial_bits(n: int, j: int) -> int:
    """About how many bits C(n, j) has (from log-gamma; within a few bits), for memory estimates."""
    if j <= 0 or j >= n:
        return 1
    return int((math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)) / math.log(2)) + 2


def binomial(n: int, k: int) -> int:
    """C(n, k), exactly; a big one from its prime factors (Legendre), multiplied as a balanced tree.

    math.comb(1000000, 200000) takes 4.5 s without releasing the GIL, so neither a deadline nor a timer
    thread can act meanwhile (issue 25: explain on a 1000x1000 board); the factors take 0.4 s.
    """
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    if k < 2000 or n > 10 ** 8:   # small: math.comb is quicker; huge: the sieve would not fit
        return math.comb(n, k)
    sieve = np.ones(n + 1, dtype=bool)
    sieve[:2] = False
    for i in range(2, math.isqrt(n) + 1):
        if sieve[i]:
            sieve[i * i::i] = False
    primes = np.flatnonzero(sieve).astype(np.int64)
    exponent = np.zeros(primes.size, dtype=np.int64)
    power = primes.copy()   # p, p^2, ... while it is at most n (at most n * p < 2^63 for n <= 10^8)
    live = power <= n
    while live.any():
        q = power[live]
        exponent[live] += n // q - k // q - (n - k) // q
        power[live] = q * primes[live]
        live &= power <= n
    used = exponent > 0
    factors = [p ** e if e > 1 else p for p, e in zip(primes[used].tolist(), exponent[used].tolist())]
    while len(factors) > 1:
        factors = [factors[i] * factors[i + 1] if i + 1 < len(factors) else factors[i]
                   for i in range(0, len(factors), 2)]
    return factors[0] if factors else 1
