"""mineconv audit: a replayed game's openings rated exactly, proved against brute force and against ms-toollib.

Hand-made RAWVF replays check the game rules (cascades, chords, wrong flags, a lost game) and every
probability against a brute-force count over all layouts. The real replays in ../shared/replays/ (never
copied) are audited and compared with ms-toollib, run in a child process (it aborts the process on some
inputs): every effective opening (cell, kind, time), P(mine) at every left click (1e-9), the cells proven
safe before every opening, the luck (its `pluck`, 1e-6), 3BV and the click count. On these replays
ms-toollib and mineconv agree everywhere: no case was found where it misses a certain cell.
"""
from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import tempfile
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import List, Optional, Sequence, Set, Tuple

import numpy as np
import pytest

from helpers import run_cli, require_module, REPLAYS, TOOLLIB_UNREADABLE, replay_ids, require_replays
from mineconv.analysis.audit import CHORD, LEFT, Game, audit, bbbv, neighbours, play
from mineconv.core.puzzle import neighbour_count
from mineconv.formats.replays import read_replay

Cell = Tuple[int, int]


def rawvf(board: Sequence[str], clicks: Sequence[Tuple[str, int, int]]) -> bytes:
    """A RAWVF replay: the layout ('*' a mine) and mouse events (kind, row, col), 0.5 s apart."""
    lines = ["RawVF_Version: Rev5", f"Width: {len(board[0])}", f"Height: {len(board)}",
             f"Mines: {sum(row.count('*') for row in board)}", "Board:"]
    lines += [row.replace(".", "0") for row in board]
    lines.append("Events:")
    for n, (kind, r, c) in enumerate(clicks):
        lines.append(f"{n / 2:.2f} {kind} {c + 1} {r + 1} ({c * 16 + 8} {r * 16 + 8})")
    return ("\n".join(lines) + "\n").encode()


def left(r: int, c: int) -> List[Tuple[str, int, int]]:
    return [("lc", r, c), ("lr", r, c)]


def flag(r: int, c: int) -> List[Tuple[str, int, int]]:
    return [("rc", r, c), ("rr", r, c)]


def chord(r: int, c: int) -> List[Tuple[str, int, int]]:
    return [("rc", r, c), ("lc", r, c), ("lr", r, c), ("rr", r, c)]


CORNERS = ["*..*", "....", "....", "*..*"]     # every safe cell is a 1: each opening is a risk


def brute_force(game: Game, before: np.ndarray, risked: Sequence[Cell], total: int) -> Tuple[Fraction, bool]:
    """P(some risked cell is a mine) and whether another cell is safe, over every layout the player could
    not tell from the real one (same counts on the open cells, same total)."""
    rows, cols = before.shape
    closed = [(r, c) for r in range(rows) for c in range(cols) if not before[r, c]]
    fits = hits = 0
    never_mine: Set[Cell] = set(closed)
    for chosen in itertools.combinations(closed, total):
        mines = np.zeros((rows, cols), dtype=bool)
        mines[tuple(zip(*chosen))] = True
        if (neighbour_count(mines)[before] != game.counts[before]).any():
            continue
        fits += 1
        hits += any(mines[cell] for cell in risked)
        never_mine -= set(chosen)
    return Fraction(hits, fits), bool(never_mine - set(risked))


def test_every_opening_matches_brute_force():
    events = left(1, 1) + left(1, 2) + flag(0, 0) + chord(1, 1) + left(3, 1) + flag(3, 3) + chord(2, 2)
    replay = read_replay(rawvf(CORNERS, events))
    result = audit(replay)
    game = play(replay)
    assert [(c.opening.kind, c.opening.row, c.opening.col) for c in result.clicks] == [
        (LEFT, 1, 1), (LEFT, 1, 2), (CHORD, 1, 1), (LEFT, 3, 1), (CHORD, 2, 2)]
    assert result.clicks[0].p_mine == Fraction(4, 16)
    for rated, opening in zip(result.clicks[1:], game.openings[1:]):
        p, elsewhere = brute_force(game, opening.before, opening.risked, replay.total)
        assert rated.p_mine == p, opening
        assert rated.safe_elsewhere == elsewhere, opening
    assert not result.lost and game.over
    luck = -sum(math.log10(1 - c.p_mine) for c in result.clicks[1:] if c.p_mine is not None)
    assert result.luck == pytest.approx(luck, abs=1e-12)
    assert result.forced_guesses + result.avoidable_guesses == sum(1 for c in result.clicks[1:] if c.p_mine)


