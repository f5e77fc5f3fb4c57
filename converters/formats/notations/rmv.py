"""Viennasweeper replays (.rmv, versions 1 and 2): the mine layout of one game and its events, in bytes.

After the RMV specification (github ralokt/rmv_spec) and ms-toollib's reader; integers big-endian:

    '*rmv', uint16 format version (1 or 2); v2: clone id, clone major version (one byte each)
    uint32 file size; v1: uint16 result-string size; uint16 version-info size; uint16 player-info size;
    uint16 board size; uint16 pre-flags size; uint16 properties size; v2: uint16 extension-properties size;
    uint32 video size; uint16 checksum size
    v1: the result string; the version info (text, 'Viennasweeper 3.2' ...)
    player info: uint16 count, then that many of name, nickname, country, token (uint8 length + bytes)
    board: uint32 timestamp, width, height (one byte each), uint16 mines, one (x, y) byte pair per mine
    pre-flags (when their size is not 0): uint16 count, (x, y) pairs
    properties: question marks, no-flag, mode, level; v2: 3bv low, 3bv high, square size (v1: 16)
    v2: extension properties: uint16 count, (uint8 key length, key, uint8 value length, value)
    events, each a kind byte: 1-7 mouse (mv lc lr rc rr mc mr) with a 3-byte millisecond time, one byte of
    flags, uint16 x, uint16 y (v1: window coordinates, the board at x 12, y 56; v2: int16 from the board);
    v2 28 a relative move (time step, then two signed 4-bit offsets); v1 0 a timestamp change (4 bytes);
    9-14 and 18-27 board changes (2 bytes); 15 end (blast), 16 end (won), 17 end (other)

Viennasweeper does not store the first left press, only the release that started the game: the reader
adds it (an `implied` event) at the release's time and place, as ms-toollib does.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple, Union

from ...core.replay import (
    LEFT_PRESS,
    LEFT_RELEASE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MOVE,
    PRE_FLAG,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    Replay,
    ReplayEvent,
    cell_of,
)
from ..mine_layouts import LAYOUT_HELP
from ..registry import CERTAIN, NO, register_format
from ._replay_files import REPLAY_REVEAL_HELP, ByteCursor, as_bytes, check_board, decode_name, mine_grid, puzzle_of

MAGIC = b"*rmv"
MOUSE = {1: MOVE, 2: LEFT_PRESS, 3: LEFT_RELEASE, 4: RIGHT_PRESS, 5: RIGHT_RELEASE, 6: MIDDLE_PRESS,
         7: MIDDLE_RELEASE}
RELATIVE_MOVE = 28
ENDS = {15: "blast", 16: "won", 17: "other"}
V1_ORIGIN = (12, 56)         # where the board's top left corner lies in a v1 file's window coordinates
CLONES = {1: "Viennasweeper"}
_RELEASE = re.compile(r"Release\s+(\S+)")


class _Sizes:
    """The section sizes of the file header."""

    def __init__(self, cur: ByteCursor, version: int) -> None:
        cur.skip(4, "the file size")
        self.result = cur.u16("the result-string size") if version == 1 else 0
        self.version_info = cur.u16("the version-info size")
        cur.skip(4, "the player-info and board sizes")
        self.preflags = cur.u16("the pre-flags size")
        self.properties = cur.u16("the properties size")
        self.extensions = cur.u16("the extension-properties size") if version >= 2 else 0
        cur.skip(6, "the video and checksum sizes")


def _player_info(cur: ByteCursor) -> List[bytes]:
    count = cur.u16("the player-info count")
    fields = []
    for name in ("player name", "nickname", "country", "token")[:count]:
        fields.append(cur.take(cur.u8(f"the {name} length"), f"the {name}"))
    return fields


def _board(cur: ByteCursor) -> Tuple[int, int, int, List[Tuple[int, int, int]]]:
    cur.skip(4, "the board timestamp")
    at = cur.pos
    cols, rows = cur.u8("the board width"), cur.u8("the board height")
    mines = cur.u16("the mine count")
    check_board(rows, cols, mines, at, cur.source)
    cur.need(2 * mines, f"the {mines} mine positions")
    cells = [(cur.data[cur.pos + 2 * i + 1], cur.data[cur.pos + 2 * i], cur.pos + 2 * i) for i in range(mines)]
    cur.pos += 2 * mines
    return rows, cols, mines, cells


def _properties(cur: ByteCursor, version: int, size: int) -> Dict[str, int]:
    """The properties block: question marks, no-flag, mode, level and (v2) 3bv and square size."""
    start = cur.pos
    block = cur.take(size, "the properties")
    if size < 4 or (version >= 2 and size < 7):
        cur.fail(f"the properties block is {size} bytes, too short for its fixed fields", start)
    props = {"marks": block[0], "nf": block[1], "mode": block[2], "level": block[3], "square": 16}
    if version >= 2:
        props["3bv"] = block[4] + (block[5] << 8)
        props["square"] = block[6]
        if block[6] == 0:
            cur.fail("the square size is 0 pixels", start + 6)
    return props


def _extensions(cur: ByteCursor) -> Dict[str, str]:
    out = {}
    for _ in range(cur.u16("the extension-property count")):
        key = cur.take(cur.u8("an extension key length"), "an extension key")
        value = cur.take(cur.u8("an extension value length"), "an extension value")
        out[decode_name(key)] = decode_name(value)
    return out


class _Pointer:
    """The event reader's running state: time in ms, pointer position, whether a mouse event came yet."""

    def __init__(self) -> None:
        self.time = 0
        self.x = 0
        self.y = 0
        self.started = False


