"""Pictures: valid SVG with one rectangle per cell of the right class and colour, symbols for what the
analysis proves, a legend, coordinates and tooltips; PNG and PDF by extension, checked pixel by pixel."""
from __future__ import annotations

import sys
import time
import xml.etree.ElementTree as ET

import pytest

from mineconv import Puzzle
from mineconv.analysis import analyze
from mineconv.cli import main
from mineconv.make.generate import random_puzzle
from mineconv.formats.reading import read
from mineconv.present.picture import COLOURS, DIGIT_COLOURS, heat_colour, render_svg, title_width

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


def luminance(colour: str) -> float:
    r, g, b = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_heat_scale_is_sequential_and_never_looks_safe():
    # ColorBrewer YlOrRd: pale yellow at 0, dark red at 1, darker at every step (readable in grey too)
    assert heat_colour(0) == "#ffffcc" and heat_colour(1) == "#800026" and heat_colour(0.5) == "#fd8d3c"
    steps = [luminance(heat_colour(i / 20)) for i in range(21)]
    assert all(a > b for a, b in zip(steps, steps[1:]))
    assert heat_colour(-1) == heat_colour(0) and heat_colour(2) == heat_colour(1)
    # a 19% chance is not white (proven safe) and not the grey of a certain mine
    assert heat_colour(0.19) not in (COLOURS["safe"], COLOURS["mine"])


def test_plain_board_cells_and_numbers():
    p = Puzzle.from_rows(["1?*", "12.", "0??"], name="tiny & <odd>")
    root, cells = cells_of(render_svg(p))
    assert len(cells) == 9
    assert cells[(0, 1)][:2] == ("unknown", COLOURS["unknown"])
    assert cells[(0, 2)][:2] == ("known-mine", COLOURS["known-mine"])
    assert cells[(1, 2)][:2] == ("known-safe", COLOURS["known-safe"])
    assert cells[(1, 1)][:2] == ("count", COLOURS["count"])
    digits = {(t.text, t.get("fill")) for t in root.iter("{http://www.w3.org/2000/svg}text")
              if t.get("class") is None and t.get("fill") in DIGIT_COLOURS}
    assert digits == {("1", DIGIT_COLOURS[1]), ("2", DIGIT_COLOURS[2])}  # no text on a 0
    assert root.find("s:title", NS).text == "tiny & <odd>"
    assert root.find("s:text[@class='caption']", NS).text == "tiny & <odd>"  # the title is visible too
    assert len(root.findall(".//s:g[@class='mine-glyph']", NS)) == 1  # the known mine
    assert root.find(".//s:g[@class='legend']", NS) is None
    labels = [t.text for t in root.find("s:g[@class='coordinates']", NS)]
    assert labels == ["0", "1", "2", "0", "1", "2"]  # columns, then rows, 0-based as in the JSON outputs
    assert cells[(0, 1)][2].find("s:title", NS).text == "row 0, col 1: unknown"


def test_analysis_heat_map_and_legend():
    p = read(SAMPLES / "seed-3x3.txt")
    a = analyze(p)
    root, cells = cells_of(render_svg(p, a, percent=True))
    # what the analysis proves is a symbol on its own colour, never a shade of the scale
    assert cells[(0, 1)][:2] == ("mine", COLOURS["mine"])
    assert cells[(0, 2)][:2] == ("safe", COLOURS["safe"])
    assert len(root.findall(".//s:path[@class='safe-glyph']", NS)) == 2  # the cell and the legend key
    assert cells[(1, 2)][:2] == ("unknown", heat_colour(0.5))
    assert cells[(1, 2)][2].get("data-p") == "0.5"
    assert cells[(1, 2)][2].find("s:title", NS).text == "row 1, col 2: unknown: mine probability 50.0%"
    assert [t.text for t in root.findall(".//s:text[@class='percent']", NS)] == ["50", "50"]
    legend = root.find(".//s:g[@class='legend']", NS)
    stops = [s.get("stop-color") for s in legend.iter("{http://www.w3.org/2000/svg}stop")]
    assert stops == [heat_colour(i / 8) for i in range(9)]
    summary = " ".join(t.text for t in legend.iter("{http://www.w3.org/2000/svg}text"))
    assert "solutions: 2" in summary and "mine probability" in summary
    assert "proven safe" in summary and "certain mine" in summary and "1 certain mine" in summary
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
    for bad_cell in ("0", "1", "-24", "x"):  # refused by the option itself: exit 2, no traceback
        with pytest.raises(SystemExit) as exc:
            main(["render", str(SAMPLES / "seed-3x3.txt"), "-o", str(tmp_path / "c.svg"), "--cell", bad_cell])
        assert exc.value.code == 2
    assert main(["render", str(SAMPLES / "seed-3x3.txt"), "-o", str(tmp_path / "x.gif")]) == 2
    assert "not '.gif'" in capsys.readouterr().err and not (tmp_path / "x.gif").exists()
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


