"""The page never shows what is not true (issue 38, points 1-5), checked in Chromium through its contract.

A count that no longer fits the board is cleared; a step, a level or the overlay on a board with no
solution says so in `explain`'s words; a new game that leaves the first click no room is refused; a step
found by a lower level says so; a paste or an edit that cannot be read is named by its line and column or
its cell, in the page's words.
"""
from __future__ import annotations

import pytest

import web_helpers
from web_helpers import (attr, board, cells, click, message, open_page, output, paste, press, run_cli, shot,
                         start_game, wait_message)

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py

CONTRADICTION = "mines: 1\n0*?\n???\n???\n"


def cli_conflict(tmp_path, text: str, level: str = "gac") -> str:
    """The last line `mineconv explain --level LEVEL` prints on a board: its 'no solution: ...'."""
    path = tmp_path / "board.txt"
    path.write_text(text)
    status, out, _ = run_cli("explain", str(path), "--level", level)
    assert status == 1
    return out.strip().splitlines()[-1]


def test_the_count_is_cleared_by_every_change_of_the_board(browser, server):
    page = open_page(browser, server)
    paste(page, "mines: 1\n???\n?1?\n???\n")
    page.click('[data-action="full"]')
    wait_message(page, "FULL")
    assert page.get_attribute('[data-output="solutions"]', "data-value") == "8"
    page.click('[data-action="undo"]')           # undo: the count was of the board with the level's marks
    assert output(page, "solutions") == "–" and page.get_attribute('[data-output="solutions"]', "data-value") is None
    page.click('[data-action="probabilities"]')
    wait_message(page, "probabilities")
    assert page.get_attribute('[data-output="solutions"]', "data-value") == "8"
    click(page, 1, 1)                            # an edit (1 -> 2): the old count and overlay go
    assert output(page, "solutions") == "–" and not page.query_selector("[data-p]")
    page.click('[data-action="full"]')
    wait_message(page, "no solution", 30000)
    assert page.get_attribute('[data-output="solutions"]', "data-value") == "0"
    # in a game, an opened cell clears it too
    start_game(page, 9, 9, 10)
    page.click('[data-action="probabilities"]')
    wait_message(page, "probabilities")
    assert page.get_attribute('[data-output="solutions"]', "data-value")
    closed = next((r, c) for (r, c), v in cells(page).items() if v["state"] == "unknown"
                  and page.evaluate(f"S.game.layout[{r}][{c}]") == ".")
    click(page, *closed)
    assert output(page, "solutions") == "–"
    page.close()


