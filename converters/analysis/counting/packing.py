"""Polynomials in the number of mines packed in one integer (Kronecker): coefficient j in bits
j * B .. (j + 1) * B - 1 of the integer, for a slot width B. A sum is `+`, one mine more `<< B`, a product
of two polynomials one big-integer product, provided no coefficient passes B bits (the callers choose B
from the plain counts, which bound every coefficient). The one home of that packing: `pack` and `unpack` at a
width in bits (the small path's groups), `unpack_slots` and `repack` at slots of whole bytes (the big
components' sweeps and trees, whose weights are numpy arrays of such integers)."""
from __future__ import annotations

from operator import methodcaller
from typing import Any, List, Sequence

import numpy as np


def pack(coeffs: Sequence[int], width: int) -> int:
    """A coefficient list as one int, coefficient j in bits j*width .. (j+1)*width - 1."""
    out = 0
    for c in reversed(coeffs):
        out = (out << width) | c
    return out


def unpack(x: int, width: int, d: int) -> List[int]:
    """The first d coefficients of a polynomial packed at `width` bits a coefficient."""
    mask = (1 << width) - 1
    return [(x >> (j * width)) & mask for j in range(d)]


def top_bits(layer: np.ndarray) -> int:
    """Bits of the largest weight of a layer (weights are non-negative)."""
    return int(layer.max()).bit_length() if len(layer) else 0


def repack(vals: np.ndarray, a: int, b: int, number: Any = int) -> np.ndarray:
    """Packed weights from slots of a bytes to slots of b bytes, each coefficient kept (b < a: each must fit);
    the new weights of type `number` (int, or gmpy2's mpz)."""
    if a == b or not len(vals):
        return vals
    n = max(1, (top_bits(vals) + 8 * a - 1) // (8 * a))
    raw = b"".join(map(methodcaller("to_bytes", n * a, "little"), vals.tolist()))
    wide = np.zeros((len(vals), n, b), dtype=np.uint8)
    wide[:, :, :min(a, b)] = np.frombuffer(raw, dtype=np.uint8).reshape(len(vals), n, a)[:, :, :min(a, b)]
    data, width = wide.tobytes(), n * b
    out = np.empty(len(vals), dtype=object)
    out[:] = [number.from_bytes(data[r * width:(r + 1) * width], "little") for r in range(len(vals))]
    return out


def unpack_slots(value, offset: int, slot_bytes: int) -> List[int]:
    """The coefficients of x**offset times a packed polynomial (slots of slot_bytes bytes, lowest first)."""
    value = int(value)
    if value == 0:
        return [0]
    raw = value.to_bytes((value.bit_length() + 7) // 8 + slot_bytes, "little")
    n = (value.bit_length() - 1) // (8 * slot_bytes) + 1
    return [0] * offset + [int.from_bytes(raw[j * slot_bytes:(j + 1) * slot_bytes], "little") for j in range(n)]
