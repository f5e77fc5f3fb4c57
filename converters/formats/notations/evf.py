"""Metasweeper replays (.evf, versions 0 to 4): the mine layout of one game and its events, in bytes.

After the EVF specification (ms-toollib, 'evf format (evf标准).md'); integers big-endian:

    v0-v3: version, flags, (v3: settings), rows, cols, uint16 mines, square size, uint16 mode, uint16 3bv,
           uint24 time (ms); NUL-ended strings: software, player, race, unique id, start, end, country,
           (v2, v3: device uuid); the board, one bit per cell row-major, high bit first; then events of
           a kind byte (1 mv, 2 lc, 3 lr, 4 rc, 5 rr, 6 mc, 7 mr, 8 pre-flag, 9 second button, v3: 10-12 a
           button toggled), uint24 time in ms, uint16 x, uint16 y; 0 ends them (a 32-byte checksum follows),
           255 ends them with no checksum
    v4:    version, flags, settings, rows, cols, uint16 mines, square size, uint16 mode, uint16 3bv, uint32
           time, 2-byte country, uint64 start and end (microseconds); NUL-ended software, (when transcoded,
           flag 0x08: transcoder and encoding), player, race, unique id; uint16 uuid length and the uuid;
           the board bits; uint16 count of metric names and the NUL-ended names; events of a kind byte and
           a time step in ms (uint8): mouse 1-12 with int16 x and y steps, game state 81-99, board 100-199
           with two signed cell steps, metrics 200 (uint16 index, float64) and 201 (uint16 index, NUL-ended
           text), pause 255 (a uint16 time step, no kind payload else); 0 ends them; uint16 checksum length
           and the checksum
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ...core.replay import (
    GAME_ERROR,
    GAME_FAIL,
    GAME_REPLAY,
    GAME_WIN,
    LEFT_PRESS,
    LEFT_RELEASE,
    LEFT_TOGGLE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MIDDLE_TOGGLE,
    MOVE,
    PRE_FLAG,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    RIGHT_TOGGLE,
    SECOND_PRESS,
    Replay,
    ReplayEvent,
    cell_of,
)
from ..mine_layouts import LAYOUT_HELP
from ..registry import CERTAIN, NO, register_format
from ._replay_files import REPLAY_REVEAL_HELP, ByteCursor, as_bytes, byte_error, check_board, decode_name, puzzle_of

MOUSE = {1: MOVE, 2: LEFT_PRESS, 3: LEFT_RELEASE, 4: RIGHT_PRESS, 5: RIGHT_RELEASE, 6: MIDDLE_PRESS,
         7: MIDDLE_RELEASE, 8: PRE_FLAG, 9: SECOND_PRESS, 10: LEFT_TOGGLE, 11: RIGHT_TOGGLE, 12: MIDDLE_TOGGLE}
STATES = {81: GAME_REPLAY, 82: GAME_WIN, 83: GAME_FAIL, 99: GAME_ERROR}
OLD_STRINGS = ("software", "player", "race", "unique id", "start", "end", "country")


class _Head:
    """What the header says: board, square size and the text items."""

    def __init__(self) -> None:
        self.rows = self.cols = self.mines = self.square = 0
        self.text: Dict[str, str] = {}


def _sizes(cur: ByteCursor, head: _Head) -> None:
    at = cur.pos
    head.rows, head.cols = cur.u8("the row count"), cur.u8("the column count")
    head.mines = cur.u16("the mine count")
    check_board(head.rows, head.cols, head.mines, at, cur.source)
    head.square = cur.u8("the square size")
    if head.square == 0:
        cur.fail("the square size is 0 pixels", cur.pos - 1)
    head.text["mode"] = str(cur.u16("the game mode"))
    head.text["3bv"] = str(cur.u16("the 3bv"))


def _old_head(cur: ByteCursor, version: int) -> _Head:
    head = _Head()
    cur.u8("the summary flags")
    if version == 3:
        cur.u8("the game settings")
    _sizes(cur, head)
    head.text["time"] = str(cur.uint(3, "the time") / 1000)
    names = OLD_STRINGS + (("uuid",) if version >= 2 else ())
    for name in names:
        value = decode_name(cur.cstring(f"the {name}"))
        if name != "uuid":
            head.text[name] = value
    return head


def _v4_head(cur: ByteCursor) -> _Head:
    head = _Head()
    translated = cur.u8("the summary flags") & 0x08
    cur.u8("the game settings")
    _sizes(cur, head)
    head.text["time"] = str(cur.uint(4, "the time") / 1000)
    head.text["country"] = decode_name(cur.take(2, "the country code"))
    cur.skip(16, "the start and end timestamps")
    names = ("software",) + (("transcoder", "encoding") if translated else ()) + ("player", "race", "unique id")
    for name in names:
        head.text[name] = decode_name(cur.cstring(f"the {name}"))
    cur.skip(cur.u16("the uuid length"), "the device uuid")
    return head


def _board(cur: ByteCursor, head: _Head) -> np.ndarray:
    at = cur.pos
    cells = head.rows * head.cols
    raw = cur.take((cells + 7) // 8, "the board bits")
    grid = np.unpackbits(np.frombuffer(raw, dtype=np.uint8))[:cells].astype(bool).reshape(head.rows, head.cols)
    found = int(grid.sum())
    if found != head.mines:
        raise byte_error(f"the header says {head.mines} mine(s), the board bits hold {found}", at, cur.source)
    return grid


def _old_events(cur: ByteCursor, head: _Head) -> List[ReplayEvent]:
    events: List[ReplayEvent] = []
    while True:
        at = cur.pos
        code = cur.u8("the next event (the end byte is missing)")
        if code in (0, 255):
            if code == 0:
                cur.skip(32, "the checksum")
            return events
        if code not in MOUSE:
            cur.fail(f"the event kind byte {code} is not a mouse event", at)
        ms = cur.uint(3, "an event's time")
        x, y = cur.u16("an event's x"), cur.u16("an event's y")
        events.append(ReplayEvent(ms / 1000, MOUSE[code], *cell_of(x, y, head.rows, head.cols, head.square), x, y))


def _v4_events(cur: ByteCursor, head: _Head) -> List[ReplayEvent]:
    events: List[ReplayEvent] = []
    ms = x = y = 0
    while True:
        at = cur.pos
        code = cur.u8("the next event (the end byte is missing)")
        if code == 0:
            return events
        if code == 255:
            ms += cur.u16("a pause")
            continue
        ms += cur.u8("an event's time step")
        if code in MOUSE:
            x += cur.i16("an event's x step")
            y += cur.i16("an event's y step")
            events.append(ReplayEvent(ms / 1000, MOUSE[code], *cell_of(x, y, head.rows, head.cols, head.square),
                                      x, y))
        elif code in STATES:
            events.append(ReplayEvent(ms / 1000, STATES[code], None, None))
        elif 100 <= code <= 199:
            cur.skip(2, "a board event's cell steps")
        elif code == 200:
            cur.skip(10, "a numeric metric")
        elif code == 201:
            cur.skip(2, "a text metric's index")
            cur.cstring("a text metric")
        else:
            cur.fail(f"the event kind byte {code} is not one an EVF v4 file holds", at)


def parse_evf(data: Union[bytes, str], source: str = "<bytes>") -> Replay:
    """The whole replay of a Metasweeper .evf file: layout, events and metadata."""
    cur = ByteCursor(as_bytes(data), source, "an EVF replay")
    version = cur.u8("the version byte")
    if version > 4:
        cur.fail(f"EVF version {version} is not 0 to 4", 0)
    head = _v4_head(cur) if version == 4 else _old_head(cur, version)
    grid = _board(cur, head)
    if version == 4:
        for _ in range(cur.u16("the metric count")):
            cur.cstring("a metric name")
        events = _v4_events(cur, head)
        cur.skip(cur.u16("the checksum length"), "the checksum")
    else:
        events = _old_events(cur, head)
    program, number = _program(head.text.get("software", ""))
    details = {k: v for k, v in head.text.items() if k not in ("software", "player") and v}
    details["format version"] = str(version)
    return Replay(head.rows, head.cols, grid, head.mines, tuple(events), "evf",
                  player=head.text.get("player") or None, program=program, version=number,
                  square_size=head.square, details=tuple(sorted(details.items())))


def _program(software: str) -> Tuple[Optional[str], Optional[str]]:
    """('Metasweeper', '3.1.9') from '元3.1.9' (Metasweeper's own mark); other sources as written."""
    if software.startswith("元"):
        return "Metasweeper", software[1:] or None
    name, _, number = software.rpartition(" ")
    if name and number[:1].isdigit():
        return name, number
    return software or None, None


def read_evf(data: Union[bytes, str], source: str = "<bytes>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None):
    """Parse an .evf replay into its mine layout (or the state after opening reveal_from)."""
    return puzzle_of(parse_evf, data, source, reveal_from, layout_as, "evf")


def detect_evf(data: Union[bytes, str]) -> float:
    """CERTAIN when the version byte is 0 to 4, the reserved flag bits are 0 and the header up to the board reads
    with a square of 5 pixels or more and a printable software name."""
    raw = as_bytes(data[:4096])
    if len(raw) < 2 or raw[0] > 4 or raw[1] & (0x07 if raw[0] == 4 else 0x0F):
        return NO
    try:
        cur = ByteCursor(raw, "<detect>", "an EVF replay", pos=1)
        head = _v4_head(cur) if raw[0] == 4 else _old_head(cur, raw[0])
    except ValueError:
        return NO
    software = head.text.get("software", "")
    return CERTAIN if head.square >= 5 and software.isprintable() and software.strip() else NO


register_format("evf", reader=read_evf, detect=detect_evf,
                read_options={"reveal_from": REPLAY_REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="Metasweeper replay (binary, v0 to v4): the game's mine layout (and its events, read "
                            "by read_replay); --reveal-from R,C or start")