def test_a_chord_is_rated_jointly():
    replay = read_replay(rawvf(CORNERS, left(1, 1) + flag(0, 0) + chord(1, 1)))
    game = play(replay)
    opening = game.openings[1]
    assert opening.kind == CHORD and len(opening.risked) == 7
    p, _ = brute_force(game, opening.before, opening.risked, replay.total)
    assert audit(replay).clicks[1].p_mine == p
    # jointly, not the riskiest single cell: seven cells around a 1 with one flagged are not one cell's risk
    assert p > max(brute_force(game, opening.before, [cell], replay.total)[0] for cell in opening.risked)


def test_a_wrong_flag_loses_and_the_luck_is_infinite():
    events = left(1, 1) + flag(0, 1) + chord(1, 1)     # (0, 1) is safe: the chord opens the mine at (0, 0)
    result = audit(read_replay(rawvf(CORNERS, events)))
    assert result.lost and result.clicks[-1].opening.hit_mine
    data = result.to_json()
    assert data["luck"] is None and "mine was hit" in data["luck_reason"]


def test_flags_are_not_knowledge_and_dead_clicks_are_not_openings():
    # a left click on a flag or an open cell opens nothing; the flags do not change the probabilities
    flagged = audit(read_replay(rawvf(CORNERS, left(1, 1) + flag(0, 0) + left(0, 0) + left(1, 1) + left(1, 2))))
    plain = audit(read_replay(rawvf(CORNERS, left(1, 1) + left(1, 2))))
    assert [c.to_json() for c in flagged.clicks][1]["p_mine"] == [c.to_json() for c in plain.clicks][1]["p_mine"]
    assert len(flagged.clicks) == 2
    assert flagged.clicks_total == 5                     # 4 left clicks and 1 flag, effective or not


def test_a_zero_opens_its_region():
    result = audit(read_replay(rawvf(["*...", "....", "....", "...*"], left(0, 3))))
    opening = play(read_replay(rawvf(["*...", "....", "....", "...*"], left(0, 3)))).openings[0]
    assert len(opening.opened) == 14 and not result.lost
    assert result.luck == 0.0 and result.bbbv == 1
    assert result.forced_guesses == result.avoidable_guesses == 0


def test_bbbv_counts_regions_and_lone_numbers():
    assert bbbv(np.array([[c == "*" for c in row] for row in CORNERS])) == 12
    assert bbbv(np.zeros((3, 3), dtype=bool)) == 1
    assert sorted(neighbours(0, 0, 2, 2)) == [(0, 1), (1, 0), (1, 1)]


def test_cli_text_and_json(capsys, tmp_path):
    path = tmp_path / "game.rawvf"
    path.write_bytes(rawvf(CORNERS, left(1, 1) + left(1, 2)))
    rc, out, _ = run_cli(capsys, "audit", path, "--json")
    data = json.loads(out)
    assert rc == 0 and data["rows"] == 4 and data["mines"] == 4 and data["clicks"][0]["kind"] == "left"
    assert set(data) >= {"file", "rows", "cols", "mines", "clicks", "luck", "forced_guesses",
                         "avoidable_guesses", "bbbv", "clicks_total"}
    # issue 37 extends each click with "engine", the engine's move on a guess (null on a safe click)
    assert set(data["clicks"][1]) == {"row", "col", "kind", "time", "p_mine", "safe_elsewhere", "engine"}
    rc, out, _ = run_cli(capsys, "audit", path)
    assert rc == 0 and "luck:" in out and "3BV: 12, clicks: 2" in out
    bad = tmp_path / "bad.rawvf"
    bad.write_text("not a replay\n")
    assert run_cli(capsys, "audit", bad)[0] == 2


def test_svg_pictures_one_per_guess(capsys, tmp_path):
    path = tmp_path / "game.rawvf"
    path.write_bytes(rawvf(CORNERS, left(1, 1) + left(1, 2) + left(3, 1)))
    rc, out, _ = run_cli(capsys, "audit", path, "--svg", tmp_path / "pictures")
    pictures = sorted((tmp_path / "pictures").glob("*.svg"))
    assert rc == 0 and len(pictures) == 2
    assert "<svg" in pictures[0].read_text() and "P(mine)" in pictures[0].read_text()
    # a file where the folder should be: one message, exit 2, no report written (was: a traceback after it)
    report = tmp_path / "report.txt"
    rc, out, err = run_cli(capsys, "audit", path, "--svg", path, "-o", report)
    assert rc == 2 and "--svg wants a folder" in err and not report.exists()


