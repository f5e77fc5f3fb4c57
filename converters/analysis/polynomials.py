"""Polynomials with non-negative integer coefficients, as the exact counter uses them.

Coefficient j of a count polynomial is the number of solutions that place j mines. The dynamic programme
also keeps them as (offset, coefficients) pairs, so multiplying by x (one more mine) is free and a sum only
touches the occupied span.
"""
from __future__ import annotations

import math
from typing import List

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
    raw = (pa * pb).to_bytes(width * n, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * n, width)]


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


def binomial_window(n: int, lo: int, hi: int) -> List[int]:
    """[C(n, lo), ..., C(n, hi)] for 0 <= lo <= hi <= n: math.comb for the first, then one step each.

    Only the part of Pascal's row a count needs: binomial_window(5, 2, 4) == [10, 10, 5].
    """
    row = [math.comb(n, lo)]
    for j in range(lo, hi):
        row.append(row[-1] * (n - j) // (j + 1))
    return row


def binomial_bits(n: int, j: int) -> int:
    """About how many bits C(n, j) has (from log-gamma; within a few bits), for memory estimates."""
    if j <= 0 or j >= n:
        return 1
    return int((math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)) / math.log(2)) + 2
