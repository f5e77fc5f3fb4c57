"""Minesweeper Clone replays (.mvf): the mine layout of one game and its mouse states, in bytes.

Learnt from the public readers (flop-player's, after Maksim Bashov's and Damien Moore's mvf-to-RAWVF
converter, and ms-toollib's). Integers are big-endian. Four layouts:

* 0.97 beta (and two hacks of it): the file starts 0x11 'M' and byte 27 is '5' ('8': the Funny Mode hack;
  a file starting 00 00 is an unknown hack read from byte 7). From byte 74: month, day, uint16 year, hour,
  minute, second, level, mode, uint16 seconds and hundredths of the score, uint16 3bv, solved 3bv, left,
  double and right clicks, question marks, the board, a name (uint8 length + bytes), a uint16 key, the
  uint24 number of mouse states and 5 bytes per state, their bits permuted by the key.
* 2006 and 2007 releases: 0x11 'M', byte 27 '6' or '7', the version name at byte 53 (uint8 length +
  text); from byte 71 as 0.97 with a uint24 millisecond score and no statistics, and 6 bytes per state
  (coordinates offset by 32 pixels, 22 bits of milliseconds).
* 0.96 beta and earlier have no header: the board first, question marks, one byte, then 8 bytes per
  state (second, hundredths, buttons, uint16 x, uint16 y, one byte) up to the score, which sits at a fixed
  distance from the end of the file (with the player's name in 0.76 to 0.96).

The board is width, height (one byte each), uint16 mines and one (x, y) pair per mine (1-based in the
headed layouts, 0-based in the old one). A mouse state holds the three buttons and the pointer: events
are the changes between consecutive states (a move, then presses, then releases), as every reader
derives them; the first state gives one event (its pressed button, else a move). Old files stop recording
at the score, so the reader adds the last release (an `implied` event).
"""
from __future__ import annotations

import math
from typing import List, Optional, Tuple, Union

import numpy as np

from ...core.replay import (
    LEFT_PRESS,
    LEFT_RELEASE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MOVE,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    Replay,
    ReplayEvent,
    cell_of,
)
from ..mine_layouts import LAYOUT_HELP
from ..registry import CERTAIN, LIKELY, NO, register_format
from ._replay_files import REPLAY_REVEAL_HELP, ByteCursor, as_bytes, check_board, decode_name, mine_grid, puzzle_of

SQUARE = 16
HEADED = b"\x11M"
OLD_SIZES = {(8, 8), (16, 16), (30, 16)}   # (width, height): early Clone saved the three levels only

# a mouse state: (left, right, middle, x, y, milliseconds)
State = Tuple[bool, bool, bool, int, int, int]


def _board(cur: ByteCursor, base: int) -> Tuple[int, int, int, List[Tuple[int, int, int]]]:
    at = cur.pos
    cols, rows = cur.u8("the board width"), cur.u8("the board height")
    mines = cur.u16("the mine count")
    check_board(rows, cols, mines, at, cur.source)
    cur.need(2 * mines, f"the {mines} mine positions")
    cells = [(cur.data[cur.pos + 2 * i + 1] - base, cur.data[cur.pos + 2 * i] - base, cur.pos + 2 * i)
             for i in range(mines)]
    cur.pos += 2 * mines
    return rows, cols, mines, cells