@pytest.mark.parametrize("action", ["step-gac", "step-2rc", "step-full", "gac", "3rc", "full", "probabilities"])
def test_a_board_with_no_solution_says_why_as_explain_does(browser, server, tmp_path, action):
    expected = cli_conflict(tmp_path, CONTRADICTION)
    assert expected == "no solution: the 0 at (0, 0) has 1 mine around it, too many"
    page = open_page(browser, server)
    paste(page, CONTRADICTION)
    page.click(f'[data-action="{action}"]')
    wait_message(page, "no solution")
    assert message(page) == expected
    assert page.is_visible('[data-output="message"].error')
    outlined = page.eval_on_selector_all(".cell.because", "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    assert outlined == [[0, 0]]                  # the count that fails
    assert all(v["state"] in ("unknown", "number", "mine") for v in cells(page).values()), "nothing was decided"
    assert not page.query_selector("[data-p]")
    if action == "step-gac":
        shot(page, "truth-no-solution")
    page.close()


def test_a_step_does_not_place_mines_on_a_board_the_total_contradicts(browser, server, tmp_path):
    text = "mines: 3\n???\n?8?\n???\n"              # GAC alone would place the 8 mines first
    page = open_page(browser, server)
    paste(page, text)
    page.click('[data-action="step-gac"]')
    wait_message(page, "no solution")
    assert message(page) == cli_conflict(tmp_path, text)
    assert not any(v["state"] == "mine" for v in cells(page).values())
    # GAC alone finds nothing here, and nothing wrong: only the full level sees the total cannot be met
    text = "mines: 1\n?2?\n???\n"
    paste(page, text)
    assert press(page, "step-gac", "no solution") == cli_conflict(tmp_path, text, "full")
    page.close()


def test_a_game_that_leaves_the_first_click_no_room_is_refused(browser, server):
    page = open_page(browser, server)
    for mines, rule, noguess, most in ((80, "snr", False, 72), (81, "sfar", False, 80), (73, "snr", True, 72)):
        start_game(page, 9, 9, mines, rule=rule, noguess=noguess)
        text = message(page)
        assert page.is_visible('[data-output="message"].error'), text
        assert f"{mines} mines do not fit" in text and f"at most {most} mines" in text and "first click is opened" not in text
    start_game(page, 9, 9, 80, rule="sfar")       # only the cell kept: 80 fit, and the click opens an 8
    wait_message(page, "game 9 x 9 with 80 mines")
    assert cells(page)[(4, 4)]["state"] == "number" and page.text_content('[data-row="4"][data-col="4"]') == "8"
    start_game(page, 9, 9, 72, choose=True)         # the player's cell: checked against the largest block
    wait_message(page, "game 9 x 9 with 72 mines")
    click(page, 0, 0)
    wait_message(page, "the first click at (0, 0)")
    assert cells(page)[(0, 0)]["state"] == "number" and page.text_content('[data-row="0"][data-col="0"]') == "0"
    page.close()


def test_a_step_found_by_a_lower_level_says_so(browser, server):
    page = open_page(browser, server)
    paste(page, board("kaye-splitter.txt"))
    page.click('[data-action="step-2rc"]')
    text = wait_message(page, "step")
    assert text.startswith("step (gac; 2-RC's steps begin with GAC's): ")
    page.click('[data-action="undo"]')
    assert press(page, "step-gac", "step").startswith("step (gac): ")
    paste(page, board("gecode-0.txt"))              # a step 2-RC finds itself carries its own label only
    assert press(page, "step-2rc", "step").startswith("step (2rc): ")
    page.close()


def test_paste_errors_name_the_line_and_column_in_the_pages_words(browser, server):
    page = open_page(browser, server)
    page.fill('[data-input="paste"]', "mines: 2\n1??\n1x?\n")
    page.click('[data-action="load"]')
    page.wait_for_selector('[data-output="message"].error')
    text = message(page)
    assert text.startswith("<paste>, line 3, column 2: ") and "'x' is not a cell symbol" in text
    assert "--from" not in text and "one of:" not in text
    where = output(page, "paste-error")
    assert page.is_visible('[data-output="paste-error"]') and where.splitlines()[0].endswith("1x?")
    assert where.splitlines()[1].index("^") == where.splitlines()[0].index("1x?") + 1
    selected = page.evaluate("(() => { const t = document.querySelector('[data-input=paste]');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == "x"
    shot(page, "truth-paste-error")
    # text no notation fits: the one it looks most like reads it and names where it stumbles
    page.fill('[data-input="paste"]', "this is not a board at all {{{")
    page.click('[data-action="load"]')
    page.wait_for_function("document.querySelector('[data-output=message]').textContent.includes('line 1')")
    assert "--from" not in message(page)
    # the notation chooser: the page's --from
    options = page.eval_on_selector_all('[data-input="notation"] option', "els => els.map(e => e.value)")
    assert "" in options and "dots" in options and "native" in options and len(options) > 30
    dots = (board.__globals__["SAMPLES"] / "dusautoy-6x6.dots").read_text()
    page.select_option('[data-input="notation"]', "native")
    page.fill('[data-input="paste"]', dots)
    page.click('[data-action="load"]')
    page.wait_for_selector('[data-output="message"].error')
    assert "line" in message(page) and not page.is_visible('[data-output="message"]:not(.error)')
    page.select_option('[data-input="notation"]', "dots")
    paste(page, dots)
    assert "as dots" in message(page) and not page.is_visible('[data-output="paste-error"]')
    page.close()


def test_an_edit_error_names_the_cell_and_outlines_it(browser, server):
    page = open_page(browser, server)
    paste(page, "mines: 2\n?2?\n")
    click(page, 0, 1)                                # 2 -> 3: more than the cell's two neighbours
    page.click('[data-action="step-gac"]')
    page.wait_for_selector('[data-output="message"].error')
    assert message(page) == "cell (0, 1) shows 3 but has only 2 neighbours"
    assert "bad" in (attr(page, 0, 1, "class") or "")
    page.close()


def test_the_first_screens_board_agrees_with_the_size_inputs(browser, server):
    page = open_page(browser, server)
    rows = int(page.input_value('[data-input="rows"]'))
    cols = int(page.input_value('[data-input="cols"]'))
    shown = cells(page)
    assert max(r for r, _ in shown) + 1 == rows and max(c for _, c in shown) + 1 == cols
    page.close()


# the same through the API, no browser -------------------------------------------------------------------
def test_the_api_refuses_a_game_without_room_and_keeps_the_chosen_first_click(server):
    job = server.job({"action": "new_game", "rows": 9, "cols": 9, "mines": 80})
    assert job["state"] == "failed" and "at most 72 mines" in job["error"]
    job = server.job({"action": "new_game", "rows": 9, "cols": 9, "mines": 80, "first_click": "sfar",
                      "start": [0, 8], "seed": 4})
    answer = job["answer"]
    assert answer["start"] == [0, 8] and answer["layout"][0][8] == "." and answer["mines"] == 80
    job = server.job({"action": "new_game", "rows": 9, "cols": 9, "mines": 72, "start": [8, 0], "seed": 4})
    assert all(answer_row[:2] == ".." for answer_row in job["answer"]["layout"][7:])   # snr: the block is free
    for start in ([9, 0], [0], "centre", [True, 1]):
        job = server.job({"action": "new_game", "rows": 9, "cols": 9, "mines": 10, "start": start})
        assert job["state"] == "failed" and job["error"].startswith("start must be a cell"), job
    job = server.job({"action": "new_game", "rows": 9, "cols": 9, "mines": 10, "first_click": "nope"})
    assert job["state"] == "failed" and "first_click must be one of snr, sfar" in job["error"]


def test_the_api_locates_paste_errors_in_the_pages_words(server):
    status, answer = server.call("POST", "/api/load", {"text": "mines: 2\n1??\n1x?\n", "located": True})
    assert status == 200
    failed = answer["failed"]
    assert (failed["line"], failed["column"], failed["line_text"], failed["notation"]) == (3, 2, "1x?", "native")
    assert "--from" not in failed["message"]
    status, answer = server.call("POST", "/api/load", {"text": "\x00" * 50, "located": True})
    assert "choose one under Notation" in answer["failed"]["message"] and answer["failed"]["line"] is None
    status, info = server.call("GET", "/api/info")
    assert "dots" in info["notations"] and "cnf" not in info["notations"]
