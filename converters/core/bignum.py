"""Big whole numbers handed to GMP (gmpy2, a dependency) once they are long enough for it to pay.

One home for the switch, used by the polynomial products of the counters and by the decimal digits of
the JSON writer alike."""
from __future__ import annotations

from typing import Any

# past this many bits a product goes to GMP: CPython's Karatsuba took 102 s for two packed 2.7 MB
# polynomials of a 1000x1000 game board (a C call no deadline can interrupt), GMP's FFT a fraction of a second
GMP_BITS = 1 << 16


def big_number(x: int) -> Any:
    """x as gmpy2's mpz when it is long enough for GMP's products to pay (gmpy2 is a dependency), else x."""
    if x.bit_length() < GMP_BITS:
        return x
    try:
        from gmpy2 import mpz  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the same products, slower
        return x
    return mpz(x)
