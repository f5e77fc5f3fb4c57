"""The long fuzz campaign (issue 13): 100,000 mutated inputs per reader, in process, and not one traceback.

Marked slow, so the default run leaves it out; run it with `pytest -m slow tests/test_fuzz_campaign.py`.
MINECONV_FUZZ_COUNT sets the inputs per reader (default 100,000), MINECONV_FUZZ_SEED the random seed.
Every input is a valid one of some notation (what our writers write, the samples, real solver outputs)
with a few edits, some of them hostile on purpose: numbers past 4,300 digits or 64 bits, Unicode digits,
deep nesting, NUL bytes, long lines. A reader may accept the result or raise MineconvError, nothing else.
"""
from __future__ import annotations

import os
import random
import sys
import time
import traceback
import warnings

import pytest

from mineconv.core.errors import MineconvError
from mineconv.formats.registry import formats
from test_fuzz_readers import ALPHABET, SEEDS

COUNT = int(os.environ.get("MINECONV_FUZZ_COUNT", "100000"))
SEED = int(os.environ.get("MINECONV_FUZZ_SEED", "13"))
READERS = [f for f in formats() if f.reader is not None]

# pieces that broke readers before: int()'s digit limit, 64-bit overflow, Unicode and superscript
# digits, nesting that exhausts recursion, and the characters notations give meaning to
HOSTILE = ["9" * 4400, "1" + "0" * 19, "-18446744073709551617", "٣", "１", "²", "x٠_٠", "1e999", "nan",
           "[" * 3000, "(" * 3000, "{" * 3000, "(- " * 3000, "\x00", "\ufeff", "\r", "\u2028", "true", "null",
           "-0", "+5", "0x1f", "1_000", "\t", "    ", "\n\n", "9" * 25]


def own_seeds(fmt) -> list:
    """The seeds this reader accepts as they are: mutating them reaches past its first syntax check."""
    own = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in SEEDS:
            try:
                fmt.reader(text.encode("utf-8") if fmt.binary else text, "seed.in")
                own.append(text)
            except MineconvError:
                pass
    return own


def mutate(rng: random.Random, text: str) -> str:
    """A few random edits: cut, insert (often a hostile piece), replace, duplicate, truncate, swap case."""
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        j = rng.randint(i, min(len(text), i + 24))
        op = rng.randrange(7)
        if rng.random() < 0.3:
            piece = rng.choice(HOSTILE)
        else:
            piece = "".join(rng.choice(ALPHABET) if rng.random() < 0.8 else chr(rng.randint(32, 0x2FFF))
                            for _ in range(rng.randint(0, 6)))
        if op == 0:
            text = text[:i] + text[j:]
        elif op == 1:
            text = text[:i] + piece + text[i:]
        elif op == 2:
            text = text[:i] + piece + text[j:]
        elif op == 3:
            text = text[:j] + text[i:j] * rng.randint(1, 3) + text[j:]
        elif op == 4:
            text = text[:i]
        elif op == 5:
            text = text[:i] + text[i:j].swapcase() + text[j:]
        else:  # a number made huge where one stands
            k = text.find(rng.choice("0123456789"), i)
            if k >= 0:
                text = text[:k] + rng.choice(["9" * 4400, "9" * 25, "٣"]) + text[k + 1:]
    return text


@pytest.mark.slow
@pytest.mark.parametrize("fmt", READERS, ids=[f.name for f in READERS])
def test_a_hundred_thousand_mutations_give_no_traceback(fmt):
    rng = random.Random(f"{SEED}-{fmt.name}")
    own = own_seeds(fmt) or SEEDS
    failures = []
    started = time.perf_counter()
    old_limit = sys.getrecursionlimit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in range(COUNT):
            text = mutate(rng, rng.choice(own if rng.random() < 0.8 else SEEDS))
            try:
                fmt.reader(text.encode("utf-8", "surrogatepass") if fmt.binary else text, "fuzz.in")
            except MineconvError as exc:
                assert str(exc)  # the message itself must not break
            except Exception:  # noqa: BLE001 - the point of the campaign: anything else is a bug
                failures.append((n, text[:300], traceback.format_exc(limit=-3)))
                if len(failures) >= 5:
                    break
            assert sys.getrecursionlimit() == old_limit
    elapsed = time.perf_counter() - started
    print(f"\n{fmt.name}: {n + 1} inputs ({len(own)} own seeds) in {elapsed:.1f} s, {len(failures)} tracebacks")
    assert not failures, "\n\n".join(f"input {n}: {text!r}\n{tb}" for n, text, tb in failures)
