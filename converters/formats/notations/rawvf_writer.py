"""A Replay written as RAWVF text (.rawvf), the form rawvf.py reads back: options, the board, the events.

    RawVF_Version: Rev5
    Program: mineconv play           the Replay's program, version and player, then its details
    Width: 3                         (as 'Key: value' lines, keys with their first letter capitalised)
    Height: 2
    Mines: 1
    Board:
    0*0                              '*' a mine, '0' no mine
    000
    Events:
    0.000 lc 1 1 (8 8)               time, kind, column row (1-based), (x y) pixels when the event has them

Each mouse event of the Replay gives one line; an event with pixels keeps them (the reader takes its cell
from them), one with a cell and no pixels gets none, one off the board gets neither. Times are written with
three decimals when that is exact, else six (the reader's number pattern has no exponent).
"""
from __future__ import annotations

from typing import Dict, List

from ...core.replay import Replay
from .rawvf import MOUSE

KIND_NAME: Dict[str, str] = {kind: name for name, kind in MOUSE.items()}
# options the writer derives from the Replay itself; a detail of the same name is not written twice
OWN_KEYS = frozenset({"rawvf_version", "program", "version", "player", "width", "height", "mines", "board",
                      "events"})


def time_text(t: float) -> str:
    """A time as the RAWVF reader parses it back to the same float (no exponent)."""
    short = f"{t:.3f}"
    return short if float(short) == t else f"{t:.6f}"


def rawvf_text(replay: Replay) -> str:
    """The RAWVF text of a replay: its options, its board and its mouse events (others have no RAWVF form)."""
    lines: List[str] = ["RawVF_Version: Rev5"]
    for key, value in (("Program", replay.program), ("Version", replay.version), ("Player", replay.player)):
        if value:
            lines.append(f"{key}: {value}")
    for key, value in replay.details:
        if key.lower() not in OWN_KEYS and "\n" not in value and "\r" not in value:
            lines.append(f"{key[:1].upper()}{key[1:]}: {value}")
    lines += [f"Width: {replay.cols}", f"Height: {replay.rows}", f"Mines: {replay.mine_count}", "Board:"]
    lines += ["".join("*" if m else "0" for m in row) for row in replay.mines.tolist()]
    lines.append("Events:")
    for ev in replay.events:
        name = KIND_NAME.get(ev.kind)
        if name is None:
            continue
        line = f"{time_text(ev.time)} {name}"
        if ev.row is not None and ev.col is not None:
            line += f" {ev.col + 1} {ev.row + 1}"
        if ev.x is not None and ev.y is not None:
            line += f" ({ev.x} {ev.y})"
        lines.append(line)
    return "\n".join(lines) + "\n"
