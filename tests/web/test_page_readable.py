"""The page is readable (issue 38, points 7, 8, 12, 13), in Chromium through the page's contract.

Certain cells are off the probability scale and look as a decided cell does; the scale tells 45% from
55%; long counts are shortened (every digit on a click); exports say their size first and keep the
puzzle's name; pictures carry the overlay when it is on.
"""
from __future__ import annotations

import re

import web_helpers
from web_helpers import SAMPLES, cells, message, open_page, output, paste, press, shot

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py


def rgb(text: str):
    return tuple(int(v) for v in re.findall(r"\d+", text)[:3])


def background(page, selector: str):
    return rgb(page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor"))


def test_certain_cells_are_off_the_scale_and_look_as_decided_cells_do(browser, server):
    page = open_page(browser, server)
    paste(page, (SAMPLES / "kaye-config3.hakank.txt").read_text())
    press(page, "probabilities", "probabilities")
    shown = cells(page)
    sure = {k: v for k, v in shown.items() if v["p"] in ("0", "1")}
    assert {"0", "1"} <= {v["p"] for v in sure.values()}, "Kaye's config3 has certain safe cells and mines"
    assert any(v["p"] not in (None, "0", "1") for v in shown.values())
    for (r, c), v in shown.items():
        if v["p"] is None:
            continue
        sel = f'[data-row="{r}"][data-col="{c}"]'
        text = page.text_content(sel)
        if v["p"] in ("0", "1"):
            assert page.get_attribute(sel, "data-sure") == ("safe" if v["p"] == "0" else "mine")
            assert text == ("✓" if v["p"] == "0" else "✹")
        else:                                         # every uncertain cell shows its percentage
            assert page.get_attribute(sel, "data-sure") is None
            assert re.fullmatch(r"(<1|>99|\d{1,2})%?", text), text
            assert text.rstrip("%").lstrip("<>") in (str(round(float(v["p"]) * 100)), "1", "99")
    scale = [rgb(page.evaluate(f"scaleColour({i / 100})")) for i in range(1, 100)]
    safe_sel = next(f'[data-row="{r}"][data-col="{c}"]' for (r, c), v in sure.items() if v["p"] == "0")
    mine_sel = next(f'[data-row="{r}"][data-col="{c}"]' for (r, c), v in sure.items() if v["p"] == "1")
    safe_bg, mine_bg = background(page, safe_sel), background(page, mine_sel)
    assert safe_bg not in scale and mine_bg not in scale
    assert min(sum(abs(a - b) for a, b in zip(safe_bg, s)) for s in scale) > 60   # far from every scale colour
    shot(page, "readable-overlay")
    # the same marks without the overlay: the full level decides those cells, and they look the same
    page.click('[data-action="probabilities"]')     # off
    assert not page.query_selector("[data-p]")
    press(page, "full", "FULL")
    page.wait_for_timeout(1400)                       # the newly decided cells' flash is over
    assert background(page, mine_sel) == mine_bg and page.text_content(mine_sel) == "✹"
    assert background(page, safe_sel) == safe_bg and page.text_content(safe_sel) == "✓"
    # 45% and 55% differ in hue (blue below one half, orange above), not only in lightness
    low, high = rgb(page.evaluate("scaleColour(0.45)")), rgb(page.evaluate("scaleColour(0.55)"))
    assert low[2] > low[0] and high[0] > high[2]
    page.close()


def test_a_long_count_is_shortened_and_the_page_keeps_its_width(browser, server):
    page = open_page(browser, server)
    paste(page, "\n".join(["?" * 60] * 60) + "\n")      # 2^3600 solutions: 1084 digits
    press(page, "probabilities", "probabilities")
    whole = str(2 ** 3600)
    count = '[data-output="solutions"]'
    assert page.get_attribute(count, "data-value") == whole
    assert output(page, "solutions") == f"{whole[:12]}…{whole[-6:]} (1084 digits)"
    assert whole not in message(page) and "(1084 digits)" in message(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.click(count)                                  # every digit on demand, wrapped in the page
    assert output(page, "solutions") == whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(page, "readable-long-count")
    page.click(count)
    assert output(page, "solutions").endswith("(1084 digits)")
    page.close()


def test_exports_say_their_size_first_and_keep_the_name(browser, server, tmp_path):
    page = open_page(browser, server)
    paste(page, (SAMPLES / "kaye-splitter.txt").read_text())
    page.select_option('[data-input="format"]', "native")
    with page.expect_download() as caught:
        page.click('[data-action="export"]')
    path = tmp_path / caught.value.suggested_filename
    caught.value.save_as(str(path))
    assert path.name == "Kaye_splitter.txt" and path.read_text().startswith("name: Kaye splitter\n")
    assert output(page, "export-size") == f"Kaye_splitter.txt: {path.stat().st_size} bytes"
    assert page.get_attribute('[data-output="export-size"]', "data-value") == str(path.stat().st_size)
    # one larger than the page passes through a tab: its size is said, the command line named, nothing fetched
    page.evaluate("EXPORT_LIMIT = 1000")
    page.select_option('[data-input="format"]', "cnf")
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    page.click('[data-action="export"]')
    page.wait_for_selector('[data-output="message"].error')
    assert output(page, "export-size") == "Kaye_splitter.cnf: 3.3 KB"
    assert "mineconv convert board.txt --to cnf -o Kaye_splitter.cnf" in message(page)
    page.wait_for_timeout(500)
    assert downloads == []
    page.close()


def svg_download(page, tmp_path, name: str) -> str:
    with page.expect_download() as caught:
        page.click('[data-action="svg"]')
    assert caught.value.suggested_filename == name
    path = tmp_path / name
    caught.value.save_as(str(path))
    return path.read_text()


def test_pictures_carry_the_overlay_when_it_is_on(browser, server, tmp_path):
    page = open_page(browser, server)
    paste(page, (SAMPLES / "kaye-splitter.txt").read_text())
    plain = svg_download(page, tmp_path, "Kaye_splitter.svg")
    assert "Kaye splitter" in plain and "mine probability" not in plain
    press(page, "probabilities", "probabilities")
    drawn = svg_download(page, tmp_path, "Kaye_splitter.svg")
    assert "mine probability" in drawn and ">50</text>" in drawn and "solutions: 131072" in drawn
    with page.expect_download() as caught:
        page.click('[data-action="png"]')
    assert caught.value.suggested_filename == "Kaye_splitter.png"
    png = tmp_path / "k.png"
    caught.value.save_as(str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.close()
