"""Puzzle apps' level files (issue 20, family 5): <level id=..> elements with rows in a CDATA block.

No real file of this family was found; the cases are our own transcriptions of the layout the issue
describes (rows ended by a backquote or, in another version, a backslash; a space unknown, a digit a clue;
a help block is not a level).
"""
from __future__ import annotations

import warnings

import pytest

from helpers import SAMPLES
from mineconv import AmbiguousInputWarning, PuzzleSyntaxError, analyze, dumps, parse
from mineconv.formats.collection import CollectionWarning
from mineconv.formats.notations.level_xml import detect_level_xml, puzzles
from mineconv.formats.registry import LIKELY, NO, POSSIBLE

SAMPLE = SAMPLES / "app-levels.levels.xml"
BACKSLASH = ('<levels>\n<help><![CDATA[Tap a cell.\\\n]]></help>\n<level id="7"><![CDATA[\n1 \\\n 1\\\n]]></level>\n'
             '</levels>\n')


def test_the_sample_holds_two_levels_each_with_one_solution():
    found = puzzles(SAMPLE.read_text())
    assert [label for label, _ in found] == ["1", "2"]
    assert [p.grid_lines[0] for _, p in found] == ["??1???", "1??????"]
    for _, p in found:
        assert p.mines is None and analyze(p).solutions == 1


def test_backslash_rows_and_the_help_block_is_not_a_level():
    p = parse(BACKSLASH, "level-xml")
    assert p.grid_lines == ["1?", "?1"] and p.name == "7"
    assert parse(BACKSLASH) == p   # detected by content


def test_rows_may_follow_each_other_on_one_line():
    text = '<level id="a"><![CDATA[1 `  `]]></level>'
    assert parse(text, "level-xml").grid_lines == ["1?", "??"]


def test_the_first_level_is_read_with_a_warning_and_puzzle_picks_another():
    text = SAMPLE.read_text()
    with pytest.warns(CollectionWarning, match="2 levels"):
        first = parse(text, "level-xml")
    assert first.name == "1"
    assert parse(text, "level-xml", puzzle=2).name == "2"


@pytest.mark.parametrize("name", ["12", 'a "b" & <c>', None])
def test_round_trip(name):
    p = parse("??1?\n?3?0\n1???\n", "native").replace(name=name)
    text = dumps(p, "level-xml")
    assert parse(text, "level-xml") == p and text.count("`") == 3


def test_rows_indented_like_the_xml_are_read_literally_with_a_warning():
    text = '<levels>\n  <level id="1"><![CDATA[\n  1 `\n   1`\n  ]]></level>\n</levels>\n'
    with pytest.warns(AmbiguousInputWarning, match="starts with 2 spaces"):
        p = parse(text, "level-xml")
    assert p.grid_lines == ["??1?", "???1"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse('<levels>\n<level id="1"><![CDATA[\n  1`\n 1 `\n]]></level>\n</levels>\n', "level-xml")


LEVEL = '<level id="1"><![CDATA[\n1 `\n 1`\n]]></level>\n'


@pytest.mark.parametrize("text, where, msg", [
    (LEVEL.replace(" 1`", " 1\\"), (3, 3), "both ` and \\"),
    (LEVEL.replace(" 1`", "  1`"), (3, 3), "this row has 3 cells, the first row of the level has 2"),
    (LEVEL.replace(" 1`", " x`"), (3, 2), "'x' is not a level cell"),
    (LEVEL.replace(" 1`", " 9`"), (3, 2), "'9' is not a level cell"),
    (LEVEL.replace("1 `\n", "1 \n"), (2, 3), "without the mark"),
    (LEVEL.replace("\n]]>", "\n12]]>"), (4, 1), "text after the level's last row mark"),
    (LEVEL.replace("</level>", ""), (1, 1), "never closed"),
    (LEVEL.replace("<![CDATA[", "").replace("]]>", ""), (2, 1), "CDATA"),
    (LEVEL.replace("]]>", ""), (1, 24), "not closed with ]]>"),
    (LEVEL.replace("]]></level>", "]]><x/></level>"), (4, 4), "only the CDATA block"),
    ('<level id="1"><![CDATA[\n]]></level>\n', (1, 24), "an empty level"),
    ('<level id="1"><![CDATA[\n`\n]]></level>\n', (2, 1), "an empty row"),
    ('<level id="1"/>\n', (1, 1), "empty <level/>"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "level-xml", source="l.xml")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_a_count_its_neighbours_cannot_hold_is_located_at_the_cell():
    with pytest.raises(PuzzleSyntaxError) as err:
        parse('<level id="1"><![CDATA[\n8 `\n  `\n]]></level>\n', "level-xml", source="l.xml")
    assert (err.value.line, err.value.column) == (2, 1), str(err.value)


@pytest.mark.parametrize("text, score", [
    (LEVEL, LIKELY),
    (BACKSLASH, LIKELY),
    ('<level id="1"><![CDATA[\nabc\n]]></level>', POSSIBLE),
    ('<level id="1"><name>x</name></level>', NO),       # a game's level without a CDATA board
    ('<instance format="XCSP3"><variables/></instance>', NO),
])
def test_detection(text, score):
    assert detect_level_xml(text) == score
