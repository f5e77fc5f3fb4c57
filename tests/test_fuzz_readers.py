"""Fuzzing every registered reader: random and mutated inputs either parse or raise the toolkit's own error.

The readers are taken from the registry when the tests are collected, so every puzzle notation and every
solver-answer reader present is covered, including ones added after this file was written.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import FIXTURES, SAMPLES
from mineconv.core.errors import LossyConversionWarning, MineconvError
from mineconv.make.generate import random_puzzle
from mineconv.formats.writing import dumps
from mineconv.formats.registry import formats
from mineconv.formats.reading import read

READERS = [f.name for f in formats() if f.reader is not None]
SETTINGS = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# characters that matter to one notation or another, and some that matter to none
ALPHABET = list("0123456789-+ \n\t\r?*.:=_,;#\\/()[]{}\"'<>xXceEvVsSpPbBnN") + ["\x00", "\x0b", "\u00e9", "\U0001F642"]


def _seed_texts() -> list:
    """Valid inputs of every kind: what our writers emit, the samples, and real solver outputs."""
    texts = []
    puzzles = [random_puzzle(4, 5, mines=4, reveal="game", seed=1, name="fuzz seed"),
               random_puzzle(3, 3, mines=2, seed=2).replace(notes=("a note",)),
               random_puzzle(6, 4, mines=5, reveal="game", seed=3, with_total=False)]
    for fmt in formats():
        if fmt.writer is None:
            continue
        for p in puzzles:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", LossyConversionWarning)  # a seed need not be lossless
                    texts.append(dumps(p, fmt.name))
            except MineconvError:
                pass  # a writer may refuse a puzzle it cannot express
    for folder in (SAMPLES, FIXTURES / "outputs"):   # the shared puzzles/ folder only repeated samples
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                if path.is_file() and path.suffix not in (".cmd", ".rc", ".md") and path.stat().st_size < 20_000:
                    try:
                        texts.append(path.read_text(encoding="utf-8"))
                    except UnicodeDecodeError:
                        pass
    return [t for t in texts if t] or ["?1\n"]


SEEDS = _seed_texts()


@st.composite
def mutated(draw) -> str:
    """A valid input of some format with a few random edits: cuts, insertions, swaps, duplicates."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 24)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate", "truncate", "swapcase"]))
        piece = draw(st.text(alphabet=st.one_of(st.sampled_from(ALPHABET), st.characters(codec="utf-8")), max_size=6))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "replace":
            text = text[:i] + piece + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        elif op == "truncate":
            text = text[:i]
        else:
            text = text[:i] + text[i:j].swapcase() + text[j:]
    return text


random_text = st.text(alphabet=st.one_of(st.sampled_from(ALPHABET), st.characters(codec="utf-8")), max_size=300)


def _check(name: str, text: str) -> None:
    fmt = next(f for f in formats() if f.name == name)
    try:
        fmt.reader(text.encode("utf-8") if fmt.binary else text, "fuzz.in")  # binary readers take bytes
    except MineconvError as exc:
        report = str(exc)  # the message itself must not break
        assert report
        # a reader may count lines by \n, by \r (XML) or by every Unicode line break
        lines = max(text.count("\n"), text.count("\r"), len(text.splitlines())) + 1
        if exc.line is not None:
            assert 1 <= exc.line <= lines + 1, (exc.line, lines, report)
        if exc.column is not None:
            assert exc.column >= 1, report
        assert exc.exit_status in (2, 3)


def test_there_are_readers_of_both_kinds():
    kinds = {f.kind for f in formats() if f.reader is not None}
    assert {"puzzle", "solution"} <= kinds
    assert len(SEEDS) > 10


@pytest.mark.parametrize("name", READERS)
@SETTINGS
@given(text=random_text)
def test_random_text_parses_or_raises_our_error(name, text):
    _check(name, text)


@pytest.mark.parametrize("name", READERS)
@SETTINGS
@given(text=mutated())
def test_mutated_input_parses_or_raises_our_error(name, text):
    _check(name, text)


@pytest.mark.parametrize("name", [f.name for f in formats("puzzle") if f.reader is not None])
@settings(max_examples=40, deadline=None, database=None, derandomize=True)
@given(data=st.binary(max_size=200))
def test_random_bytes_in_a_file_parse_or_raise_our_error(name, data, tmp_path_factory):
    path: Path = tmp_path_factory.mktemp("fuzz") / "input.bin"
    path.write_bytes(data)
    try:
        read(path, name)
    except MineconvError as exc:
        assert str(exc).startswith(str(path))


@pytest.mark.parametrize("name,text", [
    ("dzn", "r = 1;\nc = 2;\ngame = array2d(1..r, 1..c, [-{gap}1, 0]);\n"),
    ("essence", "letting r be 1\nletting c be 2\nletting game be [[-{gap}1, 0]]\n"),
])
@pytest.mark.parametrize("gap", [" ", "\t", "\n", "\x0b", "\u2028", "\n\n"])
def test_a_sign_and_its_digits_may_stand_apart(name, text, gap):
    # found by the fuzz campaign: '-\n1' matched the integer pattern, then int() met the newline
    fmt = next(f for f in formats() if f.name == name)
    assert fmt.reader(text.format(gap=gap), "t").codes.tolist() == [[-1, 0]]