def _permutation(key: int, blocks: int) -> List[Tuple[int, int]]:
    """(byte, bit mask) of each field bit, from the file's key: digits of trigonometric noise, sorted."""
    n1 = math.sqrt(key)
    n2 = math.sqrt(key + 1000.0)
    n3 = math.sqrt(n1 + 1000.0)
    n4 = math.sqrt(n2 + 1000.0)
    noise = [math.cos(n3 + 1000.0), math.sin(math.sqrt(n2)), math.cos(n3), math.sin(math.sqrt(n1) + 1000.0)]
    noise += [math.cos(n4)] if blocks == 5 else [math.cos(n4), math.sin(n4)]
    digits = "".join(f"{math.floor(abs(v) * 100000000.0 + 0.5):08d}"[:8] for v in noise)
    return [(j // 8, 1 << (j % 8)) for d in "0123456789" for j, ch in enumerate(digits) if ch == d]


def _states(cur: ByteCursor, size: int, perm: List[Tuple[int, int]], wide: bool) -> List[State]:
    """Decode the permuted mouse states (5 bytes each in 0.97, 6 in 2006/2007), all at once."""
    count = cur.uint(3, "the number of mouse states")
    cur.need(count * size, f"{count} mouse states of {size} bytes")
    rec = np.frombuffer(cur.data, dtype=np.uint8, count=count * size, offset=cur.pos).reshape(count, size)
    cur.pos += count * size

    def bits(first: int, n: int) -> np.ndarray:
        out = np.zeros(count, dtype=np.int64)
        for j in range(n):
            byte, mask = perm[first + j]
            out |= ((rec[:, byte] & mask) != 0).astype(np.int64) << j
        return out

    rb, mb, lb = bits(0, 1), bits(1, 1), bits(2, 1)
    if wide:
        x, y, ms = bits(14, 11) - 32, bits(3, 11) - 32, bits(25, 22)
    else:
        x, y, ms = bits(12, 9), bits(3, 9), bits(28, 10) * 1000 + bits(21, 7) * 10
    return list(zip((lb > 0).tolist(), (rb > 0).tolist(), (mb > 0).tolist(), x.tolist(), y.tolist(), ms.tolist()))


def _headed(cur: ByteCursor, wide: bool) -> Tuple[Tuple[int, int, int, List[Tuple[int, int, int]]], str,
                                                   List[State]]:
    """A 0.97 or 2006/2007 file from its data start: the board, the player's name, the mouse states."""
    cur.skip(7, "the date")
    cur.skip(2, "the level and mode")
    cur.skip(3 if wide else 13, "the score" if wide else "the score and statistics")
    cur.skip(1, "the question-mark setting")
    board = _board(cur, 1)
    name = decode_name(cur.take(cur.u8("the name length"), "the player's name"))
    perm = _permutation(cur.u16("the key"), 6 if wide else 5)
    return board, name, _states(cur, 6 if wide else 5, perm, wide)


def _old(cur: ByteCursor) -> Tuple[Tuple[int, int, int, List[Tuple[int, int, int]]], Optional[str], str,
                                   List[State]]:
    """A headerless file (Clone 0.96 and earlier)."""
    board = _board(cur, 0)
    rows, cols = board[0], board[1]
    if (cols, rows) not in OLD_SIZES:
        cur.fail(f"a headerless MVF board is 8 x 8, 16 x 16 or 30 x 16; this one is {cols} x {rows}", 0)
    cur.skip(2, "the question-mark setting")
    data, size = cur.data, len(cur.data)
    digit = bytes(range(0x30, 0x3A))
    if size < 125 + cur.pos:
        cur.fail("a headerless MVF file ends with at least 125 bytes of score, name and checksum", size)
    name: Optional[bytes] = None
    if data[-1] not in digit and data[-22] not in digit:
        version, score_at, name = "0.96 beta (or earlier)", size - 125, data[size - 122:size - 22]
    elif data[size - 13:size - 10] == b"   ":
        version, score_at, name = "0.76 beta", size - 113, data[size - 110:size - 10]
    else:
        version, score_at = "0.75 beta (or earlier)", size - 13
    score = ((data[score_at] << 8) | data[score_at + 1]) * 1000 + data[score_at + 2] * 10
    states: List[State] = []
    pos = cur.pos
    while pos <= score_at and pos + 8 <= size:
        e = data[pos:pos + 8]
        ms = e[0] * 1000 + e[1] * 10
        if (states and ms < states[-1][5]) or ms > score:
            break
        states.append((bool(e[2] & 1), bool(e[2] & 4), bool(e[2] & 2), (e[3] << 8) | e[4], (e[5] << 8) | e[6], ms))
        pos += 8
    player = decode_name(name).strip("\0 ") or None if name is not None else None
    return board, player, version, states


_PRESSES = ((0, LEFT_PRESS, LEFT_RELEASE), (1, RIGHT_PRESS, RIGHT_RELEASE), (2, MIDDLE_PRESS, MIDDLE_RELEASE))


def _events(states: List[State], rows: int, cols: int, close: bool) -> List[ReplayEvent]:
    """Events from the changes between consecutive mouse states (close: release what is still held)."""
    events: List[ReplayEvent] = []

    def add(state: State, kind: str, implied: bool = False) -> None:
        x, y = state[3], state[4]
        events.append(ReplayEvent(state[5] / 1000, kind, *cell_of(x, y, rows, cols, SQUARE), x, y, implied))

    for i, st in enumerate(states):
        if i == 0:
            held = [press for b, press, _ in (_PRESSES[2], _PRESSES[1], _PRESSES[0]) if st[b]]
            add(st, held[0] if held else MOVE)
            continue
        prev = states[i - 1]
        if st[3:5] != prev[3:5]:
            add(st, MOVE)
        for b, press, _ in _PRESSES:
            if st[b] and not prev[b]:
                add(st, press)
        for b, _, release in _PRESSES:
            if prev[b] and not st[b]:
                add(st, release)
    if close and states:
        for b, _, release in _PRESSES:
            if states[-1][b]:
                add(states[-1], release, implied=True)
    return events


def parse_mvf(data: Union[bytes, str], source: str = "<bytes>") -> Replay:
    """The whole replay of a Minesweeper Clone .mvf file: layout, mouse events and metadata."""
    raw = as_bytes(data)
    cur = ByteCursor(raw, source, "an MVF replay")
    player: Optional[str]
    if raw[:2] == HEADED:
        cur.need(28, "the header")
        kind = raw[27:28]
        if kind in (b"5", b"8"):
            version = "0.97 beta" if kind == b"5" else "0.97 Funny Mode Hack"
            cur.pos = 74
            board, player, states = _headed(cur, wide=False)
        elif kind in (b"6", b"7"):
            cur.pos = 53
            version = decode_name(cur.take(cur.u8("the version length"), "the version name"))
            cur.pos = 71
            board, player, states = _headed(cur, wide=True)
        else:
            cur.fail(f"byte 27 of a Clone header is {raw[27]}; Clone writes '5' to '8' there", 27)
    elif raw[:2] == b"\0\0":
        version, cur.pos = "0.97 Unknown Hack", 7
        board, player, states = _headed(cur, wide=False)
    else:
        board, player, version, states = _old(cur)
    rows, cols, mines, cells = board
    grid = mine_grid(rows, cols, cells, mines, source)
    if not states:
        cur.fail("the replay holds no mouse event")
    events = _events(states, rows, cols, close=raw[:2] not in (HEADED, b"\0\0"))
    return Replay(rows, cols, grid, mines, tuple(events), "mvf", player=player or None,
                  program="Minesweeper Clone", version=version, square_size=SQUARE)


def read_mvf(data: Union[bytes, str], source: str = "<bytes>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None):
    """Parse an .mvf replay into its mine layout (or the state after opening reveal_from)."""
    return puzzle_of(parse_mvf, data, source, reveal_from, layout_as, "mvf")


def detect_mvf(data: Union[bytes, str]) -> float:
    """CERTAIN on a Clone header that reads; LIKELY for a headerless file whose whole structure reads."""
    raw = as_bytes(data)
    if raw[:2] not in (HEADED, b"\0\0") and (len(raw) < 2 or (raw[0], raw[1]) not in OLD_SIZES):
        return NO
    if raw[:2] == HEADED:
        return CERTAIN if raw[27:28] in (b"5", b"6", b"7", b"8") else NO
    try:
        parse_mvf(raw, "<detect>")
    except ValueError:
        return NO
    return LIKELY


register_format("mvf", reader=read_mvf, detect=detect_mvf,
                read_options={"reveal_from": REPLAY_REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="Minesweeper Clone replay (binary, 0.75 to 2007): the game's mine layout (and its "
                            "mouse events, read by read_replay); --reveal-from R,C or start")