# --- pictures as pictures ----------------------------------------------------------------------------
def _png(tmp_path, puzzle_path, *extra):
    pytest.importorskip("cairosvg", reason="PNG output needs CairoSVG (pip install -e .[test])")
    Image = pytest.importorskip("PIL.Image", reason="pixel checks need Pillow (pip install -e .[test])")
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    assert main(["render", str(puzzle_path), "-o", str(png), *extra]) == 0
    assert main(["render", str(puzzle_path), "-o", str(svg), *extra]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(png).convert("RGB"), cells_of(svg.read_text())


def _rgb(colour: str):
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def _near(a, b, tol=6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def _pixel(img, rect, dx, dy):
    """The pixel at a fraction (dx, dy) inside a cell's rectangle."""
    x, y, w = float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))
    return img.getpixel((int(x + dx * w), int(y + dy * w)))


def test_png_pixels_show_what_the_analysis_proves(tmp_path):
    img, (root, cells) = _png(tmp_path, SAMPLES / "expert-16x30.txt", "--analysis")
    count = next(rect for kind, _, rect in cells.values() if kind == "count")
    assert _near(_pixel(img, count, 0.15, 0.15), _rgb(COLOURS["count"]))
    mine = next(rect for kind, _, rect in cells.values() if kind == "mine")
    assert _near(_pixel(img, mine, 0.12, 0.88), _rgb(COLOURS["mine"]))     # grey corner
    assert _near(_pixel(img, mine, 0.5, 0.5), _rgb("#212121"))             # the glyph's disc
    safe = next(rect for kind, _, rect in cells.values() if kind == "safe")
    assert _near(_pixel(img, safe, 0.12, 0.12), (255, 255, 255))           # white, not a shade of the scale
    # an open cell of low probability (the expert board's ~19% cells) in its scale colour, far from white
    low = next(rect for kind, _, rect in cells.values()
               if kind == "unknown" and 0.1 < float(rect.get("data-p")) < 0.3)
    want = _rgb(heat_colour(float(low.get("data-p"))))
    got = _pixel(img, low, 0.2, 0.2)
    assert _near(got, want) and sum(255 - v for v in got) > 60
    # the legend is drawn: its scale bar runs from pale yellow to dark red
    bar = root.find(".//s:rect[@class='legend-scale']", NS)
    x, y, w = float(bar.get("x")), float(bar.get("y")), float(bar.get("width"))
    assert _near(img.getpixel((int(x + 3), int(y + 6))), _rgb(heat_colour(0)), tol=12)
    assert _near(img.getpixel((int(x + w - 3), int(y + 6))), _rgb(heat_colour(1)), tol=12)


def test_pdf_by_extension(tmp_path):
    pytest.importorskip("cairosvg", reason="PDF output needs CairoSVG (pip install -e .[test])")
    out = tmp_path / "board.pdf"
    assert main(["render", str(SAMPLES / "seed-3x3.txt"), "-o", str(out), "--analysis"]) == 0
    assert out.read_bytes().startswith(b"%PDF-")


class _CairoMissing:
    """An import hook that makes `import cairosvg` fail as it does without libcairo (an OSError)."""

    def find_spec(self, name, path=None, target=None):
        if name == "cairosvg":
            raise OSError("no library called \"cairo-2\" was found")
        return None


@pytest.mark.parametrize("broken, says, not_says", [
    ("package", "pip install 'mineconv[pictures]'", "libcairo2"),
    ("library", "apt-get install libcairo2", "pip install"),
])
def test_png_without_cairo_names_the_command_to_run(tmp_path, capsys, monkeypatch, broken, says, not_says):
    # a new user's `render -o x.png` must say exactly what to install, exit 2, and print no traceback
    monkeypatch.delitem(sys.modules, "cairosvg", raising=False)
    if broken == "package":
        monkeypatch.setitem(sys.modules, "cairosvg", None)  # import raises ImportError
    else:
        monkeypatch.setattr(sys, "meta_path", [_CairoMissing(), *sys.meta_path])
    out = tmp_path / "x.png"
    assert main(["render", str(SAMPLES / "seed-3x3.txt"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert says in err and not_says not in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("rows, cols, title", [(1, 1, None), (3, 3, None), (3, 30, None), (30, 3, None),
                                               (9, 9, "a long caption that no 9 x 9 grid is wide enough for")])
def test_the_picture_is_wide_enough_for_its_title(rows, cols, title):
    # a new user's 3 x 3 picture showed "Minesweepe": the caption was cut at the grid's width
    svg = render_svg(Puzzle.from_rows(["?" * cols] * rows), title=title)
    root = ET.fromstring(svg.encode("utf-8"))
    caption = root.find("s:text[@class='caption']", NS)
    margin = float(caption.get("x"))
    assert float(root.get("width")) >= margin + title_width(caption.text) + margin


def test_a_title_that_fits_leaves_the_width_to_the_grid():
    # boards whose caption already fitted keep their pictures byte for byte: the grid alone sets the width
    svg = render_svg(Puzzle.from_rows(["?" * 9] * 9))
    assert 'width="245" height="' in svg