def _mouse(cur: ByteCursor, code: int, version: int, ptr: _Pointer) -> None:
    """Read one mouse event's fields into ptr."""
    if code == RELATIVE_MOVE:
        ptr.time += cur.u8("a relative move's time step")
        step = cur.u8("a relative move's offsets")
        ptr.x += ((step >> 4) & 7) - ((step >> 4) & 8)
        ptr.y += (step & 7) - (step & 8)
        return
    ptr.time = cur.uint(3, "a mouse event's time")
    cur.skip(1, "a mouse event's flags")
    if version == 1:
        ptr.x = cur.u16("a mouse event's x") - V1_ORIGIN[0]
        ptr.y = cur.u16("a mouse event's y") - V1_ORIGIN[1]
    else:
        ptr.x, ptr.y = cur.i16("a mouse event's x"), cur.i16("a mouse event's y")


def _events(cur: ByteCursor, version: int, rows: int, cols: int, square: int) -> Tuple[List[ReplayEvent], str]:
    """The events up to the end event, and how the game ended."""
    events: List[ReplayEvent] = []
    ptr = _Pointer()
    while True:
        at = cur.pos
        code = cur.u8("the next event (the end event is missing)")
        if code in MOUSE or (code == RELATIVE_MOVE and version >= 2):
            if code == RELATIVE_MOVE and not ptr.started:
                cur.fail("a relative mouse move comes before any absolute position", at)
            _mouse(cur, code, version, ptr)
            row, col = cell_of(ptr.x, ptr.y, rows, cols, square)
            if not ptr.started:
                ptr.started = True
                events.append(ReplayEvent(ptr.time / 1000, LEFT_PRESS, row, col, ptr.x, ptr.y, implied=True))
            kind = MOVE if code == RELATIVE_MOVE else MOUSE[code]
            events.append(ReplayEvent(ptr.time / 1000, kind, row, col, ptr.x, ptr.y))
        elif code == 0 and version == 1:
            cur.skip(4, "a timestamp-change event")
        elif 9 <= code <= 14 or 18 <= code <= 27:
            cur.skip(2, "a board event")
        elif code in ENDS:
            return events, ENDS[code]
        else:
            cur.fail(f"the event kind byte {code} is not one an RMV v{version} file holds", at)


def parse_rmv(data: Union[bytes, str], source: str = "<bytes>") -> Replay:
    """The whole replay of a Viennasweeper .rmv file: layout, pre-flags, events and metadata."""
    cur = ByteCursor(as_bytes(data), source, "an RMV replay")
    if cur.take(4, "the '*rmv' signature") != MAGIC:
        cur.fail("an RMV file starts with '*rmv'", 0)
    version = cur.u16("the format version")
    if version not in (1, 2):
        cur.fail(f"RMV format version {version} is not 1 or 2", 4)
    clone = cur.u8("the clone id") if version >= 2 else 1
    major = cur.u8("the clone version") if version >= 2 else None
    sizes = _Sizes(cur, version)
    cur.skip(sizes.result, "the result string")
    program_text = decode_name(cur.take(sizes.version_info, "the version info")).strip("\0 \r\n")
    player = _player_info(cur)
    rows, cols, mines, cells = _board(cur)
    grid = mine_grid(rows, cols, cells, mines, source)
    preflags = []
    if sizes.preflags:
        count = cur.u16("the pre-flag count")
        cur.need(2 * count, f"the {count} pre-flag positions")
        preflags = [(cur.data[cur.pos + 2 * i + 1], cur.data[cur.pos + 2 * i]) for i in range(count)]
        cur.pos += 2 * count
    props = _properties(cur, version, sizes.properties)
    extensions = _extensions(cur) if version >= 2 else {}
    square = props["square"]
    events = [ReplayEvent(0.0, PRE_FLAG, *cell_of(c * square, r * square, rows, cols, square),
                          c * square, r * square) for r, c in preflags]
    played, ending = _events(cur, version, rows, cols, square)
    program, number = _program(program_text, clone, extensions, major)
    details = {"marks": "on" if props["marks"] else "off", "nf": str(props["nf"]), "mode": str(props["mode"]),
               "end": ending, "format version": str(version), "version info": program_text}
    if len(player) > 2:
        details["country"] = decode_name(player[2])
    return Replay(rows, cols, grid, mines, tuple(events + played), "rmv",
                  player=decode_name(player[0]) if player else None, program=program, version=number,
                  square_size=square, details=tuple(sorted(details.items())))


def _program(text: str, clone: int, extensions: Dict[str, str], major: Optional[int]
             ) -> Tuple[str, Optional[str]]:
    """The program name and version: from the version-info text, else from the clone id."""
    release = _RELEASE.search(text)
    if release:
        return text[:release.start()].split(" - ")[0].strip(" -"), release.group(1).rstrip(".")
    if text:
        return text, None
    named = CLONES.get(clone) or extensions.get("clone_name") or f"clone {clone}"
    return named, None if major is None else str(major)


def read_rmv(data: Union[bytes, str], source: str = "<bytes>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None):
    """Parse an .rmv replay into its mine layout (or the state after opening reveal_from)."""
    return puzzle_of(parse_rmv, data, source, reveal_from, layout_as, "rmv")


def detect_rmv(data: Union[bytes, str]) -> float:
    """CERTAIN on the '*rmv' signature with version 1 or 2."""
    head = as_bytes(data[:6])
    return CERTAIN if head[:4] == MAGIC and head[4:6] in (b"\0\1", b"\0\2") else NO


register_format("rmv", reader=read_rmv, detect=detect_rmv,
                read_options={"reveal_from": REPLAY_REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="Viennasweeper replay (binary): the game's mine layout (and its events, read by "
                            "read_replay); --reveal-from R,C or start")
