"""Files that hold several puzzles: mineconv.read_all, `info`'s listing, --puzzle N and its warning."""
from __future__ import annotations

import json
import warnings

import pytest

import mineconv
from helpers import SAMPLES, run_cli
from mineconv.formats.collection import CollectionWarning

FIELDS = SAMPLES / "pc110102-fields.in"
CASES = SAMPLES / "exercism-minesweeper.exercism.json"


def test_read_all_yields_every_puzzle_in_order_with_its_label():
    puzzles = list(mineconv.read_all(FIELDS))
    assert [(p.name, p.rows, p.cols) for p in puzzles] == [("Field #1", 4, 4), ("Field #2", 3, 5)]
    for number, p in enumerate(puzzles, 1):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            # layout_as named: the one rule's default, stated, does not warn that the reading changed (issue 40.3)
            assert mineconv.read(FIELDS, puzzle=number, layout_as="full").grid_lines == p.grid_lines


def test_read_all_of_a_single_puzzle_file_is_that_puzzle():
    assert [p.grid_lines for p in mineconv.read_all(SAMPLES / "seed-3x3.txt")] == \
        [mineconv.read(SAMPLES / "seed-3x3.txt").grid_lines]


def test_exercism_cases_are_listed_by_description():
    labels = [p.name for p in mineconv.read_all(CASES)]
    assert labels == ["mine surrounded by spaces", "large minefield"]


def test_reading_a_collection_without_puzzle_warns_how_many():
    with pytest.warns(CollectionWarning, match="holds 2 fields"):
        mineconv.read(FIELDS)


def test_info_lists_the_puzzles_of_a_collection(capsys):
    status, out, err = run_cli(capsys, "info", FIELDS, "--layout-as", "full")
    assert status == 0 and "puzzles:     2 in the file; shown below: 1" in out and "Field #2" in out
    assert "warning" not in err
    status, out, _ = run_cli(capsys, "info", FIELDS, "--puzzle", "2")
    assert "shown below: 2" in out and "size:        3 x 5" in out
    status, out, _ = run_cli(capsys, "info", FIELDS, "--json", "--puzzle", "2")
    data = json.loads(out)
    assert (data["rows"], data["cols"]) == (3, 5)
    assert [p["label"] for p in data["puzzles"]] == ["Field #1", "Field #2"]
    status, out, _ = run_cli(capsys, "info", SAMPLES / "seed-3x3.txt", "--json")
    assert "puzzles" not in json.loads(out)
    status, _, err = run_cli(capsys, "info", FIELDS, "--puzzle", "3")
    assert status == 2 and "holds only 2" in err
