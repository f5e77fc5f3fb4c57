"""Round trips: write, read back, compare, for every puzzle notation and every pair of them."""
from __future__ import annotations

import itertools
import warnings

import pytest

from mineconv import (FormatError, LossyConversionError, LossyConversionWarning, Puzzle, dumps, parse)
from mineconv.formats.registry import format_names, get_format
from mineconv.formats.writing import losses

from helpers import placed_board, run_cli

NOTATIONS = format_names("puzzle", "write")


def test_every_notation_of_issue_2_is_registered():
    assert {"native", "dat", "json", "pred-json", "mine", "dots"} <= set(NOTATIONS)
    for name in NOTATIONS:
        assert get_format(name).reader is not None, name


PUZZLES = {
    "seed": Puzzle.from_rows(["1??", "12?", "01?"]),
    "dusautoy": Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"]),
    "one-cell": Puzzle.from_rows(["?"]),
    "one-row": Puzzle.from_rows(["1?1??0"]),
    "one-col": Puzzle.from_rows(["?", "2", "?"]),
    "with-total": Puzzle.from_rows(["1??", "12?", "01?"], mines=2),
    "marks-total-name-notes": Puzzle.from_rows(["1?*", "12.", "01?"], mines=3, name="my puzzle",
                                               notes=["first note", "", "third: with # and 'quotes'"]),
    "random-7x11": placed_board(1, 7, 11),
    "random-12x5-marked": placed_board(2, 12, 5, marks=True, mines=13),
    "random-40x40-marked": placed_board(3, 40, 40, marks=True, mines=300, name="r40"),
    "full-reveal": Puzzle.from_rows(["?21", "12?"], mines=2),  # all a layout notation (mbf) can hold
}


def expressible(p: Puzzle, fmt: str) -> bool:
    """Whether the notation can hold every part of the puzzle."""
    if losses(p, get_format(fmt)):
        return False
    try:
        dumps(p, fmt, strict=True)
    except FormatError:  # .mine needs a total mine count
        return False
    return True


def roundtrip(p: Puzzle, fmt: str) -> Puzzle:
    """Write p in fmt, read it back, check equality and that p itself is untouched."""
    before = (p.rows, p.cols, p.cells, p.mines, p.name, p.notes)
    text = dumps(p, fmt, strict=True)
    back = parse(text, fmt)
    assert back == p, f"{fmt}:\n{text}"
    assert (p.rows, p.cols, p.cells, p.mines, p.name, p.notes) == before
    assert dumps(back, fmt, strict=True) == text  # writing is deterministic
    return back


# only the pairs a notation can hold completely; what it cannot hold is covered by the lossy tests below
EXPRESSIBLE = [(fmt, key) for fmt in NOTATIONS for key in sorted(PUZZLES) if expressible(PUZZLES[key], fmt)]


@pytest.mark.parametrize("fmt,key", EXPRESSIBLE)
def test_roundtrip_each_notation(fmt, key):
    roundtrip(PUZZLES[key], fmt)


def test_each_notation_roundtrips_something():
    for fmt in NOTATIONS:
        assert any(expressible(p, fmt) for p in PUZZLES.values()), fmt
    # the full-featured notations hold everything, even the richest puzzle
    for fmt in ("native", "dat", "json"):
        assert expressible(PUZZLES["marks-total-name-notes"], fmt)


@pytest.mark.parametrize("key", ["seed", "with-total", "marks-total-name-notes", "random-12x5-marked"])
def test_roundtrip_across_every_pair(key):
    p = PUZZLES[key]
    for a, b in itertools.permutations(NOTATIONS, 2):
        if expressible(p, a) and expressible(p, b):
            via_a = parse(dumps(p, a, strict=True), a)
            assert parse(dumps(via_a, b, strict=True), b) == p, (a, b)


def test_counts_survive_every_notation_even_when_lossy():
    # dropping metadata or marks must never move or change a revealed count
    p = PUZZLES["random-40x40-marked"]
    shown = p.codes <= 8
    shown &= p.codes >= 0
    for fmt in NOTATIONS:
        if fmt == "mbf":  # a mine layout: refuses a puzzle that does not pin every mine (test_notation_mbf)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LossyConversionWarning)
            back = parse(dumps(p, fmt), fmt)
        assert (back.codes[shown] == p.codes[shown]).all(), fmt
        assert ((back.codes >= 0) & (back.codes <= 8) == shown).all(), fmt


LOSSY = [
    ("pred-json", "with-total", "total mine count"),
    ("pred-json", "marks-total-name-notes", "known mine"),
    ("dots", "marks-total-name-notes", "known safe"),
    ("dots", "with-total", "total mine count"),
    ("mine", "marks-total-name-notes", "known safe"),
    ("mine", "random-40x40-marked", "name"),
]


@pytest.mark.parametrize("fmt,key,what", LOSSY)
def test_lossy_conversion_warns_and_strict_refuses(fmt, key, what):
    p = PUZZLES[key]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dumps(p, fmt)
    said = [str(w.message) for w in caught if issubclass(w.category, LossyConversionWarning)]
    assert any(what in m for m in said), said
    with pytest.raises(LossyConversionError, match=f"{fmt} cannot express .*--strict"):
        dumps(p, fmt, strict=True)


def test_native_name_with_hash_is_lossy():
    p = Puzzle.from_rows(["?"], name="a # b")
    with pytest.raises(LossyConversionError):
        dumps(p, "native", strict=True)


def test_mine_refuses_without_total():
    with pytest.raises(FormatError, match="--mines"):
        dumps(PUZZLES["seed"], "mine")


@pytest.mark.parametrize("fmt,ext", [("pred-json", "pred.json"), ("dots", "txt"), ("mine", "mine")])
def test_cli_lossy_conversion(tmp_path, capsys, fmt, ext):
    src = tmp_path / "p.txt"
    src.write_text(dumps(PUZZLES["marks-total-name-notes"], "native"))
    out = tmp_path / f"out.{ext}"
    rc, _, err = run_cli(capsys, "convert", src, "-o", out, "--to", fmt, "--strict")
    assert rc == 2
    assert "cannot express" in err and "--strict" in err and "Traceback" not in err
    assert not out.exists() and sorted(f.name for f in tmp_path.iterdir()) == ["p.txt"]
    rc, _, err = run_cli(capsys, "convert", src, "-o", out, "--to", fmt)
    assert rc == 0 and "warning" in err and out.exists()
