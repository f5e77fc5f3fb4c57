"""Essence' parameter files: both dialects as they come, the writer's bytes, errors with their location, the CLI."""
from __future__ import annotations

import pytest

from helpers import SAMPLES, run_cli
from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse, read
from mineconv.make.generate import random_puzzle
from mineconv.formats.detection import rank_formats


def validate(text: str, rows: list, **expect) -> Puzzle:
    """Read text as Essence' parameters and check the grid (and any other attribute given)."""
    p = parse(text, "essence")
    assert p.grid_lines == rows
    for key, value in expect.items():
        assert getattr(p, key) == value, key
    return p


def test_one_liners():
    validate("language ESSENCE' 1.0\nletting r be 1\nletting c be 2\nletting game be [[1,-1]]", ["1?"])
    validate("ESSENCE' 1.0\nparam r be 1\nparam c be 2\nparam game be [[1,-1]]", ["1?"])          # Tailor
    validate("letting game be [[1,-1],[-1,1],]", ["1?", "?1"])                                    # no header
    validate("letting X be -1\nletting game be [[1,X; int(1..2)],[X,1]; int(1..2)]", ["1?", "?1"])
    validate("letting game be [[0,0]]\nletting mine_count be 0\nletting D be domain int(0..1)", ["00"], mines=0)
    validate("language ESSENCE' 1.0\nletting board be [ [ 1 , -1 ] ]", ["1?"])


def test_dollar_comments_are_the_notes():
    p = validate("language ESSENCE' 1.0\n$ name: w\n$ Kaye\nletting game be [[1,-1]] $ not a note\n", ["1?"])
    assert (p.name, p.notes) == ("w", ("Kaye",))


def test_hakank_samples_as_they_come():
    wire = read(SAMPLES / "kaye-wire.hakank.param")
    assert wire == read(SAMPLES / "kaye-wire.dots").replace(notes=wire.notes)
    g9 = read(SAMPLES / "gecode-9.tailor.param")
    assert g9.grid_lines[0] == "2???2???2" and g9.notes[0].startswith("Problem from Gecode")


def test_writer_bytes():
    p = Puzzle.from_rows(["1?", "?2"], name="n", notes=["x"])
    assert dumps(p, "essence") == ("language ESSENCE' 1.0\n$ name: n\n$ x\nletting r be 2\nletting c be 2\n"
                                   "$ mineconv 0.1.0: -1 = unknown cell, 0..8 = the count shown\n"
                                   "letting game be [\n    [1,-1],\n    [-1,2]\n]\n")


@pytest.mark.parametrize("seed", range(12))
def test_round_trip(seed):
    p = random_puzzle(5, 4, mines=5, reveal="game", seed=seed, with_total=False).replace(name="a", notes=("", "y"))
    # a game state has only counts and unknown cells, which the notation expresses whole
    assert not p.stats["known_safe"] and not p.stats["known_mines"]
    assert parse(dumps(p, "essence"), "essence") == p


@pytest.mark.parametrize("text, line, col, words", [
    ("letting r be 2\nletting c be 2\nletting game be [[1,-1],[2]]", 3, 26, "row 2 of game has 1 entry"),
    ("param game be [[1,-1],[2,X]]", 1, 26, "letting X be -1"),
    ("letting game be [[1,-1],\n[2,9]]", 2, 4, "game[2,2] = 9"),
    ("letting game be [[1,-1] [2,1]]", 1, 25, "unexpected"),
    ("letting r be 3\nletting game be [[1,-1],[1,-1]]", 1, 9, "r is 3 but game has 2 rows"),
    ("letting r be 3", 1, 15, "no grid found"),
    ("letting game be 5", 1, 9, "must be a matrix"),
])
def test_errors_name_line_and_column(text, line, col, words):
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(text, "essence")
    err = info.value
    assert (err.line, err.column) == (line, col) and words in err.message, str(err)


def test_detection_is_by_content():
    assert rank_formats("language ESSENCE' 1.0\nletting game be [[1,-1]]\n")[0][1].name == "essence"
    assert rank_formats("$ c\nESSENCE' 1.0\nparam game be [[1,-1]]\n")[0][0] == 0.75
    assert rank_formats("letting game be [[1,-1]]\n")[0][0] == 0.5


def test_cli_info_and_solve(capsys, tmp_path):
    rc, out, _ = run_cli(capsys, "info", SAMPLES / "gecode-9.tailor.param")
    assert rc == 0 and "essence" in out and "9 x 9" in out
    rc, out, _ = run_cli(capsys, "solve", SAMPLES / "kaye-wire.hakank.param", "--all", "--json")
    assert rc == 0 and '"count": 2' in out           # Kaye: the wire has two solutions
    bad = tmp_path / "bad.param"
    bad.write_text("language ESSENCE' 1.0\nletting game be [[1,-1],[2]]\n")
    rc, _, err = run_cli(capsys, "info", bad)
    assert rc == 2 and f"{bad}:2:26:" in err and "Traceback" not in err
