"""SVG rendering: valid XML, one rectangle per cell with the right class and colour, a legend."""
from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from mineconv import Puzzle
from mineconv.analysis import analyze
from mineconv.cli import main
from mineconv.generate import random_puzzle
from mineconv.registry import read
from mineconv.render import COLOURS, DIGIT_COLOURS, heat_colour, render_svg

from conftest import SAMPLES

NS = {"s": "http://www.w3.org/2000/svg"}


def cells_of(svg: str):
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    cells = {}
    for rect in root.iter("{http://www.w3.org/2000/svg}rect"):
        cls = rect.get("class", "").split()
        if "cell" in cls:
            cells[(int(rect.get("data-r")), int(rect.get("data-c")))] = (cls[1], rect.get("fill"), rect)
    return root, cells


def test_heat_scale():
    assert heat_colour(0) == "#1a9850" and heat_colour(1) == "#d73027" and heat_colour(0.5) == "#fee08b"
    assert heat_colour(0.25) not in (heat_colour(0), heat_colour(0.5))
    assert heat_colour(-1) == heat_colour(0) and heat_colour(2) == heat_colour(1)


def test_plain_board_cells_and_numbers():
    p = Puzzle.from_rows(["1?*", "12.", "0??"], name="tiny & <odd>")
    root, cells = cells_of(render_svg(p))
    assert len(cells) == 9
    assert cells[(0, 1)][:2] == ("unknown", COLOURS["unknown"])
    assert cells[(0, 2)][:2] == ("known-mine", COLOURS["known-mine"])
    assert cells[(1, 2)][:2] == ("known-safe", COLOURS["known-safe"])
    assert cells[(1, 1)][:2] == ("count", COLOURS["count"])
    texts = {(t.text, t.get("fill")) for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert texts == {("1", DIGIT_COLOURS[1]), ("2", DIGIT_COLOURS[2])}  # no text on a 0
    assert root.find("s:title", NS).text == "tiny & <odd>"
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 1  # the known mine
    assert root.find(".//s:g[@class='legend']", NS) is None


def test_analysis_heat_map_and_legend():
    p = read(SAMPLES / "seed-3x3.txt")
    a = analyze(p)
    root, cells = cells_of(render_svg(p, a))
    assert cells[(0, 1)][:2] == ("mine", heat_colour(1.0))
    assert cells[(0, 2)][:2] == ("safe", heat_colour(0.0))
    assert cells[(1, 2)][:2] == ("unknown", heat_colour(0.5))
    assert cells[(1, 2)][2].get("data-p") == "0.5"
    legend = root.find(".//s:g[@class='legend']", NS)
    stops = [s.get("stop-color") for s in legend.iter("{http://www.w3.org/2000/svg}stop")]
    assert stops == [heat_colour(0), heat_colour(0.5), heat_colour(1)]
    summary = " ".join(t.text for t in legend.iter("{http://www.w3.org/2000/svg}text"))
    assert "solutions: 2" in summary and "mine probability" in summary
    # without the heat map: proven cells in their own colours, open ones plain
    _, plain = cells_of(render_svg(p, a, heat=False))
    assert plain[(0, 1)][1] == COLOURS["mine"] and plain[(0, 2)][1] == COLOURS["safe"]
    assert plain[(1, 2)][1] == COLOURS["unknown"]


def test_level_shows_only_its_decisions():
    p = Puzzle.from_rows(["???", "121", "..."])
    _, gac = cells_of(render_svg(p, analyze(p, level="gac"), heat=False))
    assert [gac[(0, c)][0] for c in range(3)] == ["unknown"] * 3  # no count alone decides a cell
    _, full = cells_of(render_svg(p, analyze(p), heat=False))
    assert full[(0, 0)][0] == "mine" and full[(0, 1)][0] == "safe"


def test_infeasible_board_renders_with_a_note():
    p = Puzzle.from_rows(["3?", ".?"])
    root, cells = cells_of(render_svg(p, analyze(p)))
    assert cells[(0, 1)][:2] == ("unknown", COLOURS["unknown"])
    summary = " ".join(t.text for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "no solution" in summary


def test_cli_render(tmp_path, capsys):
    out = tmp_path / "splitter.svg"
    assert main(["render", str(SAMPLES / "kaye-splitter.txt"), "-o", str(out), "--analysis"]) == 0
    _, cells = cells_of(out.read_text())
    assert len(cells) == 121
    broken = tmp_path / "broken.txt"
    broken.write_text("1?\n?x\n")
    target = tmp_path / "b.svg"
    assert main(["render", str(broken), "-o", str(target)]) == 2
    assert not target.exists()
    assert "broken.txt:2:2:" in capsys.readouterr().err
    with pytest.raises(ValueError):
        render_svg(Puzzle.from_rows(["?"]), cell=1)
    # a board without a solution is still drawn, and the exit status says so
    bad = tmp_path / "bad.txt"
    bad.write_text("3?\n.?\n")
    drawn = tmp_path / "bad.svg"
    assert main(["render", str(bad), "-o", str(drawn), "--analysis"]) == 1
    assert "no solution" in drawn.read_text()


def test_large_board_is_quick():
    p = random_puzzle(200, 200, density=0.15, reveal="game", seed=4)
    t = time.perf_counter()
    svg = render_svg(p, cell=6)
    assert time.perf_counter() - t < 5
    _, cells = cells_of(svg)
    assert len(cells) == 200 * 200