# ms-toollib, the peer -------------------------------------------------------------------------------------
_PEER = textwrap.dedent("""
    import json, sys, ms_toollib as m
    path = sys.argv[1]
    cls = {"avf": m.AvfVideo, "rmv": m.RmvVideo, "mvf": m.MvfVideo, "evf": m.EvfVideo}[path.rsplit(".", 1)[1]]
    v = cls(path); v.parse(); v.analyse(); v.analyse_for_features(["pluck"])
    out = []
    for r in v.events:
        if not r.event.is_mouse() or r.useful_level <= 0:
            continue
        mm = r.event.unwrap_mouse()
        if mm.mouse not in ("lr", "rr", "mr"):
            continue
        row, col = mm.y // v.pix_size, mm.x // v.pix_size
        pg = r.prior_game_board
        safe = [[i, j] for i, line in enumerate(pg.poss) for j, p in enumerate(line)
                if p == 0 and pg.game_board[i][j] >= 10]
        out.append({"time": r.time, "row": row, "col": col, "chord": r.useful_level == 3,
                    "p_mine": pg.poss[row][col], "safe": safe})
    v.current_time = 1e9   # the counters are read at the playback cursor: put it past the end
    print(json.dumps({"pluck": v.events[-1].key_dynamic_params.pluck, "bbbv": v.bbbv, "cl": v.cl,
                      "openings": out}))
""")


def peer(path: Path) -> Optional[dict]:
    """ms-toollib's reading of a replay, or None where it cannot read the file."""
    if path.suffix == ".rawvf" or path.name in TOOLLIB_UNREADABLE:
        return None
    require_module("ms_toollib")
    with tempfile.TemporaryDirectory() as scratch:   # where a panicking ms-toollib writes its crash.log
        done = subprocess.run([sys.executable, "-c", _PEER, str(path.resolve())], capture_output=True, text=True,
                              timeout=600, cwd=scratch)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def replay_and_peer(ident: str) -> Tuple[Path, dict]:
    """A real replay's path and ms-toollib's reading of it; skipped for the files ms-toollib cannot read."""
    require_replays()
    path = REPLAYS / ident
    theirs = peer(path)
    if theirs is None:
        pytest.skip("ms-toollib does not read this file")
    return path, theirs


@pytest.mark.parametrize("ident", replay_ids())
def test_agrees_with_ms_toollib(ident):
    path, theirs = replay_and_peer(ident)
    replay = read_replay(path)
    game = play(replay)
    result = audit(replay)
    ours = [(round(c.opening.time, 6), c.opening.row, c.opening.col, c.opening.kind == CHORD)
            for c in result.clicks]
    assert ours == [(round(o["time"], 6), o["row"], o["col"], o["chord"]) for o in theirs["openings"]]
    for mine, other, opening in zip(result.clicks, theirs["openings"], game.openings):
        if opening.kind == LEFT:
            assert mine.p_mine is not None and abs(float(mine.p_mine) - other["p_mine"]) < 1e-9
    assert result.luck is not None and abs(result.luck - theirs["pluck"]) < 1e-6
    assert (result.bbbv, result.clicks_total) == (theirs["bbbv"], theirs["cl"])


@pytest.mark.parametrize("ident", replay_ids())
def test_proven_safe_cells_agree_with_ms_toollib(ident):
    path, theirs = replay_and_peer(ident)
    replay = read_replay(path)
    result = audit(replay)
    for mine, other in zip(result.clicks[1:], theirs["openings"][1:]):
        risked = set(mine.opening.risked)
        assert mine.safe_elsewhere == any(tuple(cell) not in risked for cell in other["safe"]), mine.opening.time


def test_rawvf_twins_audit_as_their_avf():
    """The RAWVF copies of two Arbiter games (ms-toollib cannot read RAWVF) audit exactly as the .avf."""
    require_replays()
    for rawvf_name, avf_name in (("old_arbiter_exp.rawvf", "avf_arbiter_exp.avf"),
                                 ("old_Cus_30x8_30mines.rawvf", "avf_Cus_30x8_30mines.avf")):
        a = audit(read_replay(REPLAYS / "flop-player" / rawvf_name))
        b = audit(read_replay(REPLAYS / "flop-player" / avf_name))
        assert [(c.opening.row, c.opening.col, c.opening.kind, c.p_mine) for c in a.clicks] == \
               [(c.opening.row, c.opening.col, c.opening.kind, c.p_mine) for c in b.clicks]
        assert (a.luck, a.bbbv) == (b.luck, b.bbbv)


def test_guesses_name_the_engines_move_beside_the_players():
    from mineconv import advise
    from mineconv.analysis.audit import position

    replay = read_replay(rawvf(CORNERS, left(1, 1) + left(1, 2) + left(2, 2)))
    result = audit(replay)
    game = play(replay)
    assert [c.p_mine > 0 for c in result.clicks[1:]] == [True, True]
    for click in result.clicks[1:]:
        seen = position(game.counts, click.opening.before, replay.total)
        assert click.engine == advise(seen).move_json()
        assert click.to_json()["engine"]["cell"] in [[r, c] for r in range(4) for c in range(4)
                                                     if seen[r, c] == "?"]
    assert result.clicks[0].engine is None   # the first click: nothing to advise on
