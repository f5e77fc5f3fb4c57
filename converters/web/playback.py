"""A replay the page plays back (issue 38, point 11): its board after every event that changed it, and the
audit's rating of every opening, as `mineconv audit` gives them.

The page sends the file's bytes; the answer carries the layout's counts, the frames (each the cells an
event opened and the flags it toggled, with its time), and per opening its P(mine), whether it was a
guess, forced or avoidable, the frame it made, the luck and 3BV. The game is played by the audit's own
Game and Mouse (analysis/verdicts/audit.py), so the frames and the ratings cannot disagree.
"""
from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, Dict, List, Optional

from ..analysis.verdicts.audit import GAME_FAIL, TOGGLES, Audit, ClickAudit, Game, Mouse, audit
from ..core.errors import PuzzleSyntaxError
from ..core.fileio import max_bytes
from ..core.replay import Replay
from ..formats.replays import REPLAY_EXTENSIONS, read_replay

Answer = Dict[str, Any]

EXTENSIONS = REPLAY_EXTENSIONS   # the replay notations' extensions, from the formats' catalogue


def frames_of(replay: Replay) -> List[Answer]:
    """The board after each event that changed it: {"t", "open": cells opened, "flag": flags toggled,
    "opening": the index of the opening it made, or None}."""
    game = Game(replay)
    mouse = Mouse(game)
    frames: List[Answer] = []
    flags = set(game.flags)
    for ev in replay.events:
        if ev.kind == GAME_FAIL:
            break
        kind = ev.kind
        if kind in TOGGLES:
            button, release, press = TOGGLES[kind]
            kind = release if getattr(mouse, button) else press
        openings = len(game.openings)
        mouse.event(kind, None if ev.row is None or ev.col is None else (ev.row, ev.col), ev.time)
        opened = [list(cell) for o in game.openings[openings:] for cell in o.opened]
        toggled = sorted(game.flags ^ flags)
        if opened or toggled:
            frames.append({"t": round(float(ev.time), 3), "open": opened, "flag": [list(c) for c in toggled],
                           "opening": len(game.openings) - 1 if len(game.openings) > openings else None})
            flags = set(game.flags)
    return frames


def rating(n: int, click: ClickAudit) -> str:
    """How the audit rates one opening: first, safe (no risk), forced or avoidable (a guess), or unrated."""
    if n == 0:
        return "first"
    if click.p_mine is None:
        return "unrated"
    if click.p_mine == 0:
        return "safe"
    return "avoidable" if click.safe_elsewhere else "forced"


def replay_answer(replay: Replay, result: Audit, frames: List[Answer]) -> Answer:
    """The page's replay: the layout's counts and mines, the frames, and the audit of every opening."""
    made = {f["opening"]: i for i, f in enumerate(frames) if f["opening"] is not None}
    report = result.to_json()
    openings = []
    for n, (click, entry) in enumerate(zip(result.clicks, report["clicks"])):
        entry.update(rating=rating(n, click), frame=made.get(n), hit=click.opening.hit_mine,
                     p_text=None if click.p_mine is None else f"{click.p_mine.numerator}/{click.p_mine.denominator}")
        openings.append(entry)
    report["clicks"] = openings
    mines = [[int(r), int(c)] for r, c in zip(*replay.mines.nonzero())]
    return {"rows": result.rows, "cols": result.cols, "mines": result.mines,
            "counts": ["".join(str(int(n)) for n in row) for row in result.counts.tolist()],
            "mine_cells": mines, "frames": frames, "audit": report}


def replay(request: Dict[str, Any]) -> Answer:
    """Play back an uploaded replay (base64 bytes under "data", the file name under "source")."""
    name = Path(str(request.get("source") or "replay")).name or "replay"
    try:
        data = base64.b64decode(str(request.get("data") or ""), validate=True)
    except ValueError:
        raise PuzzleSyntaxError("the replay's bytes did not arrive intact (bad base64)", source=name) from None
    if len(data) > max_bytes():
        raise PuzzleSyntaxError(f"the replay is larger than {max_bytes()} bytes (the --max-bytes limit)", source=name)
    extension = Path(name).suffix.lower()
    fmt: Optional[str] = extension[1:] if extension in EXTENSIONS else None
    try:
        game = read_replay(data, fmt)
    except Exception as exc:   # a MineconvError names "<bytes>": name the user's file instead
        if hasattr(exc, "source"):
            exc.source = name
        raise
    result = audit(game, timeout=request.get("timeout"), source=name)
    return replay_answer(game, result, frames_of(game))
