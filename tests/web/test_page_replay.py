"""Replays played back on the page (issue 38, point 11), in Chromium through the page's contract.

A real replay (in ../shared/replays, skipped when absent) is opened: the slider and play/pause move
through its events, the board shows what the player saw, and the timeline rates every opening exactly as
`mineconv audit --json` does (P(mine), forced or avoidable, luck, 3BV).
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

import web_helpers
from helpers import REPLAYS, require_replays
from web_helpers import cells, cli_json, message, open_page, shot, wait_job

server, browser = web_helpers.server, web_helpers.browser   # the fixtures of tests/web/test_web.py



def replay_file(name: str) -> Path:
    path = next((p for p in require_replays() if p.name == name), None)   # fails under CI=true when absent
    if path is None:
        pytest.skip(f"the replay {name} is not in {REPLAYS}")
    return path


def open_replay(page, path: Path) -> None:
    page.set_input_files('[data-input="replay"]', str(path))
    page.wait_for_selector('[data-output="replay-timeline"] [data-opening]')
    wait_job(page)


@pytest.mark.parametrize("name", ["avf_arbiter_beg.avf", "rmv_int.rmv", "test_subject.evf",
                                  "mvf_2007_release_2.mvf", "rawvf_custom.rawvf"])
def test_the_timeline_rates_every_opening_as_audit_does(browser, server, name):
    path = replay_file(name)
    expected = cli_json("audit", str(path), "--json")
    page = open_page(browser, server)
    open_replay(page, path)
    entries = page.eval_on_selector_all("[data-opening]", "els => els.map(e => [e.dataset.rating, e.dataset.pMine ?? null])")
    assert len(entries) == len(expected["clicks"])
    for n, ((rating, p), click) in enumerate(zip(entries, expected["clicks"])):
        if click["p_mine"] is None:
            assert p is None and rating == "unrated"
            continue
        assert math.isclose(float(p), click["p_mine"], abs_tol=1e-12)
        if n == 0:
            assert rating == "first"
        elif click["p_mine"] == 0:
            assert rating == "safe"
        else:
            assert rating == ("avoidable" if click["safe_elsewhere"] else "forced")
    assert sum(r == "forced" for r, _ in entries) == expected["forced_guesses"]
    assert sum(r == "avoidable" for r, _ in entries) == expected["avoidable_guesses"]
    summary = page.locator('[data-output="replay-summary"]')
    assert summary.get_attribute("data-bbbv") == str(expected["bbbv"])
    if expected["luck"] is not None:
        assert math.isclose(float(summary.get_attribute("data-luck")), expected["luck"], rel_tol=1e-12)
    page.close()


def test_the_slider_and_play_show_the_board_as_the_player_saw_it(browser, server):
    path = replay_file("avf_arbiter_beg.avf")
    expected = cli_json("audit", str(path), "--json")
    page = open_page(browser, server)
    open_replay(page, path)
    slider = '[data-replay="slider"]'
    frames = int(page.get_attribute(slider, "max"))
    assert frames >= len(expected["clicks"])
    assert all(v["state"] == "unknown" for v in cells(page).values())   # before the first event
    page.click('[data-replay="forward"]')              # the first opening: the clicked cell is open
    first = expected["clicks"][0]
    assert cells(page)[(first["row"], first["col"])]["state"] == "number"
    assert message(page).startswith("opening 1 at")
    opened_after = []
    for at in range(frames + 1):                       # the slider: open cells only ever grow
        page.eval_on_selector(slider, f"(e) => {{ e.value = '{at}'; e.dispatchEvent(new Event('input')); }}")
        opened_after.append({k for k, v in cells(page).items() if v["state"] == "number"})
    assert all(a <= b for a, b in zip(opened_after, opened_after[1:]))
    assert opened_after[0] == set() and len(opened_after[-1]) == 64 - 10   # won: every safe cell open
    # a guess on the timeline jumps to its moment and says its rating
    guess = next(n for n, c in enumerate(expected["clicks"]) if n and c["p_mine"])
    page.click(f'[data-opening="{guess}"]')
    text = message(page)
    assert text.startswith(f"opening {guess + 1} at") and "P(mine)" in text and "guess" in text
    assert text.endswith("(the board just before it)")
    c = expected["clicks"][guess]
    before = sum(v["state"] == "number" for v in cells(page).values())
    page.click('[data-replay="forward"]')              # the next event is that opening: more cells open
    assert sum(v["state"] == "number" for v in cells(page).values()) > before
    assert message(page).startswith(f"opening {guess + 1} at") and not message(page).endswith("before it)")
    page.click(f'[data-opening="{guess}"]')
    assert "because" in (page.get_attribute(f'[data-row="{c["row"]}"][data-col="{c["col"]}"]', "class") or "")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "replay-guess")
    # play from the start runs to the end and stops by itself
    page.eval_on_selector(slider, "(e) => { e.value = '0'; e.dispatchEvent(new Event('input')); }")
    page.click('[data-replay="play"]')
    assert page.get_attribute('[data-replay="play"]', "aria-pressed") == "true"
    page.wait_for_function(f"document.querySelector('[data-replay=slider]').value === '{frames}'", timeout=30000)
    page.wait_for_selector('[data-replay="play"][aria-pressed="false"]')
    assert float(page.get_attribute('[data-replay="clock"]', "data-value")) > 0
    page.close()


LOST = """Width: 4
Height: 3
Mines: 2

