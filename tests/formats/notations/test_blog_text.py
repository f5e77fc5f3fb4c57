"""Blog-puzzle text (jolyonb/blog_puzzles): '.' unknown, '*' mine, '#' excluded, mine_count=N."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.formats.notations.blog_text import detect_blog_text
from mineconv.formats.registry import LIKELY, NO, WEAK
from tests.conftest import SAMPLES

SAMPLE = SAMPLES / "dusautoy-6x6.blog"


@pytest.mark.parametrize("text, rows, mines", [
    (".2.\n*#1\n", ["?2?", "*.1"], None),
    (".2.\n*#1\n\nmine_count=3\n", ["?2?", "*.1"], 3),
    (".2.\n*#1\n\n# a note\n\nmine_count = 3", ["?2?", "*.1"], 3),
    ("\n.2.\r\n*#1  \r\n", ["?2?", "*.1"], None),
    (".2.\n*#1\n\nmine_count=0\n", ["?2?", "*.1"], None),    # the blog's solver ignores 0
])
def test_layouts(text, rows, mines):
    p = parse(text, "blog-text")
    assert (p.grid_lines, p.mines) == (rows, mines)


def test_sample_notes_and_total():
    p = parse(SAMPLE.read_text(), "blog-text")
    assert p.mines == 8 and p.notes[1] == "Unique solution:" and p.grid_lines[2] == "?2002?"


@pytest.mark.parametrize("text, where, msg", [
    (".2.\n*?1\n", (2, 2), "not a grid cell"),
    (".2.\n*#\n", (2, 3), "rectangular"),
    (".2.\n\ncolour=red\n", (3, 1), "unknown setting"),
    (".2.\n\nmine_count=x\n", (3, 12), "whole number"),
    (".2.\n\nmine_count=1\nmine_count=1\n", (4, 1), "twice"),
    (".2.\n\nhello\n", (3, 1), "expected a '# comment'"),
    (".8.\n...\n", (1, 2), "only 5 neighbours"),
    ("..\n\nmine_count=5\n", (3, 1), "exceeds"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "blog-text", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    (".2.\n*#1\n", LIKELY), (".2.\n*.1\n\nmine_count=2\n", LIKELY), (".2.\n..1\n", WEAK),
    (".2.\n..1\n\n# note\n", WEAK), ("3\n3\n.2.\n..1\n", NO), ("?2?\n..1\n", NO),
])
def test_detect(text, score):
    assert detect_blog_text(text) == score


def test_cli_solve_gives_the_published_solution(capsys):
    assert main(["solve", str(SAMPLE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2],
                                                             [5, 3]]
