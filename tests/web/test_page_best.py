"""The page's best-move button (issue 37 point 3, issue 38 point 10), in Chromium through the page's contract.

The button runs the engine of `mineconv advise` on the board shown: the advised cell is marked
(`data-advised`), nothing is opened, and the message gives the move, its chance of a mine and the reason.
What the page marks is held against `mineconv advise --json` on the same board.
"""
from __future__ import annotations

import re

import web_helpers
from web_helpers import attr, cells, cli_json, message, open_page, paste, shot, wait_message

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py

# a guess is forced: the 1 at the top left has two closed neighbours, one of them a mine
GUESS = "mines: 1\n1?\n??\n"


def advised(page):
    """The cells the page marks as the engine's move."""
    return [rc for rc in cells(page) if attr(page, *rc, "data-advised") == "true"]


def test_best_move_marks_the_engines_proven_safe_cell(browser, server, tmp_path):
    page = open_page(browser, server)
    text = (web_helpers.SAMPLES / "seed-3x3.txt").read_text()
    paste(page, text)
    before = {rc: v["state"] for rc, v in cells(page).items()}
    page.click('[data-action="best"]')
    said = wait_message(page, "best move")
    expected = cli_json("advise", str(web_helpers.SAMPLES / "seed-3x3.txt"), "--json")
    assert advised(page) == [tuple(expected["move"])]
    assert f"({expected['move'][0]}, {expected['move'][1]}), safe" in said
    assert {rc: v["state"] for rc, v in cells(page).items()} == before   # marked, not opened
    shot(page, "best-move-safe")
    page.close()


def test_best_move_on_a_forced_guess_says_its_chance(browser, server, tmp_path):
    board = tmp_path / "guess.txt"
    board.write_text(GUESS)
    expected = cli_json("advise", str(board), "--json")
    assert expected["p_mine"] > 0
    page = open_page(browser, server)
    paste(page, GUESS)
    page.click('[data-action="best"]')
    said = wait_message(page, "best move")
    assert advised(page) == [tuple(expected["move"])]
    assert re.search(r"\d+\.\d% chance of a mine", said)
    assert f"{expected['p_mine'] * 100:.1f}%" in said
    shot(page, "best-move-guess")
    # any change of the board takes the mark away: it was computed for the board that was shown
    page.click(f'[data-row="{expected["move"][0]}"][data-col="{expected["move"][1]}"]', button="right")
    assert advised(page) == []
    page.close()


def test_best_move_on_a_board_with_no_solution_names_the_count(browser, server):
    page = open_page(browser, server)
    paste(page, "mines: 1\n0*?\n???\n???\n")
    page.click('[data-action="best"]')
    said = wait_message(page, "no solution")
    assert "the 0 at (0, 0)" in said
    assert advised(page) == []
    assert "no solution" in message(page)
    page.close()