Board:
000*
0000
000*

Events:
0.000 lc (4 20)
0.100 lr (4 20)
0.500 rc (52 4)
0.600 rr (52 4)
1.000 lc (52 36)
1.200 lr (52 36)
"""


def test_a_lost_replay_marks_the_mine_that_was_hit(browser, server, tmp_path):
    # the stored replays are all won: a small rawvf (the text notation) opens a zero, flags the wrong
    # cell of the right column, then clicks the mine at (2, 3)
    path = tmp_path / "lost.rawvf"
    path.write_text(LOST)
    report = cli_json("audit", str(path), "--json")
    assert report["lost"] and report["luck"] is None
    page = open_page(browser, server)
    open_replay(page, path)
    frames = page.get_attribute('[data-replay="slider"]', "max")
    assert frames == "3"                               # the opening, the flag, the losing click
    page.eval_on_selector('[data-replay="slider"]', "(e) => { e.value = '2'; e.dispatchEvent(new Event('input')); }")
    assert cells(page)[(0, 3)]["state"] == "flag" and not page.query_selector('[data-hit="true"]')
    page.click('[data-replay="forward"]')
    hit = page.eval_on_selector_all('[data-hit="true"]', "els => els.map(e => [+e.dataset.row, +e.dataset.col])")
    assert hit == [[2, 3]] and cells(page)[(2, 3)]["state"] == "mine"
    assert "the game is lost" in message(page)
    assert "luck: none (a mine was hit" in page.text_content('[data-output="replay-summary"]')
    shot(page, "replay-lost")
    page.close()


def test_replay_frames_follow_the_audit_and_a_loss_names_its_mine():
    # without a browser: a made-up 3 x 3 game, a zero opened, a flag toggled, then a click on a mine
    import numpy as np

    from mineconv.analysis.audit import audit
    from mineconv.core.replay import LEFT_PRESS, LEFT_RELEASE, RIGHT_PRESS, RIGHT_RELEASE, Replay, ReplayEvent
    from mineconv.web.playback import frames_of, replay_answer

    mines = np.zeros((3, 4), dtype=bool)
    mines[0, 3] = mines[2, 3] = True
    events = [ReplayEvent(0.0, LEFT_PRESS, 1, 0), ReplayEvent(0.1, LEFT_RELEASE, 1, 0),
              ReplayEvent(0.5, RIGHT_PRESS, 0, 3), ReplayEvent(0.6, RIGHT_RELEASE, 0, 3),
              ReplayEvent(1.0, LEFT_PRESS, 2, 3), ReplayEvent(1.2, LEFT_RELEASE, 2, 3)]
    game = Replay(3, 4, mines, 2, events, "avf")
    answer = replay_answer(game, audit(game), frames_of(game))
    frames = answer["frames"]
    assert [f["opening"] for f in frames] == [0, None, 1]
    assert sorted(map(tuple, frames[0]["open"])) == [(r, c) for r in range(3) for c in range(3)]
    assert frames[1]["flag"] == [[0, 3]] and frames[2]["open"] == [[2, 3]]
    clicks = answer["audit"]["clicks"]
    assert [c["frame"] for c in clicks] == [0, 2] and clicks[1]["hit"] and answer["audit"]["lost"]
    assert clicks[1]["p_text"] == "1/1"                  # the counts had proven it a mine
    assert sorted(map(tuple, answer["mine_cells"])) == [(0, 3), (2, 3)]
