"""A real game on the page (issue 38, points 9 and 10's hint), in Chromium through the page's contract.

The layout is read from the page's state only to know where to click, as a player who could see the
mines would; everything asserted is what the page shows.
"""
from __future__ import annotations

import time

import web_helpers
from web_helpers import attr, cells, click, layout, message, open_page, output, press, shot, start_game, wait_message

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py


def around(r, c, rows, cols):
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def test_timer_and_mines_left(browser, server):
    page = open_page(browser, server)
    start_game(page, 9, 9, 10)
    wait_message(page, "game 9 x 9")
    assert output(page, "mines-left") == "10"
    assert page.get_attribute('[data-output="timer"]', "data-running") == "true"
    time.sleep(1.3)
    assert int(page.get_attribute('[data-output="timer"]', "data-value")) >= 1
    grid, mines = cells(page), layout(page)
    closed = [(r, c) for (r, c), v in grid.items() if v["state"] == "unknown"]
    click(page, *closed[0], button="right")
    assert output(page, "mines-left") == "9"
    click(page, *closed[0], button="right")
    assert output(page, "mines-left") == "10"
    mine = next((r, c) for r in range(9) for c in range(9) if mines[r][c] == "*")
    click(page, *mine)                               # lost: the clock stops
    assert page.get_attribute('[data-output="timer"]', "data-running") == "false"
    assert output(page, "mines-left") == "10"        # the mines a loss reveals are not the player's flags
    stopped = page.get_attribute('[data-output="timer"]', "data-value")
    time.sleep(1.1)
    assert page.get_attribute('[data-output="timer"]', "data-value") == stopped
    page.close()


def chordable(page):
    """An open number whose mines are not all flagged yet and which has a closed safe neighbour."""
    grid, mines = cells(page), layout(page)
    for (r, c), v in sorted(grid.items()):
        if v["state"] != "number" or page.text_content(f'[data-row="{r}"][data-col="{c}"]') in ("", "0"):
            continue
        near = around(r, c, 9, 9)
        if any(grid[x]["state"] == "unknown" and mines[x[0]][x[1]] == "." for x in near):
            return (r, c), [x for x in near if mines[x[0]][x[1]] == "*"], [x for x in near if mines[x[0]][x[1]] == "."]
    return None


def chordable_game(page):
    """A new 9x9 game whose opening leaves a number to chord on: chordable()'s number, mines, safe cells."""
    for _ in range(30):
        start_game(page, 9, 9, 10)
        wait_message(page, "game 9 x 9")
        found = chordable(page)
        if found is not None:
            return found
    raise AssertionError("30 games without a number to chord on")


def test_chording_opens_the_neighbours_of_a_satisfied_number(browser, server):
    page = open_page(browser, server)
    for button in ("left", "middle"):
        (r, c), its_mines, its_safe = chordable_game(page)
        closed = [x for x in its_safe if cells(page)[x]["state"] == "unknown"]
        click(page, r, c, button=button)             # not satisfied yet: nothing opens
        assert closed and all(cells(page)[x]["state"] == "unknown" for x in closed)
        for x in its_mines:
            click(page, *x, button="right")
        click(page, r, c, button=button)
        grid = cells(page)
        assert all(grid[x]["state"] == "number" for x in its_safe), button
        assert all(grid[x]["state"] == "flag" for x in its_mines)
    shot(page, "game-chord")
    page.close()


def test_a_wrong_flag_on_a_chord_loses_and_marks_the_hit_mine_apart(browser, server):
    page = open_page(browser, server)
    (r, c), its_mines, its_safe = chordable_game(page)
    wrong = next(x for x in its_safe if cells(page)[x]["state"] == "unknown")   # chordable() found one
    n = len(its_mines)
    flags = [wrong] + its_mines[:n - 1]              # n flags, one of them wrong: the chord opens a mine
    for x in flags:
        click(page, *x, button="right")
    assert cells(page)[wrong]["state"] == "flag"
    click(page, r, c)
    hit = its_mines[-1]
    assert attr(page, *hit, "data-hit") == "true"
    assert attr(page, *wrong, "data-wrong-flag") == "true" and page.text_content(
        f'[data-row="{wrong[0]}"][data-col="{wrong[1]}"]') == "✗"
    others = [(i, j) for i in range(9) for j in range(9) if layout(page)[i][j] == "*" and (i, j) != hit]
    assert all(attr(page, *x, "data-hit") is None for x in others)
    assert all(cells(page)[x]["state"] in ("mine", "flag") for x in others)
    assert "Undo takes the losing click back" in message(page)
    shot(page, "game-lost")
    page.click('[data-action="undo"]')
    assert message(page).startswith(f"undone: the losing click at ({hit[0]}, {hit[1]}) is taken back")
    assert attr(page, *hit, "data-hit") is None and cells(page)[hit]["state"] == "unknown"
    assert attr(page, *wrong, "data-wrong-flag") is None and cells(page)[wrong]["state"] == "flag"
    page.close()


def test_the_first_cell_chosen_by_the_player_under_each_rule(browser, server):
    page = open_page(browser, server)
    for rule, r, c in (("snr", 2, 7), ("sfar", 6, 1)):
        start_game(page, 9, 9, 30, rule=rule, choose=True)
        wait_message(page, f"game 9 x 9 with 30 mines (first click: {rule}); click the cell")
        assert all(v["state"] == "unknown" for v in cells(page).values())
        assert layout(page) is None                  # no mines are laid before the click
        click(page, r, c)
        wait_message(page, f"the first click at ({r}, {c}) is opened ({rule})")
        mines = layout(page)
        assert mines[r][c] == "." and cells(page)[(r, c)]["state"] == "number"
        if rule == "snr":                            # a zero opening: the click's block is free
            assert all(mines[i][j] == "." for i, j in around(r, c, 9, 9))
            assert page.text_content(f'[data-row="{r}"][data-col="{c}"]') == "0"
        assert sum(row.count("*") for row in mines) == 30
    page.close()


def test_a_hint_marks_a_proven_safe_cell_without_opening_it(browser, server):
    page = open_page(browser, server)
    start_game(page, 9, 9, 10, noguess=True)         # a no-guess game always has a proven-safe cell
    wait_message(page, "no-guess game")
    before = cells(page)
    text = press(page, "hint", "hint")
    at = page.eval_on_selector_all('[data-hint="true"]', "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    assert len(at) == 1
    r, c = at[0]
    assert text.startswith(f"hint: ({r}, {c}) is safe")
    assert layout(page)[r][c] == "." and cells(page) == before   # nothing opened, nothing decided
    shot(page, "game-hint")
    # a 1 x 3 game with one mine: the first click (the middle) shows a 1 between two closed cells
    start_game(page, 1, 3, 1, rule="sfar")
    wait_message(page, "game 1 x 3")
    assert press(page, "hint", "hint") == "hint: no closed cell is proven safe; every opening now is a guess"
    assert not page.query_selector('[data-hint="true"]')
    page.close()
